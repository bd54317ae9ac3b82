"""``python manage.py import_rulings DIR_OR_FILES... [--json]``: import the rule documents (idempotent)."""

from __future__ import annotations

import json
import time

from django.core.management.base import BaseCommand, CommandError

from rulings import search, semantic, services
from rulings.models import Document
from rulings.signals import documents_changed


class Command(BaseCommand):
    help = "Import rule documents (directories or files); re-importing an unchanged file changes nothing."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="directories of documents, or document files")
        parser.add_argument("--json", action="store_true", help="print one JSON object per document")

    def handle(self, *args, paths: list[str], json: bool = False, **options):
        started = time.monotonic()
        try:
            files = services.source_paths(paths=paths)
        except services.DocumentError as error:
            raise CommandError(str(error)) from error
        version = services.parser_version()
        results, skipped = [], []
        for path in files:
            try:
                result = services.import_file(path=path, parser_version=version)
            except services.DocumentError as error:
                skipped.append(str(error))
                self.stderr.write(f"skipped {error}")
                continue
            results.append(result)
            if not json:  # each document as it is done: a long import never looks stuck
                self.stdout.write(_line(result))
                self.stdout.flush()
        if any(result.status != services.UNCHANGED for result in results):
            search.rebuild_index()
            documents_changed.send(sender=self.__class__)
        meaning = self._meaning_index()
        elapsed = time.monotonic() - started
        if json:
            self.stdout.write(_json([_summary(result) for result in results]))
        else:
            if meaning:
                self.stdout.write(meaning)
            self.stdout.write(f"{len(results)} documents in {elapsed:.1f}s")
        if skipped and not results:
            raise CommandError("no rule document imported")

    def _meaning_index(self) -> str:
        """The entry vectors of the embedding model, when there is one (a minute or two for all five
        documents on two cores, once: they are kept on disk by document checksum)."""
        semantic.reset()
        mode = semantic.mode()
        if mode.encoder is None:
            return ""
        documents = list(Document.objects.filter(is_current=True))
        todo = semantic.missing(documents)
        started = time.monotonic()
        for number, document in enumerate(todo, start=1):
            # One document at a time, each announced: encoding all five takes a minute or two on two
            # free cores, much longer on a busy machine.
            self.stderr.write(
                f"meaning index: encoding {document.source_file} with {mode.encoder.name}"
                f" ({number} of {len(todo)}) ..."
            )
            self.stderr.flush()
            semantic.document_vectors([document], build=True)
        vectors = semantic.document_vectors(documents, build=True)
        return (
            f"meaning index: {sum(len(v) for v in vectors)} entries ({mode.encoder.name}), "
            f"{len(todo)} documents encoded in {time.monotonic() - started:.1f}s"
        )


def _line(result: services.ImportResult) -> str:
    doc = result.document
    counts = ", ".join(f"{n} {kind}" for kind, n in sorted(result.counts.items()))
    return f"{result.status:11} {doc.source_file}: {doc.title} {doc.edition} ({counts})"


def _summary(result: services.ImportResult) -> dict:
    doc = result.document
    return {
        "source_file": doc.source_file,
        "game": doc.game.code,
        "title": doc.title,
        "edition": doc.edition,
        "status": result.status,
        "counts": result.counts,
        "references": result.references,
    }


def _json(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)
