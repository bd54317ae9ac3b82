import os
import threading

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()


def _warm_rulings() -> None:
    # A worker loads the rulings search (documents, embedding model, vectors: about a second) as it
    # starts, beside the requests it already serves, so a judge's first search is not the one that waits.
    from django.conf import settings

    if settings.RULINGS_WARM:
        from rulings.search import warm

        threading.Thread(target=warm, name="rulings-warm", daemon=True).start()


_warm_rulings()
