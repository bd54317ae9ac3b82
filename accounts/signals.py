"""A verified email address links the account to the player records that carry it."""

from __future__ import annotations

from allauth.account.signals import email_changed, email_confirmed, user_signed_up
from django.dispatch import receiver

from . import services


@receiver(email_confirmed)
def _link_on_confirmation(sender, request, email_address, **kwargs) -> None:
    services.players_link_for_email(user=email_address.user, email=email_address.email)


@receiver(email_changed)
def _link_on_change(sender, request, user, from_email_address, to_email_address, **kwargs) -> None:
    if to_email_address is not None and to_email_address.verified:
        services.players_link_for_email(user=user, email=to_email_address.email)


@receiver(user_signed_up)
def _link_on_signup(sender, request, user, **kwargs) -> None:
    # Signing up through a staff invitation verifies the address at once (no confirmation email).
    services.players_link_verified(user=user)
