from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

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
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["sort_name", "name"]
        indexes = [models.Index(fields=["email"])]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name = " ".join(self.name.split())
        if not self.sort_name:
            self.sort_name = sort_name_for(self.name)
        super().save(*args, **kwargs)


class Event(models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration"
        RUNNING = "running", "Swiss rounds"
        PLAYOFFS = "playoffs", "Play-offs"
        FINISHED = "finished", "Finished"

    class TurnOrder(models.TextChoices):
        RANDOM = "random", "Random (drawn by the app, printed on the slip)"
        BALANCED = "balanced", "Balanced (evens out who goes first)"

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
    turn_order = models.CharField(max_length=10, choices=TurnOrder.choices, default=TurnOrder.RANDOM)
    allow_five_table = models.BooleanField(
        default=False, help_text="Seat five active players at one 5-player table instead of refusing to pair."
    )
    paper_size = models.CharField(max_length=10, choices=PaperSize.choices, default=PaperSize.A4)
    publish_penalties = models.BooleanField(default=False, help_text="Show penalties on the public pages.")
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
