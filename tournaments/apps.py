from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from rulings.signals import documents_changed

        from . import checks  # noqa: F401  (registers the system checks)
        from .services.characters import match_after_import

        documents_changed.connect(match_after_import, dispatch_uid="tournaments.main_characters")
