"""Rulings pages: search (with an htmx partial), browse by document and section, permalinks, cards."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from config.ratelimits import limit_search

from . import search as rulings_search
from . import selectors
from .forms import ALL_GAMES, SearchForm
from .models import Card, Document, Game
from .tables import CardTable, DocumentTable
from .templatetags.rulings import link_snippets


@limit_search
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """The search page; answers the topbar's ``/rulings/?q=...`` and, for htmx, returns the results only.

    The scope is the search's own policy (``rulings.search``), the same as the command's: every game,
    DCDB preferred, unless the judge picks a game or a document or names a game in the query."""
    documents = selectors.document_list()
    games = list(Game.objects.all())
    form = SearchForm(request.GET or None, games=games, documents=documents)
    results = None
    form.is_valid()
    wanted = getattr(form, "cleaned_data", {})  # an unknown game or document is left out, with its error
    if wanted.get("q", "").strip():
        query, document = wanted["q"], wanted.get("document") or None
        game = None if document or wanted.get("game", "") in ("", ALL_GAMES) else wanted["game"]
        results = rulings_search.search(query=query, game=game, document=document)
        link_snippets(results.hits)  # rule numbers in the snippets open the rule in place
    context = {
        "form": form,
        "results": results,
        "groups": rulings_search.group(results.hits) if results else [],
        "rulings_query": request.GET.get("q", ""),
        "several_games": len(games) > 1,
        "games": games,
    }
    if request.htmx and request.htmx.target == "results":
        response = render(request, "rulings/_results.html", context)
    else:
        context["documents"] = DocumentTable(documents)
        response = render(request, "rulings/index.html", context)
    # The results alone and the whole page share an address: Back to it must never show the results alone.
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


@require_GET
def document(request: HttpRequest, slug: str) -> HttpResponse:
    doc = selectors.document_get(slug=slug)
    return render(
        request,
        "rulings/document.html",
        {"document": doc, "sections": selectors.document_sections(document=doc)},
    )


@require_GET
def section(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    return render(request, "rulings/section.html", {"page": selectors.section_page(slug=slug, key=key)})


@require_GET
def entry(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    return render(request, "rulings/entry.html", {"page": selectors.entry_page(slug=slug, key=key)})


@require_GET
def changes(request: HttpRequest, slug: str) -> HttpResponse:
    return render(request, "rulings/changes.html", {"changes": selectors.document_changes(slug=slug)})


@require_GET
def rule(request: HttpRequest, game: str, number: str) -> HttpResponse:
    """``/rulings/rule/dcdb/9.020/``: a stable address for a rule number in the current edition."""
    found = selectors.entry_by_number(game=game, number=number)
    if found is None:
        raise Http404("No rule with that number")
    return redirect(found.get_absolute_url())


@require_GET
def cards(request: HttpRequest, game: str) -> HttpResponse:
    game_row = Game.objects.filter(code=game).first()
    if game_row is None:
        raise Http404("No such game")
    category = request.GET.get("category", "")
    if category and category not in dict(Card.CATEGORY_CHOICES):
        category = ""
    groups = selectors.card_index(game=game, category=category)
    return render(
        request,
        "rulings/cards.html",
        {
            "game": game_row,
            "category": category,
            "categories": Card.CATEGORY_CHOICES,
            "groups": [(group, CardTable(group.cards)) for group in groups],
            "documents": Document.objects.filter(game=game_row, is_current=True),
        },
    )
