"""Match slips: entering, correcting and overriding one table's result (12.050-12.100).

Concurrency: a result form carries the table's ``version`` as it was loaded. Saving
checks it under a row lock; if another judge saved in between, nothing is written and
``ResultConflict`` carries the values the other judge saved, for the page to show.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from .. import selectors, swiss
from ..errors import ActionError
from ..models import Event, ResultChange, Round, Seat, Table


@dataclass(frozen=True)
class SeatEntry:
    """What the match slip says for one seat."""

    seat_id: int
    vp: int
    super_villains: int = 0
    main_character: str = ""
    left_game: int | None = None  # 9.040: 1 = first to leave the game
    outright_win: bool = False
    refused_to_sign: bool = False  # 12.100


class ResultConflict(ActionError):
    """Another judge saved this table after the form was loaded."""

    def __init__(self, table: Table, seats: list[Seat]) -> None:
        who = table.result_entered_by.username if table.result_entered_by else "someone else"
        super().__init__(
            f"{who} saved a result for table {table.number} while you were editing. Their values are shown; "
            "check them and save again if yours are right."
        )
        self.table = table
        self.seats = seats


class NeedsRecentSuperVillain(ActionError):
    """12.050: VP and Super-Villains tie; ask who defeated a Super-Villain most recently."""

    def __init__(self, groups: tuple[tuple[str, ...], ...], names: dict[str, str]) -> None:
        listed = "; ".join(", ".join(names[p] for p in group) for group in groups)
        super().__init__(
            f"Tied on VP and Super-Villains: which of these players defeated a Super-Villain most recently? ({listed})"
        )
        self.groups = groups


def _snapshot(seats: list[Seat]) -> dict:
    return {
        s.registration.player.name: {
            "seat": s.seat,
            "vp": s.vp,
            "super_villains": s.super_villains,
            "main_character": s.main_character,
            "left_game": s.left_game,
            "outright_win": s.outright_win,
            "refused_to_sign": s.refused_to_sign,
            "game_loss": s.game_loss,
            "placement": s.placement,
            "points": float(s.points) if s.points is not None else None,
        }
        for s in seats
    }


def _locked_table(table: Table) -> tuple[Table, list[Seat]]:
    # of=("self",): lock the table row only. result_entered_by is a nullable (outer) join, and
    # PostgreSQL refuses FOR UPDATE on the nullable side of an outer join.
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__event", "result_entered_by")
        .get(pk=table.pk)
    )
    seats = list(Seat.objects.filter(table=table).select_related("registration__player").order_by("seat"))
    return table, seats


def _place(table: Table, seats: list[Seat], recent: list[int] | None) -> None:
    """Compute placement and points for every seat (12.050, 9.040, 12.100, penalties), in place."""
    scoring = selectors.event_scoring(table.round.event)
    names = {str(s.registration_id): s.registration.player.name for s in seats}
    engine_seats = [
        swiss.Seat(
            player=str(s.registration_id),
            vp=s.vp,
            super_villains=s.super_villains,
            left=s.left_game,
            outright_win=s.outright_win,
            game_loss=s.game_loss,
            refused_to_sign=s.refused_to_sign,
        )
        for s in seats
    ]
    # In the play-offs every place counts for the final ranking, not only the points it scores, so
    # the engine must ask the tie question even where two places score the same (scoring=None).
    playoff = table.round.kind != Round.Kind.SWISS
    try:
        result = swiss.place_game(
            engine_seats,
            recent_super_villain=[str(r) for r in recent] if recent else None,
            scoring=None if playoff else scoring,
        )
    except swiss.SwissError as exc:
        raise ActionError(str(exc)) from exc
    if result.question:
        raise NeedsRecentSuperVillain(result.question, names)
    by_player = {p.player: p for p in result.placements}
    if table.placement_override:
        # A judge's order wins; points follow the placement (and 12.100 still gives 0).
        size = len(seats)
        for place, reg_id in enumerate(table.placement_override, start=1):
            seat = next(s for s in seats if s.registration_id == reg_id)
            seat.placement = place
            seat.points = scoring.points_for(place, size, refused_to_sign=seat.refused_to_sign)
            seat.placement_reason = f"set by a judge: {table.override_reason}"[:200]
        return
    for seat in seats:
        placement = by_player[str(seat.registration_id)]
        seat.placement = placement.place
        seat.points = placement.points
        seat.placement_reason = placement.reason[:200]
        if playoff:
            seat.points = scoring.points_for(
                placement.place, len(seats), refused_to_sign=seat.refused_to_sign
            )
            if seat.refused_to_sign:
                seat.placement_reason = (
                    f"{placement.reason}; refused to sign the match slip: 0 points (12.100)"[:200]
                )


def _tie_groups(table: Table, seats: list[Seat]) -> tuple[tuple[str, ...], ...]:
    """The ties on this slip that need the Super-Villain question, if nobody had answered it."""
    try:
        _place(table, seats, None)
    except NeedsRecentSuperVillain as exc:
        return exc.groups
    return ()


def _save(table: Table, seats: list[Seat], *, user, action: str, before: dict, reason: str = "") -> None:
    Seat.objects.bulk_update(
        seats,
        [
            "vp",
            "super_villains",
            "main_character",
            "left_game",
            "outright_win",
            "refused_to_sign",
            "game_loss",
            "placement",
            "points",
            "placement_reason",
        ],
    )
    table.version += 1
    table.result_entered_at = table.result_entered_at or timezone.now()
    table.result_entered_by = user
    table.save(
        update_fields=[
            "version",
            "result_entered_at",
            "result_entered_by",
            "recent_super_villain",
            "placement_override",
            "override_reason",
        ]
    )
    ResultChange.objects.create(
        table=table, user=user, action=action, before=before, after=_snapshot(seats), reason=reason
    )
    if table.round.closed:
        # Standings count closed rounds only: a slip in a running round leaves them (and their cache) as they are.
        Event.objects.filter(pk=table.round.event_id).update(results_version=F("results_version") + 1)


def _apply(entries: list[SeatEntry], seats: list[Seat]) -> None:
    """Check a slip (every player once, a possible leaving order, one outright winner who stayed, no
    negative numbers) and copy its values onto the seats, in memory."""
    by_id = {s.pk: s for s in seats}
    if sorted(e.seat_id for e in entries) != sorted(by_id):
        raise ActionError("The slip must list every player at the table once.")
    left = [e.left_game for e in entries if e.left_game is not None]
    if len(set(left)) != len(left):
        raise ActionError("Two players cannot have left the game at the same moment: number them 1, 2, …")
    if len(left) >= len(seats):
        raise ActionError(
            "Someone must still be playing when the game ends: "
            f"at most {len(seats) - 1} of {len(seats)} players can have left it (9.040)."
        )
    if any(not 1 <= n <= len(seats) - 1 for n in left):
        raise ActionError(
            f"Number the players who left in the order they left: 1 to {len(seats) - 1} at this table."
        )
    if sum(1 for e in entries if e.outright_win) > 1:
        raise ActionError("Only one player can win the game outright.")
    if any(e.outright_win and e.left_game is not None for e in entries):
        raise ActionError("A player who left the game cannot also have won it outright.")
    for entry in entries:
        if entry.vp < 0 or entry.super_villains < 0:
            raise ActionError("VP and Super-Villains are whole numbers of 0 or more (1.060).")
        seat = by_id[entry.seat_id]
        seat.vp = entry.vp
        seat.super_villains = entry.super_villains
        seat.main_character = entry.main_character.strip()[:120]
        seat.left_game = entry.left_game
        seat.outright_win = entry.outright_win
        seat.refused_to_sign = entry.refused_to_sign


def slip_tie_question(*, table: Table, entries: list[SeatEntry]) -> NeedsRecentSuperVillain | None:
    """The Super-Villain question this slip would ask (12.050), without saving anything: a page asks
    it again when the answer it was given cannot be used. Raises ``ActionError`` for a slip that
    ``result_enter`` would refuse."""
    seats = list(Seat.objects.filter(table=table).select_related("registration__player").order_by("seat"))
    _apply(entries, seats)
    try:
        _place(table, seats, None)
    except NeedsRecentSuperVillain as question:
        return question
    return None


def result_enter(
    *,
    table: Table,
    entries: list[SeatEntry],
    expected_version: int,
    user,
    recent_super_villain: list[int] | None = None,
    reason: str = "",
) -> list[Seat]:
    """Save a match slip. A second save of the same table is a correction and is logged as one."""
    with transaction.atomic():
        table, seats = _locked_table(table)
        if table.version != expected_version:
            raise ResultConflict(table, seats)
        if table.round.closed and not reason.strip():
            raise ActionError("This round is closed: give a reason for the correction.")
        before = _snapshot(seats) if table.has_result else {}
        _apply(entries, seats)
        answer = [int(r) for r in recent_super_villain or []]
        if not answer and table.recent_super_villain:
            # An answer given for an earlier version of the slip counts only if it names every player of
            # every tie the slip has now; otherwise the question is asked again.
            groups = _tie_groups(table, seats)
            if groups and all(int(p) in table.recent_super_villain for group in groups for p in group):
                answer = list(table.recent_super_villain)
        table.recent_super_villain = answer
        _place(table, seats, answer or None)
        action = "correction" if before else "result"
        _save(table, seats, user=user, action=action, before=before, reason=reason)
    return seats


def result_override(
    *, table: Table, order: list[int], reason: str, expected_version: int, user
) -> list[Seat]:
    """A judge sets the placement by hand (registration ids, 1st first), with a reason."""
    if not reason.strip():
        raise ActionError("Give a reason for overriding the placement.")
    with transaction.atomic():
        table, seats = _locked_table(table)
        if table.version != expected_version:
            raise ResultConflict(table, seats)
        if not table.has_result:
            raise ActionError("Enter the match slip first, then override the placement.")
        if sorted(order) != sorted(s.registration_id for s in seats):
            raise ActionError("The override must place every player at the table once.")
        before = _snapshot(seats)
        table.placement_override = order
        table.override_reason = reason.strip()[:300]
        _place(table, seats, table.recent_super_villain or None)
        _save(table, seats, user=user, action="override", before=before, reason=reason)
    return seats


def result_clear_override(*, table: Table, expected_version: int, user) -> list[Seat]:
    with transaction.atomic():
        table, seats = _locked_table(table)
        if table.version != expected_version:
            raise ResultConflict(table, seats)
        before = _snapshot(seats)
        table.placement_override = []
        table.override_reason = ""
        _place(table, seats, table.recent_super_villain or None)
        _save(table, seats, user=user, action="override", before=before, reason="override removed")
    return seats


def seat_set_penalty(
    *, seat: Seat, user, reason: str, game_loss: bool | None = None, refused_to_sign: bool | None = None
) -> Seat:
    """Apply (or lift) a penalty's effect on one game and recompute the table.

    Game loss: the player is last in that round's game. Refusing to sign the slip (12.100): 0 points
    that round. Placement, points and (through results_version) standings follow.
    """
    with transaction.atomic():
        table, seats = _locked_table(seat.table)
        target = next(s for s in seats if s.pk == seat.pk)
        before = _snapshot(seats)
        if game_loss is not None:
            target.game_loss = game_loss
        if refused_to_sign is not None:
            target.refused_to_sign = refused_to_sign
        if table.has_result:
            _place(table, seats, table.recent_super_villain or None)
            _save(table, seats, user=user, action="penalty", before=before, reason=reason)
        else:
            Seat.objects.filter(pk=target.pk).update(
                game_loss=target.game_loss, refused_to_sign=target.refused_to_sign
            )
    return target


def round_results_complete(round: Round) -> bool:
    return not Table.objects.filter(round=round, result_entered_at__isnull=True).exists()
