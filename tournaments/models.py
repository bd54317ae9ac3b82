from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from .people import short_name_for
from .time_zones import forget_time_zone, time_zone_names

# 9.060: a sanctioned event needs at least this many players.
SANCTIONED_MINIMUM_PLAYERS = 8
# 9.020: rounds last 60 minutes unless the organizer says otherwise.
DEFAULT_ROUND_MINUTES = 60


def random_seed() -> int:
    return secrets.randbelow(2**31)


def sort_name_for(name: str) -> str:
    """ "Ann Marie Smith" -> "Smith, Ann Marie": the wall sheet sorts by last name."""
    parts = name.split()
    if len(parts) < 2:
        return name.strip()
    return f"{parts[-1]}, {' '.join(parts[:-1])}"


class Player(models.Model):
    """A person, kept across events so that history (and penalties) follow them."""

    name = models.CharField(max_length=120)
    sort_name = models.CharField(
        max_length=130, blank=True, help_text='How the wall sheet sorts this player, e.g. "Smith, Ann".'
    )
    email = models.EmailField(
        blank=True, help_text="Optional; used to recognise the same player across events."
    )
    # The account that owns this record. One account may own several records (the same person entered
    # twice without an email, or under two emails): they are linked, never merged.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    # Privacy: on public pages show "Ann A." instead of the full name; staff pages and slips keep it.
    public_short_name = models.BooleanField(default=False)
    # One-time code a player types to claim this record for their account (records without an email).
    claim_code = models.CharField(max_length=9, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["sort_name", "name"]
        indexes = [models.Index(fields=["email"])]
        constraints = [
            models.UniqueConstraint(
                fields=["claim_code"], condition=~models.Q(claim_code=""), name="claim_code_unique"
            )
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name = " ".join(self.name.split())
        if not self.sort_name:
            self.sort_name = sort_name_for(self.name)
        super().save(*args, **kwargs)

    @property
    def public_name(self) -> str:
        """The name public pages show: the full name, or first name and initial if the player chose so."""
        return public_name_for(self.name, short=self.public_short_name)

    @property
    def public_sort_name(self) -> str:
        """How public lists sorted by last name show the player: "Archer, Ann", or "A., Ann"."""
        return public_sort_name_for(self.name, self.sort_name, short=self.public_short_name)


def public_name_for(name: str, *, short: bool) -> str:
    """``Player.public_name`` from a row's values (lists built without model instances)."""
    return short_name_for(name) if short else name


def public_sort_name_for(name: str, sort_name: str, *, short: bool) -> str:
    """``Player.public_sort_name`` from a row's values."""
    if short:
        return sort_name_for(short_name_for(name))
    return sort_name or name


def default_time_zone() -> str:
    return settings.TIME_ZONE


def validate_time_zone(value: str) -> None:
    if value not in time_zone_names():
        raise ValidationError(f"“{value}” is not a time zone name such as Europe/London or America/Chicago.")


ANNOUNCEMENT_MAX_CHARS = 200


class Event(models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration"
        RUNNING = "running", "Swiss rounds"
        PLAYOFFS = "playoffs", "Play-offs"
        FINISHED = "finished", "Finished"

    class TurnOrder(models.TextChoices):
        RANDOM = "random", "Random (drawn by the app, printed on the slip)"
        BALANCED = "balanced", "Balanced (evens out who goes first)"

    class PairingPolicy(models.TextChoices):
        NEW_OPPONENTS = (
            "new_opponents",
            "New opponents first: nobody meets the same player twice while it can be avoided; then players "
            "with as many wins sit together.",
        )
        STANDINGS_FIRST = (
            "standings_first",
            "Standings first: equal points sit together, top tables first; repeat opponents only as few "
            "as that allows, at the lowest tables.",
        )

    class PaperSize(models.TextChoices):
        A4 = "A4", "A4"
        LETTER = "Letter", "Letter"

    name = models.CharField(max_length=150)
    slug = models.SlugField(max_length=160, unique=True)
    date = models.DateField()
    venue = models.CharField(max_length=200, blank=True)
    sanctioned = models.BooleanField(
        default=True, help_text="Sanctioned events need at least 8 checked-in players to start (9.060)."
    )
    round_minutes = models.PositiveSmallIntegerField(
        default=DEFAULT_ROUND_MINUTES, help_text="Length of a round in minutes (9.020: 60)."
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTRATION)
    self_registration_open = models.BooleanField(
        default=False, help_text="Let players register themselves on the public page."
    )
    self_registration_guests = models.BooleanField(
        default=False,
        help_text="Also let players without an account register: they confirm their email address instead.",
    )
    player_cap = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Most players who can register; more go on a waitlist. Empty: no limit.",
    )
    registration_deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Players cannot register themselves after this. Empty: until the start.",
    )
    turn_order = models.CharField(max_length=10, choices=TurnOrder.choices, default=TurnOrder.RANDOM)
    # Every time on the event's pages, printouts and exports is shown in this zone; times are stored in UTC.
    time_zone = models.CharField(max_length=64, default=default_time_zone, validators=[validate_time_zone])
    pairing_policy = models.CharField(
        max_length=20, choices=PairingPolicy.choices, default=PairingPolicy.NEW_OPPONENTS
    )
    allow_five_table = models.BooleanField(
        default=False, help_text="Seat five active players at one 5-player table instead of refusing to pair."
    )
    # Round 1 deals the players over the tables in rating order (ratings app), strongest at different tables.
    seed_by_rating = models.BooleanField(
        default=False,
        help_text="Round 1 seats the highest-rated players at different tables (dealt in rating order, "
        "table 1 to the last and back) and players without a rating at random; in simulated events it did "
        "not change how often the strongest players make the cut.",
    )
    paper_size = models.CharField(max_length=10, choices=PaperSize.choices, default=PaperSize.A4)
    publish_penalties = models.BooleanField(default=False, help_text="Show penalties on the public pages.")
    # One line for the room, set by the event's staff on the judges' board; the wall screen shows it.
    announcement = models.CharField(max_length=ANNOUNCEMENT_MAX_CHARS, blank=True)
    player_reporting = models.BooleanField(
        default=True,
        help_text="Players report their table's match slip from their phones and the others confirm it. "
        "Off: only staff enter results.",
    )
    confirm_minutes = models.PositiveSmallIntegerField(
        default=10,
        validators=[MinValueValidator(1), MaxValueValidator(120)],
        help_text="Minutes the other players have to confirm a reported slip before the table needs a judge.",
    )
    # Points per placement by table size, e.g. {"4": [5, 3, 2, 2], "3": [5, 3, 2]}; empty: classic.
    scoring = models.JSONField(default=dict, blank=True)
    # Standings tiebreakers after points, in order; empty: the default order.
    tiebreakers = models.JSONField(default=list, blank=True)
    # Bumped on every result change; standings are cached per version.
    results_version = models.PositiveIntegerField(default=0, editable=False)
    # Bumped on every save of the settings form: two organizers editing at once never overwrite each other.
    settings_version = models.PositiveIntegerField(default=0, editable=False)
    # Set when the event starts (9.070); an override marks the event non-standard.
    swiss_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    swiss_rounds_standard = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    # Drawn once, stored, so every random choice (round 1, turn order, last tiebreaker) is reproducible.
    seed = models.PositiveIntegerField(default=random_seed, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-date", "name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        if not self.slug:
            self.slug = unique_slug(self.name, self.date)
        super().save(*args, **kwargs)
        forget_time_zone(self.slug)

    def get_absolute_url(self) -> str:
        return reverse("tournaments:event_detail", kwargs={"slug": self.slug})

    @property
    def non_standard(self) -> bool:
        return (
            self.swiss_rounds is not None
            and self.swiss_rounds_standard is not None
            and self.swiss_rounds != self.swiss_rounds_standard
        )

    @property
    def in_registration(self) -> bool:
        return self.status == self.Status.REGISTRATION


def unique_slug(name: str, date) -> str:
    base = slugify(f"{name} {date}" if date else name)[:150] or "event"
    slug, n = base, 2
    while Event.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


class EventStaff(models.Model):
    class Role(models.TextChoices):
        ORGANIZER = "organizer", "Organizer"
        HEAD_JUDGE = "head_judge", "Head judge"
        JUDGE = "judge", "Judge"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles")
    role = models.CharField(max_length=20, choices=Role.choices)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "user"], name="one_role_per_user_per_event")]
        ordering = ["role", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) at {self.event}"


