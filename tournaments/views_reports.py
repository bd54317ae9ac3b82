"""Staff act for a player on the table's reported match slip: "Confirm for <name>" (12.080).

"Report for <player>" is the judge's own entry (``views_rounds.table_result``), which settles any report.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_POST

from .errors import ActionError
from .http import posted_id, safe_next
from .models import Event, Seat, SlipReport, Table
from .permissions import event_staff_required
from .services import reports


@require_POST
@event_staff_required("run")
def report_confirm_for(request: HttpRequest, event: Event, number: int, table: int) -> HttpResponse:
    """A judge signs the reported slip for a player at the table who cannot (a flat phone, no account)."""
    table_obj = get_object_or_404(
        Table.objects.select_related("round__event"), round__event=event, round__number=number, number=table
    )
    # Back to the table's page, which keeps the page the judge came from (the board) as its own "next".
    back = reverse("tournaments:table_result", kwargs={"slug": event.slug, "number": number, "table": table})
    if came_from := safe_next(request):
        back += "?" + urlencode({"next": came_from})
    report_id, seat_id = posted_id(request.POST.get("report")), posted_id(request.POST.get("seat"))
    report = SlipReport.objects.filter(pk=report_id, table=table_obj).first() if report_id else None
    seat = (
        Seat.objects.filter(pk=seat_id, table=table_obj).select_related("registration__player").first()
        if seat_id
        else None
    )
    if report is None or seat is None:
        messages.error(request, "That report or player is not at this table any more: reload the page.")
        return redirect(back)
    name = seat.registration.player.name
    try:
        report = reports.report_confirm(
            report=report, registration=seat.registration, user=request.user, by_staff=True
        )
    except ActionError as exc:
        messages.error(request, exc.message)
    else:
        if report.status == SlipReport.Status.ACCEPTED:
            messages.success(
                request, f"Confirmed for {name}: everyone has signed, table {table}'s result is in."
            )
            # The table is done: back to where the judge came from (the board), as a saved slip does.
            return redirect(came_from or back)
        else:
            messages.success(request, f"Confirmed for {name}.")
    return redirect(back)
