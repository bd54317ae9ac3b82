"""Print jobs through the pages, with Celery in eager mode (no broker: the embedded default)."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import make_event, make_players, make_user
from tournaments.models import PrintJob, Round
from tournaments.services import printing, rounds

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def paired_event(players: int = 8):
    organizer = make_user()
    event = make_event(organizer=organizer)
    make_players(event, players)
    event = rounds.event_start(event=event)
    return organizer, event, rounds.round_pair(event=event, number=1, publish=True)


def test_printing_slips_from_the_page_makes_a_pdf_with_every_table(
    client, django_capture_on_commit_callbacks
):
    organizer, event, round = paired_event()
    client.force_login(organizer)
    url = reverse("tournaments:print_request", kwargs={"slug": event.slug, "number": 1, "kind": "slips"})
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url)
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.DONE and (job.done, job.total) == (2, 2)
    page = client.get(reverse("tournaments:print_center", kwargs={"slug": event.slug, "number": 1}))
    assert "ready" in page.content.decode()
    pdf = b"".join(
        client.get(
            reverse("tournaments:print_download", kwargs={"slug": event.slug, "number": 1, "job": job.pk})
        ).streaming_content
    )
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Table 1" in text and "Table 2" in text


def test_two_clicks_make_one_job():
    _, _, round = paired_event()
    first, created = printing.print_request(round=round, kind="slips")
    second, created_again = printing.print_request(round=round, kind="slips")
    assert created and not created_again and first.pk == second.pk


def test_the_database_refuses_a_second_unfinished_job_for_the_same_printout():
    from django.db import IntegrityError, transaction

    _, event, round = paired_event()
    PrintJob.objects.create(event=event, round=round, kind="slips", source_digest="x")
    with pytest.raises(IntegrityError), transaction.atomic():
        PrintJob.objects.create(event=event, round=round, kind="slips", source_digest="y")


def test_a_printout_is_stale_after_the_pairings_change(client, django_capture_on_commit_callbacks):
    organizer, event, round = paired_event()
    job, _ = printing.print_request(round=round, kind="pairings_by_name")
    with django_capture_on_commit_callbacks(execute=True):
        printing.print_enqueue(job=job)
    rounds.round_repair(round=round)
    client.force_login(organizer)
    page = client.get(reverse("tournaments:print_center", kwargs={"slug": event.slug, "number": 1}))
    assert "out of date" in page.content.decode()
    again, created = printing.print_request(round=round, kind="pairings_by_name")
    assert created and again.pk != job.pk


def test_a_render_that_keeps_failing_is_shown_as_failed(monkeypatch, django_capture_on_commit_callbacks):
    _, _, round = paired_event()

    def broken(*args, **kwargs):
        raise RuntimeError("printer on fire")

    monkeypatch.setattr("tournaments.printouts.render", broken)
    job, _ = printing.print_request(round=round, kind="slips")
    with django_capture_on_commit_callbacks(execute=True):
        printing.print_enqueue(job=job)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    assert "printer on fire" in job.error and job.attempts == 3  # the first try and two retries


def test_play_off_seating_only_for_play_off_rounds():
    _, _, round = paired_event()
    from tournaments.errors import ActionError

    with pytest.raises(ActionError):
        printing.print_request(round=round, kind="playoffs")


def test_print_slips_command_writes_the_file(tmp_path):
    from django.core.management import call_command

    _, event, _ = paired_event(12)
    out = tmp_path / "slips.pdf"
    call_command("print_slips", event.slug, "1", "--out", str(out))
    assert len(PdfReader(str(out)).pages) == 2


def test_print_pages_are_staff_only(client):
    _, event, _ = paired_event()
    url = reverse("tournaments:print_center", kwargs={"slug": event.slug, "number": 1})
    client.force_login(make_user())
    assert client.get(url).status_code == 403
    assert Round.objects.filter(event=event).count() == 1
