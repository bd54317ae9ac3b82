from __future__ import annotations

from django import template

from seasons.selectors import event_seasons as seasons_of

register = template.Library()


@register.inclusion_tag("seasons/_event_seasons.html")
def event_seasons(event) -> dict:
    """The seasons an event counts in, as links (the event's page). One query."""
    return {"seasons": seasons_of(event)}
