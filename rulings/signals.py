"""Signals other apps listen to, so that rulings never imports them."""

from __future__ import annotations

from django.dispatch import Signal

# Sent by ``import_rulings`` after documents were added or changed (not when every one was unchanged).
# The tournaments app matches the slips' free-text main characters to the new catalogue then.
documents_changed = Signal()
