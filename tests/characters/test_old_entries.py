"""Old free-text main characters: matched where certain (services.characters, match_main_characters),
left for staff otherwise, and what happens after a re-import."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from tests.history.test_counted_games import simulated_event
from tournaments.models import Event, Seat
from tournaments.services.characters import main_characters_match

from .helpers import BATMAN, SHAZAM, STARFIRE, STARFIRE_GO, import_characters, no_characters

pytestmark = pytest.mark.django_db


def seats_saying(event, *texts):
    """The first seats of the event, each with one of ``texts`` as free text (and no key); the other
    seats of the event have no main character."""
    Seat.objects.filter(round__event=event).update(main_character="", main_character_key="")
    seats = list(Seat.objects.filter(round__event=event).order_by("pk")[: len(texts)])
    for seat, text in zip(seats, texts, strict=True):
        Seat.objects.filter(pk=seat.pk).update(main_character=text, main_character_key="")
    return [seat.pk for seat in seats]


def seat(pk):
    return Seat.objects.get(pk=pk)


def test_a_certain_match_takes_the_name_and_set_and_the_key():
    import_characters()
    event = simulated_event()
    (pk,) = seats_saying(event, "batmn")
    report = main_characters_match()
    assert (seat(pk).main_character, seat(pk).main_character_key) == ("Batman (Base Set)", BATMAN.key)
    assert report.matched >= 1


def test_an_uncertain_text_is_left_as_it_was():
    import_characters()
    event = simulated_event()
    (pk,) = seats_saying(event, "Starfire")
    main_characters_match()
    assert (seat(pk).main_character, seat(pk).main_character_key) == ("Starfire", "")


def test_it_bumps_the_results_version_of_the_events_it_changed_only():
    import_characters()
    event, other = simulated_event(9, 1), simulated_event(9, 2)
    Seat.objects.update(main_character="", main_character_key="")
    seats_saying(event, "Batman")
    Event.objects.update(results_version=0)
    main_characters_match()
    assert Event.objects.get(pk=event.pk).results_version == 1
    assert Event.objects.get(pk=other.pk).results_version == 0


def test_running_it_twice_changes_nothing_the_second_time():
    import_characters()
    event = simulated_event()
    seats_saying(event, "batmn", "Starfire")
    main_characters_match()
    again = main_characters_match()
    assert (again.matched, again.renamed, again.unlinked, len(again.events)) == (0, 0, 0, 0)


def test_a_dry_run_changes_nothing():
    import_characters()
    event = simulated_event()
    (pk,) = seats_saying(event, "batmn")
    report = main_characters_match(dry_run=True)
    assert report.matched >= 1 and seat(pk).main_character_key == ""


def test_a_key_the_new_edition_dropped_is_cleared_and_the_text_waits_for_staff():
    import_characters()
    event = simulated_event()
    (pk,) = seats_saying(event, "Shazam")
    main_characters_match()
    assert seat(pk).main_character_key == SHAZAM.key
    import_characters((BATMAN, STARFIRE, STARFIRE_GO), checksum="characters-2")  # Shazam! is gone
    report = main_characters_match()
    assert report.unlinked == 1
    assert (seat(pk).main_character, seat(pk).main_character_key) == ("Shazam! (Heroes Unite)", "")


def test_a_key_the_new_edition_keeps_takes_its_new_spelling():
    import_characters()
    event = simulated_event()
    (pk,) = seats_saying(event, "Batman")
    main_characters_match()
    renamed = type(BATMAN)(BATMAN.key, "Batman", "Base Set (2012)", BATMAN.category)
    import_characters((renamed, STARFIRE), checksum="characters-2")
    main_characters_match()
    assert (seat(pk).main_character, seat(pk).main_character_key) == ("Batman (Base Set (2012))", BATMAN.key)


def test_without_rule_documents_nothing_changes():
    import_characters()
    event = simulated_event()
    (pk,) = seats_saying(event, "Batman")
    main_characters_match()
    no_characters()
    report = main_characters_match()
    assert report.unlinked == 0 and seat(pk).main_character_key == BATMAN.key


def test_the_command_says_what_it_did():
    import_characters()
    event = simulated_event()
    seats_saying(event, "batmn", "Starfire")
    out = io.StringIO()
    call_command("match_main_characters", "--event", event.slug, stdout=out)
    assert "matched for certain" in out.getvalue() and "1 event(s) changed" in out.getvalue()


def test_the_command_refuses_an_unknown_event():
    import_characters()
    with pytest.raises(CommandError, match="no-such-event"):
        call_command("match_main_characters", "--event", "no-such-event", stdout=io.StringIO())


def test_the_command_without_rule_documents_says_so():
    no_characters()
    out = io.StringIO()
    call_command("match_main_characters", stdout=out)
    assert "import_rulings" in out.getvalue()


def test_new_rule_documents_match_the_old_free_text_at_once():
    from rulings.signals import documents_changed

    import_characters()
    event = simulated_event()
    (pk,) = seats_saying(event, "batmn")
    documents_changed.send(sender=None)  # what import_rulings sends after a document was added or changed
    assert seat(pk).main_character_key == BATMAN.key
