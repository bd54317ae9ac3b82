"""What makes the ratings stale, and the one thing done about it: enqueue a recompute after the commit.

- ``tournaments.signals.results_changed``: a round closed or reopened, a result of a closed round corrected,
  an event deleted.
- A player record's account link changed (a claim, a verified email, staff linking or unlinking): the
  person its games belong to changed. Seen by comparing the record's account as loaded with the one saved.
  (A roster import links records with ``bulk_update``, which sends no signal: the next trigger's digest
  picks those links up.)
"""

from __future__ import annotations

from django.db.models.signals import post_init, post_save
from django.dispatch import receiver

from tournaments.models import Player, Round, Seat
from tournaments.signals import results_changed

from .services import ratings_recompute_enqueue


@receiver(results_changed)
def _results_changed(sender, event_id: int, **kwargs) -> None:
    ratings_recompute_enqueue()


_UNKNOWN = "unknown"  # a string, not object(): it survives pickling (cached records) as equal


@receiver(post_init, sender=Player)
def _remember_account(sender, instance: Player, **kwargs) -> None:
    # Read from __dict__: a record loaded with .only() must not cost a query for its deferred account.
    instance._ratings_user_id = instance.__dict__.get("user_id", _UNKNOWN)


def _has_counted_games(player: Player) -> bool:
    return Seat.objects.filter(registration__player=player, round__status=Round.Status.CLOSED).exists()


@receiver(post_save, sender=Player)
def _account_link_changed(sender, instance: Player, created: bool, update_fields=None, **kwargs) -> None:
    was = getattr(instance, "_ratings_user_id", _UNKNOWN)
    if was == _UNKNOWN:
        changed = update_fields is None or "user" in update_fields
    else:
        changed = instance.user_id != was
    # A record with no counted game moves no rating: linking it (a sign-up, a new registration) costs nothing.
    if changed and not created and _has_counted_games(instance):
        ratings_recompute_enqueue()
    instance._ratings_user_id = instance.user_id
