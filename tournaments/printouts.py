"""The bridge from the database to the pure renderers in ``tournaments.printing``: builds each
printout's document from a round, in a fixed number of queries."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse

from . import printing, selectors
from .models import PrintJob, Round


def _date(round: Round) -> str:
    return round.event.date.isoformat()


def site_url_is_local() -> bool:
    """True when ``SITE_URL`` names this machine (the development default): QR codes printed with it
    open nothing on a player's phone."""
    return url_is_local(settings.SITE_URL)


def url_is_local(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def result_url(round: Round, table_number: int) -> str:
    """The QR code's target: the table's page, where the players report and confirm the slip."""
    path = reverse(
        "tournaments:table",
        kwargs={"slug": round.event.slug, "number": round.number, "table": table_number},
    )
    return f"{settings.SITE_URL}{path}"


def _slip_tables(round: Round) -> tuple[printing.SlipTable, ...]:
    return tuple(
        printing.SlipTable(
            number=view.table.number,
            players=tuple(printing.SlipPlayer(s.seat, s.registration.player.name) for s in view.seats),
            result_url=result_url(round, view.table.number),
        )
        for view in selectors.round_tables(round)
    )


def slips_document(round: Round) -> printing.SlipsDocument:
    event = round.event
    return printing.SlipsDocument(
        event.name, _date(round), round.label, event.paper_size, _slip_tables(round)
    )


def pairings_document(round: Round) -> printing.PairingsDocument:
    tables = _slip_tables(round)
    views = selectors.round_tables(round)
    seatings = tuple(
        printing.Seating(
            s.registration.player.sort_name or s.registration.player.name, v.table.number, s.seat
        )
        for v in views
        for s in v.seats
    )
    event = round.event
    return printing.PairingsDocument(
        event.name, _date(round), round.label, event.paper_size, seatings, tables
    )


def standings_document(round: Round) -> printing.StandingsDocument:
    event = round.event
    lines = selectors.event_standings(event)
    labels = {"super_villains": "SV", "opponents_points_rate": "Opp. rate", "vp": "VP"}
    order = [t for t in selectors.event_tiebreakers(event) if t in labels]
    rows = tuple(
        (
            line.rank,
            line.registration.player.name + ("" if line.active else " (dropped)"),
            (
                f"{line.points:g}",
                *(
                    f"{line.tiebreakers.get(t, 0):.3f}"
                    if t == "opponents_points_rate"
                    else f"{line.tiebreakers.get(t, 0):g}"
                    for t in order
                ),
            ),
        )
        for line in lines
    )
    closed = Round.objects.filter(event=event, kind=Round.Kind.SWISS, status=Round.Status.CLOSED).count()
    title = f"Standings after round {closed}" if closed else "Standings"
    return printing.StandingsDocument(
        event.name, _date(round), title, event.paper_size, ("Pts", *(labels[t] for t in order)), rows
    )


def playoffs_document(round: Round) -> printing.PlayoffsDocument:
    event = round.event
    rank = {line.registration.pk: line.rank for line in selectors.event_standings(event)}
    tables = tuple(
        printing.PlayoffTableSheet(
            view.table.number,
            tuple(
                printing.PlayoffSeat(s.seat, s.registration.player.name, rank.get(s.registration_id, 0))
                for s in view.seats
            ),
        )
        for view in selectors.round_tables(round)
    )
    return printing.PlayoffsDocument(event.name, _date(round), round.label, event.paper_size, tables)


BUILDERS: dict[str, Callable[[Round], object]] = {
    PrintJob.Kind.SLIPS: slips_document,
    PrintJob.Kind.PAIRINGS_BY_NAME: pairings_document,
    PrintJob.Kind.PAIRINGS_BY_TABLE: pairings_document,
    PrintJob.Kind.STANDINGS: standings_document,
    PrintJob.Kind.PLAYOFFS: playoffs_document,
}


def render(kind: str, document: object, on_table: Callable[[int, int], None] | None = None) -> bytes:
    if kind == PrintJob.Kind.SLIPS:
        return printing.render_slips(document, on_table=on_table)  # type: ignore[arg-type]
    renderer = {
        PrintJob.Kind.PAIRINGS_BY_NAME: printing.render_pairings_by_name,
        PrintJob.Kind.PAIRINGS_BY_TABLE: printing.render_pairings_by_table,
        PrintJob.Kind.STANDINGS: printing.render_standings,
        PrintJob.Kind.PLAYOFFS: printing.render_playoffs,
    }[kind]
    return renderer(document)  # type: ignore[arg-type]


def units(kind: str, document: object) -> int:
    """How many steps the progress bar counts: tables for slips, one for a sheet."""
    return len(document.tables) if kind == PrintJob.Kind.SLIPS else 1  # type: ignore[attr-defined]
