"""Reads for the judging pages, each in a fixed number of queries whatever the number of tables."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Sum
from django.utils import timezone
from rapidfuzz import fuzz

from tournaments import public_pairings
from tournaments.models import Event, Player, Registration, Round, Seat, Table
from tournaments.names import name_matches, search_key
from tournaments.selectors import (
    TableView,
    current_public_round,
    current_round,
    event_standings,
    round_tables,
)
from tournaments.selectors_reports import (
    BY_THE_TABLE,
    OpenTables,
    ReportState,
    open_tables,
    results_by,
    round_reports,
    table_report,
)
from tournaments.services.rounds import final_ranking

from . import clock as clockmath
from . import escalation
from . import time_call as time_calls
from .models import ClockPause, Infraction, Penalty, PenaltyPolicy, RoundClock, TableExtension, TimeCall

# Table status on the judge view, in the order a judge deals with them: a disputed report, or one with a
# confirmation missing after the event's confirm_minutes, needs a judge first.
DISPUTED = "disputed"
NEEDS_JUDGE = "needs_judge"
TIME_CALLED = "time_called"
EXTRA_TURNS = "extra_turns"
SLIP_DUE = "slip_due"
REPORTED = "reported"
PLAYING = "playing"
RESULT_IN = "result_in"
STATUS_LABELS = {
    DISPUTED: "Disputed: needs a judge",
    NEEDS_JUDGE: "Needs a judge: not confirmed",
    TIME_CALLED: "Time called",
    EXTRA_TURNS: "In extra turns",
    SLIP_DUE: "Game over, slip due",
    REPORTED: "Reported, waiting for confirmations",
    PLAYING: "Not reported (playing)",
    RESULT_IN: "Confirmed",
}
STATUS_ORDER = [DISPUTED, NEEDS_JUDGE, TIME_CALLED, EXTRA_TURNS, SLIP_DUE, REPORTED, PLAYING, RESULT_IN]
NEEDS_A_JUDGE = (DISPUTED, NEEDS_JUDGE)


def _clock_of(round_clock: RoundClock | None, pauses: list[ClockPause]) -> clockmath.Clock | None:
    if round_clock is None:
        return None
    return clockmath.Clock(
        started_at=round_clock.started_at,
        minutes=round_clock.minutes,
        pauses=tuple(clockmath.Pause(p.started_at, p.ended_at) for p in pauses),
    )


@dataclass
class ClockState:
    """The round's clock as every page shows it, computed on the server at ``now``."""

    round: Round
    started: bool
    remaining: int | None  # seconds, negative once time is up; None before the start
    paused: bool
    pause_reason: str
    minutes: int

    @property
    def remaining_text(self) -> str:
        return clockmath.as_text(self.remaining) if self.remaining is not None else f"{self.minutes}:00"

    @property
    def time_up(self) -> bool:
        return self.remaining is not None and self.remaining <= 0

    def as_json(self) -> dict:
        return {
            "round": self.round.number,
            "label": self.round.label,
            "started": self.started,
            "remaining": self.remaining,
            "paused": self.paused,
            "pause_reason": self.pause_reason,
            "text": self.remaining_text,
        }


def _clock_state(round: Round, clock, pauses, now) -> ClockState:
    open_pause = next((p for p in pauses if p.ended_at is None), None)
    return ClockState(
        round=round,
        started=clock is not None,
        remaining=clock.remaining_seconds(now) if clock else None,
        paused=open_pause is not None,
        pause_reason=open_pause.reason if open_pause else "",
        minutes=clock.minutes if clock else round.event.round_minutes,
    )


def _round_clock(round: Round) -> tuple[clockmath.Clock | None, list[ClockPause]]:
    round_clock = RoundClock.objects.filter(round=round).first()
    pauses = list(ClockPause.objects.filter(clock__round=round).order_by("started_at")) if round_clock else []
    return _clock_of(round_clock, pauses), pauses


def round_clock(*, round: Round) -> ClockState:
    """Two queries."""
    clock, pauses = _round_clock(round)
    now = timezone.now()
    return _clock_state(round, clock, pauses, now)


@dataclass
class Turn:
    index: int  # 1 = the active player's current turn
    seat: Seat
    done: bool
    extra: bool  # False for the turn time was called in


