"""What the benchmarks that run Django share: the environment of a child process on its own database, and
Django set up in it as production runs (DEBUG off), minus the collectstatic step."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child_env(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.update(
        DATABASE_URL=database_url,
        DEBUG="false",
        SECRET_KEY="bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        ALLOWED_HOSTS="testserver",
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
    )
    return env


def setup(database_url: str, **settings_overrides) -> None:
    """Set Django up in this process on ``database_url``."""
    os.environ.update(child_env(database_url))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.test.utils import override_settings

    # Production serves hashed static files after collectstatic; the plain storage renders the same
    # pages without needing that step here.
    override_settings(
        STORAGES={
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
        **settings_overrides,
    ).enable()


def measure_in_child(script: str, *args: str) -> dict:
    """Run ``script --measure DATABASE_URL *args`` in a child process on a fresh, migrated SQLite database
    (removed afterwards) and return the JSON its last line prints. Exits with the child's error if one fails."""
    workdir = Path(tempfile.mkdtemp(prefix=f"bench-{Path(script).stem}-"))
    try:
        url = f"sqlite:///{workdir / 'db.sqlite3'}"
        env = child_env(url)
        migrate = [sys.executable, "manage.py", "migrate", "--noinput", "--skip-checks", "-v0"]
        done = subprocess.run(migrate, cwd=ROOT, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"migrate failed:\n{done.stderr[-3000:]}")
        child = [sys.executable, script, "--measure", url, *args]
        done = subprocess.run(child, cwd=ROOT, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"the measurement failed:\n{done.stderr[-4000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
