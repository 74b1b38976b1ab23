"""Another benchmark run with a PDF's pages read another way: the retrieval effect of lines as printed.

    python benchmarks/reading.py raw benchmarks/rankings.py --financebench DIR --edgar DIR --cache /tmp/raw --out raw.json
    python benchmarks/reading.py baselines benchmarks/rankings.py --financebench DIR --edgar DIR --cache /tmp/base --out base.json
    python benchmarks/rankings.py --financebench DIR --edgar DIR --cache /tmp/printed --out printed.json
    python benchmarks/reading.py --table raw.json base.json printed.json

    python benchmarks/reading.py raw benchmarks/retrieval.py --financebench DIR --cache /tmp/raw --out raw.txt

The first argument says how ingest reads a PDF's pages, the rest is the benchmark script and
its own arguments:

- ``raw``: pdfium's own text, in the order the PDF draws it (lines as printed off:
  ``printed.page_words`` gives None, as for a page of rotated text);
- ``baselines``: lines as printed by baselines alone, without the reading order
  (``layout.read`` leaves the lines as ``group_lines`` made them);
- ``printed``: as evfind reads them (the script run as it is).

Give each reading its own ``--cache`` (a cached database is not ingested again). ``--table``
prints hit@1 of every set from rankings files (``rankings.py --out``), one column a file.
"""

from __future__ import annotations

import json
import runpy
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def table(files: list[Path]) -> list[str]:
    """hit@1 (first page a gold one) of every set of each rankings file."""
    data = [json.loads(f.read_text(encoding="utf-8")) for f in files]
    out = [f"{'set':<20}{'n':>5}" + "".join(f"{f.stem:>18}" for f in files)]
    for name in sorted(set().union(*data)):
        sizes = {len(d.get(name, {})) for d in data}
        cells = []
        for d in data:
            entries = d.get(name, {})
            hits = sum(1 for e in entries.values() if e["pages"][:1] and e["pages"][0] in e["gold"])
            cells.append(f"{hits / len(entries):.3f} ({hits:>3})" if entries else "-")
        out.append(f"{name:<20}{max(sizes):>5}" + "".join(f"{c:>18}" for c in cells))
    return out


def main() -> int:
    args = sys.argv[1:]
    if args[:1] == ["--table"]:
        print("\n".join(table([Path(a) for a in args[1:]])))
        return 0
    if len(args) < 2 or args[0] not in ("raw", "baselines", "printed"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    reading, script, rest = args[0], Path(args[1]), args[2:]
    from evfind import printed

    if reading == "raw":
        printed.page_words = lambda text, box: None
    elif reading == "baselines":
        printed.read = lambda lines: lines
    sys.path.insert(0, str(script.resolve().parent))
    sys.argv = [str(script), *rest]
    runpy.run_path(str(script), run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
