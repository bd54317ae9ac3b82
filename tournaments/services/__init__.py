"""Writes that span models. Each service runs in ``transaction.atomic`` and either does
the whole thing or raises ``ActionError`` and leaves the data as it was."""

from .invitations import (
    invitation_accept,
    invitation_problem,
    invitation_resend,
    invitation_revoke,
    invitation_send,
)
from .registration import (
    DuplicateEvent,
    SettingsConflict,
    event_create,
    event_settings_save,
    registration_add,
    registration_drop,
    registration_set_checked_in,
    registration_undrop,
    registrations_check_in_all,
    roster_import,
    roster_preview,
    staff_add,
    staff_remove,
)

__all__ = [
    "DuplicateEvent",
    "SettingsConflict",
    "event_create",
    "event_settings_save",
    "invitation_accept",
    "invitation_problem",
    "invitation_resend",
    "invitation_revoke",
    "invitation_send",
    "registration_add",
    "registration_drop",
    "registration_set_checked_in",
    "registration_undrop",
    "registrations_check_in_all",
    "roster_import",
    "roster_preview",
    "staff_add",
    "staff_remove",
]
