"""Who may open what: the visitors the permission tests try every page as, and what each should get."""

from __future__ import annotations

from django.urls import reverse

from tests.factories import add_staff, make_event, make_user
from tournaments.models import EventStaff, Registration

VISITORS = ["anonymous", "player", "other_judge", "judge", "head_judge", "organizer"]
# Running an event (any of its staff); managing it (organizer only); public pages (everyone).
RUN = {
    "anonymous": "login",
    "player": 403,
    "other_judge": 403,
    "judge": "ok",
    "head_judge": "ok",
    "organizer": "ok",
}
MANAGE = {**RUN, "judge": 403, "head_judge": 403}
PUBLIC = dict.fromkeys(VISITORS, "ok")


def log_in_as(client, visitor: str, event, *, registration: Registration | None = None):
    """Log ``client`` in as ``visitor`` of ``event``: "other_judge" judges another event; "player" is a
    plain account, linked to ``registration``'s player when given; the rest are the event's staff."""
    if visitor == "anonymous":
        return client
    user = make_user(visitor)
    if visitor == "other_judge":
        add_staff(make_event(), user, EventStaff.Role.JUDGE)
    elif visitor == "player":
        if registration is not None:
            registration.player.user = user
            registration.player.save()
    else:
        add_staff(event, user, visitor)
    client.force_login(user)
    return client


def outcome(response) -> str | int:
    """ "login" (sent to log in), "ok" (the page, or a redirect elsewhere) or the refusing status code."""
    if response.status_code == 302 and response["Location"].startswith(reverse("account_login")):
        return "login"
    if response.status_code in (200, 302):
        return "ok"
    return response.status_code
