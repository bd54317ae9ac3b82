"""Rulings pages: search (with an htmx partial), browse by document and section, permalinks, cards."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from . import search as rulings_search
from . import selectors
from .forms import ALL_GAMES, HOME_GAME, SearchForm
from .models import Card, Document, Game
from .tables import CardTable, DocumentTable


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """The search page; answers the topbar's ``/rulings/?q=...`` and, for htmx, returns the results only.

    Without a game the search looks in the toolkit's own game (DCDB); when that finds nothing it looks in
    every game and says so, so a Vs. System rule number typed in the topbar still finds its rule."""
    documents = selectors.document_list()
    games = list(Game.objects.all())
    home = HOME_GAME if any(g.code == HOME_GAME for g in games) else ALL_GAMES
    data = request.GET.copy() if request.GET else None
    if data is not None and "game" not in data:
        data["game"] = home
    form = SearchForm(data, games=games, documents=documents, initial={"game": home})
    results = None
    widened = ""
    if form.is_valid() and form.cleaned_data["q"].strip():
        query, document = form.cleaned_data["q"], form.cleaned_data["document"] or None
        # One document names its game; a blank game comes from links made before the game filter.
        game = None if document or form.cleaned_data["game"] in ("", ALL_GAMES) else form.cleaned_data["game"]
        results = rulings_search.search(query=query, game=game, document=document)
        if game and not results and results.kind != "empty":
            everywhere = rulings_search.search(query=query)
            if everywhere:
                results = everywhere
                widened = next((g.name for g in games if g.code == game), game)
    context = {
        "form": form,
        "results": results,
        "widened": widened,
        "groups": rulings_search.group(results.hits) if results else [],
        "rulings_query": request.GET.get("q", ""),
    }
    if request.htmx and request.htmx.target == "results":
        return render(request, "rulings/_results.html", context)
    context["documents"] = DocumentTable(documents)
    return render(request, "rulings/index.html", context)


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