class RegistrationQuerySet(models.QuerySet):
    def active(self) -> RegistrationQuerySet:
        return self.filter(dropped_at__isnull=True)

    def entered(self) -> RegistrationQuerySet:
        """Active and holding a place (not on the waitlist)."""
        return self.filter(dropped_at__isnull=True, waitlisted_at__isnull=True)

    def waitlist(self) -> RegistrationQuerySet:
        return self.filter(dropped_at__isnull=True, waitlisted_at__isnull=False).order_by(
            "waitlisted_at", "pk"
        )

    def checked_in(self) -> RegistrationQuerySet:
        return self.filter(checked_in=True)


class Registration(models.Model):
    """A player entered in one event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    checked_in = models.BooleanField(default=False)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    # 9.030: a player may drop; they keep their results so far but are not paired again.
    dropped_at = models.DateTimeField(null=True, blank=True)
    dropped_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    drop_reason = models.CharField(max_length=200, blank=True)
    # 10.080: a disqualified player is dropped and ineligible for prizes.
    disqualified = models.BooleanField(default=False)
    # A late entry joins before this round and scores 0 in the rounds they missed.
    joined_round = models.PositiveSmallIntegerField(default=1)
    notes = models.CharField(max_length=300, blank=True)
    self_registered = models.BooleanField(default=False)
    # On the waitlist of a capped event since then (null: has a place). First in, first promoted.
    waitlisted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    objects = RegistrationQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "player"], name="player_once_per_event")]
        ordering = ["player__sort_name"]

    def __str__(self) -> str:
        return f"{self.player} at {self.event}"

    @property
    def dropped(self) -> bool:
        return self.dropped_at is not None

    @property
    def waitlisted(self) -> bool:
        return self.waitlisted_at is not None


class RegistrationChange(models.Model):
    """History of a registration: edits (name, email, notes, account), links, claims, waitlist moves."""

    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    action = models.CharField(max_length=40)  # "edit", "link", "unlink", "claim", "promote", "withdraw", ...
    # {field: [before, after]}
    changes = models.JSONField(default=dict, blank=True)
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.action} on {self.registration} at {self.at:%Y-%m-%d %H:%M}"

    def lines(self) -> list[str]:
        return [
            f"{field}: {before or '–'} → {after or '–'}" for field, (before, after) in self.changes.items()
        ]


class StaffInvitation(models.Model):
    """An emailed invitation to join an event's staff. Accepting it creates the account or links one."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    role = models.CharField(max_length=20, choices=EventStaff.Role.choices)
    token = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One open invitation per address and event: inviting again resends it.
            models.UniqueConstraint(
                fields=["event", "email"],
                condition=models.Q(accepted_at__isnull=True, revoked_at__isnull=True),
                name="one_open_invitation",
            )
        ]

    def __str__(self) -> str:
        return f"{self.email} ({self.get_role_display()}) at {self.event}"

    @property
    def pending(self) -> bool:
        return self.accepted_at is None and self.revoked_at is None

    @property
    def expired(self) -> bool:
        return self.expires_at <= timezone.now()


