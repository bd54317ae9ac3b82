from __future__ import annotations

import datetime
import zoneinfo

from django import forms
from django.conf import settings
from django.utils import timezone

from . import swiss
from .models import SANCTIONED_MINIMUM_PLAYERS, Event, EventStaff
from .roster import UnreadableFile, decode_upload
from .time_zones import time_zone_choices

MAX_UPLOAD_BYTES = 512 * 1024
# A cap below one 3-player table (9.010) could never be paired.
MIN_PLAYER_CAP = 3
MAX_PLAYER_CAP = 2000


TIEBREAKER_CHOICES = [
    ("super_villains", "Super-Villains defeated in Swiss games"),
    ("opponents_points_rate", "Opponents' points rate"),
    ("vp", "Total VP"),
]


def _format_scoring(scoring: dict) -> str:
    profile = swiss.scoring_profile(scoring or None)
    return "; ".join(
        f"{size}: {', '.join(f'{p:g}' for p in points)}" for size, points in sorted(profile.points.items())
    )


class EventForm(forms.ModelForm):
    scoring_text = forms.CharField(
        label="Points per placement",
        required=False,
        help_text="By table size, e.g. “4: 5, 3, 2, 2; 3: 5, 3, 2” (the classic default). Empty: classic.",
    )
    time_zone = forms.ChoiceField(
        choices=time_zone_choices,
        required=False,  # omitted: the event keeps its zone (a new event: the organizer's last one)
        label="Time zone",
        help_text="Where the event takes place: its pages, slips and exports show times in this zone.",
    )
    tiebreaker_1 = forms.ChoiceField(choices=TIEBREAKER_CHOICES, label="First tiebreaker after points")
    tiebreaker_2 = forms.ChoiceField(choices=TIEBREAKER_CHOICES, label="Second tiebreaker")
    tiebreaker_3 = forms.ChoiceField(choices=TIEBREAKER_CHOICES, label="Third tiebreaker")
    # The settings version the form was loaded at (editing only): a save from an older one is a conflict.
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    self_registration_guests = forms.TypedChoiceField(
        label="Who can register themselves",
        choices=[
            (False, "Players with an account (default)"),
            (True, "Also guests who confirm their email"),
        ],
        coerce=lambda value: value in (True, "True"),
        widget=forms.RadioSelect,
        initial=False,
        required=False,
        empty_value=False,
        help_text="Self-registration itself is opened and closed on the Players page.",
    )
    # A choice rather than a checkbox: a form posted without it (an older page) keeps the default, on.
    player_reporting = forms.TypedChoiceField(
        label="Players report results from their phones",
        choices=[
            (True, "Yes: a player reports the match slip, the others at the table confirm it (default)"),
            (False, "No: the judges enter every match slip"),
        ],
        coerce=lambda value: value in (True, "True", "true", "on", "1"),
        widget=forms.RadioSelect,
        initial=True,
        required=False,
        empty_value=True,
        help_text="Judges can always enter or correct a slip; their entry wins over a report.",
    )
    confirm_minutes = forms.IntegerField(
        label="Minutes to confirm a reported slip",
        required=False,
        min_value=1,
        max_value=120,
        help_text="After this, a table whose report is not confirmed by everyone shows as needing a judge. "
        "Empty: 10.",
    )
    player_cap = forms.IntegerField(
        label="Player cap",
        required=False,
        min_value=MIN_PLAYER_CAP,
        max_value=MAX_PLAYER_CAP,
        help_text="Most players with a place; more players registering themselves join a waitlist, "
        "and take places that come free in order. Empty: no limit.",
    )
    registration_deadline = forms.DateTimeField(
        label="Registration deadline",
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=f"Players cannot register themselves after this ({settings.TIME_ZONE} time). "
        "Empty: until the event starts.",
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["version"].initial = self.instance.settings_version
        order = list(self.instance.tiebreakers or swiss.DEFAULT_TIEBREAKERS)
        order = [t for t in order if t != "draw"]
        for i, name in enumerate(order[:3], start=1):
            self.fields[f"tiebreaker_{i}"].initial = name
        if self.instance.scoring:
            self.fields["scoring_text"].initial = _format_scoring(self.instance.scoring)
        # Left out of a post (an older page, a script): the event keeps its policy.
        self.fields["pairing_policy"].required = False
        if self.instance.pk and self.instance.status != Event.Status.REGISTRATION:
            # Games already scored with these points: changing them now would mix two scales.
            locked = (
                "scoring_text",
                "tiebreaker_1",
                "tiebreaker_2",
                "tiebreaker_3",
                "pairing_policy",
                "seed_by_rating",
            )
            for name in locked:
                self.fields[name].disabled = True
                self.fields[name].help_text = "Locked once the event has started."

    def clean_pairing_policy(self) -> str:
        return self.cleaned_data.get("pairing_policy") or self.instance.pairing_policy

    def clean_scoring_text(self) -> dict:
        text = self.cleaned_data["scoring_text"].strip()
        if not text:
            return {}
        spec: dict[str, list[float]] = {}
        for part in text.replace("\n", ";").split(";"):
            if not part.strip():
                continue
            size, _, points = part.partition(":")
            try:
                spec[str(int(size))] = [float(p) for p in points.replace(" ", "").split(",") if p]
            except ValueError:
                raise forms.ValidationError(
                    f"“{part.strip()}” should look like “4: 5, 3, 2, 2” (table size, then points for 1st, 2nd, …)."
                ) from None
        for size, points in spec.items():
            if len(points) != int(size):
                raise forms.ValidationError(f"A {size}-player table needs {size} numbers, not {len(points)}.")
        try:
            swiss.scoring_profile(spec)
        except swiss.SwissError as exc:
            raise forms.ValidationError(str(exc)) from exc
        return spec

    def clean_time_zone(self) -> str:
        if name := self.cleaned_data.get("time_zone"):
            return name
        if self.instance.pk:
            return self.instance.time_zone
        return self.initial.get("time_zone") or settings.TIME_ZONE

    def _in_chosen_zone(self, data: dict) -> None:
        """A deadline was typed as a time in the zone chosen on this form, which may differ from the zone
        the form was read in (the event's, or the default for a new event)."""
        deadline, name = data.get("registration_deadline"), data.get("time_zone")
        if deadline is not None and name:
            typed = timezone.make_naive(deadline)
            data["registration_deadline"] = timezone.make_aware(typed, zoneinfo.ZoneInfo(name))

    def _check_deadline(self, data: dict) -> None:
        """A deadline lies before the end of the event's day, and a newly set one is not already past."""
        deadline, day = data.get("registration_deadline"), data.get("date")
        if deadline is None:
            return
        name = data.get("time_zone")
        local = timezone.localtime(deadline, zoneinfo.ZoneInfo(name) if name else None)
        if day is not None and local.date() > day:
            self.add_error(
                "registration_deadline",
                f"The deadline ({local:%d %b %Y %H:%M}) is after the event's day ({day:%d %b %Y}).",
            )
        elif deadline != self.instance.registration_deadline and deadline <= timezone.now():
            self.add_error("registration_deadline", "This deadline has already passed. Pick a later time.")

    def clean(self) -> dict:
        data = super().clean()
        order = [data.get(f"tiebreaker_{i}") for i in (1, 2, 3)]
        if all(order) and len(set(order)) != 3:
            raise forms.ValidationError("Each tiebreaker can be used once.")
        self._in_chosen_zone(data)
        self._check_deadline(data)
        cap = data.get("player_cap")
        if cap is not None and data.get("sanctioned") and cap < SANCTIONED_MINIMUM_PLAYERS:
            self.add_error(
                "player_cap",
                f"A sanctioned event needs at least {SANCTIONED_MINIMUM_PLAYERS} players to start (9.060): "
                f"make the cap {SANCTIONED_MINIMUM_PLAYERS} or more, or the event unsanctioned.",
            )
        return data

    def event_fields(self) -> dict:
        """The model fields this form sets, for ``services.event_create``."""
        order = [self.cleaned_data[f"tiebreaker_{i}"] for i in (1, 2, 3)]
        fields = {name: self.cleaned_data[name] for name in self.Meta.fields}
        fields["scoring"] = self.cleaned_data.get("scoring_text") or {}
        # Empty means "the default order", so a later change of the default reaches untouched events.
        fields["tiebreakers"] = [] if tuple(order) == swiss.DEFAULT_TIEBREAKERS[:3] else [*order, "draw"]
        return fields

    def saved_value(self, event: Event, name: str) -> tuple[str, str]:
        """One of ``event_fields()`` as saved on ``event``: the field's label and its value as words."""
        value = getattr(event, name)
        if name == "scoring":
            return str(self.fields["scoring_text"].label), _format_scoring(value)
        if name == "tiebreakers":
            labels = dict(TIEBREAKER_CHOICES)
            order = [t for t in (value or swiss.DEFAULT_TIEBREAKERS) if t != "draw"]
            return "Tiebreakers", ", ".join(labels.get(t, t) for t in order)
        label = str(self.fields[name].label)
        if Event._meta.get_field(name).choices:
            return label, str(getattr(event, f"get_{name}_display")())
        if name in ("self_registration_guests", "player_reporting"):
            return label, dict(self.fields[name].choices)[value]
        if isinstance(value, datetime.datetime):
            return label, timezone.localtime(value).strftime("%Y-%m-%d %H:%M")
        if isinstance(value, bool):
            return label, "yes" if value else "no"
        return label, str(value) if value not in ("", None) else "(empty)"

    class Meta:
        model = Event
        fields = [
            "name",
            "date",
            "venue",
            "sanctioned",
            "round_minutes",
            "time_zone",
            "turn_order",
            "pairing_policy",
            "allow_five_table",
            "seed_by_rating",
            "paper_size",
            "publish_penalties",
            "player_reporting",
            "confirm_minutes",
            "self_registration_guests",
            "player_cap",
            "registration_deadline",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}), "pairing_policy": forms.RadioSelect}
        labels = {
            "allow_five_table": "Allow a 5-player table",
            "pairing_policy": "Pairing",
            "seed_by_rating": "Seed round 1 by rating",
        }
        help_texts = {
            "pairing_policy": "Both keep 3-player tables at the bottom and rank by points. In simulated events of "
            "12 to 128 players new opponents first ranked the strongest players at least as well, with no repeat "
            "pairs from 13 players up; standings first seated 23 to 27 repeat pairs an event."
        }

    def clean_confirm_minutes(self) -> int:
        minutes = self.cleaned_data["confirm_minutes"]
        return Event._meta.get_field("confirm_minutes").default if minutes is None else minutes

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
    username = forms.CharField(
        label="Account (user name)",
        max_length=150,
        required=False,
        help_text="Optional: links the player's login, so they see their own results and penalties "
        "and can record a time call at their table.",
    )

    def clean_username(self):
        from django.contrib.auth import get_user_model

        username = self.cleaned_data["username"].strip()
        if not username:
            return None
        user = get_user_model().objects.filter(username__iexact=username).first()
        if user is None:
            raise forms.ValidationError(f"No account with the user name {username!r}.")
        return user


