"""HTTP caching of the public pages and the read API: ETag, Last-Modified, 304 and Cache-Control.

``public_page(etag)`` wraps a GET view that anonymous visitors see. For an anonymous visitor (no
pending message on the page) it answers ``304 Not Modified`` when the client already holds this
version (Django's ``condition``), computed from the version keys the page keeps, without rendering.
``PublicCacheMiddleware`` then labels the answer: ``Cache-Control: public`` with a short ``max-age``
and ``stale-while-revalidate`` when a shared cache (a reverse proxy, a CDN) may keep it, else
``private, no-cache``. Only anonymous answers that set no cookie are public, so a page that carries a
CSRF token (a form), a message or anyone's session is never shared. Logged-in answers stay private and
carry no validators: their pages show the person (their role, their forms and tokens).

``Vary: Cookie`` is dropped from public answers: SessionMiddleware adds it because deciding "anonymous"
reads the session, yet every anonymous visitor gets the same page, and a proxy that varies on the whole
Cookie header caches nothing. The proxy must instead pass requests that carry the session cookie
(``sessionid``) to the app without caching (README, "Public pages behind a proxy"). The visitor's own
browser keeps public copies too: logging in or out answers ``Clear-Site-Data: "cache"`` so that it
does not show a page made for the other person.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import wraps

from django.contrib import messages
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils.cache import cc_delim_re, patch_cache_control, patch_vary_headers
from django.views.decorators.http import condition

from . import page_cache

# Phones poll every 20 s: a proxy answers them for 15 s, then keeps answering with the copy it has for up
# to a minute while it asks the app again in the background.
PUBLIC_MAX_AGE = 15
STALE_WHILE_REVALIDATE = 60


def _shareable_request(request: HttpRequest) -> bool:
    """An anonymous GET with no message waiting to be shown: its page is everyone's."""
    if request.method not in ("GET", "HEAD") or request.user.is_authenticated:
        return False
    # len() reads the pending messages without marking them shown.
    return len(messages.get_messages(request)) == 0


def _last_modified(name: str, etag: str) -> datetime:
    """When this page last changed, as the app saw it: the first time its current ETag was computed.

    The version keys are counters and digests, not times, so the time is kept beside them in the cache.
    It only moves forward, by at least a second per change, so an ``If-Modified-Since`` from an older
    version can never match a newer one (HTTP dates have one-second precision).
    """
    key = f"page:lastmod:{name}"
    seen = cache.get(key)
    if seen is not None and seen[0] == etag:
        return datetime.fromtimestamp(seen[1], tz=UTC)
    stamp = int(time.time())
    if seen is not None:
        stamp = max(stamp, seen[1] + 1)
    cache.set(key, (etag, stamp), page_cache.TIMEOUT)
    return datetime.fromtimestamp(stamp, tz=UTC)


def _representation(request: HttpRequest) -> str:
    """Which answer of the page: its address with the query, and whether htmx asked (a fragment)."""
    return f"{request.get_full_path()}|htmx={bool(getattr(request, 'htmx', False))}"


def public_page(etag: Callable[..., str], *, varies_on_htmx: bool = False):
    """Decorate a public GET view. ``etag(request, **kwargs)`` returns a string that changes whenever
    the page may change (version keys, never the rendered page); it is hashed into the ETag.
    ``varies_on_htmx``: the view answers an htmx poll with a fragment, so caches key on ``HX-Request``."""

    def decorator(view):
        def etag_func(request: HttpRequest, *args, **kwargs) -> str | None:
            # Django's condition asks for Last-Modified first and the ETag second: computed once.
            if not hasattr(request, "_public_cache_etag"):
                request._public_cache_etag = None
                if request._public_cache_shareable:
                    raw = f"{_representation(request)}|{etag(request, *args, **kwargs)}"
                    request._public_cache_etag = hashlib.sha256(raw.encode()).hexdigest()[:32]
            return request._public_cache_etag

        def last_modified_func(request: HttpRequest, *args, **kwargs) -> datetime | None:
            found = etag_func(request, *args, **kwargs)
            if found is None:
                return None
            name = hashlib.sha256(_representation(request).encode()).hexdigest()[:24]
            return _last_modified(name, found)

        conditional = condition(etag_func=etag_func, last_modified_func=last_modified_func)(view)

        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            request._public_cache_shareable = _shareable_request(request)
            token = page_cache.served_stale.set(False)
            try:
                response = conditional(request, *args, **kwargs)
                stale = page_cache.served_stale.get()
            finally:
                page_cache.served_stale.reset(token)
            if stale:
                # An older version, served while another request rebuilds the page: no validators, so
                # nobody keeps it as the new version, and the next poll asks again.
                for header in ("ETag", "Last-Modified"):
                    if header in response:
                        del response[header]
            response.public_cache = (
                "stale" if stale else ("shared" if request._public_cache_shareable else "private")
            )
            if varies_on_htmx:
                patch_vary_headers(response, ("HX-Request",))
            return response

        return wrapper

    return decorator


@receiver(user_logged_in, dispatch_uid="http_cache_login")
@receiver(user_logged_out, dispatch_uid="http_cache_logout")
def _identity_changed(sender, request=None, **kwargs) -> None:
    if request is not None:
        request._public_cache_identity_changed = True


class PublicCacheMiddleware:
    """Sets Cache-Control on the answers of ``public_page`` views, once every other middleware has had
    its say (a CSRF or session cookie set on the way out makes the answer private). Sits above
    SessionMiddleware, CsrfViewMiddleware and MessageMiddleware in ``MIDDLEWARE``."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if getattr(request, "_public_cache_identity_changed", False):
            # Logging in or out: the browser's copies of public pages (kept up to PUBLIC_MAX_AGE seconds,
            # shown without asking) were made for the other person, e.g. "Log in" in the top bar.
            response["Clear-Site-Data"] = '"cache"'
        mark = getattr(response, "public_cache", None)
        if mark is None:
            return response
        shared = mark in ("shared", "stale") and response.status_code in (200, 304) and not response.cookies
        if not shared:
            # Logged in, a message shown, or a cookie set on the way out (a form's CSRF token): the
            # visitor's own browser may keep it and ask again with its ETag, no shared cache may.
            patch_cache_control(response, private=True, no_cache=True)
            return response
        if mark == "stale":
            patch_cache_control(response, public=True, max_age=0, must_revalidate=True)
        else:
            patch_cache_control(
                response, public=True, max_age=PUBLIC_MAX_AGE, stale_while_revalidate=STALE_WHILE_REVALIDATE
            )
        vary = [v for v in cc_delim_re.split(response.get("Vary", "")) if v and v.lower() != "cookie"]
        if vary:
            response["Vary"] = ", ".join(vary)
        elif "Vary" in response:
            del response["Vary"]
        return response
