"""User-fixable errors. Views show the message; anything else is a bug and raises."""

from __future__ import annotations


class ActionError(Exception):
    """An action the user asked for cannot be done as asked; the message says why and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
