"""Print jobs: request a printout, render it (in a Celery worker or right here), store the PDF.

A job stores the digest of the data it was made from, so the page can tell when a printout is
stale (pairings changed since) and offer to make a new one. Two clicks make one job: the database
allows one unfinished job per printout.

The job is handed to a Celery worker once its row is committed (``transaction.on_commit``). When the
broker (Redis) cannot be reached, that is known within a connection timeout and the caller renders the
job in the request instead; nothing is lost. The task lives here, beside the service it calls; it is
acknowledged only when it finished, so a worker that dies mid-render leaves it to another worker, and a
job that is still unfinished ``PRINT_JOB_TIMEOUT`` seconds after it was asked for is shown as failed
("the worker stopped"), never as rendering forever.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from functools import partial

from celery import shared_task
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.text import slugify

from .. import printing, printouts
from ..errors import ActionError
from ..models import PrintJob, Round

log = logging.getLogger(__name__)
PROGRESS_EVERY_SECONDS = 0.25
MAX_RETRIES = 2  # a failed render is tried three times in all
WORKER_STOPPED = "The worker stopped while rendering it"


class BrokerUnavailable(ActionError):
    """The job was saved but could not be handed to a worker."""


def print_digest(*, round: Round, kind: str) -> str:
    return printing.digest(printouts.BUILDERS[kind](round))


# Printouts that show a round's tables to the room: never of a draft (match slips go to the tables
# themselves, so organizers may print them ahead).
PUBLIC_KINDS = (PrintJob.Kind.PAIRINGS_BY_NAME, PrintJob.Kind.PAIRINGS_BY_TABLE, PrintJob.Kind.PLAYOFFS)


def draft_refusal(*, round: Round, kind: str) -> str:
    """Why this printout cannot be made now ("" if it can): pairings of a draft stay off the wall."""
    if kind in PUBLIC_KINDS and not round.published:
        return f"Publish {round.label.lower()} first: its pairings are a draft only staff see."
    return ""


def print_request(*, round: Round, kind: str, user=None) -> tuple[PrintJob, bool]:
    """Return the printout's job: the current finished one, the one under way, or a new one (created=True)."""
    if kind not in PrintJob.Kind.values:
        raise ActionError(f"Unknown printout {kind!r}.")
    if kind == PrintJob.Kind.PLAYOFFS and round.kind == Round.Kind.SWISS:
        raise ActionError("Play-off seating is printed for a play-off round.")
    if refusal := draft_refusal(round=round, kind=kind):
        raise ActionError(refusal)
    print_jobs_expire(round=round)
    source = print_digest(round=round, kind=kind)
    jobs = PrintJob.objects.filter(event_id=round.event_id, round=round, kind=kind)
    active = jobs.filter(status__in=PrintJob.ACTIVE).first()
    if active:
        return active, False
    current = jobs.filter(status=PrintJob.Status.DONE, source_digest=source).first()
    if current:
        return current, False
    try:
        with transaction.atomic():
            job = PrintJob.objects.create(
                event_id=round.event_id, round=round, kind=kind, source_digest=source, requested_by=user
            )
    except IntegrityError:
        # The same click arrived twice: the other request made the job.
        return jobs.get(status__in=PrintJob.ACTIVE), False
    return job, True


def print_enqueue(*, job: PrintJob) -> None:
    """Hand the job to a worker once its row is committed (eagerly runs it when no broker is configured).

    Outside a transaction this happens at once, so an unreachable broker raises ``BrokerUnavailable``
    here; inside one, when the outermost block commits.
    """
    transaction.on_commit(partial(_send, job.pk))


def _send(job_id: int) -> None:
    try:
        render_print_job.apply_async(args=[job_id], retry=False)
    except Exception as exc:  # kombu raises several types for an unreachable broker
        log.warning("print job %s not queued: %s", job_id, exc)
        raise BrokerUnavailable(
            "The print queue (Redis) cannot be reached, so the printout is rendered in this page."
        ) from exc


def print_render_now(*, job_id: int) -> PrintJob:
    """Render the job in this process (the queue is down, or no worker took it); a failure is kept on the
    job and said in an ``ActionError``."""
    try:
        return print_job_render(job_id=job_id)
    except IntegrityError as exc:
        raise ActionError("This printout is being made again already: wait for it below.") from exc
    except Exception as exc:  # kept on the job and shown to the organizer
        log.exception("print job %s failed in the request", job_id)
        print_job_failed(job_id=job_id, error=f"{type(exc).__name__}: {exc}")
        raise ActionError(f"Rendering failed: {exc}") from exc


