from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from tournaments.tables import configure_pages

from . import selectors
from .core import PROVISIONAL_GAMES
from .tables import LeaderboardTable

PER_PAGE = 50


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    """Everyone's rating from every counted game, highest first; ``?q=`` finds a player by public name."""
    query = request.GET.get("q", "").strip()[:120]
    table = LeaderboardTable(selectors.leaderboard(query=query))
    configure_pages(request, table, per_page=PER_PAGE)
    context = {
        "table": table,
        "query": query,
        "state": selectors.last_computed(),
        "provisional_games": PROVISIONAL_GAMES,
    }
    return render(request, "ratings/leaderboard.html", context)
