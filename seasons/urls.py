from django.urls import path

from . import views

app_name = "seasons"

urlpatterns = [
    path("", views.season_list, name="list"),
    path("new/", views.season_create, name="create"),
    path("<slug:slug>/", views.season_detail, name="detail"),
    path("<slug:slug>/standings.csv", views.season_csv, name="csv"),
    path("<slug:slug>/characters/", views.season_characters, name="characters"),
    path("<slug:slug>/edit/", views.season_edit, name="edit"),
    path("<slug:slug>/manage/", views.season_manage, name="manage"),
    path("<slug:slug>/manage/events/add/", views.season_event_add, name="event_add"),
    path("<slug:slug>/manage/events/<int:event_id>/remove/", views.season_event_remove, name="event_remove"),
    path("<slug:slug>/manage/organizers/add/", views.season_organizer_add, name="organizer_add"),
]
