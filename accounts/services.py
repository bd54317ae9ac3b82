"""Writes about accounts: linking players to the accounts that own them, claim codes, privacy,
organizer approval, deleting an account. Each runs in one transaction and raises ``ActionError`` for what a
user can fix."""

from __future__ import annotations

import secrets

from allauth.account.models import EmailAddress
from django.db import IntegrityError, transaction
from django.db.models.functions import Lower
from django.utils import timezone

from seasons.models import Season, SeasonOrganizer
from tournaments.errors import ActionError
from tournaments.models import Event, EventStaff, Player, Registration, RegistrationChange
from tournaments.signals import players_linked

from .models import OrganizerApproval

# No 0/O, 1/I/L: a code read aloud or off paper is typed right the first time.
CLAIM_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def verified_user_for_email(email: str):
    """The account that verified this address, if any."""
    if not email:
        return None
    address = EmailAddress.objects.filter(email__iexact=email, verified=True).select_related("user").first()
    return address.user if address else None


def _log(player: Player, *, action: str, by, changes: dict | None = None, note: str = "") -> None:
    RegistrationChange.objects.bulk_create(
        RegistrationChange(registration=r, user=by, action=action, changes=changes or {}, note=note)
        for r in Registration.objects.filter(player=player)
    )


def _account_label(user) -> str:
    return user.username if user is not None else ""


def players_link_for_email(*, user, email: str) -> list[Player]:
    """Link every unowned player record carrying ``email`` (verified by ``user``) to the account.
    Records owned by another account are left alone: two records are never merged or taken over."""
    with transaction.atomic():
        players = list(Player.objects.select_for_update().filter(email__iexact=email, user__isnull=True))
        short = prefers_short_name(user)
        for player in players:
            if shared_event(player, user) is not None:
                continue  # two places at one event: staff sort it out (never merged silently)
            player.user = user
            player.public_short_name = player.public_short_name or short
            player.claim_code = ""
            player.save(update_fields=["user", "public_short_name", "claim_code"])
            _log(
                player,
                action="link",
                by=user,
                changes={"account": ["", user.username]},
                note="verified email",
            )
    return players


def shared_event(player: Player, user) -> Registration | None:
    """A registration of another record of ``user`` at an event ``player`` is in: linking ``player`` to
    ``user`` would give one person two places there."""
    events = Registration.objects.filter(player=player).values("event_id")
    return (
        Registration.objects.filter(player__user=user, event_id__in=events)
        .exclude(player=player)
        .select_related("event", "player")
        .first()
    )


def check_no_double_entry(player: Player, user) -> None:
    clash = shared_event(player, user)
    if clash is not None:
        raise ActionError(
            f"{user.username} is already registered for {clash.event.name} as {clash.player.name}: one "
            f"person cannot hold two places there. Remove one of the two registrations first."
        )


