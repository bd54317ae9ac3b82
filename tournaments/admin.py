from django.contrib import admin

from .models import Event, EventStaff, Player, PrintJob, Registration, ResultChange, Round, Seat, Table


class EventStaffInline(admin.TabularInline):
    model = EventStaff
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "venue", "status", "sanctioned", "swiss_rounds"]
    list_filter = ["status", "sanctioned"]
    search_fields = ["name", "venue", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [EventStaffInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "sort_name", "email", "user"]
    search_fields = ["name", "email"]
    raw_id_fields = ["user"]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "event", "checked_in", "dropped_at", "disqualified", "joined_round"]
    list_filter = ["checked_in", "disqualified", "event"]
    search_fields = ["player__name", "event__name"]
    raw_id_fields = ["player", "event"]


@admin.register(EventStaff)
class EventStaffAdmin(admin.ModelAdmin):
    list_display = ["event", "user", "role"]
    list_filter = ["role"]
    search_fields = ["event__name", "user__username"]
    raw_id_fields = ["event", "user"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["registration", "round"]
    fields = [
        "seat",
        "registration",
        "vp",
        "super_villains",
        "left_game",
        "outright_win",
        "refused_to_sign",
        "game_loss",
        "placement",
        "points",
    ]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "kind", "status", "paired_at", "closed_at"]
    list_filter = ["kind", "status"]
    search_fields = ["event__name"]
    raw_id_fields = ["event"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "number", "result_entered_at", "result_entered_by", "version"]
    search_fields = ["round__event__name"]
    raw_id_fields = ["round", "result_entered_by"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["table", "seat", "registration", "vp", "placement", "points"]
    search_fields = ["registration__player__name"]
    raw_id_fields = ["table", "round", "registration"]


@admin.register(ResultChange)
class ResultChangeAdmin(admin.ModelAdmin):
    """The audit log is read-only: it records what happened."""

    list_display = ["table", "action", "user", "at", "reason"]
    list_filter = ["action"]
    raw_id_fields = ["table", "user"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PrintJob)
class PrintJobAdmin(admin.ModelAdmin):
    list_display = ["event", "round", "kind", "status", "done", "total", "created_at", "finished_at"]
    list_filter = ["kind", "status"]
    raw_id_fields = ["event", "round", "requested_by"]
