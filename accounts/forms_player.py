"""A player's own forms: claiming a record with a code, and how public pages show their name."""

from __future__ import annotations

from django import forms


class ClaimForm(forms.Form):
    code = forms.CharField(
        label="Claim code",
        max_length=40,
        help_text="The code the organizer gave you, like ABCD-2345.",
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )


class PrivacyForm(forms.Form):
    show_as = forms.ChoiceField(label="On public pages show my name as", widget=forms.RadioSelect)

    def __init__(self, *args, full: str, short: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["show_as"].choices = [("full", full), ("short", short)]
