"""How django-allauth fits this site: who may sign up, where people land, how rate limits read."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.http import HttpRequest


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "too_many_login_attempts": "Too many failed log-in attempts. Wait a few minutes, then try again "
        "(or reset your password).",
    }

    def is_open_for_signup(self, request: HttpRequest) -> bool:
        # With sign-up closed, a person holding a staff invitation may still create their account.
        from .invitations import SESSION_KEY

        return settings.ACCOUNT_ALLOW_SIGNUPS or bool(request.session.get(SESSION_KEY))

    def get_login_redirect_url(self, request: HttpRequest) -> str:
        # A pending staff invitation is accepted right after the person logs in or signs up.
        from .invitations import pending_invitation_url

        return pending_invitation_url(request) or super().get_login_redirect_url(request)

    def get_email_verification_redirect_url(self, email_address) -> str:
        from .invitations import pending_invitation_url

        return pending_invitation_url(self.request) or super().get_email_verification_redirect_url(
            email_address
        )
