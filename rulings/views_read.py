"""Reading pages of the rulings: an entry shown in place of a cross-reference, a glossary per game."""

from __future__ import annotations

import json

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import condition, require_GET

from . import selectors


@require_GET
def peek(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    """The referenced entry, for ``xref-peek.js`` to show below the paragraph that cites it.

    Opened as a page (no htmx), the address sends the reader to the entry's permalink instead.
    """
    shown = selectors.entry_peek(slug=slug, key=key)
    if not request.htmx:
        return redirect(shown.entry.get_absolute_url())
    response = render(request, "rulings/_peek.html", {"shown": shown})
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_GET
def glossary(request: HttpRequest, game: str) -> HttpResponse:
    page = selectors.glossary(game=game)
    return render(request, "rulings/glossary.html", {"glossary": page})


def _offline_index_etag(request: HttpRequest) -> str:
    return selectors.offline_index_version()


@require_GET
@condition(etag_func=_offline_index_etag)
def offline_index(request: HttpRequest) -> HttpResponse:
    """The current documents as ``offline-search.js`` searches them when the hall's network is down.

    The service worker keeps a copy; the ETag (the documents' checksums) makes checking it cheap. The JSON
    is kept in the cache per version, so it is built once per import."""
    version = selectors.offline_index_version()
    body = cache.get_or_set(
        f"rulings:offline-index:{version}",
        lambda: json.dumps({"version": version, "entries": selectors.offline_index()}, separators=(",", ":")),
        timeout=None,
    )
    response = HttpResponse(body, content_type="application/json")
    response["Cache-Control"] = "no-cache"  # always ask; a 304 when nothing changed
    return response
