"""The staff invitation a visitor opened, kept in their session while they log in or sign up."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

SESSION_KEY = "staff_invitation_token"


def remember_invitation(request: HttpRequest, token: str) -> None:
    request.session[SESSION_KEY] = token


def forget_invitation(request: HttpRequest) -> None:
    request.session.pop(SESSION_KEY, None)


def pending_invitation_url(request: HttpRequest | None) -> str | None:
    """Where to go after logging in or signing up: the invitation's page, to accept it."""
    token = request.session.get(SESSION_KEY) if request is not None else None
    return reverse("tournaments:invitation", kwargs={"token": token}) if token else None
