"""The season pages: public list and standings (name filter, CSV), the organizers' pages, who may use them,
forms that keep what was typed, and odd input that never gives a 500."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from seasons import services
from seasons.models import Season
from tests.factories import make_event, make_user
from tests.seasons.helpers import finished_event, make_season

pytestmark = pytest.mark.django_db


def season_form(**overrides) -> dict:
    data = {
        "name": "Spring League",
        "start_date": "2026-01-01",
        "end_date": "2026-06-30",
        "description": "",
        "preset": "store",
        "places": "",
        "attendance": "0",
    }
    data.update(overrides)
    return data


@pytest.fixture
def boss(client):
    user = make_user("boss")
    client.force_login(user)
    return user


def test_the_list_is_public(client):
    season = make_season(make_user())
    response = client.get(reverse("seasons:list"))
    assert response.status_code == 200
    assert season.name in response.text
    assert 'href="/seasons/"' in response.text  # the site navigation


def test_the_standings_page_states_the_tiebreakers_and_the_scheme(client):
    boss = make_user()
    event = finished_event(boss)
    season = make_season(boss, events=[event], points={"preset": "linear", "attendance": 2})
    response = client.get(season.get_absolute_url())
    assert response.status_code == 200
    text = response.text
    assert "Best single finish" in text and "Event wins" in text
    assert "Players in the event minus the place plus one" in text and "Plus 2 for attending" in text
    assert event.name in text
    assert "<bdi>Player 001</bdi>" in text


def test_the_name_filter_shows_only_the_matching_players(client):
    boss = make_user()
    season = make_season(boss, events=[finished_event(boss)])
    response = client.get(season.get_absolute_url(), {"q": "player 002"})
    assert "Player 002" in response.text
    assert "Player 003" not in response.text


@pytest.mark.parametrize(
    "query",
    [{"q": "x" * 5000}, {"q": "\x00"}, {"page": "-3"}, {"page": "zz"}, {"page": "99999999999999999999"}],
)
def test_odd_query_parameters_give_a_page(client, query):
    boss = make_user()
    season = make_season(boss, events=[finished_event(boss)])
    assert client.get(season.get_absolute_url(), query).status_code == 200


def test_an_event_in_progress_is_marked_on_the_page(client):
    from tests.seasons.helpers import running_event

    boss = make_user()
    season = make_season(boss, events=[running_event(boss)])
    text = client.get(season.get_absolute_url()).text
    assert "In progress" in text and "No finished event in this season yet" in text


def test_an_unknown_season_is_a_404(client):
    assert client.get(reverse("seasons:detail", args=["nope"])).status_code == 404
    assert client.get(reverse("seasons:csv", args=["nope"])).status_code == 404


def test_the_csv_has_a_row_per_person_and_a_column_per_event(client):
    boss = make_user()
    events = [finished_event(boss), finished_event(boss, date=datetime.date(2026, 3, 1), seed=2)]
    season = make_season(boss, events=events)
    response = client.get(reverse("seasons:csv", args=[season.slug]))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["rank", "player", "points"]
    assert rows[0][6:8] == ["rating", "provisional"]
    assert rows[0][8:] == [e.name for e in events]
    assert len(rows) == 1 + 16
    assert rows[1][0] == "1"


def test_the_csv_keeps_the_pages_name_filter(client):
    boss = make_user()
    event = finished_event(boss)
    player = event.registrations.first().player
    player.name = "Quentin Filterby"
    player.save()
    season = make_season(boss, events=[event])
    response = client.get(reverse("seasons:csv", args=[season.slug]), {"q": "filterby"})
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert [row[1] for row in rows[1:]] == ["Quentin Filterby"]


def test_the_csv_quotes_a_name_that_looks_like_a_formula(client):
    boss = make_user()
    event = finished_event(boss)
    player = event.registrations.first().player
    player.name = "=HYPERLINK(1)"
    player.save()
    season = make_season(boss, events=[event])
    assert "'=HYPERLINK(1)" in client.get(reverse("seasons:csv", args=[season.slug])).content.decode()


def test_the_page_costs_the_same_queries_for_more_players(client):
    boss = make_user()
    small = make_season(boss, events=[finished_event(boss, players=8)], name="Small")
    big = make_season(boss, events=[finished_event(boss, players=13, seed=2)], name="Big")
    counts = []
    for season in (small, big):
        client.get(season.get_absolute_url())
        with CaptureQueriesContext(connection) as queries:
            assert client.get(season.get_absolute_url()).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_event_page_links_the_seasons_it_counts_in(client):
    boss = make_user()
    event = make_event(organizer=boss, date=datetime.date(2026, 2, 1))
    season = make_season(boss, events=[event])
    assert season.get_absolute_url() in client.get(event.get_absolute_url()).text


def test_adding_an_event_to_a_season_changes_the_event_page_etag(client):
    boss = make_user()
    event = make_event(organizer=boss, date=datetime.date(2026, 2, 1))
    before = client.get(event.get_absolute_url())["ETag"]
    make_season(boss, events=[event])
    assert client.get(event.get_absolute_url())["ETag"] != before


def test_anyone_who_may_create_events_creates_a_season(client, boss):
    response = client.post(reverse("seasons:create"), season_form())
    season = Season.objects.get()
    assert response.url == reverse("seasons:manage", args=[season.slug])
    assert season.created_by == boss
    assert season.points == {"preset": "store", "attendance": 0}


def test_an_account_without_a_verified_email_may_not_create_a_season(client):
    client.force_login(make_user(verified=False))
    assert client.post(reverse("seasons:create"), season_form()).status_code == 403
    assert not Season.objects.exists()


def test_a_visitor_is_sent_to_log_in(client):
    assert client.get(reverse("seasons:create")).status_code == 302
    season = make_season(make_user())
    assert client.get(reverse("seasons:manage", args=[season.slug])).status_code == 302


def test_a_custom_table_is_stored_as_typed(client, boss):
    client.post(reverse("seasons:create"), season_form(preset="custom", places="10, 6 3", attendance="1"))
    assert Season.objects.get().points == {"preset": "custom", "places": [10, 6, 3], "attendance": 1}


@pytest.mark.parametrize(
    "overrides, field",
    [
        ({"preset": "custom", "places": "10, seven"}, "places"),
        ({"preset": "custom", "places": ""}, "places"),
        ({"attendance": "-1"}, "attendance"),
        ({"preset": "mystery"}, "preset"),
        ({"end_date": "2025-01-01"}, "end_date"),
        ({"start_date": "not a date"}, "start_date"),
        ({"name": "x" * 500}, "name"),
    ],
)
def test_bad_input_gets_a_field_error_and_keeps_what_was_typed(client, boss, overrides, field):
    response = client.post(reverse("seasons:create"), season_form(**overrides))
    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert response.context["form"]["name"].value() == overrides.get("name", "Spring League")
    if "places" in overrides:
        assert f'value="{overrides["places"]}"' in response.text or not overrides["places"]
    assert not Season.objects.exists()


def test_someone_who_does_not_organize_the_season_gets_403(client):
    season = make_season(make_user())
    client.force_login(make_user())
    for name in ("seasons:edit", "seasons:manage"):
        assert client.get(reverse(name, args=[season.slug])).status_code == 403
    assert client.post(reverse("seasons:organizer_add", args=[season.slug]), {"who": "x"}).status_code == 403


def test_the_second_of_two_organizers_editing_at_once_is_told_and_overwrites_nothing(client, boss):
    season = make_season(boss)
    url = reverse("seasons:edit", args=[season.slug])
    loaded = season.version
    services.season_save(season=season, fields={"name": "Saved by Ann"}, version=loaded)
    response = client.post(url, season_form(name="Mine", version=loaded))
    assert response.status_code == 409
    assert "Another organizer saved this season" in response.text
    assert "Saved by Ann" in response.text
    season.refresh_from_db()
    assert season.name == "Saved by Ann"
    # Saving again, knowingly, keeps theirs.
    response = client.post(url, season_form(name="Mine", version=response.context["form"].data["version"]))
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.name == "Mine"


def test_the_edit_form_saves_new_dates_and_scheme(client, boss):
    season = make_season(boss)
    client.post(
        reverse("seasons:edit", args=[season.slug]),
        season_form(end_date="2026-12-31", preset="top_heavy", version=season.version),
    )
    season.refresh_from_db()
    assert season.end_date == datetime.date(2026, 12, 31)
    assert season.points["preset"] == "top_heavy"


def test_the_manage_page_offers_only_the_events_the_organizer_runs(client, boss):
    mine = make_event(organizer=boss, name="Mine", date=datetime.date(2026, 2, 1))
    make_event(organizer=make_user(), name="Theirs", date=datetime.date(2026, 2, 1))
    season = make_season(boss)
    response = client.get(reverse("seasons:manage", args=[season.slug]))
    choices = list(response.context["event_form"].fields["event"].queryset)
    assert choices == [mine]


def test_the_manage_page_offers_only_events_within_the_seasons_dates(client, boss):
    inside = make_event(organizer=boss, name="Inside", date=datetime.date(2026, 2, 1))
    make_event(organizer=boss, name="Outside", date=datetime.date(2026, 12, 1))
    season = make_season(boss)
    response = client.get(reverse("seasons:manage", args=[season.slug]))
    assert list(response.context["event_form"].fields["event"].queryset) == [inside]


def test_adding_an_event_from_the_page(client, boss):
    event = make_event(organizer=boss, date=datetime.date(2026, 2, 1))
    season = make_season(boss)
    response = client.post(reverse("seasons:event_add", args=[season.slug]), {"event": event.pk})
    assert response.status_code == 302
    assert list(season.events.all()) == [event]


def test_an_event_outside_the_dates_gets_a_field_error_on_the_page(client, boss):
    event = make_event(organizer=boss, date=datetime.date(2027, 2, 1))
    season = make_season(boss)
    response = client.post(reverse("seasons:event_add", args=[season.slug]), {"event": event.pk})
    assert response.status_code == 400
    assert "outside the season" in response.context["event_form"].errors["event"][0]


@pytest.mark.parametrize("value", ["", "abc", "99999999999999999999999", "-1"])
def test_an_odd_event_choice_gets_a_field_error(client, boss, value):
    season = make_season(boss)
    response = client.post(reverse("seasons:event_add", args=[season.slug]), {"event": value})
    assert response.status_code == 400
    assert response.context["event_form"].errors["event"]


def test_someone_elses_event_cannot_be_posted_in(client, boss):
    theirs = make_event(organizer=make_user(), date=datetime.date(2026, 2, 1))
    season = make_season(boss)
    response = client.post(reverse("seasons:event_add", args=[season.slug]), {"event": theirs.pk})
    assert response.status_code == 400
    assert not season.events.exists()


def test_removing_an_event_from_the_page(client, boss):
    event = make_event(organizer=boss, date=datetime.date(2026, 2, 1))
    season = make_season(boss, events=[event])
    client.post(reverse("seasons:event_remove", args=[season.slug, event.pk]))
    assert not season.events.exists()
    assert client.post(reverse("seasons:event_remove", args=[season.slug, 2**62])).status_code == 302
    assert client.get(reverse("seasons:event_remove", args=[season.slug, event.pk])).status_code == 405


def test_adding_a_co_organizer_from_the_page(client, boss):
    ann = make_user("ann")
    season = make_season(boss)
    response = client.post(reverse("seasons:organizer_add", args=[season.slug]), {"who": "ann@example.org"})
    assert response.status_code == 302
    assert season.organizers.filter(user=ann).exists()
    response = client.post(reverse("seasons:organizer_add", args=[season.slug]), {"who": "ghost"})
    assert response.status_code == 400
    assert response.context["organizer_form"]["who"].value() == "ghost"


def test_where_event_creation_needs_approval_an_unapproved_account_may_not_create_a_season(client, settings):
    settings.EVENT_CREATION = "approved"
    client.force_login(make_user())
    assert client.get(reverse("seasons:create")).status_code == 403
    assert client.post(reverse("seasons:create"), season_form()).status_code == 403
    assert not Season.objects.exists()


def test_a_superuser_manages_any_season(client):
    season = make_season(make_user())
    client.force_login(make_user(is_superuser=True))
    assert client.get(reverse("seasons:manage", args=[season.slug])).status_code == 200


def test_the_standings_page_shows_a_manage_link_only_to_organizers(client, boss):
    season = make_season(boss)
    manage = reverse("seasons:manage", args=[season.slug])
    assert manage in client.get(season.get_absolute_url()).text
    client.logout()
    assert manage not in client.get(season.get_absolute_url()).text


def test_the_page_shows_a_renamed_player_at_once(client):
    boss = make_user()
    event = finished_event(boss)
    season = make_season(boss, events=[event])
    client.get(season.get_absolute_url())
    player = event.registrations.order_by("pk").first().player
    player.name = "Renamed Person"
    player.save()
    assert "Renamed Person" in client.get(season.get_absolute_url()).text


def test_the_page_shows_a_correction_at_once(client):
    from tournaments.models import Round, Seat, Table
    from tournaments.services import results

    boss = make_user()
    event = finished_event(boss)
    season = make_season(boss, events=[event])
    before = client.get(season.get_absolute_url()).context["lines"][0].name
    final = Table.objects.get(round__event=event, round__kind=Round.Kind.FINAL)
    seats = list(Seat.objects.filter(table=final).order_by("placement"))
    results.result_override(
        table=final,
        order=[s.registration_id for s in reversed(seats)],
        reason="slip read upside down",
        expected_version=final.version,
        user=boss,
    )
    response = client.get(season.get_absolute_url())
    after = response.context["lines"][0].name
    assert after != before
    assert response.text.index(after) < response.text.index(before)


def test_custom_points_typed_with_a_preset_chosen_are_an_error_not_dropped(client, boss):
    response = client.post(reverse("seasons:create"), season_form(preset="store", places="10, 7, 5"))
    assert response.status_code == 400
    assert "count only with “Custom”" in response.content.decode()
    assert "10, 7, 5" in response.content.decode()
    assert not Season.objects.exists()
