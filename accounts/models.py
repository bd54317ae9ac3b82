from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class OrganizerApproval(models.Model):
    """Where event creation is restricted (``EVENT_CREATION=approved``): a request to organize events,
    and a site administrator's approval of it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organizer_approval"
    )
    requested_at = models.DateTimeField(default=timezone.now)
    note = models.CharField(
        max_length=300, blank=True, help_text="Which events or store, for the administrator."
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    declined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_at"]

    def __str__(self) -> str:
        return f"{self.user} ({'approved' if self.approved_at else 'requested'})"
