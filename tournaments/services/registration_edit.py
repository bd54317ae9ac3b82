"""Editing a registration: the player's name and email, the registration's notes, and the account that
owns the player record. Every change goes into the registration's history (``RegistrationChange``)."""

from __future__ import annotations

from django.db import transaction

from ..errors import ActionError
from ..models import Player, Registration, RegistrationChange, sort_name_for
from ..roster import name_key

# The fields the edit form shows, in order; ``account`` is the owning account's user name.
EDIT_FIELDS = ("name", "email", "notes", "account")
# The ones that belong to the person (every event they played), not to this one registration.
PLAYER_FIELDS = ("name", "email", "account")


class RegistrationConflict(ActionError):
    """Someone saved this registration after the form was loaded: nothing was written."""

    def __init__(self, current: dict[str, str], changed: list[str]) -> None:
        super().__init__(
            "Someone else changed this registration while you were editing. Nothing of yours was saved: "
            "compare with the values saved now, then save again to keep yours."
        )
        self.current = current
        self.changed = changed


def registration_values(registration: Registration, player: Player | None = None) -> dict[str, str]:
    """The edit form's fields as saved now, as text (what the form loads and compares)."""
    player = player or registration.player
    return {
        "name": player.name,
        "email": player.email,
        "notes": registration.notes,
        "account": player.user.username if player.user_id else "",
    }


def registration_edit(
    *, registration: Registration, name: str, email: str, notes: str, account, loaded: dict, by
) -> Registration:
    """Save the edit form. ``loaded`` holds the values the form was loaded with: if any of them changed
    since, ``RegistrationConflict`` names them and nothing is written. ``account``: the account that
    should own the player record (None: no account)."""
    name = " ".join(name.split())
    email = email.strip()
    if not name:
        raise ActionError("Enter the player's name.")
    with transaction.atomic():
        registration = (
            Registration.objects.select_for_update().select_related("event").get(pk=registration.pk)
        )
        player = (
            Player.objects.select_for_update(of=("self",))
            .select_related("user")
            .get(pk=registration.player_id)
        )
        current = registration_values(registration, player)
        changed_since = [f for f in EDIT_FIELDS if current[f] != (loaded.get(f) or "")]
        if changed_since:
            raise RegistrationConflict(current, changed_since)
        wanted = {
            "name": name,
            "email": email,
            "notes": notes,
            "account": account.username if account else "",
        }
        changes = {f: [current[f], wanted[f]] for f in EDIT_FIELDS if current[f] != wanted[f]}
        if not changes:
            return registration
        _check_unique(registration, player, name=name, email=email, changes=changes)
        if "name" in changes:
            player.name = name
            player.sort_name = sort_name_for(name)
        if "email" in changes:
            player.email = email
        if "account" in changes:
            if account is not None:
                from accounts.services import check_no_double_entry

                check_no_double_entry(player, account)
                player.public_short_name = Player.objects.filter(
                    user=account, public_short_name=True
                ).exists()
            player.user = account
            player.claim_code = ""
        player.save()
        if "notes" in changes:
            registration.notes = notes
            registration.save(update_fields=["notes"])
        RegistrationChange.objects.create(registration=registration, user=by, action="edit", changes=changes)
        # The person's name, email and account show at their other events too: their history says so.
        shared = {f: change for f, change in changes.items() if f in PLAYER_FIELDS}
        if shared:
            RegistrationChange.objects.bulk_create(
                RegistrationChange(
                    registration=other,
                    user=by,
                    action="edit",
                    changes=shared,
                    note=f"edited at {registration.event.name}"[:300],
                )
                for other in Registration.objects.filter(player=player).exclude(pk=registration.pk)
            )
        if "email" in changes and player.user_id is None:
            from accounts.services import player_link_verified_owner

            player_link_verified_owner(player=player)
    return registration


def _check_unique(
    registration: Registration, player: Player, *, name: str, email: str, changes: dict
) -> None:
    """The same name or email twice in one event is refused, here as when adding a player; a name
    change is checked at every event the player is in."""
    events = Registration.objects.filter(player=player).values("event_id")
    others = (
        Registration.objects.filter(event_id__in=events)
        .exclude(player=player)
        .select_related("player", "event")
    )
    for other in others:
        if "name" in changes and name_key(other.player.name) == name_key(name):
            raise ActionError(f"{name} is already registered for {other.event.name}.")
        if (
            "email" in changes
            and email
            and other.event_id == registration.event_id
            and other.player.email.casefold() == email.casefold()
        ):
            raise ActionError(f"{email} is already registered for this event (as {other.player.name}).")
