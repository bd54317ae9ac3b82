from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("", views.my_events, name="my_events"),
    path("organizers/", views.organizer_approvals, name="organizer_approvals"),
]
