from django.contrib import admin

from .models import Event, EventStaff, Player, Registration


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
