"""What makes the ratings stale, and the one thing done about it: enqueue a recompute after the commit.

- ``tournaments.signals.results_changed``: a round closed or reopened, a result of a closed round corrected,
  an event deleted.
- A player record's account link changed (a claim, a verified email, staff linking or unlinking): the
  person its games belong to changed. Seen by comparing the record's account as loaded with the one saved.
- ``tournaments.signals.players_linked``: a roster import linked records in one ``bulk_update`` (which sends
  no ``post_save``); one recompute for the whole batch.

Either way a link moves a rating only when the record has a counted game (``_any_counted_games``).
"""

from __future__ import annotations

from django.db.models.signals import post_init, post_save
from django.dispatch import receiver

from tournaments.models import Player, Round, Seat
from tournaments.signals import players_linked, results_changed

from .services import BATCH, ratings_recompute_enqueue


@receiver(results_changed)
def _results_changed(sender, event_id: int, **kwargs) -> None:
    ratings_recompute_enqueue()


_UNKNOWN = "unknown"  # a string, not object(): it survives pickling (cached records) as equal


@receiver(post_init, sender=Player)
def _remember_account(sender, instance: Player, **kwargs) -> None:
    # Read from __dict__: a record loaded with .only() must not cost a query for its deferred account.
    instance._ratings_user_id = instance.__dict__.get("user_id", _UNKNOWN)


def _any_counted_games(player_ids: list[int]) -> bool:
    """Whether any of these records played a counted game: linking a record with none (a sign-up, a new
    registration) moves no rating. One query per ``BATCH`` records, stopping at the first found."""
    return any(
        Seat.objects.filter(
            registration__player_id__in=player_ids[start : start + BATCH], round__status=Round.Status.CLOSED
        ).exists()
        for start in range(0, len(player_ids), BATCH)
    )


@receiver(post_save, sender=Player)
def _account_link_changed(sender, instance: Player, created: bool, update_fields=None, **kwargs) -> None:
    was = getattr(instance, "_ratings_user_id", _UNKNOWN)
    if was == _UNKNOWN:
        changed = update_fields is None or "user" in update_fields
    else:
        changed = instance.user_id != was
    if changed and not created and _any_counted_games([instance.pk]):
        ratings_recompute_enqueue()
    instance._ratings_user_id = instance.user_id


@receiver(players_linked)
def _account_links_changed(sender, player_ids: list[int], **kwargs) -> None:
    if _any_counted_games(list(player_ids)):
        ratings_recompute_enqueue()