@dataclass
class TableState:
    table: Table
    seats: list[Seat]
    remaining: int | None
    extension_minutes: int
    extensions: list[TableExtension]
    time_call: TimeCall | None
    status: str
    turns: list[Turn] = field(default_factory=list)
    report: ReportState | None = None  # the open report of the table's slip, if any
    result_by: str = ""  # "table" or "judge" once the result is in

    @property
    def needs_judge(self) -> bool:
        return self.status in NEEDS_A_JUDGE

    @property
    def detail(self) -> str:
        """What the status means for this table: who reported and who signed, or who put the result in."""
        if self.report is not None and not self.table.has_result:
            return self.report.summary
        if self.table.has_result and self.result_by:
            return "by the table" if self.result_by == BY_THE_TABLE else "by a judge"
        return ""

    @property
    def remaining_text(self) -> str:
        return clockmath.as_text(self.remaining) if self.remaining is not None else "–"

    @property
    def status_label(self) -> str:
        return STATUS_LABELS[self.status]

    @property
    def turns_left(self) -> int | None:
        return self.time_call.turns_left if self.time_call else None

    @property
    def current_turn(self) -> Turn | None:
        return next((t for t in self.turns if not t.done), None)

    @property
    def sentence(self) -> str:
        plan = _plan(self.time_call, self.seats) if self.time_call else None
        return plan.sentence if plan else ""

    @property
    def out_since_call(self) -> list[tuple[Seat, str]]:
        """Players the recorded time call still counts although their seat or registration now says they are
        out of the game (a game loss or a drop after time was called): the call needs correcting."""
        if self.time_call is None:
            return []
        counted = set(self.time_call.seats_in_game)
        return [(s, reason) for s in self.seats if s.seat in counted and (reason := s.out_of_game_reason())]


def _plan(call: TimeCall, seats: list[Seat]) -> time_calls.TimeCall | None:
    """The pure time-call plan for a recorded call (None if the table changed since)."""
    numbers = {s.seat for s in seats}
    left = [n for n in numbers if n not in call.seats_in_game]
    try:
        return time_calls.time_call(len(seats), call.active_seat, left=left)
    except time_calls.TimeCallError:
        return None


def turn_sequence(call: TimeCall, seats: list[Seat]) -> list[Turn]:
    """The active player's current turn, then each extra turn, in turn order among players still in the game."""
    plan = _plan(call, seats)
    if plan is None:
        return []
    by_number = {s.seat: s for s in seats}
    order = [call.active_seat, *plan.turns]
    return [
        Turn(index=i + 1, seat=by_number[number], done=i < call.turns_done, extra=i > 0)
        for i, number in enumerate(order)
    ]


def _status(
    table: Table, remaining: int | None, call: TimeCall | None, report: ReportState | None = None
) -> str:
    if table.has_result:
        return RESULT_IN
    if report is not None:
        # A report means the game is over: the clock no longer matters, the signatures do.
        if report.disputed:
            return DISPUTED
        return NEEDS_JUDGE if report.overdue else REPORTED
    if call is not None:
        return EXTRA_TURNS if call.turns_left else SLIP_DUE
    if remaining is not None and remaining <= 0:
        return TIME_CALLED
    return PLAYING


def _table_state(table_view, clock, now, extensions, call, report=None, result_by="") -> TableState:
    extra = sum(e.minutes for e in extensions)
    remaining = clock.remaining_seconds(now, extra_minutes=extra) if clock else None
    state = TableState(
        table=table_view.table,
        seats=table_view.seats,
        remaining=remaining,
        extension_minutes=extra,
        extensions=extensions,
        time_call=call,
        status=_status(table_view.table, remaining, call, report),
        report=report,
        result_by=result_by,
    )
    if call is not None:
        state.turns = turn_sequence(call, table_view.seats)
    return state


def round_board(*, round: Round) -> tuple[ClockState, list[TableState]]:
    """The judge view: the clock and every table with its status, the players' open reports and who
    signed them. Ten queries at most (one of them the event, unless the round carries it already),
    whatever the number of tables."""
    clock, pauses = _round_clock(round)
    now = timezone.now()
    extensions: dict[int, list[TableExtension]] = defaultdict(list)
    for extension in TableExtension.objects.filter(table__round=round).select_related("given_by"):
        extensions[extension.table_id].append(extension)
    calls = {c.table_id: c for c in TimeCall.objects.filter(table__round=round)}
    views = round_tables(round)
    reports = round_reports(event=round.event, tables=views, now=now)
    by = results_by(round=round)
    tables = [
        _table_state(
            view,
            clock,
            now,
            extensions[view.table.pk],
            calls.get(view.table.pk),
            reports.get(view.table.pk),
            by.get(view.table.pk, ""),
        )
        for view in views
    ]
    return _clock_state(round, clock, pauses, now), tables


def board_open_tables(tables: list[TableState]) -> OpenTables:
    """How many of the board's tables are still open, and how many of those need a judge."""
    return open_tables(
        [t.table for t in tables],
        reported={t.table.pk: t.needs_judge for t in tables if t.report is not None},
    )


