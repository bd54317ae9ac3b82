"""One way to declare a read endpoint, for the read API and every router on it (no import of the API
itself, so the routers it includes can use this too)."""

from __future__ import annotations


def get_and_head(target, path: str, **options):
    """Register the view for GET, and for HEAD as the hand-built views answered it. HEAD stays out of the
    OpenAPI document: the same operation twice would repeat its operationId. ``target``: the NinjaAPI or a
    Router."""

    def register(view):
        target.get(path, **options)(view)
        target.api_operation(["HEAD"], path, include_in_schema=False, **options)(view)
        return view

    return register
