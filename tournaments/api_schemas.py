"""The read API's answers as schemas (tournaments.api): what the OpenAPI document describes, and what
every answer is validated against, so numbers leave as JSON numbers and the field names stay put.

The builders at the bottom turn an event's data into these schemas. They read through the selectors
(published rounds only) in a fixed number of queries whatever the size of the event.
"""

from __future__ import annotations

import datetime
from enum import Enum, StrEnum

from django.urls import reverse
from ninja import Field, Schema

from . import selectors
from .models import Event, Registration, Round, Seat
from .services import rounds as round_services


def _choices(name: str, choices: type[Enum]) -> type[StrEnum]:
    """A model's choices under a name of their own: Event.Status and Round.Status would both be "Status"
    in the OpenAPI document."""
    return StrEnum(name, {choice.name: choice.value for choice in choices})


EventStatus = _choices("EventStatus", Event.Status)
RoundKind = _choices("RoundKind", Round.Kind)
RoundStatus = _choices("RoundStatus", Round.Status)


class ErrorOut(Schema):
    detail: str = Field(description="What went wrong, in words.")


class RateLimitedOut(ErrorOut):
    error: str = Field(description="The same words as detail (kept for older clients).")
    retry_after: int = Field(description="Seconds to wait; also the Retry-After header.")


class EventOut(Schema):
    slug: str
    name: str
    date: datetime.date
    venue: str
    sanctioned: bool
    status: EventStatus
    swiss_rounds: int | None = Field(description="Swiss rounds planned; empty until the event starts.")
    non_standard: bool = Field(description="The Swiss rounds differ from the standard for the player count.")
    round_minutes: int
    url: str = Field(description="The event's public page (a path on this site).")

    @staticmethod
    def resolve_url(event: Event | dict) -> str:
        # An Event (the list), or the fields of one (EventDetailOut, built from EventOut's).
        slug = event["slug"] if isinstance(event, dict) else event.slug
        return reverse("tournaments:event_detail", kwargs={"slug": slug})


class RoundOut(Schema):
    number: int
    kind: RoundKind
    status: RoundStatus
    label: str


class SeatOut(Schema):
    id: int = Field(description="The player's registration id at this event.")
    name: str
    seat: int = Field(description="Turn order: 1 goes first.")
    vp: int | None
    super_villains: int | None = Field(description="Empty until the table's result is entered.")
    placement: int | None
    points: float | None


class TableOut(Schema):
    table: int
    result_entered: bool
    players: list[SeatOut] = Field(description="In turn order.")


class RoundDetailOut(RoundOut):
    tables: list[TableOut]


class PlayerOut(Schema):
    id: int
    name: str
    checked_in: bool
    waitlisted: bool
    dropped: bool = Field(description="Also a player who withdrew before the start.")
    disqualified: bool


class EventDetailOut(EventOut):
    rounds: list[RoundOut] = Field(description="The published rounds.")
    players: list[PlayerOut]
    final_ranking: list[str] = Field(description="Names, first place first; empty until the final closes.")


class StandingOut(Schema):
    rank: int
    id: int
    player: str
    points: float
    tiebreakers: dict[str, float] = Field(description="By tiebreaker name, in the event's order.")
    games: int
    placements: list[int] = Field(description="How many 1st, 2nd, 3rd, ... places.")
    active: bool


class StandingsOut(Schema):
    event: str
    tiebreakers: list[str]
    standings: list[StandingOut]


class RankedOut(Schema):
    rank: int
    id: int
    player: str


class RankingOut(Schema):
    event: str
    ranking: list[RankedOut] = Field(description="Empty until the final closes.")


class ResultOut(Schema):
    """One player's game: where they sat and how the game ended for them."""

    round: int
    stage: RoundKind
    table: int
    seat: int
    id: int = Field(description="The player's registration id at this event.")
    name: str
    vp: int | None
    super_villains: int | None = Field(description="Empty until the table's result is entered.")
    placement: int | None
    points: float | None

    @staticmethod
    def resolve_round(seat: Seat) -> int:
        return seat.round.number

    @staticmethod
    def resolve_stage(seat: Seat) -> str:
        return seat.round.kind

    @staticmethod
    def resolve_table(seat: Seat) -> int:
        return seat.table.number

    @staticmethod
    def resolve_id(seat: Seat) -> int:
        return seat.registration_id

    @staticmethod
    def resolve_name(seat: Seat) -> str:
        return seat.registration.player.public_name

    @staticmethod
    def resolve_super_villains(seat: Seat) -> int | None:
        return seat.super_villains if seat.table.has_result else None


# --- builders --------------------------------------------------------------------------------------


def event_detail(event: Event) -> EventDetailOut:
    """The event, its published rounds, its players and the final ranking. A few queries."""
    players = Registration.objects.filter(event=event).select_related("player").order_by("player__sort_name")
    return EventDetailOut(
        **EventOut.model_validate(event).model_dump(),
        rounds=[round_summary(r) for r in selectors.public_rounds(event)],
        players=[
            PlayerOut(
                id=r.pk,
                name=r.player.public_name,
                checked_in=r.checked_in,
                waitlisted=r.waitlisted,
                dropped=r.dropped,
                disqualified=r.disqualified,
            )
            for r in players
        ],
        final_ranking=[r.player.public_name for r in round_services.final_ranking(event)],
    )


def round_summary(round: Round) -> RoundOut:
    return RoundOut(number=round.number, kind=round.kind, status=round.status, label=round.label)


def round_detail(round: Round) -> RoundDetailOut:
    """A round with its tables and seats, players in turn order. Two queries."""
    tables = [
        TableOut(
            table=t.table.number,
            result_entered=t.table.has_result,
            players=[
                SeatOut(
                    id=s.registration_id,
                    name=s.registration.player.public_name,
                    seat=s.seat,
                    vp=s.vp,
                    super_villains=s.super_villains if t.table.has_result else None,
                    placement=s.placement,
                    points=s.points,
                )
                for s in t.seats
            ],
        )
        for t in selectors.round_tables(round)
    ]
    return RoundDetailOut(**round_summary(round).model_dump(), tables=tables)


def standings(event: Event) -> StandingsOut:
    """The Swiss standings (cached by the selector). Two queries."""
    return StandingsOut(
        event=event.slug,
        tiebreakers=list(selectors.event_tiebreakers(event)),
        standings=[
            StandingOut(
                rank=line.rank,
                id=line.registration.pk,
                player=line.registration.player.public_name,
                points=line.points,
                tiebreakers=line.tiebreakers,
                games=line.games,
                placements=list(line.placements),
                active=line.active,
            )
            for line in selectors.event_standings(event)
        ],
    )


def ranking(event: Event) -> RankingOut:
    """The final ranking once the final is closed: every player, first place first."""
    ranked = round_services.final_ranking(event)
    return RankingOut(
        event=event.slug,
        ranking=[RankedOut(rank=n, id=r.pk, player=r.player.public_name) for n, r in enumerate(ranked, 1)],
    )
