"""One settings module, driven by the environment.

Every optional service has a local default so that a fresh clone runs with no
configuration: SQLite under ``var/``, local-memory cache, Celery in eager mode.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    return os.getenv(name, default).strip().lower() in ("1", "true", "yes", "on")


def envint(name: str, default: str) -> int:
    return int(os.getenv(name, default))


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


def envrate(name: str, default: str) -> str:
    """A rate limit: a count, "/", a period (s, m, h, d, optionally with a multiple: "10/5m")."""
    value = os.getenv(name, default).strip()
    if not re.fullmatch(r"[1-9]\d*/\d*[smhd]", value):
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(f'{name} must look like "60/m" or "10/5m", not {value!r}.')
    return value


DEBUG = envbool("DEBUG", "True")

# A development key is fine with DEBUG on; production must set its own.
_DEV_SECRET_KEY = "dev-only-insecure-key-set-SECRET_KEY-in-production"
SECRET_KEY = os.getenv("SECRET_KEY", _DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")
SITE_URL = os.getenv("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "django_htmx",
    # The read API's docs page takes Swagger UI from ninja's static files (served by WhiteNoise), not a CDN.
    "ninja",
    "corsheaders",
    "allauth",
    "allauth.account",
    "accounts",
    "tournaments",
    "rulings",
    "judging",
    "seasons",
    "ratings",
]

MIDDLEWARE = [
    "config.middleware.HealthzMiddleware",  # first: probes meet no host check or HTTPS redirect
    "django.middleware.security.SecurityMiddleware",
    # The read API may be read from any origin (CORS_* below), its errors included: above every
    # middleware that answers by itself.
    "corsheaders.middleware.CorsMiddleware",
    # Under /api/ every error is JSON, whoever made it (a 404 from the URL resolver, a 405, a 500).
    "config.middleware.ApiErrorsAsJsonMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # HTML and JSON leave compressed (a 500-table pairings poll: 450 KB, about 50 KB gzipped). Above every
    # middleware that writes the body; below WhiteNoise, which serves static files pre-compressed. BREACH
    # (Django's GZipMiddleware note): the secret a page could leak is the CSRF token, and Django masks it
    # afresh in every response and GZipMiddleware pads each body with random bytes, so repeated requests
    # reveal nothing; the public pages carry no token at all (tournaments.http_cache).
    "django.middleware.gzip.GZipMiddleware",
    # Cache-Control for the public pages and the API, decided after the session, CSRF and message
    # middleware below have set (or not) their cookies.
    "tournaments.http_cache.PublicCacheMiddleware",
    # A public page's version keys, asked for by its ETag and by the page, are worked out once a request.
    "tournaments.request_memo.RequestMemoMiddleware",
    # Django's, except that a request carrying a session key a log-in has just replaced keeps the cookie.
    "config.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "tournaments.http.StripNulFromQueryMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Times on an event's pages in the event's own time zone (tournaments.time_zones).
    "tournaments.time_zones.EventTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.DatabaseBusyMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.account",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

VAR_DIR = Path(os.getenv("VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=envint("CONN_MAX_AGE", "60"),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several judges save at once: wait for the write lock instead of failing,
    # and take it at the start of each transaction so reads cannot go stale.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": envint("SQLITE_BUSY_TIMEOUT", "20"),
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.getenv("REDIS_URL", "")
# Seconds the web process waits to reach Redis (cache and print queue) before going on without it.
REDIS_CONNECT_TIMEOUT = float(os.getenv("REDIS_CONNECT_TIMEOUT", "0.25"))

if REDIS_URL:
    # Fails open (config/cache.py): with Redis down a read is a miss and pages are built from the database.
    CACHES = {
        "default": {
            "BACKEND": "config.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": REDIS_CONNECT_TIMEOUT, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# A printout not finished this many seconds after it was asked for counts as stopped (its worker died):
# the print page shows it as failed with that reason, and Redis hands its unacknowledged task to a
# worker again after the same time.
PRINT_JOB_TIMEOUT = envint("PRINT_JOB_TIMEOUT", "600")

# Celery: with no broker, tasks run eagerly in the calling process. No result backend: nothing reads a
# task's return value (a print job's row says how it went), and a result backend that cannot be reached
# made a print request wait for it.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
# A task is acknowledged once it finished; a worker that dies mid-task leaves it to be run again.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Jobs one worker renders at once (processes); `celery worker --concurrency` overrides it.
CELERY_WORKER_CONCURRENCY = envint("CELERY_CONCURRENCY", "2")
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_CONNECT_TIMEOUT
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
    "socket_timeout": 5,
    # Publishing tries once more at once (a pooled connection gone stale), then gives up: the print page
    # renders in the request instead of waiting.
    "max_retries": 1,
    "interval_start": 0,
    "visibility_timeout": PRINT_JOB_TIMEOUT,
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "accounts:my_events"
LOGOUT_REDIRECT_URL = "tournaments:event_list"

# Public pages for anonymous visitors (tournaments/request_memo.py): the version of the pairings and standings
# is worked out at most once per this many seconds per process (0: on every request). They are told a page
# may be 15 s old (Cache-Control); at a large event results arrive several times a second. Logged-in people
# always see the moment's version.
PUBLIC_VERSION_SECONDS = float(os.getenv("PUBLIC_VERSION_SECONDS", "2"))

# Rate limits (config/ratelimits.py, django-ratelimit): counters in the cache above, per client IP for
# anonymous visitors and per account once logged in; the events' staff are never limited. A rate is
# "count/period" (s, m, h, d; "10/5m" is ten every five minutes). Over it: 429 with Retry-After.
RATELIMIT_ENABLE = envbool("RATELIMIT_ENABLE", "True")
RATELIMIT_REGISTER = envrate("RATELIMIT_REGISTER", "30/m")
# Anonymous visitors are counted by address, and a venue's phones often share one (its Wi-Fi's NAT); the
# search box searches as you type (a search is several requests). Generous enough for a room of players,
# low enough that one client cannot keep a worker busy.
RATELIMIT_SEARCH = envrate("RATELIMIT_SEARCH", "300/m")
RATELIMIT_API = envrate("RATELIMIT_API", "300/m")
RATELIMIT_SIGNUP = envrate("RATELIMIT_SIGNUP", "20/m")
# With the cache unreachable a limit lets requests through (config.cache fails open too).
RATELIMIT_FAIL_OPEN = True
RATELIMIT_USE_CACHE = "default"
# django_ratelimit is not in INSTALLED_APPS: the decorator needs no app, and its system checks judge cache
# backends by name only (the local-memory cache of development is an "error", config.cache's fail-open
# Redis cache "not supported").
# How many reverse proxies stand in front of the app. 0 (the default): the client is REMOTE_ADDR and
# X-Forwarded-For is ignored (anyone can write it). N: the client is the Nth address from the right of
# X-Forwarded-For, the one our outermost proxy appended. allauth's log-in and sign-up limits read it too.
TRUSTED_PROXY_COUNT = envint("TRUSTED_PROXY_COUNT", "0")
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT

# CORS (django-cors-headers): the read API only, read-only, any origin, never with credentials (it has
# none to offer: a browser sends no cookie and reads nothing personal). A page elsewhere may send the
# conditional headers and read the ETag and Retry-After.
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_METHODS = ("GET", "HEAD", "OPTIONS")
CORS_ALLOW_HEADERS = ("accept", "if-none-match", "if-modified-since")
CORS_EXPOSE_HEADERS = ("ETag", "Retry-After")

# Accounts (django-allauth): sign-up with a verified email, log in with email or user name.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"email", "username"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_SESSION_REMEMBER = True  # phones at an event stay logged in; "Log out" ends it
ACCOUNT_FORMS = {"login": "accounts.forms.LoginForm"}
ACCOUNT_LOGIN_ON_PASSWORD_RESET = False
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[DCDB Toolkit] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS = 3
# allauth's built-in rate limits (kept in the cache) stay on: log in, sign-up, reset, confirmation emails.
ACCOUNT_RATE_LIMITS = {
    "login": "30/m/ip",
    "login_failed": "10/m/ip,5/5m/key",
    "signup": f"{RATELIMIT_SIGNUP}/ip",
    "reset_password": "20/m/ip,5/m/key",
    "reset_password_from_key": "20/m/ip",
    "confirm_email": "1/3m/key",
    "change_password": "5/m/user",
    "manage_email": "10/m/user",
}
ACCOUNT_ALLOW_SIGNUPS = envbool("ACCOUNT_ALLOW_SIGNUPS", "True")
# Off: "this email is already in use" is said on the sign-up form (a newcomer at the desk needs to know);
# on: allauth emails the address instead, so the form never tells whether an account exists.
ACCOUNT_PREVENT_ENUMERATION = envbool("ACCOUNT_PREVENT_ENUMERATION", "False")
# Who may create events: "verified" (any account with a verified email) or "approved" (accounts a site
# administrator approved on /accounts/organizers/).
EVENT_CREATION = os.getenv("EVENT_CREATION", "verified").strip().lower()
if EVENT_CREATION not in ("verified", "approved"):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured('EVENT_CREATION must be "verified" or "approved".')
# Staff invitations are valid for this many days.
INVITATION_DAYS = envint("INVITATION_DAYS", "7")
# A guest's self-registration link (no account) is valid for this many hours.
GUEST_CONFIRMATION_HOURS = envint("GUEST_CONFIRMATION_HOURS", "48")

# Email: the console with no SMTP host (links appear in the terminal), SMTP when EMAIL_HOST is set.
EMAIL_HOST = os.getenv("EMAIL_HOST", "")
EMAIL_BACKEND = os.getenv(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = envint("EMAIL_PORT", "587")
EMAIL_HOST_USER = os.getenv("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.getenv("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", "True" if EMAIL_HOST and EMAIL_PORT == 587 else "False")
EMAIL_USE_SSL = envbool("EMAIL_USE_SSL", "True" if EMAIL_PORT == 465 else "False")
EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", "10")
DEFAULT_FROM_EMAIL = os.getenv("DEFAULT_FROM_EMAIL", "DCDB Toolkit <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.getenv("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.getenv("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.getenv("MEDIA_ROOT", VAR_DIR / "media"))
# Behind nginx: the URL prefix of its `internal` location over MEDIA_ROOT (deploy/nginx.conf:
# /protected-media/). A PDF is then sent by nginx (X-Accel-Redirect) once the app has checked who asks;
# empty: the app sends the file itself.
MEDIA_ACCEL_REDIRECT = os.getenv("MEDIA_ACCEL_REDIRECT", "")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Where the rule documents are read from (see README). Empty: ../shared/seeds if present.
RULINGS_SOURCES = os.getenv("RULINGS_SOURCES", "")
# The embedding model of the rulings search (rulings/semantic.py): "auto" (the static model distilled into
# VAR_DIR/embeddings/ by `manage.py rulings_embeddings distill`, else the optional extra's packaged
# sentence-transformer, else words only), "off", or the path of a model directory.
RULINGS_EMBEDDINGS = os.getenv("RULINGS_EMBEDDINGS", "auto").strip() or "auto"
# Each web worker loads the rulings search in a thread as it starts (config/wsgi.py), so the first search
# is as fast as the others; off, the first search loads it.
RULINGS_WARM = envbool("RULINGS_WARM", "true")

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "True")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "31536000")
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "WARNING")},
    # Eager Celery (no REDIS_URL) still opens a producer on the in-memory broker, and kombu warns on each task
    # that "memory://" names no host: noise, not a fault.
    "loggers": {"kombu.connection": {"level": "WARNING" if REDIS_URL else "ERROR"}},
}
