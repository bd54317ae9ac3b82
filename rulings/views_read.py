"""Reading pages of the rulings: an entry shown in place of a cross-reference, a glossary per game."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

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
