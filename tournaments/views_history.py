"""A player's history across events, a head-to-head, and the CSV of a player's games: public pages.

Thin: the selector (``tournaments.selectors_history``) loads everything, the pure ``tournaments.history``
counts, the tables in ``tournaments.tables_history`` lay it out. Every name is the public one.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe
from django_tables2.export import TableExport

from . import history, selectors_history
from .exports import PlayerGamesTable
from .tables import configure_pages
from .tables_history import HistoryEventsTable, MeetingsTable, OpponentsTable

PER_PAGE = 50


def _missing(request: HttpRequest, what: str) -> HttpResponse:
    return render(request, "tournaments/player_missing.html", {"what": what}, status=404)


def _page(player_id: int) -> selectors_history.PlayerHistoryPage | None:
    """The player's history, or None if the record is unknown or has nothing public (never entered)."""
    page = selectors_history.player_history(player_id=player_id)
    if page is None or not (page.history.events or page.games):
        return None
    return page


@require_safe
def player_history(request: HttpRequest, pk: int) -> HttpResponse:
    page = _page(pk)
    if page is None:
        return _missing(request, "There is no player with this number, or they have not entered an event.")
    events = HistoryEventsTable(page.history.events, prefix="e-")
    configure_pages(request, events, per_page=PER_PAGE)
    opponents = OpponentsTable(
        page.history.opponents, prefix="o-", player_id=pk, player_name=page.person.name
    )
    configure_pages(request, opponents, per_page=PER_PAGE)
    own = request.user.is_authenticated and page.person.key == f"u{request.user.pk}"
    context = {
        "page": page,
        "person": page.person,
        "totals": page.history.totals,
        "events_table": events,
        "opponents_table": opponents,
        "own": own,
    }
    return render(request, "tournaments/player_history.html", context)


@require_safe
def player_vs(request: HttpRequest, pk: int, other: int) -> HttpResponse:
    page = selectors_history.head_to_head(player_id=pk, other_id=other)
    if page is None:
        return _missing(request, "One of these two players does not exist.")
    if page.person.key == page.other.key:
        # One person (the same record, or two records of one account): their history says it all.
        return redirect("tournaments:player_history", pk=pk)
    meetings = MeetingsTable(
        page.head_to_head.games, prefix="g-", name=page.person.name, other_name=page.other.name
    )
    configure_pages(request, meetings, per_page=PER_PAGE)
    return render(
        request,
        "tournaments/player_vs.html",
        {
            "page": page,
            "person": page.person,
            "other": page.other,
            "h2h": page.head_to_head,
            "table": meetings,
        },
    )


@require_safe
def player_games_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """Every counted game of the player, one row a game, with the opponents' public names."""
    page = _page(pk)
    if page is None:
        return _missing(request, "There is no player with this number, or they have not entered an event.")
    lines = history.game_lines(
        person=page.person.key, name=page.person.name, games=page.games, names=page.names
    )
    # The file is named by the number, not the name: the URL's owner may have chosen the short name.
    return TableExport("csv", PlayerGamesTable(lines)).response(f"player-{pk}-games.csv")
