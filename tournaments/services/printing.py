"""Print jobs: request a printout, render it (in a Celery worker or right here), store the PDF.

A job stores the digest of the data it was made from, so the page can tell when a printout is
stale (pairings changed since) and offer to make a new one. Two clicks make one job: the database
allows one unfinished job per printout. When the broker (Redis) cannot be reached, the job stays
queued and the page offers to render it in the request instead; nothing is lost.
"""

from __future__ import annotations

import logging
import time

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
    """Hand the job to a worker (eagerly runs it when no broker is configured)."""
    from ..tasks import render_print_job

    try:
        render_print_job.apply_async(args=[job.pk], retry=False)
    except Exception as exc:  # kombu raises several types for an unreachable broker
        log.warning("print job %s not queued: %s", job.pk, exc)
        raise BrokerUnavailable(
            "The print queue (Redis) cannot be reached. The printout was not lost: render it now in this "
            "page, or try again when the queue is back."
        ) from exc


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
        job.source_digest = printing.digest(document)
        job.finished_at = timezone.now()
        job.save()
    return job


def print_job_failed(*, job_id: int, error: str) -> None:
    PrintJob.objects.filter(pk=job_id).update(
        status=PrintJob.Status.FAILED, error=error[:2000], finished_at=timezone.now()
    )
