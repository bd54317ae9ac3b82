"""Staff invitations: the organizer invites by email; the link makes an account or links one."""

from __future__ import annotations

import datetime
import html
import smtplib

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.core.mail.backends.base import BaseEmailBackend
from django.urls import reverse
from django.utils import timezone

from tests.factories import add_staff, make_event, make_user
from tests.permissions import MANAGE, VISITORS, log_in_as, outcome
from tournaments import services
from tournaments.errors import ActionError
from tournaments.models import EventStaff, StaffInvitation

pytestmark = pytest.mark.django_db

JUDGE = EventStaff.Role.JUDGE
HEAD_JUDGE = EventStaff.Role.HEAD_JUDGE
ORGANIZER = EventStaff.Role.ORGANIZER


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()  # allauth counts sign-ups per address in the cache


def link(token: str) -> str:
    return "http://testserver" + reverse("tournaments:invitation", kwargs={"token": token})


def invite(event, email="jo@example.org", role=JUDGE, by=None) -> StaffInvitation:
    return services.invitation_send(event=event, email=email, role=role, by=by, build_url=link)


def page_url(invitation) -> str:
    return reverse("tournaments:invitation", kwargs={"token": invitation.token})


def staff_role(event, user) -> str | None:
    return EventStaff.objects.filter(event=event, user=user).values_list("role", flat=True).first()


@pytest.fixture
def organizer():
    return make_user("olga")


@pytest.fixture
def event(organizer):
    return make_event(organizer=organizer, name="Winter Open")


# Sending


def test_sending_emails_one_link_to_the_address(event, organizer):
    invitation = invite(event, by=organizer)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["jo@example.org"]
    assert "judge at Winter Open" in message.subject
    assert link(invitation.token) in message.body
    assert "olga invites you" in message.body


def test_the_link_is_valid_for_the_set_number_of_days(event, organizer, settings):
    settings.INVITATION_DAYS = 3
    invitation = invite(event, by=organizer)
    remaining = invitation.expires_at - timezone.now()
    assert datetime.timedelta(days=2, hours=23) < remaining <= datetime.timedelta(days=3)


def test_inviting_an_open_address_again_sends_the_same_invitation_with_the_new_role(event, organizer):
    first = invite(event, by=organizer)
    second = invite(event, email="JO@example.org", role=HEAD_JUDGE, by=organizer)
    assert second.pk == first.pk and second.role == HEAD_JUDGE
    assert StaffInvitation.objects.filter(event=event).count() == 1
    assert len(mail.outbox) == 2


def test_inviting_someone_already_on_the_staff_is_refused(event, organizer):
    add_staff(event, make_user("jo"), HEAD_JUDGE)
    with pytest.raises(ActionError, match=r"jo@example.org \(jo\) is already head judge of this event"):
        invite(event, by=organizer)
    assert not StaffInvitation.objects.exists() and not mail.outbox


def test_a_staff_members_other_verified_address_counts_as_on_the_staff(event, organizer):
    jo = make_user("jo")
    EmailAddress.objects.create(user=jo, email="jo.work@example.org", verified=True)
    add_staff(event, jo, JUDGE)
    with pytest.raises(ActionError, match="already judge"):
        invite(event, email="jo.work@example.org", by=organizer)


def test_an_invalid_address_is_refused(event, organizer):
    with pytest.raises(ActionError, match="not an email address"):
        invite(event, email="jo@", by=organizer)


