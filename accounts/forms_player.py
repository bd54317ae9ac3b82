"""A player's own forms: claiming a record with a code, how public pages show their name, and deleting the
account."""

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


class AccountDeleteForm(forms.Form):
    """The account's password again (a phone left logged in must not lose its owner's account), or, for an
    account with no password, its username typed out."""

    confirm = forms.CharField(strip=False)

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        field = self.fields["confirm"]
        if user.has_usable_password():
            field.label = "Your password"
            field.widget = forms.PasswordInput(attrs={"autocomplete": "current-password"})
        else:
            field.label = f"Type your username ({user.username}) to confirm"
            field.widget = forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"})

    def clean_confirm(self) -> str:
        typed = self.cleaned_data["confirm"]
        if self.user.has_usable_password():
            if not self.user.check_password(typed):
                raise forms.ValidationError("That is not your password. Your account was not deleted.")
        elif typed.strip() != self.user.username:
            raise forms.ValidationError("That is not your username. Your account was not deleted.")
        return typed
