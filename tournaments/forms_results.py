"""The match slip as a form (12.060-12.080), one row per seat in turn order."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms

from . import characters
from .characters import MainCharacter
from .models import Seat
from .services.results import SeatEntry

# The <datalist> of main characters (templates/tournaments/_main_character_list.html), once per page.
MAIN_CHARACTER_LIST = "main-characters"


def main_character_error(text: str, found: characters.Match) -> str:
    """What the slip says when the main character typed is not certain: the closest names to pick from."""
    names = "; ".join(c.label for c in found.candidates)
    if found.status == characters.UNCERTAIN and len(found.candidates) > 1:
        return f"Which one? {names}. Pick it from the list (name and set)."
    if found.candidates:
        return f"Did you mean {names}? Pick it from the list (name and set)."
    return f"No Main Character called “{text[:60]}” in the rule documents: pick one from the list, or leave it empty."


class SeatResultForm(forms.Form):
    vp = forms.IntegerField(
        label="VP", min_value=0, max_value=999, error_messages={"min_value": "VP cannot be negative (1.060)."}
    )
    super_villains = forms.IntegerField(label="Super-Villains in deck", min_value=0, max_value=20, initial=0)
    main_character = forms.CharField(label="Main character", max_length=120, required=False)
    left_game = forms.IntegerField(
        label="Left the game (1 = first to leave)",
        min_value=1,
        max_value=5,
        required=False,
        help_text="9.040: a player who dropped or conceded during the game is last.",
    )
    outright_win = forms.BooleanField(label="Won outright", required=False)
    refused_to_sign = forms.BooleanField(label="Refused to sign (12.100)", required=False)

    def __init__(self, *args, seat: Seat, catalogue: Sequence[MainCharacter] | None = None, **kwargs) -> None:
        self.seat = seat
        self._catalogue = catalogue
        self.main_character_key = ""
        kwargs.setdefault("prefix", f"seat{seat.pk}")
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.widget.attrs.setdefault("aria-label", f"{field.label} for {seat.registration.player.name}")
        self.fields["vp"].widget.attrs.update({"inputmode": "numeric", "class": "num"})
        self.fields["super_villains"].widget.attrs.update({"inputmode": "numeric", "class": "num"})
        self.fields["left_game"].widget.attrs.update({"inputmode": "numeric", "class": "num"})
        self.fields["main_character"].widget.attrs.update(
            {"list": MAIN_CHARACTER_LIST, "autocomplete": "off"}
        )

    @property
    def catalogue(self) -> Sequence[MainCharacter]:
        if self._catalogue is None:
            from .selectors_characters import main_characters

            self._catalogue = main_characters()
        return self._catalogue

    def clean_main_character(self) -> str:
        """The catalogue's "Name (Set)" when the text names one for certain (tournaments.characters.match);
        free text when the rule documents are not imported, or when it is the seat's old free text unchanged;
        otherwise a field error with the closest names."""
        text = " ".join(self.cleaned_data["main_character"].split())
        self.main_character_key = ""
        if not text or not self.catalogue:
            return text
        if text == self.seat.main_character and not self.seat.main_character_key:
            # An old free text left as it was: correcting a VP does not force a choice (staff match old
            # texts on the event's "main characters to check" page).
            return text
        found = characters.match(text, self.catalogue)
        if not found.certain:
            raise forms.ValidationError(main_character_error(text, found))
        self.main_character_key = found.character.key
        return found.character.label


def slip_entries(forms_: list[SeatResultForm]) -> list[SeatEntry]:
    """The valid forms' values as the slip's lines, for the services."""
    return [
        SeatEntry(
            seat_id=f.seat.pk,
            vp=f.cleaned_data["vp"],
            super_villains=f.cleaned_data["super_villains"],
            main_character=f.cleaned_data["main_character"],
            main_character_key=f.main_character_key,
            left_game=f.cleaned_data["left_game"],
            outright_win=f.cleaned_data["outright_win"],
            refused_to_sign=f.cleaned_data.get("refused_to_sign", False),
        )
        for f in forms_
    ]


def initial_for(seat: Seat) -> dict:
    return {
        "vp": seat.vp,
        "super_villains": seat.super_villains,
        "main_character": seat.main_character,
        "left_game": seat.left_game,
        "outright_win": seat.outright_win,
        "refused_to_sign": seat.refused_to_sign,
    }


class OverrideForm(forms.Form):
    reason = forms.CharField(max_length=300, label="Reason for the override")

    def __init__(self, *args, seats: list[Seat], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        choices = [("", "—")] + [(str(s.registration_id), s.registration.player.name) for s in seats]
        for place in range(1, len(seats) + 1):
            self.fields[f"place_{place}"] = forms.ChoiceField(choices=choices, label=f"Place {place}")

    def clean(self) -> dict:
        data = super().clean()
        order = [data.get(f"place_{p}") for p in range(1, len(self.seats) + 1)]
        if all(order) and len(set(order)) != len(order):
            raise forms.ValidationError("Each player takes exactly one place.")
        data["order"] = [int(x) for x in order if x]
        return data
