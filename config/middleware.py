"""Middleware of the whole site: the health probe, sessions that survive a log-in's late requests, and a
clear answer when the database is busy."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSessionMiddleware
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers

from . import health

log = logging.getLogger(__name__)
HEALTHZ_PATHS = ("/healthz", "/healthz/")


class HealthzMiddleware:
    """Answers ``/healthz`` itself, first in the chain: a load balancer's or container's probe comes by IP
    over plain HTTP, so it must not meet the host check (ALLOWED_HOSTS) or the HTTPS redirect.

    200 ``{"status": "ok", "checks": {...}}`` when the database, cache and broker answer; 503 with
    ``"failed": [names]`` otherwise. Nothing else is read from the request.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info not in HEALTHZ_PATHS:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            response = JsonResponse({"error": "GET or HEAD only"}, status=405)
            response["Allow"] = "GET, HEAD"
            return response
        checks = health.run_checks()
        failed = [name for name, result in checks.items() if result == "failed"]
        body = {"status": "failing" if failed else "ok", "checks": checks}
        if failed:
            body["failed"] = failed
        response = JsonResponse(body, status=503 if failed else 200)
        response["Cache-Control"] = "no-store"
        return response


class DatabaseBusyMiddleware:
    """A database that is busy or unreachable gets a 503 page that says so, not a 500.

    SQLite waits for the write lock (the busy timeout in settings); a request that waited that long and
    still did not get it ends here. Each service writes inside one transaction, so what failed was not
    half-saved.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError):
            return None
        busy = "locked" in str(exception).lower()
        log.error(
            "database %s: %s %s: %s", "busy" if busy else "error", request.method, request.path, exception
        )
        # No request context: its processors would ask the database again.
        response = HttpResponse(render_to_string("503.html", {"busy": busy}), status=503)
        response["Retry-After"] = "5"
        return response


API_PREFIX = "/api/"
# Headers an error answer keeps when it is turned into JSON.
KEPT_HEADERS = ("Allow", "Retry-After", "Cache-Control")


class ApiErrorsAsJsonMiddleware:
    """Under ``/api/`` every error answer is JSON, ``{"detail": "Not Found"}``, never the site's HTML
    page: the URL resolver's 404 for an unknown path, ninja's 405, Django's 400 and 500 pages, the busy
    database's 503. The API's own JSON errors (ninja's 400 and 404, the rate limit's 429) pass as they are.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code < 400 or not request.path_info.startswith(API_PREFIX):
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        answer = JsonResponse({"detail": response.reason_phrase}, status=response.status_code)
        for header in KEPT_HEADERS:
            if header in response:
                answer[header] = response[header]
        return answer


class SessionMiddleware(DjangoSessionMiddleware):
    """Django's, except that a cookie naming a session that no longer exists is left alone.

    Logging in gives the session a new key and deletes the old one. A request the browser sent with the
    old cookie a moment before (the service worker filling its cache, a live page's poll, another tab)
    reaches the server after, finds no session, and Django answers it by deleting the session cookie. The
    browser applies that to the cookie the log-in has just set, and the person is logged out. A stale
    cookie does no harm: the next session that is saved replaces it. Logging out still deletes it, since
    emptying a session marks it modified.
    """

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        session = getattr(request, "session", None)
        stale = (
            session is not None
            and settings.SESSION_COOKIE_NAME in request.COOKIES
            and not session.modified
            and session.is_empty()
        )
        if stale:
            patch_vary_headers(response, ("Cookie",))
            return response
        return super().process_response(request, response)
