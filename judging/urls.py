from django.urls import path

from . import views

app_name = "judging"

public = [
    path("", views.index, name="index"),
    path("calculator/", views.calculator, name="calculator"),
    path("my-penalties/", views.my_penalties, name="my_penalties"),
    path("e/<slug:slug>/clock/", views.projector, name="projector"),
    path("e/<slug:slug>/clock.json", views.clock_json, name="clock_json"),
    path("e/<slug:slug>/penalties/", views.public_penalties, name="public_penalties"),
    # A table's page: judges and the players at the table record the time call and tick off turns.
    path("e/<slug:slug>/rounds/<int:number>/tables/<int:table>/", views.table_page, name="table"),
    path(
        "e/<slug:slug>/rounds/<int:number>/tables/<int:table>/time-call/", views.time_call, name="time_call"
    ),
    path("e/<slug:slug>/rounds/<int:number>/tables/<int:table>/turns/", views.turns_done, name="turns_done"),
]

staff = [
    path("e/<slug:slug>/staff/", views.board, name="board"),
    path("e/<slug:slug>/staff/rounds/<int:number>/", views.board, name="board_round"),
    path("e/<slug:slug>/staff/clock/", views.clock_action, name="clock_action"),
    path("e/<slug:slug>/staff/announcement/", views.announcement, name="announcement"),
    path(
        "e/<slug:slug>/staff/rounds/<int:number>/tables/<int:table>/extend/",
        views.table_extend,
        name="table_extend",
    ),
    path("e/<slug:slug>/staff/penalties/", views.penalties, name="penalties"),
    path("e/<slug:slug>/staff/penalties/new/", views.penalty_new, name="penalty_new"),
    path("e/<slug:slug>/staff/penalties/players/", views.penalty_players, name="penalty_players"),
    path("e/<slug:slug>/staff/penalties/advice/", views.penalty_advice, name="penalty_advice"),
    path("e/<slug:slug>/staff/penalties/<int:pk>/", views.penalty_detail, name="penalty"),
    path("e/<slug:slug>/staff/penalty-settings/", views.policy, name="policy"),
    path("e/<slug:slug>/staff/players/<int:player>/penalties/", views.player_history, name="player_history"),
]

urlpatterns = public + staff
