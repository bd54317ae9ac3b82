from django.contrib import admin
from django.urls import include, path

from config.offline import service_worker

urlpatterns = [
    path("sw.js", service_worker, name="service_worker"),
    path("", include("tournaments.urls")),
    path("rulings/", include("rulings.urls")),
    path("judging/", include("judging.urls")),
    path("seasons/", include("seasons.urls")),
    path("ratings/", include("ratings.urls")),
    path("accounts/", include("allauth.urls")),
    path("me/", include("accounts.urls")),
    path("admin/", admin.site.urls),
]

# Over a rate limit (django-allauth's log-in and sign-up limits call it too): 429 with Retry-After.
handler429 = "config.ratelimits.handler429"
