"""Version keys worked out once per reading request (tournaments.request_memo)."""

from __future__ import annotations

from django.http import HttpResponse
from django.test import RequestFactory

from tournaments.request_memo import RequestMemoMiddleware, memoized


def counting():
    calls = []

    def compute():
        calls.append(1)
        return len(calls)

    return calls, compute


def through_middleware(method: str, compute) -> list:
    seen = []

    def view(request):
        seen.extend([memoized("key", compute), memoized("key", compute)])
        return HttpResponse()

    RequestMemoMiddleware(view)(getattr(RequestFactory(), method)("/"))
    return seen


def test_it_works_a_value_out_once_in_a_get_request():
    calls, compute = counting()
    assert through_middleware("get", compute) == [1, 1]
    assert len(calls) == 1


def test_a_request_that_writes_works_it_out_each_time():
    calls, compute = counting()
    assert through_middleware("post", compute) == [1, 2]


def test_outside_a_request_nothing_is_remembered():
    calls, compute = counting()
    assert [memoized("key", compute), memoized("key", compute)] == [1, 2]


def test_the_next_request_starts_afresh():
    calls, compute = counting()
    through_middleware("get", compute)
    assert through_middleware("get", compute) == [2, 2]
