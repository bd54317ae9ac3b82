"""The staff form that edits one registration."""

from __future__ import annotations

from django import forms

from accounts.selectors import account_find

from .services.registration_edit import EDIT_FIELDS


class RegistrationEditForm(forms.Form):
    name = forms.CharField(max_length=120)
    email = forms.EmailField(
        max_length=254, required=False, help_text="Recognises the same player at later events."
    )
    notes = forms.CharField(max_length=300, required=False)
    account = forms.CharField(
        label="Account (user name or email)",
        max_length=254,
        required=False,
        help_text="The login that owns this player record: its owner sees their results and penalties. "
        "Empty: no account.",
    )
    # The values as loaded, so that a save over someone else's newer change is refused, not lost.
    loaded_name = forms.CharField(widget=forms.HiddenInput, required=False)
    loaded_email = forms.CharField(widget=forms.HiddenInput, required=False)
    loaded_notes = forms.CharField(widget=forms.HiddenInput, required=False)
    loaded_account = forms.CharField(widget=forms.HiddenInput, required=False)

    @classmethod
    def for_values(cls, values: dict[str, str]) -> RegistrationEditForm:
        return cls(initial={**values, **{f"loaded_{f}": values[f] for f in EDIT_FIELDS}})

    def clean_account(self):
        text = self.cleaned_data["account"].strip()
        if not text:
            return None
        user = account_find(text)
        if user is None:
            raise forms.ValidationError(
                f"No account with the user name or email {text!r}. The player can sign up first, or "
                "claim this record later with a claim code."
            )
        return user

    def loaded(self) -> dict[str, str]:
        return {f: self.cleaned_data.get(f"loaded_{f}", "") for f in EDIT_FIELDS}