class Round(models.Model):
    class Kind(models.TextChoices):
        SWISS = "swiss", "Swiss"
        SEMIFINAL = "semifinal", "Semi-final"
        FINAL = "final", "Final"

    class Status(models.TextChoices):
        PAIRED = "paired", "Paired"
        CLOSED = "closed", "Closed"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.SWISS)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PAIRED)
    # Re-pairing the same round draws again with the next attempt number.
    attempt = models.PositiveSmallIntegerField(default=0)
    paired_at = models.DateTimeField(default=timezone.now)
    # A paired round is a draft only staff see until it is published.
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        # One round per number: a double click or two organizers at once create it once.
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="one_round_per_number")]

    def __str__(self) -> str:
        return f"{self.event} · {self.label}"

    @property
    def label(self) -> str:
        if self.kind == self.Kind.SWISS:
            return f"Round {self.number}"
        return self.get_kind_display()

    @property
    def closed(self) -> bool:
        return self.status == self.Status.CLOSED

    @property
    def published(self) -> bool:
        return self.published_at is not None


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # The engine's explanation of this table: [{"kind", "player", "text"}, ...].
    flags = models.JSONField(default=list, blank=True)
    # Optimistic locking: a result form carries the version it was loaded at.
    version = models.PositiveIntegerField(default=0)
    result_entered_at = models.DateTimeField(null=True, blank=True)
    result_entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Answer to "which of these players defeated a Super-Villain most recently?": registration ids, most recent first.
    recent_super_villain = models.JSONField(default=list, blank=True)
    # A judge's placement override: registration ids, 1st first, with the reason.
    placement_override = models.JSONField(default=list, blank=True)
    override_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number")]

    def __str__(self) -> str:
        return f"{self.round} · Table {self.number}"

    @property
    def has_result(self) -> bool:
        return self.result_entered_at is not None


