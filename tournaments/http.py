"""Small request helpers the apps' views share."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def safe_next(request: HttpRequest, default: str = "") -> str:
    """The ``next`` address a form or link carries (the page to return to), if it is a page of this site;
    else ``default``. Never redirects off the site, whatever was posted. Only a path ("/e/...") counts:
    ``redirect()`` would take a bare word such as "abc" for the name of a view and fail on it."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if not target.startswith("/") or any(ord(c) < 32 for c in target):
        return default
    if url_has_allowed_host_and_scheme(
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


def posted_version(value: str | None) -> int:
    """The version a form was loaded at (optimistic locking). Missing or not a number, it is -1, which
    matches no saved version: the save is refused as a conflict and the page shows what is saved now."""
    version = posted_id(value)
    return -1 if version is None else version


class TokenConverter:
    """An emailed link's token (an invitation's, or a signed guest confirmation): URL-safe characters
    only, so a NUL byte or a 10,000-character token is a 404 before it reaches a query (PostgreSQL
    refuses NUL bytes in text with an error)."""

    regex = r"[A-Za-z0-9_.:-]{1,512}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class StripNulFromQueryMiddleware:
    """Drop NUL bytes from query-string values (a search box, a filter): they mean nothing in a search,
    and PostgreSQL refuses them in text with an error, which would turn a typed search into a 500.
    Forms' fields refuse NUL themselves, with a field error."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        if "\x00" in request.META.get("QUERY_STRING", "") or "%00" in request.META.get("QUERY_STRING", ""):
            cleaned = request.GET.copy()
            for key in list(cleaned):
                cleaned.setlist(key, [value.replace("\x00", "") for value in cleaned.getlist(key)])
            request.GET = cleaned
        return self.get_response(request)
