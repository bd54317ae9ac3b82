from django.contrib import admin

from .models import Infraction, Penalty, PenaltyLog, PenaltyPolicy, RoundClock, TableExtension, TimeCall


@admin.register(Infraction)
class InfractionAdmin(admin.ModelAdmin):
    list_display = ["rule", "name", "default_penalty", "spectators"]


@admin.register(PenaltyPolicy)
class PenaltyPolicyAdmin(admin.ModelAdmin):
    list_display = ["event", "upgrade_at", "review_at"]
    raw_id_fields = ["event"]


class PenaltyLogInline(admin.TabularInline):
    model = PenaltyLog
    extra = 0
    can_delete = False
    readonly_fields = ["user", "at", "action", "before", "after"]


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    """Read-only here: penalties change through the judging pages, so that every change is logged."""

    list_display = [
        "event",
        "registration",
        "spectator_name",
        "infraction",
        "type",
        "recorded_at",
        "voided_at",
    ]
    list_filter = ["type", "infraction"]
    search_fields = ["registration__player__name", "spectator_name", "event__name"]
    inlines = [PenaltyLogInline]

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


admin.site.register(RoundClock)
admin.site.register(TableExtension)
admin.site.register(TimeCall)
