"""Who may create events (``EVENT_CREATION``)."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.conf import settings


def has_verified_email(user) -> bool:
    return EmailAddress.objects.filter(user=user, verified=True).exists()


def can_create_events(user) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    if not has_verified_email(user):
        return False
    if settings.EVENT_CREATION == "approved":
        return (
            user.is_staff
            or getattr(getattr(user, "organizer_approval", None), "approved_at", None) is not None
        )
    return True
