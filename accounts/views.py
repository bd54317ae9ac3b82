"""A logged-in person's own pages: their events, privacy, data, claim codes, organizer approval."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from . import selectors


@login_required
def my_events(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/my_events.html", selectors.my_events(user=request.user))
