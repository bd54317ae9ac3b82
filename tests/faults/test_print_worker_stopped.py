"""A printout whose worker stopped is never "rendering" forever: it is failed with the reason, or retried."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import make_event, make_players, make_user
from tournaments.models import PrintJob
from tournaments.services import printing, rounds

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.PRINT_JOB_TIMEOUT = 600


def paired_round():
    organizer = make_user()
    event = make_event(organizer=organizer)
    make_players(event, 8)
    event = rounds.event_start(event=event)
    return organizer, rounds.round_pair(event=event, number=1, publish=True)


def job_of(round, *, status: str, minutes_ago: float, attempts: int = 0) -> PrintJob:
    return PrintJob.objects.create(
        event=round.event,
        round=round,
        kind="slips",
        status=status,
        attempts=attempts,
        source_digest=printing.print_digest(round=round, kind="slips"),
        created_at=timezone.now() - datetime.timedelta(minutes=minutes_ago),
    )


def print_page(client, organizer, round) -> str:
    client.force_login(organizer)
    url = reverse("tournaments:print_center", kwargs={"slug": round.event.slug, "number": round.number})
    return client.get(url).content.decode()


def test_it_shows_a_job_left_rendering_by_a_stopped_worker_as_failed_with_the_reason(client):
    organizer, round = paired_round()
    job = job_of(round, status=PrintJob.Status.RUNNING, minutes_ago=11, attempts=1)
    page = print_page(client, organizer, round)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    assert "The worker stopped while rendering it: no progress in 10 min." in job.error
    assert "The worker stopped while rendering it" in page
    assert "Render now in this page" in page and "Make it again" in page


def test_it_leaves_a_job_that_is_still_within_its_time_rendering(client):
    organizer, round = paired_round()
    job = job_of(round, status=PrintJob.Status.RUNNING, minutes_ago=2, attempts=1)
    print_page(client, organizer, round)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.RUNNING


def test_it_says_when_no_worker_took_a_queued_job(client):
    organizer, round = paired_round()
    job = job_of(round, status=PrintJob.Status.QUEUED, minutes_ago=11)
    print_page(client, organizer, round)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    assert "No worker took it in 10 min (is the Celery worker running?)" in job.error


def test_asking_again_after_the_worker_stopped_makes_a_new_job():
    _, round = paired_round()
    stopped = job_of(round, status=PrintJob.Status.RUNNING, minutes_ago=11, attempts=1)
    job, created = printing.print_request(round=round, kind="slips")
    assert created and job.pk != stopped.pk


def test_render_now_finishes_a_job_whose_worker_stopped(client):
    organizer, round = paired_round()
    job = job_of(round, status=PrintJob.Status.RUNNING, minutes_ago=11, attempts=1)
    print_page(client, organizer, round)
    url = reverse(
        "tournaments:print_render_now", kwargs={"slug": round.event.slug, "number": 1, "job": job.pk}
    )
    client.post(url)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and job.error == ""


def test_a_worker_picks_up_a_job_left_rendering_by_a_dead_worker_again():
    _, round = paired_round()
    job = job_of(round, status=PrintJob.Status.RUNNING, minutes_ago=1, attempts=1)
    assert printing.print_job_claim(job_id=job.pk) is True


def test_a_job_that_killed_its_worker_on_every_attempt_fails_with_that_reason():
    _, round = paired_round()
    job = job_of(round, status=PrintJob.Status.RUNNING, minutes_ago=1, attempts=printing.MAX_RETRIES + 1)
    assert printing.print_job_claim(job_id=job.pk) is False
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    assert job.error.startswith("The worker stopped while rendering it, 3 times.")


def test_a_late_redelivery_of_a_job_given_up_does_not_render_it():
    _, round = paired_round()
    job = job_of(round, status=PrintJob.Status.FAILED, minutes_ago=20, attempts=1)
    assert printing.print_job_claim(job_id=job.pk) is False
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED


def test_the_task_is_acknowledged_only_once_it_finished_and_stores_no_result():
    task = printing.render_print_job
    assert task.acks_late and task.reject_on_worker_lost and task.ignore_result


def test_a_new_job_is_handed_to_the_queue_only_when_its_row_is_committed(django_capture_on_commit_callbacks):
    _, round = paired_round()
    job, _ = printing.print_request(round=round, kind="slips")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        printing.print_enqueue(job=job)
    job.refresh_from_db()
    assert len(callbacks) == 1 and job.status == PrintJob.Status.QUEUED
    callbacks[0]()
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE
