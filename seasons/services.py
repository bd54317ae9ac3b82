"""Writes to seasons: each inside one transaction; a user-fixable refusal is an ``ActionError`` (or a
subclass naming the form field at fault) and leaves the data as it was."""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q

from tournaments.errors import ActionError
from tournaments.models import Event

from .models import Season, SeasonEvent, SeasonOrganizer
from .permissions import can_add_event, can_remove_event, is_season_organizer
from .points import clean_scheme


class FieldError(ActionError):
    """A refusal that belongs to one field of the form."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class SeasonConflict(ActionError):
    """Another organizer saved the season after this form was loaded."""

    def __init__(self, season: Season) -> None:
        super().__init__(
            "Another organizer saved this season while you were editing. Nothing of yours was saved: your "
            "values are still in the form; compare with the values saved now, then save again to keep yours."
        )
        self.season = season


EDITABLE = ("name", "start_date", "end_date", "description", "points")


def _check_dates(start: datetime.date, end: datetime.date) -> None:
    if end < start:
        raise FieldError("end_date", "The season cannot end before it starts.")


def season_create(*, user, name: str, start_date, end_date, description: str = "", points: dict) -> Season:
    """A new season; its creator is its first organizer."""
    _check_dates(start_date, end_date)
    points = clean_scheme(points)
    with transaction.atomic():
        season = Season.objects.create(
            name=name.strip(),
            start_date=start_date,
            end_date=end_date,
            description=description,
            points=points,
            created_by=user,
        )
        SeasonOrganizer.objects.create(season=season, user=user, added_by=user)
    return season


def season_save(*, season: Season, fields: dict, version: int | None) -> Season:
    """Save the form's fields if nobody saved the season since ``version`` was loaded; otherwise
    ``SeasonConflict`` and nothing is written. New dates must still hold every event of the season."""
    fields = {name: fields[name] for name in EDITABLE if name in fields}
    if "points" in fields:
        fields["points"] = clean_scheme(fields["points"])
    with transaction.atomic():
        current = Season.objects.select_for_update().get(pk=season.pk)
        if version is None or version != current.version:
            raise SeasonConflict(current)
        start = fields.get("start_date", current.start_date)
        end = fields.get("end_date", current.end_date)
        _check_dates(start, end)
        outside = list(
            Event.objects.filter(season_entries__season=current)
            .filter(Q(date__lt=start) | Q(date__gt=end))
            .order_by("date")
            .values_list("name", "date")[:5]
        )
        if outside:
            names = "; ".join(f"{name} ({date})" for name, date in outside)
            field = "start_date" if any(date < start for _, date in outside) else "end_date"
            raise FieldError(field, f"These events of the season fall outside the new dates: {names}.")
        for name, value in fields.items():
            setattr(current, name, value)
        current.version += 1
        current.save()
    return current


def season_event_add(*, season: Season, event: Event, user) -> SeasonEvent:
    """Count ``event`` in ``season``: a season organizer who organizes the event, an event dated within
    the season. An event that already ended may be added; so may an event already in another season."""
    if not can_add_event(user, season, event):
        raise FieldError("event", "You can add only events you organize to a season you organize.")
    if not season.start_date <= event.date <= season.end_date:
        raise FieldError(
            "event",
            f"{event.name} is on {event.date}, outside the season ({season.start_date} to {season.end_date}). "
            "Change the season's dates first, or choose another event.",
        )
    try:
        with transaction.atomic():
            return SeasonEvent.objects.create(season=season, event=event, added_by=user)
    except IntegrityError as exc:
        raise FieldError("event", f"{event.name} is already in this season.") from exc


def season_event_remove(*, season: Season, event: Event, user) -> bool:
    """Take ``event`` out of ``season`` (its results stay with the event). False if it was not in it."""
    if not can_remove_event(user, season, event):
        raise ActionError(
            f"Only the season's creator or an organizer of {event.name} can take it out of the season."
        )
    deleted, _ = SeasonEvent.objects.filter(season=season, event=event).delete()
    return bool(deleted)


def season_organizer_add(*, season: Season, who: str, user) -> SeasonOrganizer:
    """Share the season with an existing account, named by its username or an email address of it."""
    if not is_season_organizer(user, season):
        raise FieldError("who", "Only the season's organizers can add another.")
    who = who.strip()
    User = get_user_model()
    account = User.objects.filter(username__iexact=who).order_by("pk").first()
    if account is None and "@" in who:
        account = (
            User.objects.filter(Q(email__iexact=who) | Q(emailaddress__email__iexact=who))
            .order_by("pk")
            .first()
        )
    if account is None or not account.is_active:
        raise FieldError("who", "No account has that username or email address. They need to sign up first.")
    try:
        with transaction.atomic():
            return SeasonOrganizer.objects.create(season=season, user=account, added_by=user)
    except IntegrityError as exc:
        raise FieldError("who", f"{account.username} already organizes this season.") from exc
