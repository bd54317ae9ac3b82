from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("tournaments.urls")),
    path("rulings/", include("rulings.urls")),
    path("judging/", include("judging.urls")),
    path("accounts/", include("allauth.urls")),
    path("me/", include("accounts.urls")),
    path("admin/", admin.site.urls),
]
