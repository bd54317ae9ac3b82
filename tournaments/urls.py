from django.urls import include, path, register_converter

from . import (
    views,
    views_characters,
    views_entries,
    views_history,
    views_invitations,
    views_printing,
    views_public,
    views_registration,
    views_reports,
    views_rounds,
    views_table,
)
from .api import api as read_api
from .http import TokenConverter

register_converter(TokenConverter, "token")

app_name = "tournaments"

public = [
    path("", views.event_list, name="event_list"),
    path("e/<slug:slug>/", views.event_detail, name="event_detail"),
    path("e/<slug:slug>/live/", views_public.event_live, name="event_live"),
    path("e/<slug:slug>/register/", views_entries.self_register, name="self_register"),
    path("e/<slug:slug>/register/confirm/<token:token>/", views_entries.guest_confirm, name="guest_confirm"),
    path("e/<slug:slug>/withdraw/", views_entries.withdraw, name="withdraw"),
    path("e/<slug:slug>/rounds/<int:number>/", views_public.pairings, name="pairings"),
    path("e/<slug:slug>/standings/", views_public.standings, name="standings"),
    path("e/<slug:slug>/results.csv", views_public.results_csv, name="results_csv"),
    path("e/<slug:slug>/event.ics", views_public.calendar, name="calendar"),
    path("e/<slug:slug>/players/<int:pk>/", views_public.player, name="player"),
    path("e/<slug:slug>/characters/", views_characters.event_characters, name="event_characters"),
    path("characters/", views_characters.all_characters, name="all_characters"),
    # The players' side of a round: their table (the slip's QR code), reporting and confirming; dropping.
    path("e/<slug:slug>/rounds/<int:number>/tables/<int:table>/", views_table.table, name="table"),
    path("e/<slug:slug>/players/<int:pk>/drop/", views_table.drop, name="self_drop"),
    path("invitations/<token:token>/", views_invitations.invitation, name="invitation"),
    # A player across events (tournaments.views_history): <pk> is any record of the person.
    path("players/<int:pk>/", views_history.player_history, name="player_history"),
    path("players/<int:pk>/games.csv", views_history.player_games_csv, name="player_games_csv"),
    path("players/<int:pk>/vs/<int:other>/", views_history.player_vs, name="player_vs"),
]

# The read API (django-ninja, tournaments.api): its endpoints, /api/openapi.json and the docs at /api/docs.
api = [path("api/", include(read_api.urls[0]))]

staff = [
    path("events/new/", views.event_create, name="event_create"),
    path("e/<slug:slug>/staff/", views.registrations, name="registrations"),
    path("e/<slug:slug>/staff/edit/", views.event_edit, name="event_edit"),
    path("e/<slug:slug>/staff/delete/", views.event_delete, name="event_delete"),
    path("e/<slug:slug>/staff/players/add/", views.player_add, name="player_add"),
    path("e/<slug:slug>/staff/players/bulk/", views.roster_bulk_add, name="roster_bulk_add"),
    path("e/<slug:slug>/staff/players/<int:pk>/check-in/", views.registration_check_in, name="check_in"),
    path("e/<slug:slug>/staff/players/check-in-all/", views.check_in_all, name="check_in_all"),
    path(
        "e/<slug:slug>/staff/players/<int:pk>/edit/",
        views_registration.registration_edit,
        name="registration_edit",
    ),
    path(
        "e/<slug:slug>/staff/players/<int:pk>/unlink/",
        views_registration.registration_unlink,
        name="registration_unlink",
    ),
    path(
        "e/<slug:slug>/staff/players/<int:pk>/claim-code/",
        views_registration.registration_claim_code,
        name="registration_claim_code",
    ),
    path("e/<slug:slug>/staff/players/claim-codes/", views_registration.claim_codes, name="claim_codes"),
    path("e/<slug:slug>/staff/players/<int:pk>/drop/", views.registration_drop, name="drop"),
    path("e/<slug:slug>/staff/players/<int:pk>/undrop/", views.registration_undrop, name="undrop"),
    path("e/<slug:slug>/staff/players/<int:pk>/promote/", views_entries.promote, name="promote"),
    path("e/<slug:slug>/staff/check-in/close/", views_entries.checkin_close, name="checkin_close"),
    path("e/<slug:slug>/staff/self-registration/", views.self_registration_toggle, name="self_registration"),
    path("e/<slug:slug>/staff/team/", views.staff_manage, name="staff"),
    path("e/<slug:slug>/staff/team/invite/", views_invitations.staff_invite, name="staff_invite"),
    path(
        "e/<slug:slug>/staff/team/invitations/<int:pk>/resend/",
        views_invitations.invitation_resend,
        name="invitation_resend",
    ),
    path(
        "e/<slug:slug>/staff/team/invitations/<int:pk>/revoke/",
        views_invitations.invitation_revoke,
        name="invitation_revoke",
    ),
    path("e/<slug:slug>/staff/rounds/", views_rounds.rounds_overview, name="rounds"),
    path("e/<slug:slug>/staff/characters/", views_characters.characters_check, name="characters_check"),
    path("e/<slug:slug>/staff/start/", views_rounds.event_start, name="event_start"),
    path("e/<slug:slug>/staff/rounds/pair/", views_rounds.round_pair, name="round_pair"),
    path("e/<slug:slug>/staff/rounds/<int:number>/", views_rounds.round_staff, name="round_staff"),
    path(
        "e/<slug:slug>/staff/rounds/<int:number>/publish/", views_rounds.round_publish, name="round_publish"
    ),
    path("e/<slug:slug>/staff/rounds/<int:number>/repair/", views_rounds.round_repair, name="round_repair"),
    path("e/<slug:slug>/staff/rounds/<int:number>/undo/", views_rounds.round_undo, name="round_undo"),
    path("e/<slug:slug>/staff/rounds/<int:number>/close/", views_rounds.round_close, name="round_close"),
    path("e/<slug:slug>/staff/rounds/<int:number>/reopen/", views_rounds.round_reopen, name="round_reopen"),
    path("e/<slug:slug>/staff/rounds/<int:number>/swap/", views_rounds.seats_swap, name="seats_swap"),
    path(
        "e/<slug:slug>/staff/rounds/<int:number>/tables/<int:table>/",
        views_rounds.table_result,
        name="table_result",
    ),
    path(
        "e/<slug:slug>/staff/rounds/<int:number>/tables/<int:table>/confirm-for/",
        views_reports.report_confirm_for,
        name="report_confirm_for",
    ),
    path("e/<slug:slug>/staff/rounds/<int:number>/print/", views_printing.print_center, name="print_center"),
    path(
        "e/<slug:slug>/staff/rounds/<int:number>/print/<str:kind>/",
        views_printing.print_request,
        name="print_request",
    ),
    path(
        "e/<slug:slug>/staff/rounds/<int:number>/print/jobs/<int:job>/render-now/",
        views_printing.print_render_now,
        name="print_render_now",
    ),
    path(
        "e/<slug:slug>/staff/rounds/<int:number>/print/jobs/<int:job>/pdf/",
        views_printing.print_download,
        name="print_download",
    ),
    path("e/<slug:slug>/staff/playoffs/", views_rounds.playoffs_start, name="playoffs_start"),
    path("e/<slug:slug>/staff/final/", views_rounds.final_start, name="final_start"),
]

urlpatterns = public + api + staff
