"""Version keys worked out once per request, and for anonymous readers once per few seconds per process.

A public page's version keys (``public_pairings.pairings_key``, ``selectors.standings_key``) are asked for
by its ETag and again by the page itself, and each costs queries over every seat of a large round.

- Every reading request (GET, HEAD) works each key out once. A request that writes must see what it
  wrote, so it remembers nothing; neither does code outside a request (a command, a task, a test calling
  a function).
- An anonymous reading request (no session cookie: the requests a proxy may cache) also shares the keys
  other anonymous requests of this process worked out in the last ``PUBLIC_VERSION_SECONDS``. Anonymous
  visitors are already told that a page may be ``PUBLIC_MAX_AGE`` seconds old, and at a 2,000-player event
  results arrive several times a second: without this, nearly every phone's *find my table* would find a
  new version, rebuild the round's tables and work the key out again. Staff and players who are logged in
  always get the keys of the moment (what they just entered shows at once).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from contextvars import ContextVar
from typing import TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse

T = TypeVar("T")

_memo: ContextVar[dict | None] = ContextVar("request_memo", default=None)
_anonymous: ContextVar[bool] = ContextVar("request_memo_anonymous", default=False)

_shared: dict[Hashable, tuple[float, object]] = {}  # key -> (worked out at, value)
_shared_lock = threading.Lock()
_SHARED_LIMIT = 1024


def memoized(key: Hashable, compute: Callable[[], T]) -> T:
    found = _memo.get()
    if found is None:
        return compute()
    if key not in found:
        found[key] = _shared_value(key, compute) if _anonymous.get() else compute()
    return found[key]


def _shared_value(key: Hashable, compute: Callable[[], T]) -> T:
    seconds = settings.PUBLIC_VERSION_SECONDS
    if seconds <= 0:
        return compute()
    now = time.monotonic()
    with _shared_lock:
        hit = _shared.get(key)
    if hit is not None and now - hit[0] < seconds:
        return hit[1]  # type: ignore[return-value]
    value = compute()
    with _shared_lock:
        if len(_shared) >= _SHARED_LIMIT:
            _shared.clear()
        _shared[key] = (now, value)
    return value


def forget_shared() -> None:
    """Forget the keys anonymous requests share (tests start each from nothing)."""
    with _shared_lock:
        _shared.clear()


class RequestMemoMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        reading = request.method in ("GET", "HEAD")
        token = _memo.set({} if reading else None)
        anonymous = _anonymous.set(reading and settings.SESSION_COOKIE_NAME not in request.COOKIES)
        try:
            return self.get_response(request)
        finally:
            _anonymous.reset(anonymous)
            _memo.reset(token)
