"""seasons.services: creating, sharing, adding and removing events, saving without overwriting."""

from __future__ import annotations

import datetime

import pytest

from seasons import services
from seasons.models import Season, SeasonEvent, SeasonOrganizer
from tests.factories import add_staff, make_event, make_user
from tests.seasons.helpers import finished_event, make_season
from tournaments.errors import ActionError

pytestmark = pytest.mark.django_db


def test_the_creator_is_the_first_organizer():
    boss = make_user()
    season = make_season(boss)
    assert list(SeasonOrganizer.objects.filter(season=season).values_list("user", flat=True)) == [boss.pk]


def test_a_season_cannot_end_before_it_starts():
    with pytest.raises(services.FieldError) as error:
        make_season(make_user(), start_date=datetime.date(2026, 5, 1), end_date=datetime.date(2026, 4, 1))
    assert error.value.field == "end_date"
    assert not Season.objects.exists()


def test_a_season_is_never_called_new():
    assert make_season(make_user(), name="New").slug != "new"


def test_an_organizer_adds_an_event_they_organize():
    boss = make_user()
    event = make_event(organizer=boss, date=datetime.date(2026, 2, 1))
    season = make_season(boss, events=[event])
    assert list(season.events.all()) == [event]


def test_an_event_that_already_ended_may_be_added():
    boss = make_user()
    event = finished_event(boss)
    season = make_season(boss, events=[event])
    assert SeasonEvent.objects.filter(season=season, event=event).exists()


def test_an_event_may_count_in_two_seasons():
    boss = make_user()
    event = make_event(organizer=boss, date=datetime.date(2026, 2, 1))
    make_season(boss, events=[event], name="League")
    make_season(boss, events=[event], name="Regional series")
    assert event.seasons.count() == 2


def test_an_event_outside_the_season_dates_is_refused_with_its_date():
    boss = make_user()
    event = make_event(organizer=boss, date=datetime.date(2027, 1, 9))
    season = make_season(boss)
    with pytest.raises(services.FieldError) as error:
        services.season_event_add(season=season, event=event, user=boss)
    assert error.value.field == "event"
    assert "2027-01-09" in error.value.message
    assert not season.events.exists()


def test_an_event_of_someone_else_is_refused():
    boss, other = make_user(), make_user()
    event = make_event(organizer=other, date=datetime.date(2026, 2, 1))
    season = make_season(boss)
    with pytest.raises(services.FieldError):
        services.season_event_add(season=season, event=event, user=boss)


def test_a_judge_of_the_event_may_not_add_it():
    boss = make_user()
    event = make_event(organizer=make_user(), date=datetime.date(2026, 2, 1))
    add_staff(event, boss, "head_judge")
    season = make_season(boss)
    with pytest.raises(services.FieldError):
        services.season_event_add(season=season, event=event, user=boss)


def test_an_event_organizer_who_does_not_share_the_season_may_not_add_it():
    boss, other = make_user(), make_user()
    event = make_event(organizer=other, date=datetime.date(2026, 2, 1))
    season = make_season(boss)
    with pytest.raises(services.FieldError):
        services.season_event_add(season=season, event=event, user=other)


def test_adding_an_event_twice_says_it_is_already_in():
    boss = make_user()
    event = make_event(organizer=boss, date=datetime.date(2026, 2, 1))
    season = make_season(boss, events=[event])
    with pytest.raises(services.FieldError, match="already in this season"):
        services.season_event_add(season=season, event=event, user=boss)


def test_removing_an_event_keeps_the_event():
    boss = make_user()
    event = make_event(organizer=boss, date=datetime.date(2026, 2, 1))
    season = make_season(boss, events=[event])
    assert services.season_event_remove(season=season, event=event, user=boss)
    assert not season.events.exists()
    assert not services.season_event_remove(season=season, event=event, user=boss)
    event.refresh_from_db()


def test_a_co_organizer_cannot_take_out_an_event_of_someone_elses():
    boss, helper = make_user(), make_user()
    event = make_event(organizer=boss, date=datetime.date(2026, 2, 1))
    season = make_season(boss, events=[event])
    services.season_organizer_add(season=season, who=helper.username, user=boss)
    with pytest.raises(ActionError, match="season's creator or an organizer"):
        services.season_event_remove(season=season, event=event, user=helper)
    assert season.events.exists()


def test_the_seasons_creator_may_take_out_a_co_organizers_event():
    boss, helper = make_user(), make_user()
    season = make_season(boss)
    services.season_organizer_add(season=season, who=helper.username, user=boss)
    event = make_event(organizer=helper, date=datetime.date(2026, 2, 1))
    services.season_event_add(season=season, event=event, user=helper)
    assert services.season_event_remove(season=season, event=event, user=boss)


def test_a_co_organizer_is_added_by_username_or_email():
    boss = make_user()
    ann, bob = make_user("ann"), make_user("bob", email="Bob@Example.org")
    season = make_season(boss)
    services.season_organizer_add(season=season, who="ANN", user=boss)
    services.season_organizer_add(season=season, who="bob@example.org", user=boss)
    assert set(season.organizers.values_list("user", flat=True)) == {boss.pk, ann.pk, bob.pk}


def test_a_co_organizer_adds_their_own_events():
    boss, ann = make_user(), make_user("ann")
    season = make_season(boss)
    services.season_organizer_add(season=season, who="ann", user=boss)
    event = make_event(organizer=ann, date=datetime.date(2026, 3, 1))
    services.season_event_add(season=season, event=event, user=ann)
    assert list(season.events.all()) == [event]


def test_an_unknown_account_is_refused():
    season = make_season(make_user())
    with pytest.raises(services.FieldError, match="No account"):
        services.season_organizer_add(season=season, who="nobody@example.org", user=season.created_by)


def test_an_organizer_added_twice_is_refused():
    boss = make_user()
    make_user("ann")
    season = make_season(boss)
    services.season_organizer_add(season=season, who="ann", user=boss)
    with pytest.raises(services.FieldError, match="already organizes"):
        services.season_organizer_add(season=season, who="ann", user=boss)


def test_a_second_save_from_an_older_form_is_refused_and_writes_nothing():
    boss = make_user()
    season = make_season(boss)
    loaded = season.version
    services.season_save(season=season, fields={"name": "First"}, version=loaded)
    with pytest.raises(services.SeasonConflict):
        services.season_save(season=season, fields={"name": "Second"}, version=loaded)
    season.refresh_from_db()
    assert season.name == "First"


def test_new_dates_must_still_hold_the_events():
    boss = make_user()
    event = make_event(organizer=boss, date=datetime.date(2026, 5, 1))
    season = make_season(boss, events=[event])
    with pytest.raises(services.FieldError) as error:
        services.season_save(
            season=season, fields={"end_date": datetime.date(2026, 4, 1)}, version=season.version
        )
    assert error.value.field == "end_date"
    season.refresh_from_db()
    assert season.end_date == datetime.date(2026, 6, 30)
