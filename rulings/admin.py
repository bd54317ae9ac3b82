from django.contrib import admin

from .models import Card, CardAlias, CrossReference, Document, Entry, Game, Section


class ImportedRows:
    """A document's sections, cards and entries are what its import made of the source file: the search keeps
    their words, vectors and rows per import (``rulings.search.compiled``), so an edit here would show in one
    place and not in the others. They are read here; a correction goes into the source and is imported again.
    (Deleting stays allowed: a document deleted here takes its rows with it.)"""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("code", "name")


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    list_display = ("title", "game", "edition", "source_file", "is_current", "imported_at")
    list_filter = ("game", "is_current")
    readonly_fields = ("checksum", "parser_version", "counts", "warnings")


@admin.register(Section)
class SectionAdmin(ImportedRows, admin.ModelAdmin):
    list_display = ("__str__", "document", "order")
    list_filter = ("document",)


class CardAliasInline(ImportedRows, admin.TabularInline):
    model = CardAlias
    extra = 0


@admin.register(Card)
class CardAdmin(ImportedRows, admin.ModelAdmin):
    list_display = ("name", "set_name", "category", "game", "document")
    list_filter = ("game", "category", "document")
    search_fields = ("name", "set_name")
    inlines = [CardAliasInline]


@admin.register(Entry)
class EntryAdmin(ImportedRows, admin.ModelAdmin):
    list_display = ("__str__", "kind", "document", "section")
    list_filter = ("kind", "document")
    search_fields = ("number", "title", "text")
    raw_id_fields = ("parent", "card", "section")


@admin.register(CrossReference)
class CrossReferenceAdmin(admin.ModelAdmin):
    list_display = ("label", "kind", "status", "source", "target_entry")
    list_filter = ("kind", "status")
    raw_id_fields = ("source", "target_entry", "target_card")
