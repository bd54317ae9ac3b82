"""What ``/healthz`` checks: the database, the cache and the Celery broker, each with a short timeout.

Each check returns "ok", "eager" (no broker configured: tasks run in the web process, which is fine),
or raises; the caller turns a raise into "failed" and logs why.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import connection

log = logging.getLogger(__name__)


def check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def check_cache() -> str:
    ping = getattr(cache, "ping", None)
    if ping is not None:  # Redis: ask it directly; the cache itself fails open and would hide an outage
        ping()
        return "ok"
    cache.set("healthz", "ok", 10)
    if cache.get("healthz") != "ok":
        raise RuntimeError("the cache did not keep a value")
    return "ok"


def check_broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, timeout=settings.REDIS_CONNECT_TIMEOUT * 4)
        client = getattr(conn.default_channel, "client", None)
        if client is not None:  # Redis: the connection is made lazily, a ping proves it answers
            client.ping()
    return "ok"


CHECKS: dict[str, Callable[[], str]] = {
    "database": check_database,
    "cache": check_cache,
    "broker": check_broker,
}


def run_checks() -> dict[str, str]:
    results = {}
    for name, check in CHECKS.items():
        try:
            results[name] = check()
        except Exception as exc:  # any failure is the answer, never an error page
            log.warning("healthz: %s failed: %s: %s", name, type(exc).__name__, exc)
            results[name] = "failed"
    return results
