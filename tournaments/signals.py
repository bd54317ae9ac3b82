"""Signals other apps listen to, so that this app need not know them.

``results_changed`` (sender: Event, ``event_id``): the counted games of an event changed: a round closed or
reopened, a result of a closed round was corrected, or the event was deleted. Sent inside the service's
transaction; a listener that does heavy work defers it with ``transaction.on_commit``.

``players_linked`` (sender: Player, ``player_ids``): the account links of these player records changed in
one batch (a roster import linking the records whose email an account verified). ``bulk_update`` sends no
``post_save``, so the batch says it once. Sent inside the service's transaction.
"""

from __future__ import annotations

from django.dispatch import Signal

results_changed = Signal()
players_linked = Signal()