def player_link_verified_owner(*, player: Player) -> Player:
    """Staff added a player with an email an account has verified: the record is that account's (past
    and future events alike). A record owned already, by anyone, is left as it is."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.user_id is not None or not player.email:
            return player
        owner = verified_user_for_email(player.email)
        if owner is None or shared_event(player, owner) is not None:
            return player  # no owner, or one who already plays these events under another record
        player.user = owner
        player.claim_code = ""
        player.public_short_name = player.public_short_name or prefers_short_name(owner)
        player.save(update_fields=["user", "claim_code", "public_short_name"])
        _log(player, action="link", by=None, changes={"account": ["", owner.username]}, note="verified email")
    return player


def players_link_verified_owners(*, players: list[Player]) -> list[Player]:
    """``player_link_verified_owner`` for many records at once (a roster import), in a fixed number of
    queries, with the same outcome as calling it on each in turn: a record with an email an account verified
    becomes that account's, unless it is owned already or the account plays one of its events under another
    record (counting the records linked earlier in this list). Returns the records it linked."""
    from tournaments.services.registration import BATCH

    candidates = {p.pk: p for p in players if p.email and p.user_id is None}
    if not candidates:
        return []
    with transaction.atomic():
        ids = list(candidates)
        locked: dict[int, Player] = {}
        for start in range(0, len(ids), BATCH):
            for player in Player.objects.select_for_update().filter(pk__in=ids[start : start + BATCH]):
                if player.user_id is None and player.email:
                    locked[player.pk] = player
        owners = _verified_owners([p.email for p in locked.values()])
        if not owners:
            return []
        owner_ids = {user.pk for user in owners.values()}
        # Where each record and each owner's records play: a link must not give one person two places.
        events_of: dict[int, set[int]] = {}
        for start in range(0, len(ids), BATCH):
            for player_id, event_id in Registration.objects.filter(
                player_id__in=ids[start : start + BATCH]
            ).values_list("player_id", "event_id"):
                events_of.setdefault(player_id, set()).add(event_id)
        owned: dict[int, set[tuple[int, int]]] = {uid: set() for uid in owner_ids}
        for player_id, user_id, event_id in Registration.objects.filter(
            player__user_id__in=owner_ids
        ).values_list("player_id", "player__user_id", "event_id"):
            owned[user_id].add((player_id, event_id))
        short = set(
            Player.objects.filter(user_id__in=owner_ids, public_short_name=True).values_list(
                "user_id", flat=True
            )
        )
        linked: list[Player] = []
        for player in (locked[pk] for pk in ids if pk in locked):
            owner = owners.get(player.email.casefold())
            if owner is None:
                continue
            mine = events_of.get(player.pk, set())
            if any(event_id in mine for other, event_id in owned[owner.pk] if other != player.pk):
                continue  # no owner, or one who already plays these events under another record
            player.user = owner
            player.claim_code = ""
            player.public_short_name = player.public_short_name or owner.pk in short
            owned[owner.pk].update((player.pk, event_id) for event_id in mine)
            if player.public_short_name:
                short.add(owner.pk)
            linked.append(player)
        Player.objects.bulk_update(linked, ["user", "claim_code", "public_short_name"], batch_size=BATCH)
        if linked:
            # Once for the batch: what one record's save would tell its listeners (the ratings).
            players_linked.send(sender=Player, player_ids=[player.pk for player in linked])
        changes = {player.pk: {"account": ["", player.user.username]} for player in linked}
        link_ids = list(changes)
        for start in range(0, len(link_ids), BATCH):
            RegistrationChange.objects.bulk_create(
                [
                    RegistrationChange(
                        registration_id=registration_id,
                        user=None,
                        action="link",
                        changes=changes[player_id],
                        note="verified email",
                    )
                    for registration_id, player_id in Registration.objects.filter(
                        player_id__in=link_ids[start : start + BATCH]
                    ).values_list("pk", "player_id")
                ],
                batch_size=BATCH,
            )
    return linked


def _verified_owners(emails: list[str]) -> dict[str, object]:
    """The account that verified each address (as ``verified_user_for_email``), by the address casefolded."""
    from tournaments.services.registration import BATCH

    wanted = sorted({email.lower() for email in emails})
    found: dict[str, object] = {}
    for start in range(0, len(wanted), BATCH):
        addresses = (
            EmailAddress.objects.annotate(email_lower=Lower("email"))
            .filter(email_lower__in=wanted[start : start + BATCH], verified=True)
            .select_related("user")
            .order_by("pk")
        )
        for address in addresses:
            found.setdefault(address.email.casefold(), address.user)
    return found


def prefers_short_name(user) -> bool:
    """The account chose "Ann A." on public pages (for the records it owns so far)."""
    return Player.objects.filter(user=user, public_short_name=True).exists()


def players_link_verified(*, user) -> list[Player]:
    linked: list[Player] = []
    for email in EmailAddress.objects.filter(user=user, verified=True).values_list("email", flat=True):
        linked += players_link_for_email(user=user, email=email)
    return linked


def normalise_claim_code(text: str) -> str:
    return "".join(ch for ch in text.upper() if ch.isalnum())


def _new_code() -> str:
    return "".join(secrets.choice(CLAIM_ALPHABET) for _ in range(8))


def claim_code_issue(*, player: Player) -> str:
    """The player's claim code, made on first use. Shown as ``ABCD-EFGH``."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.user_id is not None:
            raise ActionError(f"{player.name} is already linked to an account; no code is needed.")
        if not player.claim_code:
            for _ in range(10):
                player.claim_code = _new_code()
                try:
                    with transaction.atomic():
                        player.save(update_fields=["claim_code"])
                    break
                except IntegrityError:
                    continue
    return format_claim_code(player.claim_code)


def format_claim_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}" if len(code) == 8 else code


def player_claim(*, user, code: str) -> Player:
    """A player types the code the organizer gave them: the record becomes theirs. The code works once."""
    wanted = normalise_claim_code(code)
    if len(wanted) != 8:
        raise ActionError(
            "A claim code has 8 letters and digits, like ABCD-2345. Check the code and try again."
        )
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(claim_code=wanted).first()
        if player is None:
            raise ActionError(
                "No player record has this code. Codes work once: if you used it already, the record is "
                "yours (see My events); otherwise ask the organizer for the code again."
            )
        if player.user_id is not None and player.user_id != user.pk:
            raise ActionError("This record belongs to another account. Ask the organizer.")
        check_no_double_entry(player, user)
        player.user = user
        player.claim_code = ""
        player.public_short_name = player.public_short_name or prefers_short_name(user)
        player.save(update_fields=["user", "claim_code", "public_short_name"])
        _log(player, action="claim", by=user, changes={"account": ["", user.username]}, note="claim code")
    return player


