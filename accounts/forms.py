from __future__ import annotations

from django import forms


class OrganizerRequestForm(forms.Form):
    note = forms.CharField(
        max_length=300,
        required=False,
        label="Which events will you run?",
        help_text="For the site administrator, e.g. the store or league.",
        widget=forms.Textarea(attrs={"rows": 3}),
    )
