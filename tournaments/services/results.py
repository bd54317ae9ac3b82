"""Match slips: entering, correcting and overriding one table's result (12.050-12.100).

Concurrency: a result form carries the table's ``version`` as it was loaded. Saving
checks it under a row lock; if another judge saved in between, nothing is written and
``ResultConflict`` carries the values the other judge saved, for the page to show.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from .. import selectors, swiss
from ..errors import ActionError
from ..models import Event, ResultChange, Round, Seat, Table
from ..signals import results_changed


@dataclass(frozen=True)
class SeatEntry:
    """What the match slip says for one seat."""

    seat_id: int
    vp: int
    super_villains: int = 0
    main_character: str = ""
    main_character_key: str = ""  # the catalogue's key (tournaments.characters) when matched
    left_game: int | None = None  # 9.040: 1 = first to leave the game
    outright_win: bool = False
    refused_to_sign: bool = False  # 12.100


class ResultConflict(ActionError):
    """Another judge saved this table after the form was loaded."""

    def __init__(self, table: Table, seats: list[Seat]) -> None:
        who = table.result_entered_by.username if table.result_entered_by else "someone else"
        super().__init__(
            f"{who} saved a result for table {table.number} while you were editing. Nothing of yours was saved: "
            "their values are listed, your form keeps what you typed; save again if yours are right."
        )
        self.table = table
        self.seats = seats


class NeedsRecentSuperVillain(ActionError):
    """12.050: VP and Super-Villains tie; ask who defeated a Super-Villain most recently. ``groups`` holds
    registration ids (as strings) of each tie; ``names`` their names."""

    def __init__(self, groups: tuple[tuple[str, ...], ...], names: dict[str, str], refusal: str = "") -> None:
        listed = "; ".join(", ".join(names[p] for p in group) for group in groups)
        self.prompt = (
            f"Tied on VP and Super-Villains: {swiss.QUESTION[0].lower()}{swiss.QUESTION[1:]} ({listed})"
        )
        super().__init__(refusal or self.prompt)
        self.groups = groups
        self.names = names
        self.refusal = refusal  # why the answer given could not be used, for the page to show


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
    """Lock the round, then the table: closing a round and saving one of its slips serialise on the round,
    so a correction never lands after the close unseen (nor a result in a round being closed)."""
    Round.objects.select_for_update().filter(pk=table.round_id).first()
    # of=("self",): lock the table row only. result_entered_by is a nullable (outer) join, and
    # PostgreSQL refuses FOR UPDATE on the nullable side of an outer join.
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__event", "result_entered_by")
        .get(pk=table.pk)
    )
    seats = list(Seat.objects.filter(table=table).select_related("registration__player").order_by("seat"))
    return table, seats


def _names(seats: list[Seat], *, public: bool = False) -> dict[str, str]:
    """Names for messages; ``public``: as each player chose to be shown to other players (a player's page)."""
    return {
        str(s.registration_id): s.registration.player.public_name if public else s.registration.player.name
        for s in seats
    }


def game_slip(table: Table, seats: list[Seat], answer: dict[int, int] | None = None) -> swiss.Slip:
    """The engine's view of this table's slip as the seats hold it now."""
    return swiss.Slip(
        seats=tuple(
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
        ),
        playoff=table.round.kind != Round.Kind.SWISS,
        recent_super_villain={str(k): v for k, v in (answer or {}).items()} or None,
        earlier_answer=tuple(str(r) for r in table.recent_super_villain or ()),
        override=tuple(str(r) for r in table.placement_override or ()),
        override_reason=table.override_reason,
    )


def outcome(
    table: Table, seats: list[Seat], answer: dict[int, int] | None = None, *, public: bool = False
) -> swiss.GameResult:
    """Call the engine on this slip; a refusal becomes an ``ActionError`` that names the player at fault,
    a tie to settle a ``NeedsRecentSuperVillain``."""
    names = _names(seats, public=public)
    try:
        result = swiss.game_result(
            game_slip(table, seats, answer), scoring=selectors.event_scoring(table.round.event)
        )
    except swiss.TieAnswerError as exc:
        raise NeedsRecentSuperVillain(exc.question, names, str(exc)) from exc
    except swiss.SlipError as exc:
        prefix = f"{names[exc.player]}: " if exc.player in names else ""
        raise ActionError(prefix + str(exc)) from exc
    except swiss.SwissError as exc:
        raise ActionError(str(exc)) from exc
    if result.question:
        raise NeedsRecentSuperVillain(result.question, names)
    return result


def _place(table: Table, seats: list[Seat], answer: dict[int, int] | None = None) -> None:
    """Placement and points for every seat from the engine, in place; the tie answer used is kept."""
    result = outcome(table, seats, answer)
    by_player = {p.player: p for p in result.placements}
    for seat in seats:
        placement = by_player[str(seat.registration_id)]
        seat.placement = placement.place
        seat.points = placement.points
        seat.placement_reason = placement.reason[:200]
    table.recent_super_villain = [int(p) for p in result.answer]


def _save(table: Table, seats: list[Seat], *, user, action: str, before: dict, reason: str = "") -> None:
    Seat.objects.bulk_update(
        seats,
        [
            "vp",
            "super_villains",
            "main_character",
            "main_character_key",
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
        results_changed.send(sender=Event, event_id=table.round.event_id)


def _apply(entries: list[SeatEntry], seats: list[Seat]) -> None:
    """Copy a slip's values onto the seats, in memory (the engine judges them)."""
    by_id = {s.pk: s for s in seats}
    if sorted(e.seat_id for e in entries) != sorted(by_id):
        raise ActionError("The slip must list every player at the table once.")
    for entry in entries:
        seat = by_id[entry.seat_id]
        seat.vp = entry.vp
        seat.super_villains = entry.super_villains
        text = entry.main_character.strip()[:120]
        # A slip saved without a match (free text, no catalogue) keeps the key of an unchanged text.
        unchanged = text == seat.main_character and not entry.main_character_key
        seat.main_character_key = (
            "" if not text else seat.main_character_key if unchanged else entry.main_character_key[:300]
        )
        seat.main_character = text
        seat.left_game = entry.left_game
        seat.outright_win = entry.outright_win
        seat.refused_to_sign = entry.refused_to_sign


def _only_reports_since(table: Table, version: int) -> bool:
    """Everything saved on this table since ``version`` came from the players' report: a judge's entry
    made from an older page still wins over it (each save adds one version and one change)."""
    newer = table.version - version
    if newer <= 0:
        return False
    changes = list(
        ResultChange.objects.filter(table=table)
        .order_by("-at", "-pk")
        .values_list("action", flat=True)[:newer]
    )
    return len(changes) == newer and all(a == "report" for a in changes)


def slip_outcome(
    *,
    table: Table,
    seats: list[Seat],
    entries: list[SeatEntry],
    answer: dict[int, int] | None = None,
    public: bool = False,
) -> swiss.GameResult:
    """What this slip would give, saving nothing and leaving ``seats`` as they are (a page shows a report's
    placements, or asks the tie question before sending). Refuses exactly as ``result_enter`` would."""
    copies = [copy.copy(s) for s in seats]
    _apply(entries, copies)
    return outcome(table, copies, answer, public=public)


def result_enter(
    *,
    table: Table,
    entries: list[SeatEntry],
    expected_version: int,
    user,
    recent_super_villain: dict[int, int] | None = None,
    reason: str = "",
    action: str = "",
) -> list[Seat]:
    """Save a match slip. A second save of the same table is a correction and is logged as one.

    ``recent_super_villain`` answers the tie question: registration id -> 1 for the most recent, 2, …
    A judge's entry settles any report the players made of this table."""
    with transaction.atomic():
        table, seats = _locked_table(table)
        if table.version != expected_version and not (
            action != "report" and _only_reports_since(table, expected_version)
        ):
            raise ResultConflict(table, seats)
        if table.round.closed and not reason.strip():
            raise ActionError("This round is closed: give a reason for the correction.")
        before = _snapshot(seats) if table.has_result else {}
        _apply(entries, seats)
        _place(table, seats, recent_super_villain)
        action = action or ("correction" if before else "result")
        _save(table, seats, user=user, action=action, before=before, reason=reason)
        if action != "report":
            reports_settled_by_judge(table=table, user=user)
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
        before = _snapshot(seats)
        table.placement_override = order
        table.override_reason = reason.strip()[:300]
        _place(table, seats)
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
        _place(table, seats)
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
            _place(table, seats)
            _save(table, seats, user=user, action="penalty", before=before, reason=reason)
        else:
            Seat.objects.filter(pk=target.pk).update(
                game_loss=target.game_loss, refused_to_sign=target.refused_to_sign
            )
    return target


def reports_settled_by_judge(*, table: Table, user) -> None:
    """A judge's entry always wins over a report: any open report of this table is settled by it."""
    from ..models import SlipReport

    SlipReport.objects.filter(table=table, status__in=SlipReport.OPEN).update(
        status=SlipReport.Status.SETTLED, closed_at=timezone.now(), closed_by=user
    )


def round_results_complete(round: Round) -> bool:
    return not Table.objects.filter(round=round, result_entered_at__isnull=True).exists()
