"""One rebuild at a time: after a change one request rebuilds a page, the others serve the previous one."""

from __future__ import annotations

import random
import threading
import time

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.factories import make_event, make_players, make_user
from tests.tournaments.flow import play_table
from tournaments import page_cache, public_pairings
from tournaments.models import Table
from tournaments.services import rounds


class Counter:
    def __init__(self, value: str, *, seconds: float = 0.0) -> None:
        self.value, self.seconds, self.calls = value, seconds, 0
        self._lock = threading.Lock()

    def __call__(self) -> str:
        with self._lock:
            self.calls += 1
        time.sleep(self.seconds)
        return self.value


def test_it_builds_a_version_once_then_serves_it_from_the_cache():
    build = Counter("v1")
    assert page_cache.build_once("page-a", "1", build) == "v1"
    assert page_cache.build_once("page-a", "1", build) == "v1"
    assert build.calls == 1


def test_it_serves_the_previous_version_while_another_request_rebuilds():
    page_cache.build_once("page-a", "1", Counter("v1"))
    _, lock, _ = page_cache._keys("page-a", "2")
    assert cache.add(lock, 1, 30)  # another request is rebuilding version 2
    build = Counter("v2")
    token = page_cache.served_stale.set(False)
    try:
        assert page_cache.build_once("page-a", "2", build) == "v1"
        assert page_cache.build_once("page-a", "2", build) == "v1"
        assert page_cache.served_stale.get() is True
    finally:
        page_cache.served_stale.reset(token)
    assert build.calls == 0


def test_it_builds_the_new_version_once_the_lock_is_released():
    page_cache.build_once("page-a", "1", Counter("v1"))
    build = Counter("v2")
    assert page_cache.build_once("page-a", "2", build) == "v2"
    assert build.calls == 1


def test_a_failed_build_releases_the_lock():
    def broken() -> str:
        raise RuntimeError("database gone")

    with pytest.raises(RuntimeError):
        page_cache.build_once("page-a", "1", broken)
    assert page_cache.build_once("page-a", "1", Counter("v1")) == "v1"


def _many_at_once(version: str, build: Counter, requests: int = 8) -> list[str]:
    barrier = threading.Barrier(requests)
    answers: list[str] = []

    def one() -> None:
        barrier.wait()
        answers.append(page_cache.build_once("page-b", version, build))

    threads = [threading.Thread(target=one) for _ in range(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return answers


def test_many_requests_after_a_change_rebuild_once_and_the_others_get_the_previous_version():
    page_cache.build_once("page-b", "1", Counter("v1"))
    build = Counter("v2", seconds=0.3)
    answers = _many_at_once("2", build)
    assert build.calls == 1
    assert sorted(set(answers)) == ["v1", "v2"]
    assert answers.count("v2") == 1


def test_many_requests_for_a_first_version_wait_for_one_build():
    build = Counter("v1", seconds=0.3)
    answers = _many_at_once("1", build)
    assert build.calls == 1
    assert answers == ["v1"] * 8


@pytest.fixture
def redis_cache(settings, redis_server):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_server.url}
    }
    yield
    cache.clear()


def test_with_redis_many_requests_after_a_change_rebuild_once(redis_cache):
    page_cache.build_once("page-b", "1", Counter("v1"))
    build = Counter("v2", seconds=0.3)
    answers = _many_at_once("2", build)
    assert build.calls == 1
    assert answers.count("v2") == 1
    assert answers.count("v1") == 7


def test_with_redis_many_requests_for_a_first_version_wait_for_one_build(redis_cache):
    build = Counter("v1", seconds=0.3)
    assert _many_at_once("1", build) == ["v1"] * 8
    assert build.calls == 1


@pytest.mark.django_db
def test_the_pairings_page_serves_the_previous_tables_without_validators_while_one_request_rebuilds(client):
    event = make_event(organizer=make_user())
    make_players(event, 8)
    event = rounds.event_start(event=event)
    round = rounds.round_pair(event=event, number=1, publish=True)
    url = reverse("tournaments:pairings", args=[event.slug, 1])
    assert "result in" not in client.get(url).content.decode()
    play_table(Table.objects.filter(round=round).order_by("number").first(), random.Random(1))
    _, lock, _ = page_cache._keys(public_pairings.data_cache_name(round), public_pairings.pairings_key(round))
    cache.add(lock, 1, 30)

    during = client.get(url)
    assert "result in" not in during.content.decode()
    assert "ETag" not in during and "Last-Modified" not in during
    assert "max-age=0" in during["Cache-Control"]

    cache.delete(lock)
    after = client.get(url)
    assert "result in" in after.content.decode()
    assert "ETag" in after


def test_a_page_built_from_a_stale_inner_part_is_not_stored_as_the_new_version():
    page_cache.build_once("data", "1", Counter("rows v1"))
    _, lock, _ = page_cache._keys("data", "2")
    cache.add(lock, 1, 30)

    def page() -> str:
        return "page of " + page_cache.build_once("data", "2", Counter("rows v2"))

    assert page_cache.build_once("html", "2", page) == "page of rows v1"
    cache.delete(lock)
    assert page_cache.build_once("html", "2", page) == "page of rows v2"


class CountingCache:
    """The cache, counting what is read from it."""

    def __init__(self, inner) -> None:
        self.inner, self.gets = inner, 0

    def get(self, key, *args, **kwargs):
        self.gets += 1
        return self.inner.get(key, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def test_a_version_this_process_has_read_is_served_without_asking_the_cache(monkeypatch):
    page_cache.build_once("page-a", "1", Counter("v1"))
    page_cache.forget_local()  # as another process: it has only the shared cache
    counting = CountingCache(cache)
    monkeypatch.setattr(page_cache, "cache", counting)
    assert page_cache.build_once("page-a", "1", Counter("never")) == "v1"
    reads = counting.gets
    assert page_cache.build_once("page-a", "1", Counter("never")) == "v1"
    assert counting.gets == reads


def test_the_copy_a_process_keeps_is_never_served_for_another_version():
    page_cache.build_once("page-a", "1", Counter("v1"))
    assert page_cache.build_once("page-a", "2", Counter("v2")) == "v2"
    assert page_cache.fetch("page-a", "1", Counter("never")) == ("v1", "1")


def test_the_previous_version_served_during_a_rebuild_is_kept_under_its_own_version():
    page_cache.build_once("page-a", "1", Counter("v1"))
    page_cache.forget_local()
    cache.add(page_cache._keys("page-a", "2")[1], 1)  # another request is rebuilding version 2
    assert page_cache.fetch("page-a", "2", Counter("never")) == ("v1", "1")
    assert page_cache.fetch("page-a", "1", Counter("never")) == ("v1", "1")
    cache.delete(page_cache._keys("page-a", "2")[1])
    assert page_cache.fetch("page-a", "2", Counter("v2")) == ("v2", "2")
