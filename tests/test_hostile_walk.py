"""No input gives a 500: every URL pattern of the site, as every kind of visitor, by GET and by POST,
with hostile values in each URL argument, in each field of the page's own forms, and in the query string.

For each pattern and visitor (anonymous, a player seated at table 1, a judge of the event, its organizer):
1. each URL argument in turn is replaced by each hostile value (the others stay valid), GET and POST;
2. the page is fetched and each of its POST forms is sent as a browser would (once per submit button),
   then with one field at a time replaced by a hostile value, repeated, emptied or left out, and a CSV
   file of every kind in each file field;
3. hypothesis sends random hostile values in every field of the page and in the names the views read
   from query strings, by GET and by POST (a fixed seed and few examples, so CI runs the same walk).
Each request runs in a savepoint that is rolled back, so every request meets the same event.
"""

from __future__ import annotations

import logging
import re
import sys
import zlib

import pytest
from django.core.signals import got_request_exception
from django.db import transaction
from django.test import Client
from django.urls import Resolver404, resolve
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from tests.hostile import (
    CSV_UPLOADS,
    EXTRA_NAMES,
    HOSTILE,
    ROLES,
    Route,
    World,
    build_world,
    csv_upload,
    hostile_field,
    page_forms,
    routes,
)
from tests.permissions import log_in_as

pytestmark = pytest.mark.django_db

