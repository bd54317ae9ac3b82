"""Celery tasks, found by the app's autodiscovery."""

from __future__ import annotations

from celery import shared_task

from .services import ratings_recompute


@shared_task(ignore_result=True)
def ratings_recompute_task() -> None:
    """Replay every counted game (skipped when nothing changed)."""
    ratings_recompute()
