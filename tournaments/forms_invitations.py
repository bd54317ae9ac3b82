"""The Staff page's "Invite by email" form."""

from __future__ import annotations

from django import forms

from .models import EventStaff


class StaffInviteForm(forms.Form):
    email = forms.EmailField(max_length=254, label="Email address")
    role = forms.ChoiceField(
        choices=[
            (EventStaff.Role.JUDGE, "Judge"),
            (EventStaff.Role.HEAD_JUDGE, "Head judge"),
            (EventStaff.Role.ORGANIZER, "Organizer (co-organizer)"),
        ],
        initial=EventStaff.Role.JUDGE,
    )
