"""Writes about accounts: linking players to the accounts that own them, claim codes, privacy,
organizer approval. Each runs in one transaction and raises ``ActionError`` for what a user can fix."""

from __future__ import annotations

import secrets

from allauth.account.models import EmailAddress
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.errors import ActionError
from tournaments.models import Player, Registration, RegistrationChange

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
