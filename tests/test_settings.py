"""The one settings module, read from the environment."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_manage(*args, **env):
    full_env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in ("DATABASE_URL", "REDIS_URL", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE", "SITE_URL", "EMAIL_HOST")
    }
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_settings_pass_the_deploy_check():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="false",
        SECRET_KEY="a-long-random-production-secret-key-0123456789-abcdefghijklmnop",
        ALLOWED_HOSTS="dcdb.example.org",
        SITE_URL="https://dcdb.example.org",
        EMAIL_HOST="smtp.example.org",
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_production_settings_warn_when_email_has_no_smtp_host():
    result = run_manage(
        "check",
        DEBUG="false",
        SECRET_KEY="a-long-random-production-secret-key-0123456789-abcdefghijklmnop",
        ALLOWED_HOSTS="dcdb.example.org",
        SITE_URL="https://dcdb.example.org",
    )
    assert "accounts.W001" in result.stderr


def test_production_settings_warn_when_site_url_is_left_on_this_machine():
    result = run_manage(
        "check",
        DEBUG="false",
        SECRET_KEY="a-long-random-production-secret-key-0123456789-abcdefghijklmnop",
        ALLOWED_HOSTS="dcdb.example.org",
    )
    assert "tournaments.W001" in result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    result = run_manage("check", DEBUG="false", ALLOWED_HOSTS="dcdb.example.org", SECRET_KEY="")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_with_redis_url_the_cache_and_the_celery_broker_use_redis(redis_server):
    script = (
        "from django.conf import settings; from django.core.cache import cache; "
        "cache.set('probe', 42); "
        "print(settings.CELERY_TASK_ALWAYS_EAGER, settings.CELERY_BROKER_URL, cache.get('probe'))"
    )
    result = run_manage("shell", "--no-imports", "-c", script, REDIS_URL=redis_server.url)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", redis_server.url, "42"]


def test_without_redis_url_celery_runs_eagerly_and_the_cache_is_local():
    script = "from django.conf import settings; print(settings.CELERY_TASK_ALWAYS_EAGER, settings.CACHES['default']['BACKEND'])"
    result = run_manage("shell", "--no-imports", "-c", script)
    assert result.stdout.split() == ["True", "django.core.cache.backends.locmem.LocMemCache"]
