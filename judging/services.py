"""Writes: the round clock, table extensions, time calls, penalties.

Each service runs in ``transaction.atomic`` and either does the whole thing or raises
``ActionError`` with a message the page shows. Penalty effects on a game go through
``tournaments.services.results.seat_set_penalty`` so placement and standings follow.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.errors import ActionError
from tournaments.models import ANNOUNCEMENT_MAX_CHARS, Event, Registration, Round, Seat, Table
from tournaments.permissions import can
from tournaments.services.registration import registration_drop, registration_undrop
from tournaments.services.results import seat_set_penalty

from . import catalogue, selectors, time_call
from .models import (
    ClockPause,
    Infraction,
    Penalty,
    PenaltyLog,
    PenaltyPolicy,
    PenaltyType,
    RoundClock,
    TableExtension,
    TimeCall,
)

# --- The round clock --------------------------------------------------------------------


def _locked_clock(round: Round) -> RoundClock:
    clock = RoundClock.objects.select_for_update().filter(round=round).first()
    if clock is None:
        raise ActionError(f"The clock of {round.label} has not been started.")
    return clock


def clock_start(*, round: Round, user) -> RoundClock:
    """Start the round's clock with the event's round length (9.020). Starting twice does nothing."""
    with transaction.atomic():
        round = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
        if round.closed:
            raise ActionError(f"{round.label} is closed; its clock cannot start.")
        clock, _ = RoundClock.objects.get_or_create(
            round=round,
            defaults={"started_at": timezone.now(), "minutes": round.event.round_minutes, "started_by": user},
        )
    return clock


def clock_pause(*, round: Round, user, reason: str) -> ClockPause:
    reason = " ".join(reason.split())
    if not reason:
        raise ActionError("Say why the clock is paused (the room sees it on the projector).")
    with transaction.atomic():
        clock = _locked_clock(round)
        if clock.pauses.filter(ended_at__isnull=True).exists():
            raise ActionError("The clock is already paused.")
        try:
            with transaction.atomic():
                return ClockPause.objects.create(clock=clock, reason=reason[:200], paused_by=user)
        except IntegrityError as exc:
            raise ActionError("The clock is already paused.") from exc


def clock_resume(*, round: Round, user) -> RoundClock:
    """Resume a paused clock; resuming a running clock does nothing (a double tap is harmless)."""
    with transaction.atomic():
        clock = _locked_clock(round)
        clock.pauses.filter(ended_at__isnull=True).update(ended_at=timezone.now(), resumed_by=user)
    return clock


def table_extend(*, table: Table, user, minutes: int, reason: str) -> TableExtension:
    """Give one table extra minutes, e.g. after a long ruling."""
    reason = " ".join(reason.split())
    if not 1 <= minutes <= 60:
        raise ActionError("An extension is between 1 and 60 minutes.")
    if not reason:
        raise ActionError("Say why the table gets extra time (a long ruling, a deck problem…).")
    with transaction.atomic():
        table = Table.objects.select_for_update().select_related("round").get(pk=table.pk)
        if table.has_result:
            raise ActionError(f"Table {table.number} already has a result.")
        return TableExtension.objects.create(table=table, minutes=minutes, reason=reason[:200], given_by=user)


# --- The room's announcement ------------------------------------------------------------


def announcement_set(*, event: Event, text: str) -> str:
    """The line the wall screen shows the room; empty clears it. Only this column is written, so a settings
    form saved meanwhile keeps its changes and this one."""
    text = " ".join(text.split())
    if len(text) > ANNOUNCEMENT_MAX_CHARS:
        raise ActionError(f"An announcement is one line: {ANNOUNCEMENT_MAX_CHARS} characters at most.")
    Event.objects.filter(pk=event.pk).update(announcement=text)
    event.announcement = text
    return text


# --- Time calls (9.020-9.022) -------------------------------------------------------------


def time_call_record(
    *, table: Table, user, active_seat: int, seats_left: list[int] | None = None, correcting: bool = False
) -> TimeCall:
    """Record whose turn it is at a table whose time is up, and how many extra turns follow.

    ``seats_left``: turn-order numbers of players who have left the game (9.050); they take no
    more turns and are not counted. A second record for the same table is refused unless
    ``correcting`` (staff only, decided by the view), which starts the tick-off again.
    """
    with transaction.atomic():
        table = Table.objects.select_for_update().select_related("round__event").get(pk=table.pk)
        if table.has_result:
            raise ActionError(f"Table {table.number} already has a result.")
        status = selectors.table_clock(table=table)
        if status.remaining is None:
            raise ActionError("The round's clock has not been started.")
        if status.remaining > 0:
            raise ActionError(f"Table {table.number} still has {status.remaining_text} to play.")
        seats = sorted(Seat.objects.filter(table=table).values_list("seat", flat=True))
        left = set(seats_left or [])
        if left - set(seats):
            raise ActionError("Players who left the game must be seated at this table.")
        try:
            call = time_call.time_call(len(seats), active_seat, left=left)
        except time_call.TimeCallError as exc:
            raise ActionError(str(exc)) from exc
        in_game = [s for s in seats if s not in left]
        turns = call.extra_turns
        existing = TimeCall.objects.filter(table=table).first()
        if existing and not correcting:
            raise ActionError(
                f"Time was already called at table {table.number} during P{existing.active_seat}'s turn."
            )
        values = {
            "seats_in_game": in_game,
            "active_seat": active_seat,
            "extra_turns": turns,
            "turns_done": 0,
            "recorded_by": user if getattr(user, "is_authenticated", False) else None,
            "recorded_at": timezone.now(),
        }
        call, _ = TimeCall.objects.update_or_create(table=table, defaults=values)
    return call


def time_call_set_done(*, table: Table, turns_done: int) -> TimeCall:
    """Tick off the sequence up to ``turns_done`` turns (a number, not a toggle: a double tap is harmless)."""
    with transaction.atomic():
        call = TimeCall.objects.select_for_update().filter(table=table).first()
        if call is None:
            raise ActionError("Record whose turn it was when time was called first.")
        if not 0 <= turns_done <= call.total_turns:
            raise ActionError(f"The sequence has {call.total_turns} turns.")
        call.turns_done = turns_done
        call.save(update_fields=["turns_done"])
    return call


# --- Penalties ----------------------------------------------------------------------------


def policy_for(event: Event) -> PenaltyPolicy:
    policy = PenaltyPolicy.objects.filter(event=event).first()
    return policy or PenaltyPolicy(event=event)


def policy_save(*, event: Event, defaults: dict[str, str], upgrade_at: int, review_at: int) -> PenaltyPolicy:
    valid = set(PenaltyType.values)
    if any(value not in valid for value in defaults.values()):
        raise ActionError("Each default penalty is a warning, a game loss or a disqualification.")
    with transaction.atomic():
        policy, _ = PenaltyPolicy.objects.select_for_update().get_or_create(event=event)
        catalogue_defaults = dict(Infraction.objects.values_list("rule", "default_penalty"))
        # Store only what differs from the catalogue, so a later catalogue change still applies.
        policy.defaults = {
            rule: kind for rule, kind in defaults.items() if catalogue_defaults.get(rule) not in (None, kind)
        }
        policy.upgrade_at = upgrade_at
        policy.review_at = review_at
        policy.save()
    return policy


def _snapshot(penalty: Penalty) -> dict:
    return {
        "who": penalty.who,
        "infraction": penalty.infraction.rule,
        "type": penalty.type,
        "round": penalty.round.number if penalty.round_id else None,
        "table": penalty.table.number if penalty.table_id else None,
        "description": penalty.description,
        "voided": penalty.voided,
        "void_reason": penalty.void_reason,
    }


def _seat_for(registration: Registration, round: Round | None) -> Seat | None:
    if round is None:
        return None
    return Seat.objects.filter(round=round, registration=registration).select_related("table").first()


def _apply_effects(penalty: Penalty, *, user) -> None:
    reason = f"penalty: {penalty.get_type_display()} for {penalty.infraction.rule}"
    needs_game = penalty.type == PenaltyType.GAME_LOSS or penalty.infraction.rule == catalogue.REFUSED_TO_SIGN
    if needs_game and penalty.seat is None:
        where = f"in round {penalty.round.number}" if penalty.round_id else "in any round yet"
        raise ActionError(
            f"{penalty.who} is not seated {where}; a game loss or a refusal to sign needs a game."
        )
    if needs_game:
        if penalty.infraction.rule == catalogue.REFUSED_TO_SIGN:
            # Lock the table first, as a slip save does, so no slip lands between reading and applying.
            Table.objects.select_for_update().get(pk=penalty.seat.table_id)
            penalty.seat_refused_before = Seat.objects.values_list("refused_to_sign", flat=True).get(
                pk=penalty.seat_id
            )
            penalty.save(update_fields=["seat_refused_before"])
        seat_set_penalty(
            seat=penalty.seat,
            user=user,
            reason=reason,
            game_loss=True if penalty.type == PenaltyType.GAME_LOSS else None,
            refused_to_sign=True if penalty.infraction.rule == catalogue.REFUSED_TO_SIGN else None,
        )
    if penalty.type == PenaltyType.DISQUALIFICATION:
        registration = Registration.objects.select_for_update().get(pk=penalty.registration_id)
        registration.disqualified = True
        registration.save(update_fields=["disqualified"])
        after = penalty.round.number if penalty.round_id else None
        registration_drop(
            registration=registration,
            reason=f"Disqualified (10.080): {penalty.description}"[:200],
            after_round=after,
        )


# The default of ``penalty_record(round=...)``: where the event is now. ``None`` means no round at all.
CURRENT_ROUND = object()


class PenaltyAlreadyRecorded(ActionError):
    """The penalty form was sent again: ``penalty`` is what it recorded the first time."""

    def __init__(self, penalty: Penalty) -> None:
        super().__init__(
            "This penalty was already recorded (the form was sent twice); nothing new was saved."
        )
        self.penalty = penalty


def penalty_record(
    *,
    event: Event,
    user,
    infraction: Infraction,
    type: str,
    registration: Registration | None = None,
    spectator_name: str = "",
    round: Round | None | object = CURRENT_ROUND,
    description: str = "",
    submission=None,
) -> Penalty:
    """Record a penalty and apply its effect: a game loss (last in that game), 12.100 (0 points),
    a disqualification (10.080: head judge only, with a reason; dropped and out of the play-off cut).

    ``submission`` is the form's one-time token: a form sent again (the back button, a double tap) raises
    ``PenaltyAlreadyRecorded`` with the penalty it recorded the first time, and records nothing.

    Round and table are filled in from where the player is seated in ``round`` (the current round by default;
    ``None``: a penalty outside any round, e.g. during the draft, which touches no game).
    """
    description = " ".join(description.split())
    spectator_name = " ".join(spectator_name.split())
    if type not in PenaltyType.values:
        raise ActionError("Choose a warning, a game loss or a disqualification.")
    if registration is None and not spectator_name:
        raise ActionError("Choose the player, or name the spectator.")
    if registration is not None and registration.event_id != event.pk:
        raise ActionError("That player is not registered for this event.")
    if registration is None:
        if not infraction.spectators:
            raise ActionError(
                f"Only players can be penalised for {infraction.rule}; a spectator only for outside assistance."
            )
        if type != PenaltyType.WARNING:
            raise ActionError("A spectator who is not playing can only receive a warning.")
    if type == PenaltyType.DISQUALIFICATION:
        if not can(user, event, "disqualify"):
            raise ActionError("Only the head judge can disqualify a player (10.080).")
        if not description:
            raise ActionError("Give the reason for the disqualification.")
    if round is CURRENT_ROUND:
        round = Round.objects.filter(event=event).order_by("-number").first()
    if round is not None and round.event_id != event.pk:
        raise ActionError("That round is not part of this event.")
    try:
        with transaction.atomic():
            if registration is not None:
                registration = (
                    Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
                )
            if submission is not None:
                _refuse_used(submission, event)
            if registration is not None and registration.disqualified:
                raise ActionError(f"{registration.player.name} is already disqualified.")
            seat = _seat_for(registration, round) if registration is not None else None
            penalty = Penalty.objects.create(
                event=event,
                registration=registration,
                spectator_name="" if registration else spectator_name[:120],
                infraction=infraction,
                type=type,
                round=round,
                table=seat.table if seat else None,
                seat=seat,
                description=description[:500],
                recorded_by=user,
                submission=submission,
            )
            _apply_effects(penalty, user=user)
            PenaltyLog.objects.create(penalty=penalty, user=user, action="recorded", after=_snapshot(penalty))
    except IntegrityError:
        # The same form sent twice at the same moment: the second save meets the first one's token.
        if submission is None:
            raise
        _refuse_used(submission, event)
        raise
    return penalty


def _refuse_used(submission, event: Event) -> None:
    """A token a penalty already carries: that penalty, or (a form of another event's) a plain refusal."""
    earlier = Penalty.objects.filter(submission=submission).first()
    if earlier is None:
        return
    if earlier.event_id != event.pk:
        raise ActionError("This form was already used for another event: open a new penalty form.")
    raise PenaltyAlreadyRecorded(earlier)


def penalty_change(*, penalty: Penalty, user, infraction: Infraction, description: str) -> bool:
    """Correct the infraction or the description. The type is not changed here: void and record anew,
    so that the effect on the game is applied or lifted by the same two paths every time. Returns whether
    anything changed: a save with the same values writes nothing and logs nothing."""
    description = " ".join(description.split())
    with transaction.atomic():
        penalty = (
            # Lock the penalty row only: PostgreSQL refuses FOR UPDATE on the nullable side of a join.
            Penalty.objects.select_for_update(of=("self",))
            .select_related("registration__player", "infraction")
            .get(pk=penalty.pk)
        )
        if penalty.voided:
            raise ActionError("This penalty is void; record a new one instead.")
        if (infraction.rule == catalogue.REFUSED_TO_SIGN) != (
            penalty.infraction.rule == catalogue.REFUSED_TO_SIGN
        ):
            raise ActionError("Refusing to sign changes the points: void this penalty and record a new one.")
        if penalty.registration_id is None and not infraction.spectators:
            raise ActionError("A spectator can only be penalised for outside assistance.")
        before = _snapshot(penalty)
        penalty.infraction = infraction
        penalty.description = description[:500]
        after = _snapshot(penalty)
        if after == before:
            return False
        penalty.save(update_fields=["infraction", "description"])
        PenaltyLog.objects.create(penalty=penalty, user=user, action="changed", before=before, after=after)
    return True


def penalty_void(*, penalty: Penalty, user, reason: str) -> Penalty:
    """Void a penalty (never delete it) and lift its effect, unless another penalty still holds it."""
    reason = " ".join(reason.split())
    if not reason:
        raise ActionError("Say why this penalty is void.")
    with transaction.atomic():
        penalty = (
            Penalty.objects.select_for_update(of=("self",))
            .select_related("event", "registration__player", "infraction", "seat__table", "round", "table")
            .get(pk=penalty.pk)
        )
        if penalty.voided:
            return penalty
        if penalty.type == PenaltyType.DISQUALIFICATION and not can(user, penalty.event, "disqualify"):
            raise ActionError("Only the head judge can void a disqualification.")
        before = _snapshot(penalty)
        penalty.voided_at = timezone.now()
        penalty.voided_by = user
        penalty.void_reason = reason[:300]
        penalty.save(update_fields=["voided_at", "voided_by", "void_reason"])
        _lift_effects(penalty, user=user)
        PenaltyLog.objects.create(
            penalty=penalty, user=user, action="voided", before=before, after=_snapshot(penalty)
        )
    return penalty


def _slip_said_refused(penalty: Penalty) -> bool:
    """Whether "refused to sign" was on this seat before any 12.100 penalty put it there."""
    first = (
        Penalty.objects.filter(seat=penalty.seat_id, infraction__rule=catalogue.REFUSED_TO_SIGN)
        .order_by("recorded_at", "pk")
        .values_list("seat_refused_before", flat=True)
        .first()
    )
    return bool(first)


def _lift_effects(penalty: Penalty, *, user) -> None:
    still = Penalty.objects.filter(seat=penalty.seat, voided_at__isnull=True) if penalty.seat_id else None
    reason = f"penalty voided: {penalty.void_reason}"
    if penalty.seat_id:
        game_loss = None
        refused = None
        if penalty.type == PenaltyType.GAME_LOSS and not still.filter(type=PenaltyType.GAME_LOSS).exists():
            game_loss = False
        if (
            penalty.infraction.rule == catalogue.REFUSED_TO_SIGN
            and not still.filter(infraction__rule=catalogue.REFUSED_TO_SIGN).exists()
            and not _slip_said_refused(penalty)
        ):
            refused = False
        if game_loss is not None or refused is not None:
            seat_set_penalty(
                seat=penalty.seat, user=user, reason=reason, game_loss=game_loss, refused_to_sign=refused
            )
    if penalty.type == PenaltyType.DISQUALIFICATION:
        Registration.objects.filter(pk=penalty.registration_id).update(disqualified=False)
        registration_undrop(registration=penalty.registration)
