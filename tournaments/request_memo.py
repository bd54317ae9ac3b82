"""Values worked out once per request: a public page's version keys are asked for by its ETag and again by
the page itself, and each costs queries over every seat of a large round.

Only reading requests (GET, HEAD) remember anything: a request that writes must see what it wrote. Outside
a request (a command, a task, a test calling a function), nothing is remembered.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from contextvars import ContextVar
from typing import TypeVar

from django.http import HttpRequest, HttpResponse

T = TypeVar("T")

_memo: ContextVar[dict | None] = ContextVar("request_memo", default=None)


def memoized(key: Hashable, compute: Callable[[], T]) -> T:
    found = _memo.get()
    if found is None:
        return compute()
    if key not in found:
        found[key] = compute()
    return found[key]


class RequestMemoMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _memo.set({} if request.method in ("GET", "HEAD") else None)
        try:
            return self.get_response(request)
        finally:
            _memo.reset(token)
