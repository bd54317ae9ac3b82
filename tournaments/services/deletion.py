"""Deleting an event: all of it, or nothing and a message saying what keeps it."""

from __future__ import annotations

from collections import Counter

from django.db import transaction
from django.db.models import ProtectedError

from ..errors import ActionError
from ..models import Event
from ..signals import results_changed

# Why a kind of record may not go with the event, by model label; the default covers any other.
_WHY_KEPT = {
    "judging.penalty": "a player's penalties stay in their history from event to event (10.080)",
}


def event_delete(*, event: Event) -> str:
    """Delete the event with its registrations, rounds and results, and return its name. Records that
    must outlive it (penalties, kept with the player) refuse the delete: then nothing is deleted and the
    ActionError names them."""
    name = event.name
    try:
        with transaction.atomic():
            event_id = event.pk
            event.delete()
            results_changed.send(sender=Event, event_id=event_id)
    except ProtectedError as exc:
        raise ActionError(blocked_message(name, exc.protected_objects)) from None
    return name


def blocked_message(name: str, protected) -> str:
    counts = Counter(obj._meta for obj in protected)
    kinds = [
        f"{count} {meta.verbose_name if count == 1 else meta.verbose_name_plural}"
        for meta, count in sorted(counts.items(), key=lambda item: item[0].label)
    ]
    reasons = sorted({_WHY_KEPT.get(meta.label_lower, "they must be removed first") for meta in counts})
    return (
        f"{name} cannot be deleted: it has {' and '.join(kinds)} on record, and {'; '.join(reasons)}. "
        "Nothing was deleted; the event can stay as it is."
    )
