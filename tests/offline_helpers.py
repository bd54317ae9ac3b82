"""Issue 18: a browser whose service worker has saved the judges' pages, for the offline tests."""

from __future__ import annotations

from contextlib import contextmanager


def wait_for_service_worker(page) -> None:
    """The worker is installed (its caches warmed), active, and controls this page."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    if not page.evaluate("!!navigator.serviceWorker.controller"):
        page.reload()
    page.wait_for_function("!!navigator.serviceWorker.controller")


@contextmanager
def phone(chromium):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(15_000)
    try:
        yield context
    finally:
        context.close()
