"""The rulings database: Game → Document → Section → Entry, Cards with aliases, and cross-references.

Rows are written only by ``rulings.services`` (the importer); everything here is read-only for the
site. Keys come from the parsers (``rulings.parsers.base``) and are stable within a document, so a
re-import finds the same rows and two editions can be compared key by key.
"""

from __future__ import annotations

from django.db import models
from django.urls import reverse

from .parsers import base as parsed


class Game(models.Model):
    code = models.CharField(max_length=20, unique=True)  # "dcdb", "vs", "overpower"
    name = models.CharField(max_length=100)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.name


class Document(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="documents")
    slug = models.SlugField(max_length=120, unique=True)  # used in permalinks; stable across re-imports
    title = models.CharField(max_length=200)
    edition = models.CharField(max_length=100, blank=True)
    season = models.CharField(max_length=200, blank=True)
    authority = models.CharField(max_length=100, blank=True)
    source_file = models.CharField(max_length=255)
    checksum = models.CharField(max_length=64, unique=True)
    parser_version = models.CharField(max_length=64, blank=True)  # hash of the parser code that read it
    is_current = models.BooleanField(default=True)
    previous = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="later_editions"
    )
    counts = models.JSONField(default=dict)
    warnings = models.JSONField(default=list)
    imported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "source_file", "pk"]

    def __str__(self) -> str:
        return f"{self.title} ({self.edition})" if self.edition else self.title

    def get_absolute_url(self) -> str:
        return reverse("rulings:document", args=[self.slug])

    @property
    def is_community(self) -> bool:
        return "community" in self.authority.lower()


class Section(models.Model):
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="sections")
    key = models.CharField(max_length=200)
    number = models.CharField(max_length=40, blank=True)
    title = models.CharField(max_length=300)
    normalised_title = models.CharField(max_length=300, blank=True, db_index=True)
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="children"
    )
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["document_id", "order"]
        constraints = [models.UniqueConstraint(fields=["document", "key"], name="rulings_section_key")]

    def __str__(self) -> str:
        return f"{self.number} {self.title}".strip()

    def get_absolute_url(self) -> str:
        return reverse("rulings:section", args=[self.document.slug, self.key])


class Card(models.Model):
    CATEGORY_CHOICES = [
        (parsed.MAIN_CHARACTER, "Main Character"),
        (parsed.SUPER_VILLAIN, "Super-Villain"),
        (parsed.MAIN_DECK, "Main deck"),
        (parsed.OTHER_CARD, "Other"),
    ]
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="cards")
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="cards")
    key = models.CharField(max_length=300)
    name = models.CharField(max_length=200)
    normalised_name = models.CharField(max_length=200, db_index=True)
    set_name = models.CharField(max_length=200, blank=True)
    category = models.CharField(max_length=20, choices=CATEGORY_CHOICES, default=parsed.OTHER_CARD)

    class Meta:
        ordering = ["normalised_name", "set_name"]
        constraints = [models.UniqueConstraint(fields=["document", "key"], name="rulings_card_key")]

    def __str__(self) -> str:
        return f"{self.name} ({self.set_name})" if self.set_name else self.name


class CardAlias(models.Model):
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="aliases")
    alias = models.CharField(max_length=200)
    normalised = models.CharField(max_length=200, db_index=True)

    def __str__(self) -> str:
        return self.alias


class Entry(models.Model):
    KIND_CHOICES = [
        (kind, "FAQ" if kind == parsed.FAQ else kind.replace("_", " ")) for kind in parsed.ENTRY_KINDS
    ]
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="entries")
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="entries")
    key = models.CharField(max_length=300)
    kind = models.CharField(max_length=20, choices=KIND_CHOICES)
    number = models.CharField(max_length=40, blank=True, db_index=True)  # as printed
    sort_key = models.CharField(max_length=120, blank=True)
    title = models.CharField(max_length=500, blank=True)
    normalised_title = models.CharField(max_length=500, blank=True, db_index=True)
    text = models.TextField(blank=True)
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="children"
    )
    card = models.ForeignKey(Card, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries")
    order = models.PositiveIntegerField(default=0)
    line = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["document_id", "order"]
        constraints = [models.UniqueConstraint(fields=["document", "key"], name="rulings_entry_key")]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.number or self.kind} {self.title}".strip()

    def get_absolute_url(self) -> str:
        return reverse("rulings:entry", args=[self.document.slug, self.key])

    @property
    def label(self) -> str:
        """What a judge reads first: the number, else the title."""
        return self.number or self.title or self.get_kind_display()


class CrossReference(models.Model):
    """A span of an entry's text that points at another entry or card of the same game.

    One row per target; an ambiguous span has one row per candidate, an unresolved one a single row
    with no target. An empty span at 0 (``start == end == 0``) is a card that the entry's title
    names rather than its text: a card note's label ("Red Tornado, Batgirl: …"), ``label`` the name.
    """

    RESOLVED, AMBIGUOUS, UNRESOLVED = "resolved", "ambiguous", "unresolved"
    STATUS_CHOICES = [(RESOLVED, "resolved"), (AMBIGUOUS, "ambiguous"), (UNRESOLVED, "unresolved")]
    RULE, TAG, PHRASE = "rule", "tag", "phrase"
    KIND_CHOICES = [(RULE, "rule number"), (TAG, "bracket tag"), (PHRASE, "phrase")]

    source = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="references")
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    label = models.CharField(max_length=300)  # the text as printed
    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    status = models.CharField(max_length=12, choices=STATUS_CHOICES)
    target_entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="referenced_by"
    )
    target_card = models.ForeignKey(Card, null=True, blank=True, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["source_id", "start", "pk"]

    def __str__(self) -> str:
        return f"{self.label} ({self.status})"


class SearchIndex(models.Model):
    """One row per entry of every document, as the full-text backends read it.

    SQLite mirrors it in an FTS5 table (``rulings_fts``, external content); PostgreSQL adds a generated
    ``tsv`` column with a GIN index and a trigram index on ``title`` (see the migrations). Text here is
    folded for search: look-alike Greek/Cyrillic letters become Latin ones.
    """

    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="search_row")
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=20)
    is_current = models.BooleanField(default=True)
    title = models.TextField(blank=True)  # number, title
    names = models.TextField(blank=True)  # card name, set and aliases; section title
    body = models.TextField(blank=True)

    class Meta:
        indexes = [models.Index(fields=["game", "is_current"])]

    def __str__(self) -> str:
        return self.title
