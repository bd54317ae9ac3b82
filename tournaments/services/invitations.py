"""Staff invitations: the organizer invites a judge, head judge or co-organizer by email.

The emailed link is the proof: whoever opens it and is logged in (or signs up) may accept, like the
invitations of the big organized-play tools. Each service locks the rows it changes, so two clicks on
Accept make one staff member, and a resend racing a revoke leaves one of them, not a mix.
"""

from __future__ import annotations

import secrets
import smtplib
from collections.abc import Callable
from datetime import timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format

from ..errors import ActionError
from ..models import Event, EventStaff, StaffInvitation

# Accepting an invitation never lowers a role the person already has at the event.
ROLE_RANK = {EventStaff.Role.JUDGE: 1, EventStaff.Role.HEAD_JUDGE: 2, EventStaff.Role.ORGANIZER: 3}


def _role_name(role: str) -> str:
    return EventStaff.Role(role).label.lower()


def _day(moment) -> str:
    return date_format(timezone.localtime(moment), "j M Y, H:i")


def staff_for_email(*, event: Event, email: str) -> EventStaff | None:
    """The event's staff member who owns ``email``: a verified address of their account, or its email."""
    user_ids = set(
        EmailAddress.objects.filter(email__iexact=email, verified=True).values_list("user_id", flat=True)
    )
    user_ids |= set(get_user_model().objects.filter(email__iexact=email).values_list("pk", flat=True))
    if not user_ids:
        return None
    return EventStaff.objects.filter(event=event, user_id__in=user_ids).select_related("user").first()


def _refuse_staff(event: Event, email: str) -> None:
    staff = staff_for_email(event=event, email=email)
    if staff is not None:
        raise ActionError(
            f"{email} ({staff.user.username}) is already {_role_name(staff.role)} of this event. "
            "To change their role, use “Add or change a role” with their user name."
        )


def _send(invitation: StaffInvitation, build_url: Callable[[str], str]) -> None:
    context = {
        "invitation": invitation,
        "event": invitation.event,
        "inviter": invitation.invited_by.username if invitation.invited_by else "The organizer",
        "role": _role_name(invitation.role),
        "url": build_url(invitation.token),
        "expires": _day(invitation.expires_at),
    }
    subject = render_to_string("emails/staff_invitation_subject.txt", context)
    subject = settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + " ".join(subject.split())
    body = render_to_string("emails/staff_invitation_body.txt", context)
    try:
        send_mail(subject, body, None, [invitation.email])
    except (smtplib.SMTPException, OSError) as exc:
        # Raised inside the service's transaction: nothing is saved, the organizer may try again.
        raise ActionError(
            f"The email to {invitation.email} could not be sent ({exc.__class__.__name__}). "
            "Nothing was saved; try again in a moment."
        ) from exc


def invitation_send(
    *, event: Event, email: str, role: str, by, build_url: Callable[[str], str]
) -> StaffInvitation:
    """Invite ``email`` to the event's staff as ``role`` and email the link. An open invitation to the
    same address is sent again with the new role and a new expiry date instead of a second one."""
    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError:
        raise ActionError(f"“{email}” is not an email address. Check it for typos.") from None
    if role not in EventStaff.Role.values:
        raise ActionError("Choose a role: judge, head judge or organizer.")
    with transaction.atomic():
        # One invitation at a time per event, so two copies of one form make one invitation.
        Event.objects.select_for_update().filter(pk=event.pk).first()
        _refuse_staff(event, email)
        now = timezone.now()
        invitation = (
            StaffInvitation.objects.select_for_update()
            .filter(event=event, email__iexact=email, accepted_at__isnull=True, revoked_at__isnull=True)
            .first()
        )
        previous_role = invitation.get_role_display().lower() if invitation is not None else None
        if invitation is None:
            invitation = StaffInvitation(event=event, email=email, token=secrets.token_urlsafe(32))
        invitation.role = role
        invitation.invited_by = by
        invitation.sent_at = now
        invitation.expires_at = now + timedelta(days=settings.INVITATION_DAYS)
        invitation.save()
        _send(invitation, build_url)
    # For the page's message: None for a new invitation, else the role it had (an address invited again).
    invitation.previous_role = previous_role
    return invitation


