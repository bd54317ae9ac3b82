"""The service worker that keeps the judges' pages for when the hall's wifi drops (issue 18).

Served from the site's root so that its scope is the whole site; the worker itself is Workbox, vendored
under static/vendor/workbox/ (no CDN), and ``templates/sw.js`` says what it keeps and how.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

# What the pages kept offline need, fetched when the worker installs.
OFFLINE_STATIC = (
    "css/app.css",
    "img/favicon.svg",
    "vendor/htmx.min.js",
    "vendor/minisearch.js",
    "js/find-table.js",
    "js/xref-peek.js",
    "js/rulings-scope.js",
    "js/rate-limit.js",
    "js/offline.js",
    "js/offline-search.js",
    "js/time-call.js",
)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    context = {
        "workbox_sw": json.dumps(static("vendor/workbox/workbox-sw.js")),
        # Workbox loads its modules by name from here; the originals stay beside the hashed copies.
        "module_path": json.dumps(settings.STATIC_URL + "vendor/workbox"),
        "static_url": json.dumps(settings.STATIC_URL),
        "static_files": json.dumps([static(name) for name in OFFLINE_STATIC]),
        "rulings_index": json.dumps(reverse("rulings:index")),
        "search_index": json.dumps(reverse("rulings:offline_index")),
        "calculator": json.dumps(reverse("judging:calculator")),
    }
    response = render(request, "sw.js", context, content_type="application/javascript; charset=utf-8")
    # A new release must reach the phones: the browser always asks again for the worker itself.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
