"""Writes for main characters: matching the slips' free text to the catalogue, and staff's choice for the
texts that no certain match names.

``main_characters_match`` (run by ``manage.py match_main_characters``, and safe to run again at any time):

- a seat with free text and no key gets the catalogue's "Name (Set)" and key when the match is certain
  (``tournaments.characters.match``); otherwise it is left as it is, for the staff page;
- a seat whose key the catalogue still has takes the catalogue's current "Name (Set)" (a re-import may
  have corrected a spelling);
- a seat whose key the catalogue no longer has (a re-import dropped or renamed the card) loses the key and
  keeps its text, which is then matched again like any free text: it matches again if certain, else it
  waits on the staff page. With no catalogue at all (no DCDB document imported) nothing changes.

Every event whose seats changed gets a new results version, so its statistics (and standings caches)
are rebuilt.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import F

from .. import characters
from ..errors import ActionError
from ..models import Event, ResultChange, Seat, Table
from ..selectors_characters import main_characters


@dataclass
class MatchReport:
    matched: int = 0  # free text matched for certain
    renamed: int = 0  # matched seats given the catalogue's current name
    unlinked: int = 0  # keys the catalogue no longer has, cleared
    left: int = 0  # free text left for staff
    events: set[int] = field(default_factory=set)


def main_characters_match(*, event_ids: Iterable[int] | None = None, dry_run: bool = False) -> MatchReport:
    """Match every seat's main character where the match is certain (see the module docstring)."""
    catalogue = main_characters()
    report = MatchReport()
    if not catalogue:
        return report
    by_key = {c.key: c for c in catalogue}
    seats = Seat.objects.exclude(main_character="", main_character_key="")
    if event_ids is not None:
        seats = seats.filter(round__event_id__in=list(event_ids))
    with transaction.atomic():
        rows = list(
            seats.select_for_update().values_list(
                "pk", "round__event_id", "main_character", "main_character_key"
            )
        )
        changed: list[Seat] = []
        memo: dict[str, characters.Match] = {}
        for pk, event_id, text, key in rows:
            new_text, new_key = text, key
            if key and key in by_key:
                new_text = by_key[key].label
                report.renamed += new_text != text
            elif key:
                new_key = ""
                report.unlinked += 1
            if not new_key and new_text:
                found = memo.setdefault(new_text, characters.match(new_text, catalogue))
                if found.certain:
                    new_text, new_key = found.character.label, found.character.key
                    report.matched += 1
                else:
                    report.left += 1
            if (new_text, new_key) != (text, key):
                changed.append(Seat(pk=pk, main_character=new_text[:120], main_character_key=new_key))
                report.events.add(event_id)
        if changed and not dry_run:
            Seat.objects.bulk_update(changed, ["main_character", "main_character_key"], batch_size=500)
            Event.objects.filter(pk__in=report.events).update(results_version=F("results_version") + 1)
        if dry_run:
            transaction.set_rollback(True)
    return report


def main_character_choose(*, event: Event, text: str, key: str, user=None) -> int:
    """Staff's choice for one free text of an event: every seat of the event with exactly ``text`` and no
    key becomes the catalogue's ``key``. Returns how many seats changed (0 when someone chose first).

    Each table changed gets a new version and one ``ResultChange`` (who, when, each player's main character
    before and after), as any other change to a table's result does. A fixed number of queries."""
    character = next((c for c in main_characters() if c.key == key), None)
    if character is None:
        raise ActionError(
            "That main character is not in the rule documents (any more): pick one from the list."
        )
    label = character.label[:120]
    with transaction.atomic():
        waiting = Seat.objects.filter(round__event=event, main_character=text, main_character_key="")
        # Locked: a second pick of the same text waits, then finds nothing left and logs nothing.
        seats = list(
            waiting.select_for_update(of=("self",))
            .select_related("registration__player")
            .order_by("table_id", "seat")
        )
        if not seats:
            return 0
        waiting.update(main_character=label, main_character_key=character.key)
        by_table: dict[int, list[Seat]] = defaultdict(list)
        for seat in seats:
            by_table[seat.table_id].append(seat)
        ResultChange.objects.bulk_create(
            [
                ResultChange(
                    table_id=table_id,
                    user=user,
                    action="main_character",
                    before={s.registration.player.name: {"main_character": s.main_character} for s in at},
                    after={s.registration.player.name: {"main_character": label} for s in at},
                    reason="chosen on the main characters page",
                )
                for table_id, at in by_table.items()
            ],
            batch_size=500,
        )
        # A result form loaded before the pick is then a conflict, not a silent return to the old text.
        Table.objects.filter(pk__in=list(by_table)).update(version=F("version") + 1)
        Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)
    return len(seats)


def match_after_import(**kwargs) -> None:
    """``rulings.signals.documents_changed``: match the slips' free text to the new catalogue where certain
    (the rest stays on the events' staff pages)."""
    if main_characters():
        main_characters_match()