class UnreachableMailServer(BaseEmailBackend):
    def send_messages(self, messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


def test_a_mail_server_failure_saves_nothing_and_says_so(client, event, organizer, settings):
    settings.EMAIL_BACKEND = f"{__name__}.UnreachableMailServer"
    client.force_login(organizer)
    response = client.post(
        reverse("tournaments:staff_invite", kwargs={"slug": event.slug}),
        {"email": "jo@example.org", "role": JUDGE},
    )
    assert response.status_code == 400
    assert "could not be sent" in response.content.decode()
    assert not StaffInvitation.objects.exists()


# Accepting


def test_a_logged_in_user_accepts_and_lands_on_the_staff_pages(client, event, organizer):
    invitation = invite(event, by=organizer)
    jo = make_user("jo")
    client.force_login(jo)
    assert "Accept as jo" in client.get(page_url(invitation)).content.decode()
    response = client.post(page_url(invitation), follow=True)
    assert response.redirect_chain[-1][0] == reverse("tournaments:registrations", kwargs={"slug": event.slug})
    assert "You are now judge of Winter Open" in response.content.decode()
    assert staff_role(event, jo) == JUDGE
    invitation.refresh_from_db()
    assert invitation.accepted_by == jo and invitation.accepted_at is not None


def test_an_account_with_another_address_may_accept_and_is_told_so(client, event, organizer):
    invitation = invite(event, by=organizer)
    other = make_user("someone")
    client.force_login(other)
    assert "whose email is not jo@example.org" in client.get(page_url(invitation)).content.decode()
    client.post(page_url(invitation))
    assert staff_role(event, other) == JUDGE


def test_a_new_person_signs_up_from_the_link_without_a_confirmation_email(client, event, organizer):
    invitation = invite(event, by=organizer)
    mail.outbox.clear()
    page = client.get(page_url(invitation)).content.decode()
    assert "Log in to accept" in page and "Create an account" in page
    signup = client.get(reverse("account_signup"))
    assert 'value="jo@example.org"' in signup.content.decode()
    assert "no confirmation email is needed" in signup.content.decode()
    response = client.post(
        f"{reverse('account_signup')}?next={page_url(invitation)}",
        {
            "email": "jo@example.org",
            "username": "jo",
            "password1": "a long pass phrase 42",
            "password2": "a long pass phrase 42",
            "next": page_url(invitation),
        },
    )
    assert response.status_code == 302 and response.url == page_url(invitation)
    assert not mail.outbox  # the invitation link already proved the address
    jo = get_user_model().objects.get(username="jo")
    assert EmailAddress.objects.get(user=jo).verified
    client.post(page_url(invitation))
    assert staff_role(event, jo) == JUDGE


def test_a_sign_up_without_an_invitation_is_told_of_the_confirmation_email(client):
    page = client.get(reverse("account_signup")).content.decode()
    assert "We email you a link to confirm your address." in page
    assert "no confirmation email is needed" not in page


def test_logging_in_from_the_link_comes_back_to_it(client, event, organizer):
    invitation = invite(event, by=organizer)
    make_user("jo")
    client.get(page_url(invitation))
    response = client.post(reverse("account_login"), {"login": "jo", "password": "pw"})
    assert response.status_code == 302 and response.url == page_url(invitation)


def test_an_anonymous_accept_is_sent_to_log_in(client, event, organizer):
    invitation = invite(event, by=organizer)
    response = client.post(page_url(invitation))
    assert outcome(response) == "login"
    assert not EventStaff.objects.filter(event=event, role=JUDGE).exists()


def test_an_expired_link_says_when_it_expired(client, event, organizer):
    invitation = invite(event, by=organizer)
    StaffInvitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - datetime.timedelta(days=1)
    )
    client.force_login(make_user("jo"))
    response = client.post(page_url(invitation))
    assert response.status_code == 410
    assert "This invitation expired on" in response.content.decode()
    assert "ask the organizer to send a new one" in response.content.decode()
    assert staff_role(event, response.wsgi_request.user) is None


def test_a_revoked_link_says_it_was_withdrawn(client, event, organizer):
    invitation = invite(event, by=organizer)
    services.invitation_revoke(invitation=invitation)
    page = client.get(page_url(invitation))
    assert page.status_code == 410
    assert "This invitation was withdrawn by the organizer" in page.content.decode()
    assert "Log in to accept" not in page.content.decode()


def test_a_second_accept_by_the_same_person_just_goes_to_the_staff_pages(client, event, organizer):
    invitation = invite(event, by=organizer)
    jo = make_user("jo")
    client.force_login(jo)
    client.post(page_url(invitation))
    response = client.post(page_url(invitation))
    assert response.status_code == 302
    assert response.url == reverse("tournaments:registrations", kwargs={"slug": event.slug})
    assert EventStaff.objects.filter(event=event, user=jo).count() == 1


