from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (recompute when results or account links change)