class SelfRegistrationForm(forms.Form):
    """A logged-in player: the name they play under (their email is their account's)."""

    name = forms.CharField(
        max_length=120,
        label="Your name",
        help_text="As it should appear on the pairings.",
        widget=forms.TextInput(attrs={"placeholder": "First and last name", "autocomplete": "name"}),
    )


class GuestRegistrationForm(forms.Form):
    """A player without an account: we email a link to confirm the address before registering."""

    name = forms.CharField(
        max_length=120, label="Your name", help_text="As it should appear on the pairings."
    )
    email = forms.EmailField(label="Your email", help_text="We send you a link to confirm your registration.")


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
            try:
                data["text"] = decode_upload(upload.read())
            except UnreadableFile as exc:
                raise forms.ValidationError(str(exc)) from None
        if not (data.get("text") or "").strip():
            raise forms.ValidationError("Paste the player list or choose a CSV file.")
        return data


class DropForm(forms.Form):
    reason = forms.CharField(max_length=200, required=False)


class StaffForm(forms.Form):
    username = forms.CharField(max_length=150, label="User name")
    # Judge first: promoting someone to organizer (settings, staff, deleting the event) is a deliberate choice.
    role = forms.ChoiceField(choices=EventStaff.Role.choices, initial=EventStaff.Role.JUDGE)

    def __init__(self, *args, **kwargs) -> None:
        # Ids of its own: the Staff page also shows the invitation form, whose fields are id_email and id_role.
        kwargs.setdefault("auto_id", "staff_%s")
        super().__init__(*args, **kwargs)
