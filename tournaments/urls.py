from django.urls import path

from . import views

app_name = "tournaments"

public = [
    path("", views.event_list, name="event_list"),
    path("e/<slug:slug>/", views.event_detail, name="event_detail"),
    path("e/<slug:slug>/register/", views.self_register, name="self_register"),
]

staff = [
    path("events/new/", views.event_create, name="event_create"),
    path("e/<slug:slug>/staff/", views.registrations, name="registrations"),
    path("e/<slug:slug>/staff/edit/", views.event_edit, name="event_edit"),
    path("e/<slug:slug>/staff/delete/", views.event_delete, name="event_delete"),
    path("e/<slug:slug>/staff/players/add/", views.player_add, name="player_add"),
    path("e/<slug:slug>/staff/players/bulk/", views.roster_bulk_add, name="roster_bulk_add"),
    path("e/<slug:slug>/staff/players/<int:pk>/check-in/", views.registration_check_in, name="check_in"),
    path("e/<slug:slug>/staff/players/<int:pk>/drop/", views.registration_drop, name="drop"),
    path("e/<slug:slug>/staff/players/<int:pk>/undrop/", views.registration_undrop, name="undrop"),
    path("e/<slug:slug>/staff/self-registration/", views.self_registration_toggle, name="self_registration"),
    path("e/<slug:slug>/staff/team/", views.staff_manage, name="staff"),
]

urlpatterns = public + staff
