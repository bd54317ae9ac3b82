from django.urls import path

from . import views, views_player

app_name = "accounts"

urlpatterns = [
    path("", views.my_events, name="my_events"),
    path("organizers/", views.organizer_approvals, name="organizer_approvals"),
    path("claim/", views_player.claim, name="claim"),
    path("history/", views_player.my_history, name="my_history"),
    path("privacy/", views_player.privacy, name="privacy"),
    path("data.json", views_player.data_download, name="data_download"),
    path("delete/", views_player.delete_account, name="delete_account"),
]
