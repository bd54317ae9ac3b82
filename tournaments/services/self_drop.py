"""A player drops themselves from an event (9.030), from their own page.

Between rounds they may; during a game they may not: a player who leaves a game in progress is handled by
a judge (9.040: they are last at their table), so the page tells them to call one.
"""

from __future__ import annotations

from django.db import transaction

from ..errors import ActionError
from ..models import Event, Registration, Round, Seat
from .registration import registration_drop


def self_drop_refusal(registration: Registration) -> str:
    """Why this player cannot drop themselves now, or "" if they can. Reads; the service checks again."""
    event = registration.event
    if registration.disqualified:
        return "You were disqualified from this event (10.080)."
    if registration.dropped:
        return "You have already dropped from this event."
    if event.in_registration:
        return "The event has not started: withdraw from it instead."
    if event.status == Event.Status.FINISHED:
        return "The event is over."
    seat = (
        Seat.objects.filter(registration=registration, round__status=Round.Status.PAIRED)
        .exclude(round__published_at=None)
        .select_related("table")
        .first()
    )
    if seat is not None and not seat.table.has_result:
        return "Your game is still going: call a judge (9.040)."
    return ""


def _after_round(registration: Registration) -> int:
    """The last round this player finished: the closed rounds, or the running round once their game in it
    has a result."""
    event = registration.event
    closed = event.rounds.filter(status=Round.Status.CLOSED).count()
    finished = (
        Seat.objects.filter(registration=registration, table__result_entered_at__isnull=False)
        .order_by("-round__number")
        .values_list("round__number", flat=True)
        .first()
    )
    return max(closed, finished or 0)


def registration_self_drop(*, registration: Registration, user) -> Registration:
    """``user`` (whose player record this registration is) drops from the event between rounds."""
    with transaction.atomic():
        # The rounds first (closing a round and saving a result lock a round, then the event), so a round
        # published or a result saved meanwhile is seen; then the event, as every drop does.
        list(Round.objects.select_for_update().filter(event_id=registration.event_id).order_by("number"))
        Event.objects.select_for_update().filter(pk=registration.event_id).first()
        registration = Registration.objects.select_related("event", "player").get(pk=registration.pk)
        if user is None or registration.player.user_id != user.pk:
            raise ActionError("Only the player can drop themselves; staff drop players from the desk.")
        refusal = self_drop_refusal(registration)
        if refusal:
            raise ActionError(refusal)
        return registration_drop(
            registration=registration,
            reason="dropped from their page",
            after_round=_after_round(registration),
        )