ROUTES = routes()
# One field at a time: these values, the field repeated, and the field left out.
ONE_FIELD = ["abc", "١٢", "99999999999999999999", "a\x00b", "x" * 10_000, ""]
# A fixed seed per address and visitor (see walk_with_hypothesis): the same walk on every run, different
# values for each page. No example database: nothing is written under .hypothesis/.
# Bodies no browser sends: a multipart form cut off mid-field, one without a boundary, an unknown charset.
BROKEN_BODIES = [
    (b'--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAnn', "multipart/form-data; boundary=x"),
    (b"name=Ann", "multipart/form-data"),
    (b"name=\xff\xfe", "application/x-www-form-urlencoded; charset=no-such-charset"),
]
WALK_SETTINGS = settings(
    max_examples=3,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


class Walker:
    """Sends requests as each visitor and keeps every 500 (or exception) with what caused it."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.clients: dict[str, Client] = {}
        for role in ROLES:
            client = Client(raise_request_exception=False)
            self.clients[role] = log_in_as(client, role, world.event, registration=world.registration)
        self.failures: list[str] = []
        self.last_exception: BaseException | None = None
        self.sent = 0
        self.route = ""  # the pattern being walked, for the failure list

    def on_exception(self, sender, request=None, **kwargs) -> None:
        self.last_exception = sys.exc_info()[1]

    def send(self, role: str, method: str, url: str, data=None, **raw) -> tuple[int, str]:
        """Status and body of one request, in a savepoint rolled back afterwards. ``raw``: a body sent as
        is (``body=``, ``content_type=``) instead of ``data``."""
        client = self.clients[role]
        cookies = client.cookies
        client.cookies = type(cookies)(cookies)  # a log-out or log-in here must not outlive the request
        self.last_exception = None
        self.sent += 1
        status, body = 0, ""
        with transaction.atomic():
            try:
                if raw:
                    response = client.generic(method.upper(), url, raw["body"], raw["content_type"])
                else:
                    response = getattr(client, method)(url, data or {})
                status = response.status_code
                if status == 200 and "html" in response.get("Content-Type", ""):
                    body = response.content.decode()
            except Exception as exc:  # the client re-raises some errors itself: a failure all the same
                status, self.last_exception = 500, exc
            transaction.set_rollback(True)
        client.cookies = cookies
        if status >= 500:
            cause = f"{type(self.last_exception).__name__}: {self.last_exception}"[:300]
            sent = _short(data) or repr(raw.get("body", b""))[:60]
            self.failures.append(
                f"{self.route} {role} {method.upper()} {url[:120]!r} {sent} -> {status} {cause}"
            )
        return status, body


def _short(data) -> str:
    if not data:
        return ""
    parts = []
    for key, value in data.items():
        if hasattr(value, "name"):
            value = f"<file {value.name}>"
        parts.append(f"{key}={str(value)[:25]!r}")
    return "{" + ", ".join(parts)[:300] + "}"


@pytest.fixture
def walker(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    walker = Walker(build_world())
    got_request_exception.connect(walker.on_exception)
    # Thousands of 404s and 400s are the point here; a 500 is still logged (and collected).
    request_log = logging.getLogger("django.request")
    level = request_log.level
    request_log.setLevel(logging.ERROR)
    yield walker
    request_log.setLevel(level)
    got_request_exception.disconnect(walker.on_exception)


def reaches(route: Route, url: str) -> bool:
    """Whether ``url`` gets to the route's view (else the URL layer answers 404 by itself)."""
    try:
        return resolve(url).view_name == route.name
    except Resolver404:
        return False


def walk_url_arguments(walker: Walker, route: Route) -> None:
    """Each argument in turn takes each hostile value. A URL the converters refuse never reaches a view:
    it is sent once; one that reaches the view is sent as every visitor, by GET and by POST."""
    valid = walker.world.valid_args(route)
    for arg in route.args:
        for value in HOSTILE:
            url = route.url(**{**valid, arg: value})
            if not reaches(route, url):
                walker.send("anonymous", "get", url)
                continue
            for role in ROLES:
                for method in ("get", "post"):
                    walker.send(role, method, url)


def walk_forms(walker: Walker, role: str, url: str, html: str, seen: set) -> None:
    for form in page_forms(html, url):
        signature = (form.action, tuple(sorted({name for name, _ in form.fields})), tuple(form.files))
        fresh = signature not in seen
        seen.add(signature)
        base = form.data()
        for button in form.buttons or [None]:
            data = dict(base)
            if button:
                data[button[0]] = button[1]
            walker.send(role, "post", form.action, data)
        if not fresh:
            continue  # another visitor already sent this form every hostile way
        pressed = dict([form.buttons[0]]) if form.buttons else {}
        # One field of each kind: "vp_12" and "vp_13" are the same field for two seats.
        kinds = {re.sub(r"\d+", "N", name): name for name in reversed(list(base))}
        for name in kinds.values():
            for value in ONE_FIELD:
                walker.send(role, "post", form.action, {**base, **pressed, name: value})
            walker.send(role, "post", form.action, {**base, **pressed, name: [*base[name], "2", "abc"]})
            walker.send(
                role, "post", form.action, {**pressed, **{k: v for k, v in base.items() if k != name}}
            )
        for name in form.files:
            for kind in CSV_UPLOADS:
                for extra in ({}, {"confirm": "1"}):
                    walker.send(
                        role, "post", form.action, {**base, **pressed, **extra, name: csv_upload(kind)}
                    )


def walk_with_hypothesis(walker: Walker, role: str, url: str, html: str) -> None:
    forms = page_forms(html, url) if html else []
    names = sorted({name for form in forms for name, _ in form.fields} | set(EXTRA_NAMES))
    files = sorted({name for form in forms for name in form.files})
    targets = sorted({url} | {form.action for form in forms})

    @WALK_SETTINGS
    @seed(zlib.crc32(f"{url} {role}".encode()))
    @given(
        fields=st.fixed_dictionaries(dict.fromkeys(names, hostile_field)),
        upload=st.sampled_from(sorted(CSV_UPLOADS)),
    )
    def hostile_request(fields: dict, upload: str) -> None:
        data = {name: value for name, value in fields.items() if value is not None}
        walker.send(role, "get", url, data)
        for target in targets:
            walker.send(role, "post", target, {**data, **{name: csv_upload(upload) for name in files}})

    hostile_request()


def walk_route(walker: Walker, route: Route) -> None:
    walker.route = route.name
    walk_url_arguments(walker, route)
    seen: set = set()
    for role in ROLES:
        url = route.url(**walker.world.valid_args(route))
        status, html = walker.send(role, "get", url)
        walker.send(role, "post", url)
        for body, content_type in BROKEN_BODIES:
            walker.send(role, "post", url, body=body, content_type=content_type)
        if html:
            walk_forms(walker, role, url, html, seen)
        walk_with_hypothesis(walker, role, url, html)


# One test per app (allauth's pages are "account"): the event is built once for all its addresses.
APPS = sorted({route.name.split(":")[0].split("_")[0] for route in ROUTES})


@pytest.mark.parametrize("app", APPS)
def test_it_answers_every_hostile_request_without_a_500(walker, app):
    walked = [route for route in ROUTES if route.name.split(":")[0].split("_")[0] == app]
    for route in walked:
        walk_route(walker, route)
    assert walked
    assert not walker.failures, f"{len(walker.failures)} requests gave a 500:\n" + "\n".join(
        walker.failures[:40]
    )
