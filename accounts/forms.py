from __future__ import annotations

from allauth.account import forms as allauth_forms
from django import forms


class OrganizerRequestForm(forms.Form):
    note = forms.CharField(
        max_length=300,
        required=False,
        label="Which events will you run?",
        help_text="For the site administrator, e.g. the store or league.",
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class LoginForm(allauth_forms.LoginForm):
    """allauth's log-in form in the site's words."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["login"].label = "User name or email"
