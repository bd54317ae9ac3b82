from __future__ import annotations

from django import forms

from .models import Event, EventStaff

MAX_UPLOAD_BYTES = 512 * 1024


class EventForm(forms.ModelForm):
    class Meta:
        model = Event
        fields = [
            "name",
            "date",
            "venue",
            "sanctioned",
            "round_minutes",
            "turn_order",
            "allow_five_table",
            "paper_size",
            "publish_penalties",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"})}

    def clean_round_minutes(self) -> int:
        minutes = self.cleaned_data["round_minutes"]
        if not 10 <= minutes <= 240:
            raise forms.ValidationError("A round lasts between 10 and 240 minutes (9.020 says 60).")
        return minutes


class PlayerAddForm(forms.Form):
    name = forms.CharField(max_length=120)
    email = forms.EmailField(
        required=False, help_text="Optional: recognises the same player at later events."
    )
    notes = forms.CharField(max_length=300, required=False)


class SelfRegistrationForm(forms.Form):
    name = forms.CharField(max_length=120, label="Your name")
    email = forms.EmailField(required=False, label="Email (optional)")


class RosterForm(forms.Form):
    text = forms.CharField(
        label="Players",
        required=False,
        widget=forms.Textarea(
            attrs={"rows": 12, "placeholder": "One player per line, or CSV: name,email,notes"}
        ),
        help_text="One name per line, or CSV with a header row (name, email, notes).",
    )
    file = forms.FileField(label="…or upload a CSV file", required=False)

    def clean(self) -> dict:
        data = super().clean()
        upload = data.get("file")
        if upload:
            if upload.size > MAX_UPLOAD_BYTES:
                raise forms.ValidationError("The file is larger than 512 KB; is it really a player list?")
            raw = upload.read()
            try:
                data["text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                data["text"] = raw.decode("cp1252", errors="replace")
        if not (data.get("text") or "").strip():
            raise forms.ValidationError("Paste the player list or choose a CSV file.")
        return data


class DropForm(forms.Form):
    reason = forms.CharField(max_length=200, required=False)


class StaffForm(forms.Form):
    username = forms.CharField(max_length=150, label="User name")
    role = forms.ChoiceField(choices=EventStaff.Role.choices)