def sort_by_status(tables: list[TableState]) -> list[TableState]:
    return sorted(tables, key=lambda t: (STATUS_ORDER.index(t.status), t.table.number))


def table_clock(*, table: Table) -> TableState:
    """One table's clock, seats, time call and open report. Eight queries at most."""
    round = table.round
    clock, _ = _round_clock(round)
    extensions = list(TableExtension.objects.filter(table=table).select_related("given_by"))
    call = TimeCall.objects.filter(table=table).first()
    seats = list(
        Seat.objects.filter(table=table).select_related("registration__player", "round").order_by("seat")
    )
    report = table_report(table=table, seats=seats)
    return _table_state(TableView(table, seats), clock, timezone.now(), extensions, call, report)


# --- Penalties ----------------------------------------------------------------------------


def policy(event: Event) -> PenaltyPolicy:
    return PenaltyPolicy.objects.filter(event=event).first() or PenaltyPolicy(event=event)


@dataclass
class CatalogueLine:
    infraction: Infraction
    default: str  # this event's default penalty type


def event_catalogue(*, event: Event) -> list[CatalogueLine]:
    """The catalogue with this event's defaults. Two queries."""
    overrides = policy(event).defaults
    return [
        CatalogueLine(infraction, overrides.get(infraction.rule, infraction.default_penalty))
        for infraction in Infraction.objects.all()
    ]


def _penalties():
    return Penalty.objects.select_related(
        "event",
        "registration__player",
        "infraction",
        "round",
        "table",
        "seat__table",
        "recorded_by",
        "voided_by",
    )


def event_penalties(*, event: Event, include_void: bool = True) -> list[Penalty]:
    penalties = _penalties().filter(event=event)
    if not include_void:
        penalties = penalties.filter(voided_at__isnull=True)
    return list(penalties.order_by("-recorded_at"))


def player_penalties(*, player: Player) -> list[Penalty]:
    """A player's penalties at every event, newest first. One query."""
    return list(_penalties().filter(registration__player=player).order_by("-recorded_at"))


def user_penalties(*, user) -> list[Penalty]:
    """The logged-in player's own penalties (through Player.user), voided ones left out. One query."""
    if not user.is_authenticated:
        return []
    return list(
        _penalties().filter(registration__player__user=user, voided_at__isnull=True).order_by("-recorded_at")
    )


def registration_advice(*, event: Event, registration: Registration, adding: str | None = None):
    """Earlier penalties of a player in this event, counted by infraction, with the flags. Two queries."""
    rows = list(
        Penalty.objects.filter(event=event, registration=registration, voided_at__isnull=True).values_list(
            "infraction__rule", "type"
        )
    )
    settings = policy(event)
    return escalation.advise(
        rows, upgrade_at=settings.upgrade_at, review_at=settings.review_at, adding=adding
    )


@dataclass
class DashboardLine:
    registration: Registration
    advice: escalation.Advice


def dashboard(*, event: Event) -> list[DashboardLine]:
    """Players whose penalties reached a threshold, for the head judge. Three queries."""
    settings = policy(event)
    rows: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for reg_id, rule, kind in Penalty.objects.filter(
        event=event, registration__isnull=False, voided_at__isnull=True
    ).values_list("registration_id", "infraction__rule", "type"):
        rows[reg_id].append((rule, kind))
    registrations = Registration.objects.filter(pk__in=list(rows)).select_related("player").in_bulk()
    lines = []
    for reg_id, penalties in rows.items():
        advice = escalation.advise(penalties, upgrade_at=settings.upgrade_at, review_at=settings.review_at)
        if advice.flags:
            lines.append(DashboardLine(registrations[reg_id], advice))
    return sorted(lines, key=lambda line: (-line.advice.total, line.registration.player.sort_name))


@dataclass
class PlayerChoice:
    registration: Registration
    table_number: int | None
    seat: int | None


