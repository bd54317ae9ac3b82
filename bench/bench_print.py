"""Match slips for a 256-table round (1,024 players): time, peak memory, file size.

    .venv/bin/python bench/bench_print.py [--quick] [--tables N]

Renders in a fresh subprocess so the peak memory (ru_maxrss) is the renderer's own, fonts and
all. Target: under 5 s and under 300 MB for 256 tables.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from tournaments.printing import SlipPlayer, SlipTable, SlipsDocument, render_slips
tables = int(sys.argv[2])
first = ["Ann", "Дмитрий", "Γιώργος", "Zoë", "Maximiliana Evangelista", "Liam", "Keiko", "Bruno"]
last = ["Archer", "Волков", "Παπαδόπουλος", "Łukasiewicz", "Rodríguez-Villanueva", "O'Neill", "Tanaka", "Diaz"]
doc = SlipsDocument("Benchmark Regional Championship", "2026-12-05", "Round 5", "A4", tuple(
    SlipTable(t, tuple(SlipPlayer(s, f"{first[(t + s) % 8]} {last[(t * 3 + s) % 8]}") for s in range(1, 5)),
              f"https://dcdb.example.org/e/benchmark/staff/rounds/5/tables/{t}/")
    for t in range(1, tables + 1)))
start = time.perf_counter()
pdf = render_slips(doc)
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "bytes": len(pdf),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run(tables: int) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(ROOT), str(tables)], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="64 tables only")
    parser.add_argument("--tables", type=int, default=256)
    args = parser.parse_args()
    tables = 64 if args.quick else args.tables
    result = run(tables)
    ok_time = result["seconds"] < 5
    ok_mem = result["peak_mb"] < 300
    print(f"match slips, {tables} tables ({tables * 4} players), A4, two per page:")
    print(f"  render time {result['seconds']:.2f} s (target < 5 s: {'met' if ok_time else 'MISSED'})")
    print(f"  peak memory {result['peak_mb']:.0f} MB (target < 300 MB: {'met' if ok_mem else 'MISSED'})")
    print(
        f"  file size   {result['bytes'] / 1024:.0f} KiB ({result['bytes'] / tables / 1024:.1f} KiB per slip)"
    )
    return 0 if ok_time and ok_mem else 1


if __name__ == "__main__":
    sys.exit(main())
