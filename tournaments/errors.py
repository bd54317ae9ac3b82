"""User-fixable errors. Views show the message; anything else is a bug and raises."""

from __future__ import annotations


class ActionError(Exception):
    """An action the user asked for cannot be done as asked; the message says why and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class AlreadyDone(ActionError):
    """What was asked has already happened since the page was loaded (a second click, another organizer):
    nothing more is done, and the message says what the page now shows."""
