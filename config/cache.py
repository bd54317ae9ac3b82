"""Django's Redis cache, failing open: with Redis down the site serves from the database.

Every page that uses the cache can rebuild what it keeps there, so a cache that cannot be reached is
treated as empty: a read is a miss, a write is dropped, ``add`` lets the caller go ahead (so a lock or a
rate limit kept in the cache never blocks the site). The first failure is logged; then, for
``DOWN_SECONDS`` (default 5), this process does not try Redis at all, so a page with many cache calls
does not wait for a connection timeout on each of them. The connection timeouts themselves are the
pool's ``socket_connect_timeout``/``socket_timeout`` in ``OPTIONS`` (see settings).
"""

from __future__ import annotations

import logging
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
UNREACHABLE = (RedisConnectionError, RedisTimeoutError)


class FailOpenRedisCache(RedisCache):
    def __init__(self, server, params):
        options = dict(params.get("OPTIONS", {}))
        self.down_seconds = float(options.pop("DOWN_SECONDS", 5))
        super().__init__(server, {**params, "OPTIONS": options})
        self._down_until = 0.0

    @property
    def is_down(self) -> bool:
        """True while this process is skipping Redis after a failure."""
        return time.monotonic() < self._down_until

    def ping(self) -> None:
        """Ask Redis itself (raises when it cannot be reached): the health check's question."""
        self._cache.get_client(write=True).ping()

    def _call(self, fallback, method, *args, **kwargs):
        if self.is_down:
            return fallback
        try:
            return method(*args, **kwargs)
        except UNREACHABLE as exc:
            log.warning(
                "cache: Redis cannot be reached (%s); serving without the cache for %ss",
                exc,
                self.down_seconds,
            )
            self._down_until = time.monotonic() + self.down_seconds
            return fallback

    def get(self, key, default=None, version=None):
        return self._call(default, super().get, key, default, version)

    def get_many(self, keys, version=None):
        return self._call({}, super().get_many, keys, version)

    def has_key(self, key, version=None):
        return self._call(False, super().has_key, key, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._call(None, super().set, key, value, timeout, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(list(data), super().set_many, data, timeout, version)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        # True: the caller goes ahead as if it held the key (a lock or a first try), never waits on it.
        return self._call(True, super().add, key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(False, super().touch, key, timeout, version)

    def delete(self, key, version=None):
        return self._call(False, super().delete, key, version)

    def delete_many(self, keys, version=None):
        self._call(None, super().delete_many, keys, version)

    def incr(self, key, delta=1, version=None):
        missing = object()
        value = self._call(missing, super().incr, key, delta, version)
        if value is missing:
            # What a missing key does: callers already handle it (they set the key instead).
            raise ValueError(f"Key {key!r} not found (the cache cannot be reached).")
        return value

    def clear(self):
        return self._call(False, super().clear)
