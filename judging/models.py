"""What judges record during a round: the clock, time calls, penalties.

The clock is stored as facts (started, paused, extended) and the remaining time is
always computed from them on the server (``judging.clock``), never kept as a counter.
Penalties are never deleted: they are voided, and every change leaves a ``PenaltyLog`` row.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournaments.models import Event, Registration, Round, Seat, Table


class RoundClock(models.Model):
    """The round's clock (9.020): when it started and how long the round lasts."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="clock")
    started_at = models.DateTimeField()
    # Copied from the event when the clock starts, so changing the setting mid-round changes nothing.
    minutes = models.PositiveSmallIntegerField()
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"Clock of {self.round}"


class ClockPause(models.Model):
    """A stop of the whole room's clock, e.g. for an announcement; open while ``ended_at`` is empty."""

    clock = models.ForeignKey(RoundClock, on_delete=models.CASCADE, related_name="pauses")
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=200)
    paused_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    resumed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["started_at"]
        constraints = [
            # Two judges pressing "Pause" at once make one pause, not two overlapping ones.
            models.UniqueConstraint(
                fields=["clock"], condition=models.Q(ended_at__isnull=True), name="one_open_pause_per_clock"
            )
        ]

    def __str__(self) -> str:
        return f"Pause at {self.started_at:%H:%M}: {self.reason}"


class TableExtension(models.Model):
    """Extra minutes for one table, e.g. after a long ruling or a deck problem."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="extensions")
    minutes = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=200)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    given_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["given_at"]

    def __str__(self) -> str:
        return f"+{self.minutes} min for {self.table}"


class TimeCall(models.Model):
    """Whose turn it was at one table when its time ran out (9.020-9.022), and the extra turns played since."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="time_call")
    # Turn order numbers (Seat.seat) of the players still in the game when time was called (9.050).
    seats_in_game = models.JSONField(default=list)
    active_seat = models.PositiveSmallIntegerField(help_text="Turn order of the player whose turn it was.")
    extra_turns = models.PositiveSmallIntegerField()
    # How many turns of the sequence are over: the active player's current turn first, then the extra turns.
    turns_done = models.PositiveSmallIntegerField(default=0)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"Time call at {self.table}"

    @property
    def total_turns(self) -> int:
        return self.extra_turns + 1

    @property
    def turns_left(self) -> int:
        return max(self.total_turns - self.turns_done, 0)


class PenaltyType(models.TextChoices):
    WARNING = "warning", "Warning"
    GAME_LOSS = "game_loss", "Game loss"
    DISQUALIFICATION = "disqualification", "Disqualification"


class Infraction(models.Model):
    """One entry of the catalogue: the rule it breaks, a short name, the usual penalty."""

    rule = models.CharField(max_length=10, unique=True)
    name = models.CharField(max_length=80)
    default_penalty = models.CharField(
        max_length=20, choices=PenaltyType.choices, default=PenaltyType.WARNING
    )
    # A spectator can commit this one (11.010) without being registered.
    spectators = models.BooleanField(default=False)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order", "rule"]

    def __str__(self) -> str:
        return f"{self.rule} {self.name}"


class PenaltyPolicy(models.Model):
    """An organizer's settings for one event: default penalties and the escalation thresholds."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="penalty_policy")
    # rule -> penalty type, overriding the catalogue's default for this event.
    defaults = models.JSONField(default=dict, blank=True)
    upgrade_at = models.PositiveSmallIntegerField(
        default=3, help_text='The nth warning for the same infraction flags "consider an upgrade".'
    )
    review_at = models.PositiveSmallIntegerField(
        default=3, help_text='This many penalties in total flag "head judge review under 10.080".'
    )

    def __str__(self) -> str:
        return f"Penalty policy of {self.event}"


class Penalty(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalties")
    # Empty for a spectator (11.010), who is named in ``spectator_name`` instead.
    registration = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.PROTECT, related_name="penalties"
    )
    spectator_name = models.CharField(max_length=120, blank=True)
    infraction = models.ForeignKey(Infraction, on_delete=models.PROTECT, related_name="penalties")
    type = models.CharField(max_length=20, choices=PenaltyType.choices)
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # The game the effect applies to (game loss, 12.100), so voiding can lift it again.
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.SET_NULL, related_name="penalties")
    description = models.CharField(max_length=500, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    void_reason = models.CharField(max_length=300, blank=True)
    # 12.100 only: whether the seat already said "refused to sign" (ticked on the match slip) when this
    # penalty was applied. Voiding the penalty then leaves the slip's own tick alone.
    seat_refused_before = models.BooleanField(null=True, blank=True, editable=False)
    # The form's one-time token: the same form sent twice (the back button, a double tap) records once.
    submission = models.UUIDField(null=True, blank=True, unique=True, editable=False)

    class Meta:
        ordering = ["-recorded_at"]
        verbose_name_plural = "penalties"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(registration__isnull=False) | ~models.Q(spectator_name=""),
                name="penalty_names_a_player_or_spectator",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_type_display()} for {self.who} ({self.infraction.rule})"

    @property
    def who(self) -> str:
        if self.registration_id:
            return self.registration.player.name
        return f"{self.spectator_name} (spectator)"

    @property
    def voided(self) -> bool:
        return self.voided_at is not None

    @property
    def at_table(self) -> Table | None:
        """Where the player sits in the penalty's round: their seat's table, which follows a swap made
        after the penalty was recorded; else the table recorded with it."""
        if self.seat_id is not None:
            return self.seat.table
        return self.table


class PenaltyLog(models.Model):
    """Every creation and change of a penalty: who, when, before, after."""

    penalty = models.ForeignKey(Penalty, on_delete=models.CASCADE, related_name="log")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    action = models.CharField(max_length=20)  # "recorded", "changed", "voided"
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.action} by {self.user} at {self.at:%Y-%m-%d %H:%M}"
