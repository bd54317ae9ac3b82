"""Staff and the players' reports: the slip page shows an open report and starts from it, a judge confirms
for a player, a judge settles a dispute from the board, and the event settings for player reporting."""

import pytest
from django.urls import reverse

from judging import selectors
from tests.factories import make_event, make_user
from tests.judging.helpers import judge
from tests.judging.report_helpers import (
    confirm,
    dispute,
    published_round,
    report,
    seats_of,
    table_of,
)
from tests.permissions import RUN, VISITORS, log_in_as, outcome
from tournaments.models import Event, ResultChange, SlipConfirmation, SlipReport
from tournaments.services import reports, results

pytestmark = pytest.mark.django_db


def slip_url(event, table: int = 1) -> str:
    return reverse("tournaments:table_result", kwargs={"slug": event.slug, "number": 1, "table": table})


def confirm_url(event, table: int = 1) -> str:
    return reverse("tournaments:report_confirm_for", kwargs={"slug": event.slug, "number": 1, "table": table})


def judge_client(client, event):
    client.force_login(judge(event, "jules"))
    return client


def test_the_slip_page_shows_the_open_report_and_starts_from_it(client):
    event, round = published_round()
    slip = report(table_of(round, 1), [40, 30, 20, 10])
    confirm(slip, 2)
    page = judge_client(client, event).get(slip_url(event)).content.decode()
    assert "Reported by <strong>Player 001</strong>" in page
    assert "✓ <bdi>Player 002</bdi>" in page
    seats = seats_of(table_of(round, 1))
    assert f'name="seat{seats[2].pk}-vp" value="20"' in page
    assert "Confirm for <bdi>Player 003</bdi>" in page and "Confirm for <bdi>Player 004</bdi>" in page
    assert "Confirm for <bdi>Player 002</bdi>" not in page


def test_the_slip_page_shows_the_dispute(client):
    event, round = published_round()
    dispute(report(table_of(round, 1), [40, 30, 20, 10]), 4, "my VP are 12")
    page = judge_client(client, event).get(slip_url(event)).content.decode()
    assert "Disputed by <strong>Player 004</strong>: “my VP are 12”" in page
    assert "Confirm for" not in page  # a disputed slip is the judge's to settle


def test_a_judge_confirms_for_a_player(client):
    event, round = published_round()
    slip = report(table_of(round, 1), [40, 30, 20, 10])
    player = seats_of(table_of(round, 1))[1]
    response = judge_client(client, event).post(confirm_url(event), {"report": slip.pk, "seat": player.pk})
    assert response.status_code == 302 and response["Location"] == slip_url(event)
    signature = SlipConfirmation.objects.get(report=slip, registration=player.registration)
    assert signature.by_staff and signature.user.username == "jules"
    page = client.get(slip_url(event)).content.decode()
    assert "✓ <bdi>Player 002</bdi>" in page and "by jules for them" in page


def test_the_last_confirmation_for_a_player_puts_the_result_in(client):
    event, round = published_round()
    slip = report(table_of(round, 1), [40, 30, 20, 10])
    confirm(slip, 2)
    confirm(slip, 3)
    last = seats_of(table_of(round, 1))[3]
    judge_client(client, event).post(confirm_url(event), {"report": slip.pk, "seat": last.pk})
    slip.refresh_from_db()
    assert slip.status == SlipReport.Status.ACCEPTED
    assert table_of(round, 1).has_result
    page = client.get(slip_url(event)).content.decode()
    assert (
        "Reported by the table — reported by Player 001; confirmed by Player 002, Player 003, Player 004"
        in page
    )


def test_confirming_for_a_player_of_a_settled_report_is_refused_and_changes_nothing(client):
    event, round = published_round()
    table = table_of(round, 1)
    slip = report(table, [40, 30, 20, 10])
    seats = seats_of(table)
    results.result_enter(
        table=table,
        entries=reports.report_entries(slip, seats),
        expected_version=table.version,
        user=None,
    )
    response = judge_client(client, event).post(
        confirm_url(event), {"report": slip.pk, "seat": seats[1].pk}, follow=True
    )
    assert "A judge has entered this table" in response.content.decode()
    assert SlipConfirmation.objects.filter(report=slip).count() == 1


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"report": "x", "seat": "1"},
        {"report": "999999", "seat": "999999"},
        {"report": "²", "seat": "\x00"},
    ],
)
def test_confirming_for_a_player_with_a_bad_form_is_a_message(client, data):
    event, round = published_round()
    slip = report(table_of(round, 1), [40, 30, 20, 10])
    response = judge_client(client, event).post(confirm_url(event), data, follow=True)
    assert response.status_code == 200
    assert "not at this table any more" in response.content.decode()
    assert SlipConfirmation.objects.filter(report=slip).count() == 1


def test_confirming_for_a_player_of_another_table_is_refused(client):
    event, round = published_round()
    slip = report(table_of(round, 1), [40, 30, 20, 10])
    elsewhere = seats_of(table_of(round, 2))[0]
    response = judge_client(client, event).post(
        confirm_url(event), {"report": slip.pk, "seat": elsewhere.pk}, follow=True
    )
    assert "not at this table any more" in response.content.decode()
    assert SlipConfirmation.objects.filter(report=slip).count() == 1


