"""Behind nginx (MEDIA_ACCEL_REDIRECT set) a printout is sent by nginx, after the app's permission check."""

import pytest
from django.urls import reverse

from tests.factories import add_staff, make_event, make_players, make_user
from tournaments.models import PrintJob
from tournaments.services import printing, rounds

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.MEDIA_ACCEL_REDIRECT = "/protected-media/"


@pytest.fixture
def printed():
    organizer = make_user()
    event = make_event(organizer=organizer)
    make_players(event, 8)
    event = rounds.event_start(event=event)
    round = rounds.round_pair(event=event, number=1, publish=True)
    job, _ = printing.print_request(round=round, kind="slips")
    job = printing.print_job_render(job_id=job.pk)
    url = reverse("tournaments:print_download", kwargs={"slug": event.slug, "number": 1, "job": job.pk})
    return organizer, event, job, url


def test_it_answers_staff_with_an_x_accel_redirect_to_the_file_and_no_bytes(client, printed):
    organizer, _, job, url = printed
    client.force_login(organizer)
    response = client.get(url)
    assert response.status_code == 200
    assert response["X-Accel-Redirect"] == f"/protected-media/{job.file.name}"
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'inline; filename="{job.file.name.rsplit("/", 1)[-1]}"'
    assert response.content == b""


def test_it_sends_an_anonymous_visitor_to_log_in_without_naming_the_file(client, printed):
    response = client.get(printed[3])
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert "X-Accel-Redirect" not in response


def test_it_refuses_a_judge_of_another_event(client, printed):
    judge = make_user()
    add_staff(make_event(), judge, "judge")
    client.force_login(judge)
    response = client.get(printed[3])
    assert response.status_code == 403
    assert "X-Accel-Redirect" not in response


def test_it_sends_the_file_itself_when_the_name_is_not_one_nginx_takes_as_it_is(client, printed):
    organizer, _, job, url = printed
    PrintJob.objects.filter(pk=job.pk).update(file=job.file.name.replace(".pdf", " copie à.pdf"))
    job.file.storage.save(job.file.name.replace(".pdf", " copie à.pdf"), job.file.open("rb"))
    client.force_login(organizer)
    response = client.get(url)
    assert "X-Accel-Redirect" not in response
    assert b"".join(response.streaming_content).startswith(b"%PDF")


def test_it_sends_the_file_itself_without_nginx(client, printed, settings):
    settings.MEDIA_ACCEL_REDIRECT = ""
    organizer, _, _, url = printed
    client.force_login(organizer)
    response = client.get(url)
    assert "X-Accel-Redirect" not in response
    assert b"".join(response.streaming_content).startswith(b"%PDF")
