"""A player's own pages: claim a record with a code, privacy, the download of their data, and deleting the
account."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from tournaments.errors import ActionError
from tournaments.models import Registration, short_name_for

from . import services
from .export import account_data
from .forms_player import AccountDeleteForm, ClaimForm, PrivacyForm

# Wrong codes one account may type in an hour: enough for typos, too few to guess a code.
CLAIM_TRIES_PER_HOUR = 20


@login_required
def claim(request: HttpRequest) -> HttpResponse:
    form = ClaimForm(request.POST or None)
    status = 200
    if request.method == "POST":
        tries_key = f"claim-tries:{request.user.pk}"
        if (cache.get(tries_key) or 0) >= CLAIM_TRIES_PER_HOUR:
            form.add_error(
                None, "Too many wrong codes in the last hour. Try again later, or ask the organizer."
            )
        elif form.is_valid():
            try:
                player = services.player_claim(user=request.user, code=form.cleaned_data["code"])
            except ActionError as exc:
                cache.add(tries_key, 0, 3600)
                try:
                    cache.incr(tries_key)
                except ValueError:
                    cache.set(tries_key, 1, 3600)
                form.add_error("code", exc.message)
            else:
                messages.success(request, f"{player.name}'s results are now yours.")
                return redirect("accounts:my_events")
        status = 400
    return render(request, "accounts/claim.html", {"form": form}, status=status)


@login_required
def privacy(request: HttpRequest) -> HttpResponse:
    players = list(request.user.players.order_by("pk"))
    if not players:
        return render(request, "accounts/privacy.html", {"form": None})
    name = players[0].name
    short = any(p.public_short_name for p in players)
    form = PrivacyForm(
        request.POST or None,
        initial={"show_as": "short" if short else "full"},
        full=name,
        short=short_name_for(name),
    )
    if request.method == "POST":
        if form.is_valid():
            services.privacy_set(user=request.user, short_name=form.cleaned_data["show_as"] == "short")
            shown = short_name_for(name) if form.cleaned_data["show_as"] == "short" else name
            messages.success(request, f"Public pages now show you as {shown.rstrip('.')}.")
            return redirect("accounts:privacy")
        return render(request, "accounts/privacy.html", {"form": form, "players": players}, status=400)
    return render(request, "accounts/privacy.html", {"form": form, "players": players})


@require_GET
@login_required
def my_history(request: HttpRequest) -> HttpResponse:
    """The account's history across events: the public page of the person (any of their records)."""
    player_id = (
        Registration.objects.filter(player__user=request.user)
        .order_by("pk")
        .values_list("player_id", flat=True)
        .first()
    )
    if player_id is None:
        messages.info(request, "You have no events yet: your history starts with your first event.")
        return redirect("accounts:my_events")
    return redirect("tournaments:player_history", pk=player_id)


@require_GET
@login_required
def data_download(request: HttpRequest) -> HttpResponse:
    data = account_data(user=request.user)
    response = HttpResponse(
        json.dumps(data, indent=2, ensure_ascii=False), content_type="application/json; charset=utf-8"
    )
    filename = f"dcdb-{slugify(request.user.username) or 'account'}-{timezone.now():%Y-%m-%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def delete_account(request: HttpRequest) -> HttpResponse:
    user = request.user
    events, seasons = services.account_delete_blockers(user=user)
    form = AccountDeleteForm(request.POST or None, user=user)
    context = {
        "form": form,
        "events": events,
        "seasons": seasons,
        "players": list(user.players.order_by("pk")),
    }
    if request.method != "POST":
        return render(request, "accounts/delete_account.html", context)
    if form.is_valid():
        try:
            services.account_delete(user=user)
        except ActionError as exc:
            form.add_error(None, exc.message)
        else:
            logout(request)
            messages.success(
                request, "Your account is deleted. Your results stay with the events you played."
            )
            return redirect("tournaments:event_list")
    return render(request, "accounts/delete_account.html", context, status=400)
