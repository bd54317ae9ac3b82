"""What the hostile-input walk needs: every URL pattern of the site, an event in the middle of a round to
aim them at, the forms a page offers (read from its HTML), and the hostile values themselves.

The values are the ones that once gave a 500: letters and Unicode digits where an id goes ("²" passes
``str.isdigit()``, "١٢" is Arabic-Indic twelve), NUL bytes (PostgreSQL refuses them in text), 10,000
characters, empty and repeated fields, and CSV files as spreadsheets write them.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import quote, urlsplit

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from django.utils.regex_helper import normalize
from hypothesis import strategies as st

from tests.factories import add_staff, make_event, make_players, make_user
from tests.permissions import VISITORS
from tournaments.models import Event, EventStaff, PrintJob, Registration, Round, Seat, Table

# One value per kind of trouble, for URL arguments and for one form field at a time.
HOSTILE = ["abc", "²", "١٢", "99999999999999999999", "a\x00b", "x" * 10_000]

_CSV_ROWS = "name,email,notes\r\nAnn Archer,ann@example.org,\r\nZoë Ñúñez,zoe@example.org,café ☕\r\n"
# A roster as each spreadsheet program saves it, and the broken ones people upload anyway.
CSV_UPLOADS: dict[str, bytes] = {
    "utf8-bom": codecs.BOM_UTF8 + _CSV_ROWS.encode("utf-8"),
    "utf16-le-bom": codecs.BOM_UTF16_LE + _CSV_ROWS.encode("utf-16-le"),
    "utf16-be-bom": codecs.BOM_UTF16_BE + _CSV_ROWS.encode("utf-16-be"),
    "cp1252": _CSV_ROWS.replace("☕", "").encode("cp1252"),
    "quoted-newline": b'name,notes\r\n"Ann Archer","arrives late\r\nafter lunch"\r\nBo Berg,\r\n',
    "ragged": b"name,email\r\nAnn Archer\r\nBo Berg,bo@example.org,extra,more\r\n,\r\n",
    "empty": b"",
    "nul": b"name\r\nAnn\x00Archer\r\n",
    "unterminated-quote": b'name,notes\r\n"Ann Archer,never closed\r\nBo Berg\r\n',
    "binary": bytes(range(256)),
}


def csv_upload(kind: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(f"{kind}.csv", CSV_UPLOADS[kind], content_type="text/csv")


# Hypothesis: a text that is any of the above, any Unicode text, Unicode digits, or a number.
hostile_text = st.one_of(
    st.sampled_from([*HOSTILE, "0", "-1", "1.5", "", " "]),
    st.text(max_size=40),
    st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=6),
    st.integers().map(str),
)
# A field is missing, sent once, or sent two or three times (a duplicated field).
hostile_field = st.one_of(st.none(), hostile_text, st.lists(hostile_text, min_size=2, max_size=3))
# Names the views read from query strings and forms besides those on the page itself.
EXTRA_NAMES = (
    "q", "sort", "page", "per_page", "_export", "version", "number", "table", "registration", "infraction",
    "report", "seat", "first", "second", "done", "next", "action", "reason", "override", "confirm", "publish",
    "rounds", "checked_in", "category", "game", "document", "limit", "offset",
)  # fmt: skip


@dataclass(frozen=True)
class Route:
    name: str  # "namespace:name"
    template: str  # "/e/%(slug)s/rounds/%(number)s/"
    args: tuple[str, ...]

    def url(self, **values: str) -> str:
        return self.template % {key: quote(str(value), safe="") for key, value in values.items()}


def routes() -> list[Route]:
    """Every URL pattern of the site, from the resolver itself, so a new page is walked without a list.

    Left out: Django's admin. It is Django's own code with its own tests, open only to site administrators,
    and its hundred-odd patterns (add, change, delete and history for every model) would be most of the
    walk's time. allauth's pages (log-in, sign-up, email, password) are walked: players use them.
    """

    def walk(resolver: URLResolver, prefix: str, namespaces: tuple[str, ...]):
        for pattern in resolver.url_patterns:
            template, params = normalize(pattern.pattern.regex.pattern)[0]
            if isinstance(pattern, URLResolver):
                if pattern.app_name == "admin":
                    continue
                spaces = namespaces + ((pattern.namespace,) if pattern.namespace else ())
                yield from walk(pattern, prefix + template, spaces)
            elif isinstance(pattern, URLPattern):
                full = prefix + template
                args = tuple(part.split(")s", 1)[0] for part in full.split("%(")[1:])
                yield Route(":".join((*namespaces, pattern.name or "")), "/" + full, args)

    return list(walk(get_resolver(), "", ()))


@dataclass
class World:
    """An event in its first round: two tables of four (table 2's slip entered), a penalty, a print job,
    an invitation."""

    event: Event
    users: dict[str, object]  # the organizer who made the event, the head judge who gave the penalty
    registration: Registration  # at table 1: the walk's player is linked to it
    other: Registration  # another player's, at table 2
    invitation: object
    penalty: object
    job: PrintJob
    round: Round
    extra: dict = field(default_factory=dict)  # route name -> arguments that differ from the usual ones

    def valid_args(self, route: Route) -> dict[str, str]:
        """A value for each of the route's arguments that finds something, so the view's own code runs."""
        pk = self.registration.pk
        if "invitation" in route.name:
            pk = self.invitation.pk
        elif route.name == "judging:penalty":
            pk = self.penalty.pk
        values = {
            "slug": self.event.slug,
            "number": "1",
            "table": "1",
            "pk": str(pk),
            "job": str(self.job.pk),
            "kind": PrintJob.Kind.SLIPS,
            "token": self.invitation.token,
            "player": str(self.registration.player_id),
            "game": "dcdb",
            "key": "9.020",
            "uidb36": "2",
            **self.extra.get(route.name, {}),
        }
        return {arg: values.get(arg, "x") for arg in route.args}


# The visitors of tests/permissions.py the walk goes as: logged in by its log_in_as, "player" linked to the
# registration seated at table 1, "judge" a plain judge of the event.
ROLES = ("anonymous", "player", "judge", "organizer")
assert set(ROLES) <= set(VISITORS)


def build_world() -> World:
    from judging.models import Infraction
    from judging.services import penalty_record
    from tests.judging.helpers import enter_result
    from tests.seasons.helpers import make_season
    from tournaments.services import invitations

    organizer, head_judge = make_user("olga"), make_user("hedda")
    event = make_event(
        organizer=organizer,
        name="Hostile Open",
        status=Event.Status.RUNNING,
        swiss_rounds=3,
        self_registration_open=True,
        self_registration_guests=True,
    )
    add_staff(event, head_judge, EventStaff.Role.HEAD_JUDGE)
    registrations = make_players(event, 8)
    round = Round.objects.create(event=event, number=1, published_at=timezone.now())
    for number, start in ((1, 0), (2, 4)):
        table = Table.objects.create(round=round, number=number)
        for seat, registration in enumerate(registrations[start : start + 4], start=1):
            Seat.objects.create(table=table, round=round, registration=registration, seat=seat)
    invitation = invitations.invitation_send(
        event=event, email="jo@example.org", role=EventStaff.Role.JUDGE, by=organizer, build_url=str
    )
    penalty = penalty_record(
        event=event,
        user=head_judge,
        infraction=Infraction.objects.filter(spectators=False).first(),
        type="warning",
        registration=registrations[5],
    )
    job = PrintJob.objects.create(event=event, round=round, kind=PrintJob.Kind.SLIPS, source_digest="x")
    # Table 2 has its slip entered, so the staff slip form comes filled in with valid values and each
    # hostile value in one field (the version, a VP) reaches the code that reads it.
    enter_result(Table.objects.get(round=round, number=2), [5, 4, 3, 2])
    # A season of the organizer's holding the event, so the season pages' own code runs.
    season = make_season(organizer, events=[event], name="Hostile Season", end_date=event.date)
    season_args = {"slug": season.slug, "event_id": str(event.pk)}
    season_routes = [r.name for r in routes() if r.name.startswith("seasons:") or "api_season" in r.name]
    return World(
        event=event,
        users={"organizer": organizer, "head_judge": head_judge},
        registration=registrations[0],
        other=registrations[5],
        invitation=invitation,
        penalty=penalty,
        job=job,
        round=round,
        extra={"tournaments:table_result": {"table": "2"}, **dict.fromkeys(season_routes, season_args)},
    )


@dataclass
class Form:
    action: str
    method: str
    fields: list[tuple[str, str]]  # as a browser submits them, in order (a name may repeat)
    files: list[str]  # names of <input type="file">
    buttons: list[tuple[str, str]] = field(default_factory=list)  # named submit buttons: one is pressed

    def data(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for name, value in self.fields:
            out.setdefault(name, []).append(value)
        return out


class _FormParser(HTMLParser):
    def __init__(self, page_url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_url = page_url
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: tuple[str, list[str], list[str]] | None = None  # name, options, selected
        self.textarea: str | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.form = Form(a.get("action") or self.page_url, a.get("method", "get").lower(), [], [])
            self.forms.append(self.form)
        elif tag == "option" and self.select is not None:
            self.select[1].append(a.get("value", ""))
            if "selected" in a:
                self.select[2].append(a.get("value", ""))
        elif self.form is None or "name" not in a:
            return
        elif tag == "input":
            kind = a.get("type", "text").lower()
            if kind == "file":
                self.form.files.append(a["name"])
            elif kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.form.fields.append((a["name"], a.get("value", "on")))
            elif kind == "submit":
                self.form.buttons.append((a["name"], a.get("value", "")))
            elif kind not in ("button", "image", "reset"):
                self.form.fields.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self.select = (a["name"], [], [])
        elif tag == "textarea":
            self.textarea, self.text = a["name"], []
        elif tag == "button" and a.get("type", "submit").lower() == "submit":
            self.form.buttons.append((a["name"], a.get("value", "")))

    def handle_startendtag(self, tag: str, attrs) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "textarea" and self.textarea is not None and self.form is not None:
            self.form.fields.append((self.textarea, "".join(self.text)))
            self.textarea = None
        elif tag == "select" and self.select is not None and self.form is not None:
            name, options, selected = self.select
            for value in selected or options[:1]:
                self.form.fields.append((name, value))
            self.select = None


def page_forms(html: str, page_url: str) -> list[Form]:
    """The POST forms of a page that submit to this site (log-out excluded: it would end the session)."""
    parser = _FormParser(page_url)
    parser.feed(html)
    forms = []
    for form in parser.forms:
        action = urlsplit(form.action)
        if form.method != "post" or action.netloc or "logout" in action.path:
            continue
        form.action = action.path or page_url
        form.fields = [(n, v) for n, v in form.fields if n != "csrfmiddlewaretoken"]
        forms.append(form)
    return forms