class Seat(models.Model):
    """One player at one table: turn order, and what the match slip says (12.060-12.080)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # Denormalised so the database itself refuses to seat a player twice in a round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(help_text="Turn order: 1 goes first.")
    vp = models.PositiveSmallIntegerField(null=True, blank=True)
    super_villains = models.PositiveSmallIntegerField(default=0)
    main_character = models.CharField(max_length=120, blank=True)
    # The Main Character card as the rulings database names it ("main_character/batman/base-set"): stable
    # across re-imports (cards are re-created, their keys are not); "" for free text not (yet) matched.
    main_character_key = models.CharField(max_length=300, blank=True)
    # 9.040: the player left the game (dropped or conceded); 1 = first to leave.
    left_game = models.PositiveSmallIntegerField(null=True, blank=True)
    outright_win = models.BooleanField(default=False)
    refused_to_sign = models.BooleanField(default=False)  # 12.100: 0 points this round
    game_loss = models.BooleanField(default=False)  # penalty: last place in this game
    placement = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)
    placement_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["round", "registration"], name="seated_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.table} · seat {self.seat}"

    def out_of_game_reason(self) -> str:
        """Why this player is probably no longer in the game (9.040/9.050), or "" if nothing says so.

        A time call suggests these players as "left the game"; the judge at the table decides.
        Reads ``registration`` and ``round``, so load them with the seat.
        """
        if self.left_game:
            return "left the game"
        if self.game_loss:
            return "game loss"
        if self.registration.disqualified:
            return "disqualified"
        # Seated in this round but dropped after an earlier one: the drop came while this round ran.
        if self.registration.dropped and (self.registration.dropped_after_round or 0) < self.round.number:
            return "dropped"
        return ""


class ResultChange(models.Model):
    """Audit log of result entries and corrections: who, when, before, after."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    action = models.CharField(max_length=40)  # "result", "correction", "override", "swap", "game_loss"
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.action} on {self.table} by {self.user} at {self.at:%Y-%m-%d %H:%M}"

    ACTION_LABELS = {
        "result": "Result entered",
        "correction": "Corrected",
        "report": "Reported by the table",
        "override": "Placement overridden",
        "swap": "Seats swapped",
        "penalty": "Penalty applied",
        "main_character": "Main character chosen",
    }

    @property
    def action_label(self) -> str:
        """The history's words for the action; a report's reason names who reported and who confirmed."""
        return self.ACTION_LABELS.get(self.action, self.action.replace("_", " ").capitalize())

    def differences(self) -> list[str]:
        """What this change did, one line per player whose slip changed ("Ann: VP 30 → 32, place 1 → 2");
        a first entry lists what was entered."""
        if self.action == "swap":
            players, tables = self.before.get("players", []), self.after.get("tables", [])
            if len(players) == 2 and len(tables) == 2:
                return [
                    f"{players[0]} (table {tables[0]}) and {players[1]} (table {tables[1]}) swapped seats"
                ]
            return []
        lines = []
        for name, now in self.after.items():
            was = self.before.get(name)
            if not isinstance(now, dict):
                continue
            parts = []
            for key, label in _CHANGE_FIELDS:
                new, old = now.get(key), (was or {}).get(key)
                if was is None:
                    if key in _FLAG_FIELDS:
                        parts += [label] if new else []
                    elif new not in (None, ""):
                        parts.append(f"{label} {_shown(key, new)}")
                elif new != old:
                    parts.append(f"{label} {_shown(key, old)} → {_shown(key, new)}")
            if parts:
                lines.append(f"{name}: {', '.join(parts)}")
        return lines


