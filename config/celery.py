"""The Celery app. Tasks live in each app's ``tasks.py`` and are autodiscovered.

With no ``REDIS_URL`` the settings turn on eager mode, so every task runs in the
calling process: the background in "background task" is always optional.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("dcdb")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
