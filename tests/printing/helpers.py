from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from pathlib import Path

from pypdf import PdfReader

from tests.conftest import need
from tournaments.printing import SlipPlayer, SlipsDocument, SlipTable


def slips_document(tables: int = 3, *, sizes=(4, 4, 3), names=None, paper: str = "A4") -> SlipsDocument:
    names = names or [f"Player {i:03d}" for i in range(1, 200)]
    it = iter(names)
    return SlipsDocument(
        event="Test Open",
        date="2026-12-05",
        round_label="Round 2",
        paper=paper,
        tables=tuple(
            SlipTable(
                number=n,
                players=tuple(
                    SlipPlayer(seat, next(it)) for seat in range(1, sizes[(n - 1) % len(sizes)] + 1)
                ),
                result_url=f"https://dcdb.example.org/e/test-open/staff/rounds/2/tables/{n}/",
            )
            for n in range(1, tables + 1)
        ),
    )


def page_texts(pdf: bytes) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages]


def render_pngs(pdf: bytes, dpi: int = 150) -> list[Path]:
    """Every page as PNG through poppler's pdftoppm, as a printer driver would rasterise it."""
    need("pdftoppm", shutil.which("pdftoppm") is not None)
    folder = Path(tempfile.mkdtemp(prefix="print-test-"))
    (folder / "doc.pdf").write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-png", str(folder / "doc.pdf"), str(folder / "page")], check=True
    )
    return sorted(folder.glob("page-*.png"))