def test_a_link_accepted_by_someone_else_is_refused_clearly(client, event, organizer):
    invitation = invite(event, by=organizer)
    services.invitation_accept(invitation=invitation, user=make_user("jo"))
    late = make_user("late")
    client.force_login(late)
    response = client.post(page_url(invitation))
    assert response.status_code == 410
    assert "already accepted" in response.content.decode()
    assert staff_role(event, late) is None


def test_an_accepted_link_opened_logged_out_says_to_log_in(client, event, organizer):
    invitation = invite(event, by=organizer)
    services.invitation_accept(invitation=invitation, user=make_user("jo"))
    page = html.unescape(client.get(page_url(invitation)).content.decode())
    assert "already accepted" in page and "If that was you, log in" in page


def test_accepting_keeps_a_higher_role(event, organizer):
    invitation = invite(event, email="olga.other@example.org", by=organizer)
    staff = services.invitation_accept(invitation=invitation, user=organizer)
    assert staff.role == ORGANIZER


def test_accepting_raises_a_lower_role(event, organizer):
    jo = make_user("jo")
    add_staff(event, jo, JUDGE)
    invitation = invite(event, email="jo.other@example.org", role=HEAD_JUDGE, by=organizer)
    services.invitation_accept(invitation=invitation, user=jo)
    assert staff_role(event, jo) == HEAD_JUDGE


def test_an_unknown_token_is_a_not_found_page(client):
    response = client.get(reverse("tournaments:invitation", kwargs={"token": "no-such-token"}))
    assert response.status_code == 404
    assert "This invitation link is not valid" in response.content.decode()


# Resending and revoking from the Staff page


def test_resending_moves_the_expiry_and_sends_again(event, organizer):
    invitation = invite(event, by=organizer)
    StaffInvitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - datetime.timedelta(hours=1)
    )
    invitation.refresh_from_db()
    assert invitation.expired
    resent = services.invitation_resend(invitation=invitation, by=organizer, build_url=link)
    assert not resent.expired
    assert len(mail.outbox) == 2 and link(resent.token) in mail.outbox[1].body


def test_a_revoked_invitation_cannot_be_resent(event, organizer):
    invitation = invite(event, by=organizer)
    services.invitation_revoke(invitation=invitation)
    with pytest.raises(ActionError, match="already withdrawn"):
        services.invitation_resend(invitation=invitation, by=organizer, build_url=link)


def test_revoking_leaves_the_address_free_for_a_new_invitation(event, organizer):
    first = invite(event, by=organizer)
    services.invitation_revoke(invitation=first)
    second = invite(event, by=organizer)
    assert second.pk != first.pk and second.token != first.token


def test_the_staff_page_lists_open_invitations_with_their_buttons(client, event, organizer):
    invitation = invite(event, by=organizer)
    client.force_login(organizer)
    page = client.get(reverse("tournaments:staff", kwargs={"slug": event.slug})).content.decode()
    assert "jo@example.org" in page
    assert reverse("tournaments:invitation_resend", kwargs={"slug": event.slug, "pk": invitation.pk}) in page
    assert reverse("tournaments:invitation_revoke", kwargs={"slug": event.slug, "pk": invitation.pk}) in page
    assert link(invitation.token) in page


