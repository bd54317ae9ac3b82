"""Small request helpers the apps' views share."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def safe_next(request: HttpRequest, default: str = "") -> str:
    """The ``next`` address a form or link carries (the page to return to), if it is a page of this site;
    else ``default``. Never redirects off the site, whatever was posted."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


# Formats a table downloads as: the ones tablib writes with what requirements.txt installs. Any other
# ``_export`` value shows the page as usual.
EXPORT_FORMATS = ("csv", "json")


def export_format(request: HttpRequest) -> str | None:
    """The download a list page was asked for with ``?_export=``, if it offers that format."""
    wanted = request.GET.get("_export", "")
    return wanted if wanted in EXPORT_FORMATS else None


def posted_id(value: str | None) -> int | None:
    """A database id typed into a form or a query string, or None for anything else. ``str.isdigit`` is
    not enough: it accepts "²" and other digits ``int()`` refuses, and any length (past a bigint)."""
    value = (value or "").strip()
    if value.isascii() and value.isdecimal() and len(value) <= 18:
        return int(value)
    return None
