"""Celery tasks, found here by the app's autodiscovery. Each is defined beside the service it calls."""

from __future__ import annotations

from .services.printing import render_print_job

__all__ = ["render_print_job"]