def _lock_open(invitation: StaffInvitation) -> StaffInvitation:
    invitation = StaffInvitation.objects.select_for_update().select_related("event").get(pk=invitation.pk)
    if invitation.accepted_at is not None:
        who = invitation.accepted_by.username if invitation.accepted_by else "someone"
        raise ActionError(f"{invitation.email}'s invitation was already accepted by {who}.")
    if invitation.revoked_at is not None:
        raise ActionError(f"{invitation.email}'s invitation was already withdrawn.")
    return invitation


def invitation_resend(*, invitation: StaffInvitation, by, build_url: Callable[[str], str]) -> StaffInvitation:
    """Email the same link again, valid for another ``INVITATION_DAYS`` from now."""
    with transaction.atomic():
        invitation = _lock_open(invitation)
        _refuse_staff(invitation.event, invitation.email)
        now = timezone.now()
        invitation.invited_by = by
        invitation.sent_at = now
        invitation.expires_at = now + timedelta(days=settings.INVITATION_DAYS)
        invitation.save(update_fields=["invited_by", "sent_at", "expires_at"])
        _send(invitation, build_url)
    return invitation


def invitation_revoke(*, invitation: StaffInvitation) -> StaffInvitation:
    """Withdraw an open invitation: its link then says so."""
    with transaction.atomic():
        invitation = _lock_open(invitation)
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation


def invitation_problem(invitation: StaffInvitation, user=None) -> str | None:
    """Why ``user`` (or anybody, for a visitor who is not logged in) cannot accept, or None."""
    if invitation.revoked_at is not None:
        return (
            "This invitation was withdrawn by the organizer. "
            "If you should still be on the staff, ask them to invite you again."
        )
    if invitation.accepted_at is not None:
        if user is not None and invitation.accepted_by_id == user.pk:
            return None  # accepted already by this person: they simply go to the staff pages
        if user is None:
            return (
                f"This invitation was already accepted on {_day(invitation.accepted_at)}. If that was you, "
                "log in to reach the event's staff pages; if not, ask the organizer to invite you."
            )
        return (
            f"This invitation was already accepted on {_day(invitation.accepted_at)} by another account. "
            "Each link works once; ask the organizer to invite you if you should be on the staff."
        )
    if invitation.expired:
        return (
            f"This invitation expired on {_day(invitation.expires_at)}; ask the organizer to send a new one."
        )
    return None


def _owns_address(user, email: str) -> bool:
    from allauth.account.models import EmailAddress

    return EmailAddress.objects.filter(user=user, email__iexact=email, verified=True).exists()


def invitation_accept(*, invitation: StaffInvitation, user) -> EventStaff:
    """Put ``user`` on the event's staff with the invited role (a higher role they already hold stays)."""
    with transaction.atomic():
        invitation = StaffInvitation.objects.select_for_update().select_related("event").get(pk=invitation.pk)
        problem = invitation_problem(invitation, user)
        if problem:
            raise ActionError(problem)
        if invitation.accepted_at is not None:  # the same person, a second click or an old tab
            staff = EventStaff.objects.filter(event=invitation.event, user=user).first()
            if staff is None:
                raise ActionError(
                    "You accepted this invitation earlier, but you are no longer on this event's staff. "
                    "Ask the organizer if you should be."
                )
            return staff
        if invitation.role == EventStaff.Role.ORGANIZER and not _owns_address(user, invitation.email):
            # An organizer changes the settings and the staff: a forwarded email must not be enough.
            raise ActionError(
                f"An organizer invitation is accepted by the account with the address {invitation.email}. "
                "Log in with that account, or add and confirm the address under My events → Email, then "
                "open the link again."
            )
        staff, created = EventStaff.objects.select_for_update().get_or_create(
            event=invitation.event, user=user, defaults={"role": invitation.role}
        )
        if not created and ROLE_RANK[invitation.role] > ROLE_RANK[staff.role]:
            staff.role = invitation.role
            staff.save(update_fields=["role"])
        invitation.accepted_at = timezone.now()
        invitation.accepted_by = user
        invitation.save(update_fields=["accepted_at", "accepted_by"])
    return staff
