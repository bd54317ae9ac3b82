"""Printing for a round: request a printout, watch its progress, download the PDF."""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_POST

from .errors import ActionError
from .models import Event, PrintJob, Round
from .permissions import can, event_staff_required
from .printouts import site_url_is_local, url_is_local
from .services import printing


def _kinds(round: Round) -> list[tuple[str, str]]:
    kinds = [(k.value, k.label) for k in PrintJob.Kind]
    if round.kind == Round.Kind.SWISS:
        kinds = [k for k in kinds if k[0] != PrintJob.Kind.PLAYOFFS]
    return kinds


def _rows(round: Round) -> list[dict]:
    """The latest job of each printout, and whether the data changed since it was made."""
    printing.print_jobs_expire(round=round)
    latest: dict[str, PrintJob] = {}
    for job in PrintJob.objects.filter(round=round).order_by("-created_at"):
        latest.setdefault(job.kind, job)
    rows = []
    for kind, label in _kinds(round):
        job = latest.get(kind)
        stale = bool(
            job
            and job.status == PrintJob.Status.DONE
            and job.source_digest != printing.print_digest(round=round, kind=kind)
        )
        refusal = printing.draft_refusal(round=round, kind=kind)
        rows.append({"kind": kind, "label": label, "job": job, "stale": stale, "refusal": refusal})
    return rows


@event_staff_required("run")
def print_center(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round = get_object_or_404(Round, event=event, number=number)
    rows = _rows(round)
    context = {
        "event": event,
        "round": round,
        "rows": rows,
        "can_manage": can(request.user, event, "manage"),
        "any_active": any(r["job"] and r["job"].active for r in rows),
        "local_site_url": settings.SITE_URL if site_url_is_local() else "",
        # The address this page was opened at, when players could reach it: the likely SITE_URL.
        "opened_at": ""
        if url_is_local(opened_at := request.build_absolute_uri("/").rstrip("/"))
        else opened_at,
    }
    if request.htmx:
        return render(request, "tournaments/_print_rows.html", context)
    return render(request, "tournaments/print_center.html", context)


@require_POST
@event_staff_required("run")
def print_request(request: HttpRequest, event: Event, number: int, kind: str) -> HttpResponse:
    round = get_object_or_404(Round, event=event, number=number)
    try:
        job, created = printing.print_request(round=round, kind=kind, user=request.user)
        if created:
            try:
                printing.print_enqueue(job=job)
            except printing.BrokerUnavailable as exc:
                # Known within the broker's connection timeout: render here rather than wait for Redis.
                messages.warning(request, exc.message)
                printing.print_render_now(job_id=job.pk)
                messages.success(request, "The printout is ready.")
    except ActionError as exc:
        messages.error(request, exc.message)
    return redirect("tournaments:print_center", slug=event.slug, number=number)


@require_POST
@event_staff_required("run")
def print_render_now(request: HttpRequest, event: Event, number: int, job: int) -> HttpResponse:
    """The fallback when no worker renders it (queue down, worker stopped): render in this request."""
    job_obj = get_object_or_404(PrintJob, event=event, round__number=number, pk=job)
    if job_obj.status in (PrintJob.Status.QUEUED, PrintJob.Status.FAILED):
        try:
            printing.print_render_now(job_id=job_obj.pk)
        except ActionError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, "The printout is ready.")
    return redirect("tournaments:print_center", slug=event.slug, number=number)


# What a stored file's name may hold to be handed to nginx as it is (names come from slugify).
_ACCEL_SAFE_NAME = re.compile(r"[A-Za-z0-9/._-]+")


@event_staff_required("run")
def print_download(request: HttpRequest, event: Event, number: int, job: int) -> HttpResponse:
    job_obj = get_object_or_404(PrintJob, event=event, round__number=number, pk=job)
    if job_obj.status != PrintJob.Status.DONE or not job_obj.file:
        raise Http404("This printout is not ready.")
    name = job_obj.file.name
    if settings.MEDIA_ACCEL_REDIRECT and _ACCEL_SAFE_NAME.fullmatch(name) and ".." not in name:
        # Behind nginx: the permission was checked above; nginx sends the bytes from MEDIA_ROOT.
        response = HttpResponse(content_type="application/pdf")
        response["X-Accel-Redirect"] = settings.MEDIA_ACCEL_REDIRECT.rstrip("/") + "/" + name
        response["Content-Disposition"] = content_disposition_header(False, name.rsplit("/", 1)[-1])
        return response
    return FileResponse(
        job_obj.file.open("rb"),
        as_attachment=False,
        filename=job_obj.file.name.rsplit("/", 1)[-1],
        content_type="application/pdf",
    )
