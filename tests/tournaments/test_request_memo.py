"""Version keys worked out once per reading request (tournaments.request_memo)."""

from __future__ import annotations

from django.http import HttpResponse
from django.test import RequestFactory

from tournaments import request_memo
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


def through_middleware_with(compute, *, cookies: dict | None = None) -> list:
    seen = []

    def view(request):
        seen.append(memoized("key", compute))
        return HttpResponse()

    request = RequestFactory().get("/")
    request.COOKIES.update(cookies or {})
    RequestMemoMiddleware(view)(request)
    return seen


def test_anonymous_readers_share_a_key_for_a_few_seconds(settings):
    settings.PUBLIC_VERSION_SECONDS = 60
    calls, compute = counting()
    assert through_middleware_with(compute) + through_middleware_with(compute) == [1, 1]
    assert len(calls) == 1


def test_a_shared_key_is_worked_out_again_once_its_seconds_are_up(settings, monkeypatch):
    settings.PUBLIC_VERSION_SECONDS = 2
    clock = [1000.0]
    monkeypatch.setattr(request_memo.time, "monotonic", lambda: clock[0])
    calls, compute = counting()
    through_middleware_with(compute)
    clock[0] += 1.5
    assert through_middleware_with(compute) == [1]
    clock[0] += 1.0
    assert through_middleware_with(compute) == [2]


def test_a_logged_in_reader_gets_the_key_of_the_moment(settings):
    settings.PUBLIC_VERSION_SECONDS = 60
    calls, compute = counting()
    through_middleware_with(compute)
    assert through_middleware_with(compute, cookies={settings.SESSION_COOKIE_NAME: "abc"}) == [2]
    assert through_middleware_with(compute) == [1]  # what the anonymous readers share is unchanged


def test_nothing_is_shared_when_the_setting_is_zero(settings):
    settings.PUBLIC_VERSION_SECONDS = 0
    calls, compute = counting()
    assert through_middleware_with(compute) + through_middleware_with(compute) == [1, 2]
