"""Cached public fragments and payloads, rebuilt by one request at a time.

A public page is cached under its version key (pairings: the round's tables and names; standings: the
results version and names). A change makes a new key, and without care every phone polling at that moment
misses the cache and rebuilds the same page: at a 2,000-player event, hundreds of 0.5 s rebuilds at once.
``build_once`` lets the first request take a short lock in the cache (``cache.add``, atomic in the
local-memory cache and in Redis) and rebuild; the others serve the previous version, kept under a "stale"
key, until the new one is stored. Only the very first build of a page, with nothing stale to serve, makes
the others wait (briefly) for it.

Each process also keeps the last version of each value it read or built (``LOCAL_ENTRIES`` of them): a
2,000-player round's tables are a megabyte that every *find my table* would otherwise fetch from Redis and
unpickle. A version key names everything a value depends on, so the local copy is used only under the
very key asked for, and never outlives a change. Cached values are shared between threads: they are
read, never changed.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from contextvars import ContextVar
from typing import TypeVar

from django.core.cache import cache

T = TypeVar("T")

# Long enough for the slowest rebuild; a builder that dies leaves the lock to expire by itself.
LOCK_SECONDS = 30
# With nothing stale to serve, how long a request waits for another's first build before building itself.
FIRST_BUILD_WAIT_SECONDS = 5.0
WAIT_STEP_SECONDS = 0.05
TIMEOUT = 3600
LOCAL_ENTRIES = 64

# Set when this request was answered from a previous version: the HTTP layer must not label that
# answer with the new version's ETag (a client would keep the old body as if it were the new one).
served_stale: ContextVar[bool] = ContextVar("served_stale", default=False)


_local: OrderedDict[str, tuple[object, str]] = OrderedDict()  # key -> (value, version)
_local_lock = threading.Lock()


def _remembered(key: str) -> tuple | None:
    with _local_lock:
        found = _local.get(key)
        if found is not None:
            _local.move_to_end(key)
        return found


def _remember(key: str, found: tuple) -> None:
    with _local_lock:
        _local[key] = found
        _local.move_to_end(key)
        while len(_local) > LOCAL_ENTRIES:
            _local.popitem(last=False)


def forget_local() -> None:
    """Drop this process's copies (tests that clear the shared cache call it too)."""
    with _local_lock:
        _local.clear()


def _keys(name: str, version: str) -> tuple[str, str, str]:
    digest = hashlib.sha256(version.encode()).hexdigest()[:24]
    return f"page:{name}:{digest}", f"page:{name}:{digest}:lock", f"page:{name}:stale"


def build_once(name: str, version: str, build: Callable[[], T], *, timeout: int = TIMEOUT) -> T:
    """The value of ``name`` at ``version``: from the cache, else built by one request at a time.

    ``name`` says which page or payload (without the version), ``version`` everything it depends on.
    While another request rebuilds it, the previous version is returned (and ``served_stale`` set).
    """
    return fetch(name, version, build, timeout=timeout)[0]


def fetch(name: str, version: str, build: Callable[[], T], *, timeout: int = TIMEOUT) -> tuple[T, str]:
    """``build_once``, with the version actually returned: ``version``, or the previous one while another
    request rebuilds. A page built from this value caches under that version, so that it never stores
    the previous data as the new version's page."""
    key, lock, stale_key = _keys(name, version)
    found = _remembered(key)
    if found is not None:
        return found
    found = cache.get(key)
    if found is not None:
        _remember(key, found)
        return found
    if cache.add(lock, 1, LOCK_SECONDS):
        return _build(build, version, key, lock, stale_key, timeout)
    stale = cache.get(stale_key)
    if stale is not None:
        served_stale.set(True)
        _remember(_keys(name, stale[1])[0], stale)  # under its own version: the next asker skips Redis
        return stale
    deadline = time.monotonic() + FIRST_BUILD_WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(WAIT_STEP_SECONDS)
        found = cache.get(key)
        if found is not None:
            return found
        if cache.add(lock, 1, LOCK_SECONDS):  # the builder gave up (an error): this request builds
            return _build(build, version, key, lock, stale_key, timeout)
    # The builder is very slow: answering late is worse than building a second time.
    return _build(build, version, key, None, stale_key, timeout)


def _build(
    build: Callable[[], T], version: str, key: str, lock: str | None, stale_key: str, timeout: int
) -> tuple[T, str]:
    outer = served_stale.set(False)
    try:
        value = build()
        inner_stale = served_stale.get()
    finally:
        served_stale.reset(outer)
    try:
        if inner_stale:
            # Built from a stale inner part (another build_once inside ``build``): serve it, never
            # store it as this version.
            served_stale.set(True)
        else:
            cache.set_many({key: (value, version), stale_key: (value, version)}, timeout)
            _remember(key, (value, version))
        return value, version
    finally:
        if lock is not None:
            cache.delete(lock)
