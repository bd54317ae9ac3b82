"""The two kinds of errors the engine raises on purpose.

A ``SwissError`` is user-fixable: its message is written for a page (or the CLI) to show as is.
Anything else escaping the package is a bug.
"""

from __future__ import annotations


class SwissError(ValueError):
    """Bad input an organizer can fix (wrong player list, malformed result, unknown option)."""


class FivePlayerError(SwissError):
    """Five active players cannot sit at tables of 3 and 4 (9.010).

    The game supports five players, so the page offers one 5-player table (``allow_five=True``)
    or a change to the player list.
    """

    def __init__(self) -> None:
        super().__init__(
            "5 active players cannot be seated at tables of 3 and 4: "
            "play one 5-player table, or add or drop a player."
        )
