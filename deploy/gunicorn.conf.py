"""gunicorn's settings for the DCDB Toolkit, from the environment (README, "Configuration").

    gunicorn --config deploy/gunicorn.conf.py config.wsgi

Threaded workers (gthread): a request mostly waits on PostgreSQL or Redis, so a few threads per process
serve more phones than more processes would, without another copy of each process's memory (the rulings
search's model is about 90 MB per process).
"""

from __future__ import annotations

import os

bind = os.getenv("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.getenv("GUNICORN_WORKERS", "3"))
worker_class = "gthread"
threads = int(os.getenv("GUNICORN_THREADS", "4"))
# A request still running after this many seconds is stopped (its worker restarted).
timeout = int(os.getenv("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
# The reverse proxy keeps its connections to gunicorn open (nginx: upstream keepalive, 60 s): gunicorn
# keeps them longer, so it never closes one just as nginx sends a request on it.
keepalive = int(os.getenv("GUNICORN_KEEPALIVE", "75"))
# Workers are replaced now and then, a few at a time, so slow leaks never build up.
max_requests = int(os.getenv("GUNICORN_MAX_REQUESTS", "5000"))
max_requests_jitter = max_requests // 10
# The proxy's address: gunicorn believes its X-Forwarded-* headers only from there.
forwarded_allow_ips = os.getenv("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
accesslog = "-"
errorlog = "-"
loglevel = os.getenv("LOG_LEVEL", "WARNING").lower()