def player_choices(*, event: Event, query: str = "", table_number: int | None = None) -> list[PlayerChoice]:
    """Players to penalise: by name (any part) or everyone at one table of the current round. Three queries."""
    round = current_round(event)
    seats = {}
    if round is not None:
        seats = {s.registration_id: s for s in Seat.objects.filter(round=round).select_related("table")}
    if table_number is not None:
        chosen = [s for s in seats.values() if s.table.number == table_number]
        chosen.sort(key=lambda s: s.seat)
        registrations = (
            Registration.objects.filter(pk__in=[s.registration_id for s in chosen])
            .select_related("player")
            .in_bulk()
        )
        return [PlayerChoice(registrations[s.registration_id], table_number, s.seat) for s in chosen]
    if not search_key(query):
        return []
    # Compared in Python (an event has hundreds of players at most): accents, case and punctuation
    # aside ("oneill" finds O'Neill), and when no name has every word, the closest names (a typo).
    everyone = list(
        Registration.objects.filter(event=event, disqualified=False)
        .select_related("player")
        .order_by("player__sort_name")
    )
    registrations = [r for r in everyone if name_matches(query, r.player.name)][:12]
    if not registrations:
        wanted = search_key(query).split()

        def closeness(registration: Registration) -> float:
            # Each word typed against the name's closest word, averaged: "Laurant" is close to "Laurent".
            words = search_key(registration.player.name).split() or [""]
            return sum(max(fuzz.ratio(w, n) for n in words) for w in wanted) / len(wanted)

        scored = sorted(((closeness(r), r) for r in everyone), key=lambda pair: -pair[0])
        registrations = [r for score, r in scored[:5] if score >= 80]
    return [
        PlayerChoice(
            r,
            seats[r.pk].table.number if r.pk in seats else None,
            seats[r.pk].seat if r.pk in seats else None,
        )
        for r in registrations
    ]


def staff_round(*, event: Event, number: int | None = None) -> Round | None:
    if number is None:
        return current_round(event)
    return Round.objects.filter(event=event, number=number).first()


# --- The wall screen ------------------------------------------------------------------------

# What the room's screen shows: the running round's clock and pairings, the standings between rounds,
# the final ranking once the event is over, or a waiting line before round 1 is published.
SCREEN_PAIRINGS = "pairings"
SCREEN_STANDINGS = "standings"
SCREEN_FINAL = "final"
SCREEN_WAITING = "waiting"


@dataclass(frozen=True)
class ScreenLine:
    """One line of the screen's list: a name and what the room looks for next to it."""

    name: str
    table: int | None = None
    seat: int | None = None
    place: int | None = None
    points: str = ""


@dataclass(frozen=True)
class ExtraTime:
    table: int
    minutes: int


@dataclass
class Screen:
    event: Event
    kind: str
    round: Round | None = None  # the latest published round
    clock: ClockState | None = None  # only while a round runs
    extended: list[ExtraTime] = field(default_factory=list)
    lines: list[ScreenLine] = field(default_factory=list)

    @property
    def key(self) -> str:
        """Changes when the screen needs a different layout (a new round, the standings, the end):
        the page's live update then reloads it whole."""
        return f"{self.kind}-{self.round.pk if self.round else 0}"

    @property
    def title(self) -> str:
        if self.kind == SCREEN_FINAL:
            return "Final ranking"
        if self.kind == SCREEN_STANDINGS:
            if self.round.kind == Round.Kind.SWISS:
                return f"Standings after {self.round.label.lower()}"
            return "Swiss standings"
        if self.kind == SCREEN_PAIRINGS:
            return "Find your table"
        return "Pairings appear here once the round is published"


def projector_screen(*, event: Event) -> Screen:
    """The wall screen of an event, as the public sees it: a draft round never shows (the latest published
    round leads). A fixed number of queries whatever the number of players."""
    ranking = final_ranking(event)
    round = current_public_round(event)
    if ranking or event.status == Event.Status.FINISHED:
        if ranking:
            lines = [ScreenLine(r.player.public_name, place=i) for i, r in enumerate(ranking, start=1)]
        else:  # finished without play-offs: the Swiss standings are the final ranking
            lines = [ScreenLine(s.name, place=s.rank, points=s.points_text) for s in event_standings(event)]
        return Screen(event, SCREEN_FINAL, round=round, lines=lines)
    if round is None:
        return Screen(event, SCREEN_WAITING)
    if round.closed:
        lines = [ScreenLine(s.name, place=s.rank, points=s.points_text) for s in event_standings(event)]
        return Screen(event, SCREEN_STANDINGS, round=round, lines=lines)
    # Tables still playing on extra time; a table whose result is in is done with it.
    extended = [
        ExtraTime(number, minutes)
        for number, minutes in TableExtension.objects.filter(
            table__round=round, table__result_entered_at=None
        )
        .values_list("table__number")
        .annotate(minutes=Sum("minutes"))
        .order_by("table__number")
    ]
    pairings, _ = public_pairings.round_pairings(round, public_pairings.pairings_key(round))
    lines = [
        ScreenLine(name, table=table, seat=seat)
        for name, table, seat in public_pairings.alphabetical(pairings)
    ]
    return Screen(
        event, SCREEN_PAIRINGS, round=round, clock=round_clock(round=round), extended=extended, lines=lines
    )
