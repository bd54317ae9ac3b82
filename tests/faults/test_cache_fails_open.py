"""The Redis cache fails open: with Redis down a read is a miss and a write is dropped, never an error."""

from __future__ import annotations

import time

import pytest

from config.cache import FailOpenRedisCache

pytestmark = pytest.mark.redis


def redis_cache(url: str, down_seconds: float = 5) -> FailOpenRedisCache:
    return FailOpenRedisCache(
        url, {"OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 1, "DOWN_SECONDS": down_seconds}}
    )


def test_it_keeps_values_while_redis_is_up(redis_server):
    cache = redis_cache(redis_server.url)
    cache.set("standings", "rows")
    assert cache.get("standings") == "rows"


def test_it_reads_as_a_miss_when_redis_is_down(redis_server):
    cache = redis_cache(redis_server.url)
    cache.set("standings", "rows")
    redis_server.stop()
    assert cache.get("standings") is None
    assert cache.get("standings", "default") == "default"
    assert cache.get_many(["standings"]) == {}
    assert cache.has_key("standings") is False


def test_it_drops_writes_when_redis_is_down(redis_server):
    cache = redis_cache(redis_server.url)
    redis_server.stop()
    cache.set("a", 1)
    cache.delete("a")
    cache.delete_many(["a"])
    assert cache.set_many({"a": 1, "b": 2}) == ["a", "b"]


def test_it_lets_a_lock_or_a_first_try_go_ahead_when_redis_is_down(redis_server):
    cache = redis_cache(redis_server.url)
    redis_server.stop()
    assert cache.add("rebuild-lock", 1) is True
    with pytest.raises(ValueError):  # what a missing counter does: callers set it instead
        cache.incr("tries")


def test_it_stops_asking_redis_for_a_while_after_a_failure(redis_server):
    cache = redis_cache(redis_server.url, down_seconds=60)
    redis_server.stop()
    cache.get("x")
    assert cache.is_down
    redis_server.start()
    assert cache.get("x", "skipped") == "skipped"  # no new connection attempt on every call


def test_it_uses_redis_again_once_it_is_back(redis_server):
    cache = redis_cache(redis_server.url, down_seconds=0.2)
    redis_server.stop()
    cache.set("x", 1)
    redis_server.start()
    time.sleep(0.3)
    cache.set("x", 2)
    assert cache.get("x") == 2


def test_its_health_question_is_answered_by_redis_itself(redis_server):
    cache = redis_cache(redis_server.url)
    cache.ping()
    redis_server.stop()
    with pytest.raises(Exception, match="(?i)connect"):
        cache.ping()