def player_link(*, player: Player, user, by) -> Player:
    """Staff link a player record to an account (after checking who the person is)."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.user_id == user.pk:
            return player
        if player.user_id is not None:
            raise ActionError(
                f"{player.name} is linked to the account {player.user.username}. Unlink it first."
            )
        check_no_double_entry(player, user)
        player.user = user
        player.claim_code = ""
        player.public_short_name = player.public_short_name or prefers_short_name(user)
        player.save(update_fields=["user", "claim_code", "public_short_name"])
        _log(player, action="link", by=by, changes={"account": ["", user.username]})
    return player


def player_unlink(*, player: Player, by, note: str = "") -> Player:
    with transaction.atomic():
        player = Player.objects.select_for_update(of=("self",)).select_related("user").get(pk=player.pk)
        if player.user_id is None:
            return player
        was = _account_label(player.user)
        player.user = None
        player.save(update_fields=["user"])
        _log(player, action="unlink", by=by, changes={"account": [was, ""]}, note=note)
    return player


def privacy_set(*, user, short_name: bool) -> int:
    """Public pages show the player as "Ann A." (``short_name``) or in full, on every linked record."""
    with transaction.atomic():
        return Player.objects.filter(user=user).update(public_short_name=short_name)


def organizer_request(*, user, note: str = "") -> OrganizerApproval:
    with transaction.atomic():
        approval, created = OrganizerApproval.objects.select_for_update().get_or_create(
            user=user, defaults={"note": note[:300]}
        )
        if not created and approval.approved_at is None:
            approval.note = note[:300] or approval.note
            approval.requested_at = timezone.now()
            approval.declined_at = None
            approval.save(update_fields=["note", "requested_at", "declined_at"])
    return approval


def organizer_decide(*, approval: OrganizerApproval, by, approve: bool) -> OrganizerApproval:
    with transaction.atomic():
        approval = OrganizerApproval.objects.select_for_update().get(pk=approval.pk)
        now = timezone.now()
        approval.approved_at, approval.approved_by = (now, by) if approve else (None, None)
        approval.declined_at = None if approve else now
        approval.save(update_fields=["approved_at", "approved_by", "declined_at"])
    return approval


def account_delete_blockers(*, user) -> tuple[list[Event], list[Season]]:
    """The events not finished and the seasons not over that the account is the only organizer of: they
    would be left with nobody to run them. Its owner adds another organizer there first."""
    mine = EventStaff.objects.filter(user=user, role=EventStaff.Role.ORGANIZER).values("event")
    others = EventStaff.objects.filter(role=EventStaff.Role.ORGANIZER).exclude(user=user).values("event")
    events = (
        Event.objects.filter(pk__in=mine)
        .exclude(pk__in=others)
        .exclude(status=Event.Status.FINISHED)
        .order_by("date", "pk")
    )
    seasons = (
        Season.objects.filter(pk__in=SeasonOrganizer.objects.filter(user=user).values("season"))
        .exclude(pk__in=SeasonOrganizer.objects.exclude(user=user).values("season"))
        .filter(end_date__gte=timezone.localdate())
        .order_by("start_date", "pk")
    )
    return list(events), list(seasons)


def account_delete(*, user) -> int:
    """Delete the account: its login, email addresses, staff roles and organizer request go. Its player
    records stay (an event's results and standings are the other players' too), under the name and the
    public-name choice they had, but belong to no account any more. Returns how many were unlinked."""
    with transaction.atomic():
        events, seasons = account_delete_blockers(user=user)
        if events or seasons:
            names = [event.name for event in events] + [season.name for season in seasons]
            raise ActionError(
                "You are the only organizer of " + ", ".join(names) + ". Add another organizer there first."
            )
        players = list(Player.objects.select_for_update().filter(user=user).order_by("pk"))
        for player in players:
            _log(
                player,
                action="unlink",
                by=None,
                changes={"account": ["a deleted account", ""]},
                note="account deleted",
            )
        Player.objects.filter(pk__in=[player.pk for player in players]).update(user=None)
        if players:
            # One bulk update, one signal: the ratings recompute once for the whole person.
            players_linked.send(sender=Player, player_ids=[player.pk for player in players])
        user.delete()
    return len(players)
