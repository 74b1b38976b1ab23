"""Build sample.db, the demo database, from the fictional report in sample/.

    python scripts/build_sample.py            # rewrites sample.db at the top of the repository
    python scripts/build_sample.py --db X.db  # builds elsewhere (the up-to-date test does this)

The source is text with form feeds between pages (as pdftotext writes it), written for this
project; the ingest time is pinned so the build is reproducible.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOURCE = REPO / "sample" / "halden_2025_10k.txt"
DOCUMENT_ID = "HALDEN_2025_10K"
EPOCH = "1767225600"  # 2026-01-01T00:00:00Z


def build(db: Path) -> None:
    from evfind.ingest import ingest

    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    if db.exists():
        db.unlink()
    result = ingest(SOURCE, db, DOCUMENT_ID)
    print(f"{db}: {result.page_count} pages, sha256 {result.sha256[:12]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=REPO / "sample.db")
    build(parser.parse_args().db)


if __name__ == "__main__":
    main()