def test_a_judge_settles_a_dispute_from_the_board_by_fixing_one_number(client):
    event, round = published_round()
    dispute(report(table_of(round, 1), [40, 30, 20, 10]), 4, "my VP are 35")
    judge_client(client, event)
    board = reverse("judging:board_round", kwargs={"slug": event.slug, "number": 1})
    link = f"{slip_url(event)}?next={board}"
    assert f'href="{link}">Settle</a>' in client.get(board).content.decode()

    form = client.get(link).context
    data = {"version": form["version"], "next": board}
    for _seat, seat_form in form["rows"]:
        for name in seat_form.fields:
            value = seat_form[name].value()
            if value is not None and value is not False and value != "":
                data[f"{seat_form.prefix}-{name}"] = "on" if value is True else value
    fourth = seats_of(table_of(round, 1))[3]
    data[f"seat{fourth.pk}-vp"] = 35
    response = client.post(link, data)

    assert response.status_code == 302 and response["Location"] == board
    assert SlipReport.objects.get(table=table_of(round, 1)).status == SlipReport.Status.SETTLED
    fourth.refresh_from_db()
    assert (fourth.vp, fourth.placement) == (35, 2)
    _, tables = selectors.round_board(round=round)
    assert (tables[0].status, tables[0].detail) == (selectors.RESULT_IN, "by a judge")


def test_the_report_answer_to_the_tie_question_is_on_the_judges_form(client):
    event, round = published_round()
    table = table_of(round, 1)
    seats = seats_of(table)
    reports.report_submit(
        table=table,
        registration=seats[0].registration,
        user=None,
        entries=[
            results.SeatEntry(seat_id=s.pk, vp=vp, super_villains=1)
            for s, vp in zip(seats, [30, 30, 20, 10], strict=True)
        ],
        recent_super_villain={seats[1].registration_id: 1, seats[0].registration_id: 2},
    )
    page = judge_client(client, event).get(slip_url(event)).content.decode()
    assert 'id="recent-question"' in page
    assert f'name="recent_{seats[1].registration_id}" value="1"' in page
    assert "Not saved yet" not in page


def test_the_history_labels_a_confirmed_report():
    _, round = published_round()
    slip = report(table_of(round, 1), [40, 30, 20, 10])
    for seat in (2, 3, 4):
        confirm(slip, seat)
    change = ResultChange.objects.get(table=table_of(round, 1))
    assert change.action_label == "Reported by the table"
    assert "Player 001: VP 40, SV 0, place 1, points 5" in change.differences()


@pytest.mark.parametrize("visitor", VISITORS)
def test_confirming_for_a_player_is_for_the_events_staff(client, visitor):
    event, round = published_round()
    slip = report(table_of(round, 1), [40, 30, 20, 10])
    seat = seats_of(table_of(round, 1))[1]
    log_in_as(client, visitor, event, registration=seat.registration)
    response = client.post(confirm_url(event), {"report": slip.pk, "seat": seat.pk})
    assert outcome(response) == RUN[visitor]
    signed = SlipConfirmation.objects.filter(report=slip, registration=seat.registration).exists()
    assert signed == (RUN[visitor] == "ok")


def test_confirming_for_a_player_is_a_post(client):
    event, _ = published_round()
    assert judge_client(client, event).get(confirm_url(event)).status_code == 405


# --- Event settings --------------------------------------------------------------------------


def edit(client, event, **changes):
    from tests.factories import event_form_data

    return client.post(
        reverse("tournaments:event_edit", kwargs={"slug": event.slug}), event_form_data(event, **changes)
    )


def organizer_of(client, event_fields=None):
    organizer = make_user()
    event = make_event(organizer=organizer, **(event_fields or {}))
    client.force_login(organizer)
    return event


def test_the_organizer_turns_player_reporting_off_and_sets_the_minutes(client):
    event = organizer_of(client)
    assert edit(client, event, player_reporting="False", confirm_minutes=25).status_code == 302
    event.refresh_from_db()
    assert (event.player_reporting, event.confirm_minutes) == (False, 25)


def test_minutes_out_of_range_are_a_field_error_that_keeps_what_was_typed(client):
    event = organizer_of(client)
    response = edit(client, event, confirm_minutes=0, venue="Gotham Hall")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Ensure this value is greater than or equal to 1." in page and 'value="Gotham Hall"' in page
    event.refresh_from_db()
    assert event.confirm_minutes == 10 and event.venue == ""


def test_a_settings_form_without_the_reporting_fields_keeps_reporting_on():
    from tests.factories import event_form_data
    from tournaments.forms import EventForm

    data = event_form_data()
    del data["player_reporting"], data["confirm_minutes"]
    form = EventForm(data)
    assert form.is_valid(), form.errors
    assert form.event_fields()["player_reporting"] is True and form.event_fields()["confirm_minutes"] == 10


def test_the_settings_page_offers_player_reporting(client):
    event = organizer_of(client)
    page = client.get(reverse("tournaments:event_edit", kwargs={"slug": event.slug})).content.decode()
    assert "Players report results from their phones" in page and 'name="confirm_minutes"' in page


def test_a_conflicting_save_names_the_reporting_setting(client):
    from tests.factories import event_form_data
    from tournaments.services.registration import event_settings_save

    event = organizer_of(client)
    stale = event_form_data(event)
    event_settings_save(event=event, fields={"player_reporting": False}, version=0)
    response = client.post(reverse("tournaments:event_edit", kwargs={"slug": event.slug}), stale)
    conflict = response.content.decode().split('id="conflict"')[1].split("</section>")[0]
    assert "Players report results from their phones: No: the judges enter every match slip" in conflict
    assert Event.objects.get(pk=event.pk).player_reporting is False
