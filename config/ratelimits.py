"""Rate limits on the self-service and public paths: self-registration, the rulings search, the read API.

django-ratelimit keeps the counters in Django's cache (Redis in production, so every worker shares them).
``rate_limited(group)`` wraps a view; the rate is the setting ``RATELIMIT_<GROUP>`` (README, Configuration).
A request over the limit gets ``429 Too Many Requests`` with a ``Retry-After`` header: a page that says
what happened (an htmx request gets the message as a fragment for its target), or a JSON error for the API.

Who is counted: an anonymous visitor by the client's IP address, a logged-in person by their account (at a
venue every phone may share one address). The event's staff (anyone with a role at an event, site staff)
are never counted: a judge searching the rules all day or an organizer's scoreboard polling the API must
not be locked out of their own work. The client's address is ``REMOTE_ADDR``; behind reverse proxies,
``TRUSTED_PROXY_COUNT`` says how many, and the address is then read from ``X-Forwarded-For`` as the last of
those proxies saw it, so a client cannot choose its own address by sending the header.

The limit fails open: with the cache down (Redis unreachable, ``config.cache``) or any error reading the
counters, the request goes through (logged). A limit must never turn into an outage.
"""

from __future__ import annotations

import ipaddress
import logging
import re
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage

log = logging.getLogger(__name__)

RATE_RE = re.compile(r"^(\d+)/(\d*)([smhd])$")
PERIOD_WORDS = {"s": "second", "m": "minute", "h": "hour", "d": "day"}
PERIOD_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}

# What the person was doing, for the 429 page: "Too many {what} from your connection".
GROUPS = {
    "register": "registration attempts",
    "search": "searches",
    "api": "requests to the API",
}


def rate_words(rate: str) -> str:
    """``60/m`` -> "60 a minute", ``10/5m`` -> "10 every 5 minutes"."""
    count, multiple, unit = RATE_RE.match(rate).groups()
    word = PERIOD_WORDS[unit]
    if multiple and multiple != "1":
        return f"{count} every {multiple} {word}s"
    return f"{count} a {word}"


def rate_seconds(rate: str) -> int:
    count, multiple, unit = RATE_RE.match(rate).groups()
    return PERIOD_SECONDS[unit] * int(multiple or 1)


def _valid_ip(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str | None:
    """The client's address. With ``TRUSTED_PROXY_COUNT`` = N > 0, the Nth address from the right of
    ``X-Forwarded-For``: each trusted proxy appends the address it was reached from, so that one is the
    client as our outermost proxy saw it, and whatever the client wrote into the header itself stays to
    its left, unread. A header shorter than N, or not an address, falls back to ``REMOTE_ADDR``."""
    trusted = settings.TRUSTED_PROXY_COUNT
    if trusted > 0:
        forwarded = [part for part in request.headers.get("X-Forwarded-For", "").split(",") if part.strip()]
        if len(forwarded) >= trusted:
            found = _valid_ip(forwarded[-trusted])
            if found:
                return found
    return _valid_ip(request.META.get("REMOTE_ADDR", "") or "")


def _is_event_staff(user) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    from tournaments.models import EventStaff

    return EventStaff.objects.filter(user=user).exists()


def _key(group: str, request: HttpRequest) -> str:
    if request.user.is_authenticated:
        return f"user:{request.user.pk}"
    address = ipaddress.ip_address(request._ratelimit_ip)
    if address.version == 6:
        # One IPv6 client holds a whole /64 and may pick a new address in it for every request.
        return f"ip:{ipaddress.ip_network(f'{address}/64', strict=False).network_address}"
    return f"ip:{address}"


def too_many_requests(
    request: HttpRequest, *, message: str, retry_after: int, as_json: bool = False
) -> HttpResponse:
    """The 429 answer: JSON for the API, else the site's page (or, for htmx, the message alone)."""
    retry_after = max(int(retry_after), 1)
    if as_json:
        # "detail" as every error of the API; "error" as it always was.
        response = JsonResponse({"detail": message, "error": message, "retry_after": retry_after}, status=429)
    else:
        template = "_rate_limited.html" if getattr(request, "htmx", False) else "429.html"
        response = render(
            request, template, {"limit_message": message, "retry_after": retry_after}, status=429
        )
    response["Retry-After"] = str(retry_after)
    # Never kept by a proxy or the browser: the next try must reach the app.
    response["Cache-Control"] = "no-store"
    return response


def handler429(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """django-allauth's "too many tries" (log in, sign-up, password reset): the same page, with the
    generic words of 429.html and a Retry-After of the longest window allauth counts in (a minute)."""
    response = render(request, "429.html", status=429)
    response["Retry-After"] = "60"
    response["Cache-Control"] = "no-store"
    return response


def rate_limited(
    group: str,
    *,
    methods: tuple[str, ...] = ("GET", "HEAD", "POST"),
    as_json: bool = False,
    when: Callable[[HttpRequest], bool] | None = None,
):
    """Limit a view to ``settings.RATELIMIT_<GROUP>`` requests per client (see the module's docstring).
    ``methods``: the methods counted; ``when(request)``: count only the requests it says yes to (the
    rulings page counts searches, not the empty form)."""
    setting = f"RATELIMIT_{group.upper()}"

    def decorator(view):
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            limited = _over_the_limit(request, group, setting, methods, when)
            if limited is not None:
                rate, retry_after = limited
                what = GROUPS.get(group, "requests")
                message = (
                    f"Too many {what} from your connection: at most {rate_words(rate)}. "
                    f"Try again in {retry_after} second{'s' if retry_after != 1 else ''}."
                )
                return too_many_requests(request, message=message, retry_after=retry_after, as_json=as_json)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def _over_the_limit(request, group, setting, methods, when) -> tuple[str, int] | None:
    """``(rate, seconds to wait)`` when this request is over its limit, else None (also when the limit
    cannot be read: it fails open)."""
    if not settings.RATELIMIT_ENABLE or request.method not in methods:
        return None
    if when is not None and not when(request):
        return None
    try:
        if _is_event_staff(request.user):
            return None
        if not request.user.is_authenticated:
            request._ratelimit_ip = client_ip(request)
            if request._ratelimit_ip is None:
                # No address to count by (a Unix socket without a proxy header): nobody to tell apart.
                return None
        rate = getattr(settings, setting)
        usage = get_usage(
            request, group=f"dcdb.{group}", key=_key, rate=rate, method=list(methods), increment=True
        )
    except Exception:  # noqa: BLE001 -- a limit that cannot be read lets the request through
        log.warning("rate limit %s could not be read; letting the request through", group, exc_info=True)
        return None
    if usage is None or not usage["should_limit"]:
        return None
    retry_after = usage["time_left"] if usage["time_left"] > 0 else rate_seconds(rate)
    return rate, retry_after


def _searching(request: HttpRequest) -> bool:
    return bool(request.GET.get("q", "").strip())


# The limits the views wear. Self-registration counts posts (each may email a guest's link); the rulings
# page counts searches (typing in its box searches as you type, so the default is generous); the read API
# counts every request.
limit_self_registration = rate_limited("register", methods=("POST",))
limit_search = rate_limited("search", methods=("GET", "HEAD"), when=_searching)
limit_api = rate_limited("api", methods=("GET", "HEAD"), as_json=True)
