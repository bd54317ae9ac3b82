from __future__ import annotations

import random

from tournaments.swiss import PlayedTable, pair_round

CLASSIC_4 = (5, 3, 2, 2)
CLASSIC_3 = (5, 3, 2)


def names(n: int) -> list[str]:
    return [f"p{i:03d}" for i in range(n)]


def table(players: list[str], vp: list[int] | None = None, svs: list[int] | None = None) -> PlayedTable:
    """A finished table whose players placed in the order given (turn order is the same)."""
    values = CLASSIC_4 if len(players) == 4 else CLASSIC_3
    return PlayedTable(
        players=tuple(players),
        points={p: values[i] for i, p in enumerate(players)},
        vp=dict(zip(players, vp or [], strict=False)),
        super_villains=dict(zip(players, svs or [], strict=False)),
    )


def play(players: list[str], rounds: int, seed: int = 1, drops: int = 0) -> tuple[list[str], list]:
    """Pair and play ``rounds`` rounds with seeded random results; drop ``drops`` players after each."""
    rng = random.Random(seed)
    active, history = list(players), []
    for _ in range(rounds):
        pairing = pair_round(active, history, seed=seed)
        played = []
        for t in pairing.tables:
            order = list(t.players)
            rng.shuffle(order)
            values = CLASSIC_4 if len(order) == 4 else CLASSIC_3
            played.append(PlayedTable(t.players, {p: values[i] for i, p in enumerate(order)}))
        history.append(played)
        for _ in range(drops):
            if len(active) > 9:
                active.remove(rng.choice(active))
    return active, history