# The slip's values as the history shows them, in the slip's order.
_CHANGE_FIELDS = (
    ("vp", "VP"),
    ("super_villains", "SV"),
    ("main_character", "main character"),
    ("left_game", "left the game"),
    ("outright_win", "outright win"),
    ("refused_to_sign", "refused to sign"),
    ("game_loss", "game loss"),
    ("placement", "place"),
    ("points", "points"),
)
_FLAG_FIELDS = {"left_game", "outright_win", "refused_to_sign", "game_loss"}


def _shown(key: str, value) -> str:
    if key in _FLAG_FIELDS:
        return "yes" if value else "no"
    if value is None or value == "":
        return "–"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


class PrintJob(models.Model):
    """A PDF rendered in the background: match slips, wall sheets, standings, play-off seating."""

    class Kind(models.TextChoices):
        SLIPS = "slips", "Match slips"
        PAIRINGS_BY_NAME = "pairings_by_name", "Pairings by name (wall)"
        PAIRINGS_BY_TABLE = "pairings_by_table", "Pairings by table (wall)"
        STANDINGS = "standings", "Standings"
        PLAYOFFS = "playoffs", "Play-off seating"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Rendering"
        DONE = "done", "Ready"
        FAILED = "failed", "Failed"

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="print_jobs")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="print_jobs")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    # A digest of the data the PDF was made from: when the data changes the printout is stale.
    source_digest = models.CharField(max_length=64)
    file = models.FileField(upload_to="printouts/%Y/%m/", blank=True)
    size = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # Two clicks produce one job: at most one unfinished job per printout.
            models.UniqueConstraint(
                fields=["event", "round", "kind"],
                condition=models.Q(status__in=["queued", "running"]),
                name="one_active_print_job",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.event}"

    @property
    def active(self) -> bool:
        return self.status in self.ACTIVE


class SlipReport(models.Model):
    """A player's report of their table's match slip (12.070), waiting for the others to confirm (12.080).

    ``entries`` maps registration id -> the slip's line for that player; ``recent_super_villain`` answers the
    tie question (registration id -> 1 for the most recent). When everyone has confirmed the result is
    saved on the seats; a judge's entry settles any open report.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for confirmations"
        DISPUTED = "disputed", "Disputed"
        ACCEPTED = "accepted", "Confirmed by the table"
        SETTLED = "settled", "Settled by a judge"
        REPLACED = "replaced", "Replaced by a new report"

    OPEN = (Status.PENDING, Status.DISPUTED)

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="reports")
    reported_by = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    # Who pressed the button: the player, or a member of staff reporting for them.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    entries = models.JSONField(default=dict)
    recent_super_villain = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    disputed_by = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    dispute_reason = models.CharField(max_length=300, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-at"]
        # Two players reporting at once make one report: the database refuses a second open one.
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(status__in=["pending", "disputed"]),
                name="one_open_report",
            )
        ]

    def __str__(self) -> str:
        return f"{self.table} · report by {self.reported_by_id} ({self.status})"

    @property
    def open(self) -> bool:
        return self.status in self.OPEN


class SlipConfirmation(models.Model):
    """One player's tap that stands for signing the reported slip (12.080)."""

    report = models.ForeignKey(SlipReport, on_delete=models.CASCADE, related_name="confirmations")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    by_staff = models.BooleanField(default=False)

    class Meta:
        ordering = ["at"]
        constraints = [
            models.UniqueConstraint(fields=["report", "registration"], name="one_confirmation_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.report} · confirmed by {self.registration_id}"
