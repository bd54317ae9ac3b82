"""The players' table page: seeing the table, reporting the slip, confirming it, disputing it (12.070-12.080)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import make_user
from tests.judging.helpers import judge, running_event, seat_round
from tournaments.models import ResultChange, Seat, SlipReport, Table
from tournaments.services import results

pytestmark = pytest.mark.django_db


def published_table(players: int = 4, **fields):
    """A running event, round 1 published, one table of ``players``; each player has an account."""
    event, registrations = running_event(players, **fields)
    round = seat_round(event, registrations, size=players)
    round.published_at = timezone.now()
    round.save()
    users = []
    for i, registration in enumerate(registrations, start=1):
        user = make_user(f"p{i}")
        registration.player.user = user
        registration.player.save()
        users.append(user)
    return event, round, Table.objects.get(round=round, number=1), registrations, users


def url(table: Table) -> str:
    return reverse(
        "tournaments:table",
        kwargs={"slug": table.round.event.slug, "number": table.round.number, "table": table.number},
    )


def slip(table: Table, vps, svs=None, **extra) -> dict:
    data = {"action": "report", **extra}
    for i, seat in enumerate(Seat.objects.filter(table=table).order_by("seat")):
        data[f"seat{seat.pk}-vp"] = str(vps[i])
        data[f"seat{seat.pk}-super_villains"] = str((svs or [0] * len(vps))[i])
        data[f"seat{seat.pk}-main_character"] = ""
    return data


def test_a_visitor_who_is_not_logged_in_logs_in_and_comes_back(client):
    _, _, table, _, _ = published_table()
    response = client.get(url(table))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next={url(table)}"


def test_it_shows_the_turn_order_and_you(client):
    _, _, table, registrations, users = published_table()
    client.force_login(users[1])
    body = client.get(url(table)).content.decode()
    names = [r.player.public_name for r in registrations]
    assert all(body.index(names[i]) < body.index(names[i + 1]) for i in range(3))
    assert 'class="badge ok">you</span>' in body
    assert "Report the match slip" in body


def test_a_draft_round_is_a_404_for_players_and_open_to_staff(client):
    event, round, table, _, users = published_table()
    round.published_at = None
    round.save()
    client.force_login(users[0])
    assert client.get(url(table)).status_code == 404
    client.force_login(judge(event))
    body = client.get(url(table)).content.decode()
    assert "Draft" in body and "Enter or correct the match slip (staff)" in body


def test_someone_not_seated_sees_the_table_but_cannot_report(client):
    _, _, table, _, _ = published_table()
    client.force_login(make_user("stranger"))
    assert client.get(url(table)).status_code == 200
    assert client.post(url(table), slip(table, [30, 20, 10, 5])).status_code == 403
    assert not SlipReport.objects.exists()


def test_report_then_three_confirmations_put_the_result_in(client):
    _, _, table, registrations, users = published_table()
    client.force_login(users[0])
    assert client.post(url(table), slip(table, [30, 20, 10, 5])).status_code == 302
    report = SlipReport.objects.get()
    for user in users[1:]:
        client.force_login(user)
        assert "Confirm (this signs the slip, 12.080)" in client.get(url(table)).content.decode()
        client.post(url(table), {"action": "confirm", "report": report.pk})
    table.refresh_from_db()
    assert table.has_result
    assert [s.placement for s in Seat.objects.filter(table=table).order_by("seat")] == [1, 2, 3, 4]
    change = ResultChange.objects.get(table=table)
    names = [r.player.name for r in registrations]
    assert change.reason == f"reported by {names[0]}; confirmed by {names[1]}, {names[2]}, {names[3]}"
    body = client.get(url(table)).content.decode()
    assert "Reported by" in body and "confirmed by" in body


def test_the_page_says_who_has_not_confirmed_yet(client):
    _, _, table, registrations, users = published_table()
    client.force_login(users[0])
    client.post(url(table), slip(table, [30, 20, 10, 5]))
    body = client.get(url(table)).content.decode()
    assert "Not yet:" in body and registrations[3].player.public_name in body
    assert "Waiting for 3 more to confirm" in body


def test_a_dispute_needs_a_reason(client):
    _, _, table, _, users = published_table()
    client.force_login(users[0])
    client.post(url(table), slip(table, [30, 20, 10, 5]))
    report = SlipReport.objects.get()
    client.force_login(users[1])
    response = client.post(url(table), {"action": "dispute", "report": report.pk, "reason": "  "})
    assert response.status_code == 200
    assert SlipReport.objects.get().status == SlipReport.Status.PENDING
    client.post(url(table), {"action": "dispute", "report": report.pk, "reason": "my VP are 34"})
    assert SlipReport.objects.get().status == SlipReport.Status.DISPUTED
    assert "a judge is coming" in client.get(url(table)).content.decode().lower()


def test_the_tie_question_is_a_choice_of_players_and_keeps_the_slip(client):
    _, _, table, registrations, users = published_table()
    client.force_login(users[0])
    # Seats 1, 2 and 3 tie on VP and Super-Villains: two choices to make.
    data = slip(table, [30, 30, 30, 5], [1, 1, 1, 0])
    body = client.post(url(table), data).content.decode()
    assert "Which of these players defeated a Super-Villain most recently?" in body
    assert 'type="radio"' in body and 'value="30"' in body
    assert not SlipReport.objects.exists()
    a, b, c = (r.pk for r in registrations[:3])
    body = client.post(url(table), {**data, "recent_0_0": str(c)}).content.decode()
    assert "And of the others?" in body and not SlipReport.objects.exists()
    assert client.post(url(table), {**data, "recent_0_0": str(c), "recent_0_1": str(a)}).status_code == 302
    report = SlipReport.objects.get()
    assert report.recent_super_villain == {str(c): 1, str(a): 2, str(b): 3}


def test_a_second_reporter_sees_the_first_report_to_confirm(client):
    _, _, table, registrations, users = published_table()
    client.force_login(users[0])
    client.post(url(table), slip(table, [30, 20, 10, 5]))
    client.force_login(users[2])
    body = client.post(url(table), slip(table, [31, 20, 10, 5])).content.decode()
    assert "reported this table&#x27;s slip first" in body or "reported this table's slip first" in body
    assert "Confirm (this signs the slip, 12.080)" in body
    assert "What you typed (not sent)" in body and "31 VP" in body
    assert SlipReport.objects.count() == 1


def test_the_reporter_may_change_the_report_until_someone_confirms(client):
    _, _, table, _, users = published_table()
    client.force_login(users[0])
    client.post(url(table), slip(table, [30, 20, 10, 5]))
    assert "Change my report" in client.get(url(table)).content.decode()
    client.post(url(table), slip(table, [30, 25, 10, 5], changing="1"))
    report = SlipReport.objects.get(status=SlipReport.Status.PENDING)
    assert list(report.entries.values())[1]["vp"] == 25


def test_a_judges_entry_wins_and_the_players_see_it(client):
    event, _, table, _, users = published_table()
    client.force_login(users[0])
    client.post(url(table), slip(table, [30, 20, 10, 5]))
    seats = list(Seat.objects.filter(table=table).order_by("seat"))
    results.result_enter(
        table=table,
        entries=[results.SeatEntry(seat_id=s.pk, vp=v) for s, v in zip(seats, [5, 10, 20, 30], strict=True)],
        expected_version=0,
        user=judge(event),
    )
    client.force_login(users[1])
    body = client.get(url(table)).content.decode()
    assert "A judge entered this table" in body
    report = SlipReport.objects.get()
    client.post(url(table), {"action": "confirm", "report": report.pk})
    assert SlipReport.objects.get().status == SlipReport.Status.SETTLED
    assert Seat.objects.get(pk=seats[3].pk).placement == 1


def test_with_player_reporting_off_the_page_says_to_hand_the_slip_to_a_judge(client):
    _, _, table, _, users = published_table(player_reporting=False)
    client.force_login(users[0])
    assert "hand it to a judge" in client.get(url(table)).content.decode()
    client.post(url(table), slip(table, [30, 20, 10, 5]))
    assert not SlipReport.objects.exists()


@pytest.mark.parametrize("value", ["abc", "9" * 40, "3\x004", "-1", "1e5", " "])
def test_hostile_values_are_field_errors_and_keep_the_slip(client, value):
    _, _, table, _, users = published_table()
    client.force_login(users[0])
    data = slip(table, [30, 20, 10, 5])
    first = Seat.objects.filter(table=table).order_by("seat").first()
    data[f"seat{first.pk}-vp"] = value
    data[f"seat{first.pk}-main_character"] = "Batman\x00"
    data[f"seat{first.pk}-left_game"] = value
    response = client.post(url(table), data)
    assert response.status_code == 200
    assert not SlipReport.objects.exists()


@pytest.mark.parametrize(
    "data",
    [
        {"action": "confirm", "report": "x\x00"},
        {"action": "confirm", "report": "9" * 40},
        {"action": "dispute", "report": "-3", "reason": "\x00"},
        {"action": "nonsense"},
        {"action": "report", "recent_0_0": "\x00"},
    ],
)
def test_hostile_posts_never_make_a_500(client, data):
    _, _, table, _, users = published_table()
    client.force_login(users[0])
    assert client.post(url(table), data).status_code == 200


def test_the_slips_qr_code_opens_the_table_page():
    from tournaments.printouts import slips_document

    _, round, table, _, _ = published_table()
    document = slips_document(round)
    assert document.tables[0].result_url.endswith(url(table))


def test_a_page_showing_the_tie_question_stops_refreshing_itself(client):
    _, _, table, _, users = published_table()
    client.force_login(users[0])
    body = client.post(url(table), slip(table, [30, 30, 20, 5], [1, 1, 0, 0])).content.decode()
    assert 'id="table-live"' in body and 'data-dirty="1"' in body
    assert 'data-dirty="1"' not in client.get(url(table)).content.decode()


def test_a_second_reporter_reads_the_first_ones_name_as_they_chose_to_show_it(client):
    _, _, table, registrations, users = published_table()
    first = registrations[0].player
    first.name, first.public_short_name = "Clark Kent", True
    first.save()
    client.force_login(users[0])
    client.post(url(table), slip(table, [30, 20, 10, 5]))
    client.force_login(users[2])
    body = client.post(url(table), slip(table, [31, 20, 10, 5])).content.decode()
    assert "Clark K." in body and "Clark Kent" not in body


def test_a_player_moved_by_a_swap_is_sent_to_their_new_table(client):
    event, registrations = running_event(8)
    round = seat_round(event, registrations)
    round.published_at = timezone.now()
    round.save()
    user = make_user("moved")
    registrations[0].player.user = user
    registrations[0].player.save()
    first = Table.objects.get(round=round, number=1)
    second = Table.objects.get(round=round, number=2)
    # The swap moved them to table 2 after they opened table 1.
    Seat.objects.filter(registration=registrations[0]).update(table=second, seat=9)
    client.force_login(user)
    response = client.post(url(first), slip(first, [30, 20, 10]))
    assert response.status_code == 302 and response["Location"] == url(second)
    assert not SlipReport.objects.exists()


def test_the_reported_slip_shows_how_each_place_was_decided(client):
    _, _, table, registrations, users = published_table()
    client.force_login(users[0])
    client.post(
        url(table), slip(table, [30, 30, 20, 5], [1, 1, 0, 0], **{"recent_0_0": str(registrations[1].pk)})
    )
    client.force_login(users[1])
    body = client.get(url(table)).content.decode()
    assert "defeated one more recently" in body and "defeated one less recently" in body


def test_a_slip_refused_because_reporting_was_turned_off_keeps_what_was_typed(client):
    event, _, table, _, users = published_table()
    client.force_login(users[0])
    page = client.get(url(table))
    assert page.status_code == 200
    event.player_reporting = False
    event.save()
    body = client.post(url(table), slip(table, [37, 20, 10, 5])).content.decode()
    assert "hand the signed match slip to a judge" in body
    assert "What you typed (not sent)" in body and "37 VP" in body
    assert not SlipReport.objects.exists()
