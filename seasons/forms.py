"""The season's forms: they check what was typed and keep it when something is wrong."""

from __future__ import annotations

from django import forms
from django.utils.html import format_html

from tournaments.models import Event

from .points import MAX_POINTS, PRESETS, SchemeError, clean_scheme

PRESET_CHOICES = [
    (key, format_html('{}: <span class="choice-text">{}</span>', preset.label, preset.description))
    for key, preset in PRESETS.items()
]


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=120)
    start_date = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}), help_text="First day of the season."
    )
    end_date = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}), help_text="Last day of the season."
    )
    description = forms.CharField(max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 3}))
    preset = forms.ChoiceField(
        label="Season points per final place",
        choices=PRESET_CHOICES,
        widget=forms.RadioSelect,
        initial="store",
    )
    places = forms.CharField(
        label="Custom points",
        required=False,
        max_length=1000,
        help_text="Only for Custom: the points for place 1, then place 2, and so on, e.g. 10, 7, 5, 3. "
        "Every place below them gets 0.",
    )
    attendance = forms.IntegerField(
        label="Points for attending",
        min_value=0,
        max_value=MAX_POINTS,
        initial=0,
        help_text="Added for every player who played at least one game of the event, whatever their place.",
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def clean(self) -> dict:
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", "The season cannot end before it starts.")
        if data.get("preset") not in (None, "custom") and (data.get("places") or "").strip():
            self.add_error("places", "These points count only with “Custom”: choose Custom, or clear them.")
            return data
        if data.get("preset") and data.get("attendance") is not None:
            try:
                data["points"] = clean_scheme(
                    {
                        "preset": data["preset"],
                        "attendance": data["attendance"],
                        "places": data.get("places", "") if data["preset"] == "custom" else None,
                    }
                )
            except SchemeError as exc:
                self.add_error(exc.field if exc.field in self.fields else None, exc.message)
        return data

    @classmethod
    def initial_for(cls, season) -> dict:
        scheme = season.points
        return {
            "name": season.name,
            "start_date": season.start_date,
            "end_date": season.end_date,
            "description": season.description,
            "preset": scheme.get("preset", "store"),
            "places": ", ".join(str(p) for p in scheme.get("places", [])),
            "attendance": scheme.get("attendance", 0),
            "version": season.version,
        }

    def season_fields(self) -> dict:
        data = self.cleaned_data
        return {
            "name": data["name"],
            "start_date": data["start_date"],
            "end_date": data["end_date"],
            "description": data["description"],
            "points": data["points"],
        }


class EventChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, event: Event) -> str:
        return f"{event.name} ({event.date}, {event.get_status_display().lower()})"


class SeasonEventForm(forms.Form):
    event = EventChoiceField(
        queryset=Event.objects.none(),
        label="Event to add",
        empty_label="Choose one of your events",
        help_text="Events you organize that are not in this season yet. Finished events may be added.",
    )

    def __init__(self, *args, events=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if events is not None:
            self.fields["event"].queryset = events


class OrganizerForm(forms.Form):
    who = forms.CharField(
        label="Username or email address",
        max_length=254,
        help_text="Of an existing account. They can then edit the season and add the events they organize.",
    )
