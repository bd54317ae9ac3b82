"""Recomputing the ratings: load every counted game, replay them all (``core.rate_games``), store the
result in one transaction. Run by the Celery task ``ratings_recompute_task`` (enqueued by ``signals``),
never by a page view; skipped when nothing the ratings depend on has changed since the last run.

Which games count: every game of ``tournaments.selectors_games.counted_games`` (Swiss rounds, semi-finals
and the final, once their round is closed). A player who took a game loss as a penalty, or who left the
game (dropped or conceded, 9.040), is left out of that game: their rating does not move and the game does
not count for them, because the placement records a penalty or a departure, not how they played. The other
players are rated on their placements among themselves (a table left with one player teaches nothing).
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.models import Round, Seat
from tournaments.selectors_games import Game, counted_games

from .core import PROVISIONAL_GAMES, RatedGame, rate_games
from .models import PlayerRating, RatingState

log = logging.getLogger(__name__)

BATCH = 500


@dataclass(frozen=True)
class Recompute:
    changed: bool  # False: the inputs were as last time, nothing was written
    games: int
    players: int
    seconds: float


def _left_out() -> set[tuple[int, int]]:
    """(registration id, round number) of every seat out of the ratings: a game loss or left the game."""
    return set(
        Seat.objects.filter(round__status=Round.Status.CLOSED)
        .filter(Q(game_loss=True) | Q(left_game__isnull=False))
        .values_list("registration_id", "round__number")
    )


def ratings_inputs() -> tuple[list[RatedGame], dict[str, int], str]:
    """The games as the core takes them, each person's shown record (their latest game's), and a digest
    of it all. Three queries whatever the number of games."""
    games: list[Game] = counted_games()
    left_out = _left_out()
    rated: list[RatedGame] = []
    shown: dict[str, int] = {}
    digest = hashlib.sha256()
    for game in games:
        seats = [
            (s.person, s.placement)
            for s in game.seats
            if (s.registration_id, game.round_number) not in left_out
        ]
        rated.append(RatedGame(seats=tuple(seats), played=game.event_date))
        for s in game.seats:
            shown[s.person] = s.player_id
        digest.update(
            json.dumps(
                [game.event_id, game.event_date.isoformat(), game.round_number, game.table_number, seats]
            ).encode()
        )
    digest.update(json.dumps(sorted(shown.items())).encode())
    return rated, shown, digest.hexdigest()


def ratings_recompute(*, force: bool = False) -> Recompute:
    """Replay every counted game and store everyone's rating (one transaction, bulk writes). Nothing is
    written when the inputs' digest is the one stored, unless ``force``.

    One run at a time: the state row is locked before the games are read, so a run that started on older
    games can never write over a newer run's ratings (the second run waits, then reads the newer games)."""
    started = time.perf_counter()
    RatingState.objects.get_or_create(pk=1)
    with transaction.atomic():
        state = RatingState.objects.select_for_update().get(pk=1)
        games, shown, digest = ratings_inputs()
        if not force and state.digest == digest and state.computed_at is not None:
            return Recompute(False, len(games), 0, time.perf_counter() - started)
        ratings = rate_games(games)
        now = timezone.now()
        PlayerRating.objects.all().delete()
        PlayerRating.objects.bulk_create(
            [
                PlayerRating(
                    person=r.person,
                    player_id=shown.get(r.person),
                    mu=r.mu,
                    sigma=r.sigma,
                    rating=r.rating,
                    games=r.games,
                    provisional=r.games < PROVISIONAL_GAMES,
                    last_played=r.last_played,
                    updated_at=now,
                )
                for r in ratings.values()
            ],
            batch_size=BATCH,
        )
        state.digest = digest
        state.games = len(games)
        state.computed_at = now
        state.seconds = time.perf_counter() - started
        state.save()
    return Recompute(True, len(games), len(ratings), state.seconds)


def ratings_recompute_enqueue() -> None:
    """Recompute in the background once the current transaction commits (eagerly, in this process, when
    no broker is configured). Enqueued twice in one transaction, it runs twice: the second run finds the
    digest unchanged and stops there."""
    transaction.on_commit(_send, robust=True)


def _send() -> None:
    from .tasks import ratings_recompute_task

    try:
        ratings_recompute_task.apply_async(retry=False)
    except Exception as exc:  # kombu raises several types for an unreachable broker
        # The ratings stay as they were until the next trigger; the digest makes that one catch up.
        log.warning("ratings recompute not queued: %s", exc)
