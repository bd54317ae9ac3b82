from __future__ import annotations

import uuid

from django import forms

from tournaments.models import ANNOUNCEMENT_MAX_CHARS, Event, Registration, Round

from .models import Infraction, PenaltyType


class PauseForm(forms.Form):
    reason = forms.CharField(
        max_length=200, widget=forms.TextInput(attrs={"placeholder": "e.g. announcement"})
    )


class AnnouncementForm(forms.Form):
    announcement = forms.CharField(
        label="Announcement on the wall screen",
        max_length=ANNOUNCEMENT_MAX_CHARS,
        required=False,
        strip=True,
        help_text=f"One line, {ANNOUNCEMENT_MAX_CHARS} characters at most. Empty: no announcement.",
        # No maxlength in the page: a pasted long text stays whole and the error says what is too long.
        widget=forms.TextInput(attrs={"placeholder": "e.g. Lunch until 13:30 · Top 8 announced at 18:00"}),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["announcement"].widget.attrs.pop("maxlength", None)


class ExtendForm(forms.Form):
    minutes = forms.IntegerField(min_value=1, max_value=60, initial=5)
    reason = forms.CharField(
        max_length=200, widget=forms.TextInput(attrs={"placeholder": "e.g. long ruling"})
    )


class TimeCallForm(forms.Form):
    """Whose turn it is when time is called, and who has left the game (9.050)."""

    active_seat = forms.TypedChoiceField(coerce=int, widget=forms.RadioSelect, label="Whose turn is it?")
    seats_left = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label="Left the game (not counted)"
    )

    def __init__(self, *args, seats, call=None, **kwargs) -> None:
        """``call``: the time call already recorded, which a correction starts from."""
        super().__init__(*args, **kwargs)
        choices = [(s.seat, f"P{s.seat} · {s.registration.player.name}") for s in seats]
        self.fields["active_seat"].choices = choices
        # Players whose seat or registration says they are out of the game are suggested (ticked, with
        # the reason); the judge at the table unticks anyone who is still playing.
        self.out_of_game = {s.seat: reason for s in seats if (reason := s.out_of_game_reason())}
        self.fields["seats_left"].choices = [
            (number, f"{label} ({self.out_of_game[number]})" if number in self.out_of_game else label)
            for number, label in choices
        ]
        left = set(self.out_of_game)
        if call is not None:
            self.fields["active_seat"].initial = call.active_seat
            left |= {s.seat for s in seats if s.seat not in call.seats_in_game}
        self.fields["seats_left"].initial = sorted(left)


class CalculatorForm(forms.Form):
    players = forms.TypedChoiceField(
        coerce=int, choices=[(n, f"{n} players") for n in range(2, 6)], initial=4, label="Players in the game"
    )
    active_seat = forms.TypedChoiceField(
        coerce=int, choices=[(n, f"P{n}") for n in range(1, 6)], initial=1, label="Whose turn is it?"
    )

    def clean(self) -> dict:
        data = super().clean()
        if data.get("active_seat") and data.get("players") and data["active_seat"] > data["players"]:
            self.add_error(
                "active_seat", f"There is no P{data['active_seat']} in a {data['players']}-player game."
            )
        return data


class PenaltyForm(forms.Form):
    registration = forms.ModelChoiceField(
        queryset=Registration.objects.none(), required=False, label="Player"
    )
    spectator_name = forms.CharField(
        max_length=120, required=False, label="…or a spectator (outside assistance only)"
    )
    infraction = forms.ModelChoiceField(queryset=Infraction.objects.all(), empty_label=None)
    type = forms.ChoiceField(choices=PenaltyType.choices, widget=forms.RadioSelect, label="Penalty")
    round = forms.ModelChoiceField(queryset=Round.objects.none(), required=False, empty_label="No round")
    description = forms.CharField(
        max_length=500, required=False, widget=forms.TextInput, label="Description (staff only)"
    )
    # A new token each time the empty form is shown; sent again (back button, double tap), it is recognised.
    submission = forms.Field(required=False, widget=forms.HiddenInput)  # any text: see clean_submission

    def __init__(self, *args, event: Event, may_disqualify: bool, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["submission"].initial = uuid.uuid4
        self.fields["registration"].queryset = Registration.objects.filter(event=event).select_related(
            "player"
        )
        self.fields["round"].queryset = Round.objects.filter(event=event).order_by("-number")
        self.fields["round"].label_from_instance = lambda round: round.label
        if not may_disqualify:
            # 10.080: only the head judge disqualifies; the choice is not offered to anyone else.
            self.fields["type"].choices = [
                c for c in PenaltyType.choices if c[0] != PenaltyType.DISQUALIFICATION
            ]

    def clean_submission(self) -> uuid.UUID | None:
        """A token that is not one the form made (edited by hand) is no token: the penalty is recorded, once,
        rather than refused for a field the judge cannot see."""
        try:
            return uuid.UUID(str(self.cleaned_data["submission"] or ""))
        except ValueError:
            return None

    def clean(self) -> dict:
        data = super().clean()
        if not data.get("registration") and not data.get("spectator_name", "").strip():
            self.add_error(
                "registration", "Choose the player (search by name or pick a table), or name the spectator."
            )
        return data


class PenaltyChangeForm(forms.Form):
    infraction = forms.ModelChoiceField(queryset=Infraction.objects.all(), empty_label=None)
    description = forms.CharField(
        max_length=500, required=False, widget=forms.TextInput, label="Description (staff only)"
    )


class VoidForm(forms.Form):
    reason = forms.CharField(max_length=300, label="Why is this penalty void?")


class PolicyForm(forms.Form):
    upgrade_at = forms.IntegerField(
        min_value=0, max_value=20, label='"Consider an upgrade" at this warning for the same infraction'
    )
    review_at = forms.IntegerField(
        min_value=0, max_value=50, label='"Head judge review under 10.080" at this many penalties in total'
    )

    def __init__(self, *args, catalogue, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for line in catalogue:
            self.fields[self.field_name(line.infraction.rule)] = forms.ChoiceField(
                choices=PenaltyType.choices,
                initial=line.default,
                label=f"{line.infraction.rule} {line.infraction.name}",
            )
        self.catalogue = catalogue

    @staticmethod
    def field_name(rule: str) -> str:
        return "default_" + rule.replace(".", "_")

    def defaults(self) -> dict[str, str]:
        return {
            line.infraction.rule: self.cleaned_data[self.field_name(line.infraction.rule)]
            for line in self.catalogue
        }

    def infraction_fields(self):
        return [self[self.field_name(line.infraction.rule)] for line in self.catalogue]
