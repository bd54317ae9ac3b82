"""Celery tasks: take ids, load, call a service. All of them work in eager mode too."""

from __future__ import annotations

import logging

from celery import shared_task

from .services import printing

MAX_RETRIES = 2
log = logging.getLogger(__name__)


@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True)
def render_print_job(self, job_id: int) -> None:
    # With a broker a failed render is retried later by the worker; in eager mode (no broker) there is
    # nothing to delay through, so the attempts happen here, one after the other.
    attempts = MAX_RETRIES + 1 if self.request.is_eager else 1
    for _ in range(attempts):
        try:
            printing.print_job_render(job_id=job_id)
            return
        except Exception as exc:
            error = exc
            if not self.request.is_eager and self.request.retries < MAX_RETRIES:
                raise self.retry(exc=exc, countdown=2 * (self.request.retries + 1)) from exc
    # The job records the failure for the page; the task ends quietly so that an eager run does not
    # turn a rendering error into a failed request.
    log.error("print job %s failed after %s attempts: %s", job_id, MAX_RETRIES + 1, error)
    printing.print_job_failed(job_id=job_id, error=f"{type(error).__name__}: {error}")