def print_jobs_expire(*, round: Round) -> int:
    """Mark the round's jobs still unfinished ``PRINT_JOB_TIMEOUT`` seconds after they were asked for as
    failed, with the reason: their worker stopped (or none is running). Returns how many."""
    cutoff = timezone.now() - timedelta(seconds=settings.PRINT_JOB_TIMEOUT)
    stalled = PrintJob.objects.filter(round=round, created_at__lt=cutoff)
    seconds = settings.PRINT_JOB_TIMEOUT
    took = f"{seconds} s" if seconds < 120 else f"{seconds // 60} min"
    running = stalled.filter(status=PrintJob.Status.RUNNING).update(
        status=PrintJob.Status.FAILED,
        error=f"{WORKER_STOPPED}: no progress in {took}. Make it again, or render it in this page.",
        finished_at=timezone.now(),
    )
    queued = stalled.filter(status=PrintJob.Status.QUEUED).update(
        status=PrintJob.Status.FAILED,
        error=f"No worker took it in {took} (is the Celery worker running?). Make it again, or "
        "render it in this page.",
        finished_at=timezone.now(),
    )
    return running + queued


def print_job_claim(*, job_id: int) -> bool:
    """Whether a worker should render this job now. Not when it is finished, or was given up meanwhile
    (a late redelivery); and when every attempt began and none finished, the worker died on each: the job
    fails with that reason instead of killing another worker."""
    with transaction.atomic():
        job = PrintJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status not in PrintJob.ACTIVE:
            return False
        if job.status == PrintJob.Status.RUNNING and job.attempts > MAX_RETRIES:
            job.status = PrintJob.Status.FAILED
            job.error = f"{WORKER_STOPPED}, {job.attempts} times. Render it in this page, or make it again."
            job.finished_at = timezone.now()
            job.save(update_fields=["status", "error", "finished_at"])
            return False
    return True


def print_job_render(*, job_id: int) -> PrintJob:
    """Render and store one job's PDF, reporting progress as it goes."""
    job = PrintJob.objects.select_related("round__event").get(pk=job_id)
    if job.status == PrintJob.Status.DONE:
        return job
    document = printouts.BUILDERS[job.kind](job.round)
    total = printouts.units(job.kind, document)
    PrintJob.objects.filter(pk=job.pk).update(
        status=PrintJob.Status.RUNNING, total=total, done=0, attempts=F("attempts") + 1, error=""
    )
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY_SECONDS or done == total:
            last[0] = now
            PrintJob.objects.filter(pk=job.pk).update(done=done)

    pdf = printouts.render(job.kind, document, on_table=progress)
    name = f"{slugify(job.round.event.slug)}-round-{job.round.number}-{job.kind}.pdf"
    with transaction.atomic():
        job = PrintJob.objects.select_for_update().get(pk=job.pk)
        job.file.save(name, ContentFile(pdf), save=False)
        job.size = len(pdf)
        job.done = job.total = total
        job.status = PrintJob.Status.DONE
        job.error = ""
        job.source_digest = printing.digest(document)
        job.finished_at = timezone.now()
        job.save()
    return job


def print_job_failed(*, job_id: int, error: str) -> None:
    PrintJob.objects.filter(pk=job_id).update(
        status=PrintJob.Status.FAILED, error=error[:2000], finished_at=timezone.now()
    )


@shared_task(
    bind=True, max_retries=MAX_RETRIES, acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def render_print_job(self, job_id: int) -> None:
    """Render one print job (ids in, the job's row says how it went)."""
    eager = self.request.is_eager
    if not eager and not print_job_claim(job_id=job_id):
        return
    # With a broker a failed render is retried later by the worker; in eager mode (no broker) there is
    # nothing to delay through, so the attempts happen here, one after the other.
    for _ in range(MAX_RETRIES + 1 if eager else 1):
        try:
            print_job_render(job_id=job_id)
            return
        except Exception as exc:
            error = exc
            if not eager and self.request.retries < MAX_RETRIES:
                raise self.retry(exc=exc, countdown=2 * (self.request.retries + 1)) from exc
    # The job records the failure for the page; the task ends quietly so that an eager run does not
    # turn a rendering error into a failed request.
    log.error("print job %s failed after %s attempts: %s", job_id, MAX_RETRIES + 1, error)
    print_job_failed(job_id=job_id, error=f"{type(error).__name__}: {error}")