def test_the_invite_form_shows_the_refusal_and_keeps_what_was_typed(client, event, organizer):
    client.force_login(organizer)
    response = client.post(
        reverse("tournaments:staff_invite", kwargs={"slug": event.slug}),
        {"email": "olga@example.org", "role": JUDGE},
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "is already organizer of this event" in page
    assert 'value="olga@example.org"' in page


def test_the_invite_form_sends_and_says_so(client, event, organizer):
    client.force_login(organizer)
    response = client.post(
        reverse("tournaments:staff_invite", kwargs={"slug": event.slug}),
        {"email": "jo@example.org", "role": HEAD_JUDGE},
        follow=True,
    )
    assert "Invitation sent to jo@example.org (head judge)" in response.content.decode()
    assert StaffInvitation.objects.get(event=event).role == HEAD_JUDGE


def test_revoking_an_accepted_invitation_from_an_old_page_says_so(client, event, organizer):
    invitation = invite(event, by=organizer)
    services.invitation_accept(invitation=invitation, user=make_user("jo"))
    client.force_login(organizer)
    response = client.post(
        reverse("tournaments:invitation_revoke", kwargs={"slug": event.slug, "pk": invitation.pk}),
        follow=True,
    )
    assert "already accepted by jo" in response.content.decode()
    invitation.refresh_from_db()
    assert invitation.revoked_at is None


def test_an_invitation_of_another_event_is_not_touched(client, event, organizer):
    other = make_event(organizer=make_user())
    invitation = invite(other)
    client.force_login(organizer)
    response = client.post(
        reverse("tournaments:invitation_revoke", kwargs={"slug": event.slug, "pk": invitation.pk}),
        follow=True,
    )
    assert "not on this event's list" in html.unescape(response.content.decode())
    invitation.refresh_from_db()
    assert invitation.revoked_at is None


def test_removing_a_staff_member_with_a_stale_value_is_a_message(client, event, organizer):
    client.force_login(organizer)
    response = client.post(
        reverse("tournaments:staff", kwargs={"slug": event.slug}), {"remove": "x1"}, follow=True
    )
    assert "not on this event's staff any more" in html.unescape(response.content.decode())


# Who may do what


INVITATION_ACTIONS = [
    ("tournaments:staff_invite", {"email": "new@example.org", "role": JUDGE}),
    ("tournaments:invitation_resend", {}),
    ("tournaments:invitation_revoke", {}),
]


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize(("name", "data"), INVITATION_ACTIONS)
def test_invitation_actions_are_for_the_organizer(client, visitor, name, data):
    event = make_event(organizer=make_user())
    invitation = invite(event, email="pending@example.org")
    kwargs = (
        {"slug": event.slug}
        if name == "tournaments:staff_invite"
        else {"slug": event.slug, "pk": invitation.pk}
    )
    log_in_as(client, visitor, event)
    assert outcome(client.post(reverse(name, kwargs=kwargs), data)) == MANAGE[visitor]


# Anyone with the link sees the page; accepting needs a login. Staff of the event keep their role.
INVITATION_PAGE = {
    "get": dict.fromkeys(VISITORS, "ok"),
    "post": {**dict.fromkeys(VISITORS, "ok"), "anonymous": "login"},
}


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_the_invitation_page_for_every_visitor(client, visitor, method):
    event = make_event(organizer=make_user())
    invitation = invite(event, email="pending@example.org")
    log_in_as(client, visitor, event)
    response = getattr(client, method)(page_url(invitation))
    assert outcome(response) == INVITATION_PAGE[method][visitor]
    if method == "post" and visitor != "anonymous":
        user = response.wsgi_request.user
        expected = visitor if visitor in (JUDGE, HEAD_JUDGE, ORGANIZER) else JUDGE
        assert staff_role(event, user) == expected


def test_an_organizer_invitation_needs_the_invited_address(event, organizer):
    invitation = invite(event, email="co@example.org", role=ORGANIZER, by=organizer)
    stranger = make_user("selina")  # selina@example.org
    with pytest.raises(ActionError, match="accepted by the account with the address co@example.org"):
        services.invitation_accept(invitation=invitation, user=stranger)
    assert staff_role(event, stranger) is None
    owner = make_user("co")  # co@example.org, verified
    services.invitation_accept(invitation=invitation, user=owner)
    assert staff_role(event, owner) == ORGANIZER


def test_inviting_an_address_again_says_it_was_already_invited(client, event, organizer):
    client.force_login(organizer)
    url = reverse("tournaments:staff_invite", kwargs={"slug": event.slug})
    client.post(url, {"email": "jo@example.org", "role": JUDGE})
    page = client.post(url, {"email": "jo@example.org", "role": JUDGE}, follow=True).content.decode()
    assert "was already invited: the same link was sent again" in page
    page = client.post(url, {"email": "jo@example.org", "role": HEAD_JUDGE}, follow=True).content.decode()
    assert "was already invited as judge: now invited as head judge" in page
