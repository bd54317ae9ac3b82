"""Issue 18: a browser whose service worker has saved the judges' pages, for the offline tests."""

from __future__ import annotations

import time
from contextlib import contextmanager


def wait_for_service_worker(page) -> None:
    """The worker is installed (its caches warmed) and active, and this page, loaded again, went through
    it (so it is saved): the first load may have been before the worker took over."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # an active worker takes every page loaded after it
    page.wait_for_function("!!navigator.serviceWorker.controller")
    wait_until_saved(page)


def wait_until_saved(page) -> None:
    """The worker writes a page to its cache just after the page arrives; wait for that."""
    deadline = time.monotonic() + 10
    while not page.evaluate("caches.match(location.href).then(found => !!found)"):
        assert time.monotonic() < deadline, f"{page.url} was not saved"
        time.sleep(0.05)


@contextmanager
def phone(chromium):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(15_000)
    try:
        yield context
    finally:
        context.close()
