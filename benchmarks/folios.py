"""Printed folios on the development PDFs: how many pages get one, and whether it is the printed one.

    python benchmarks/folios.py --financebench ../shared/financebench
    python benchmarks/folios.py --financebench ../shared/financebench --output benchmarks/folios.txt

Every PDF is extracted as ingest extracts it (its index texts and its PDF page labels), and each
page's label is the one ingest would store (``evfind.folios.page_labels``). Reported per filing
and in total: coverage, the share of pages given a label. Precision is measured against
benchmarks/folios_checked.tsv, folios read by eye off 5 pages of each of 15 filings: a label
that differs from the one read (or a label where the page prints none) is wrong, a page left
without a label that prints one is a miss. Skips cleanly without the FinanceBench folder.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from evfind.extract import extract  # noqa: E402
from evfind.folios import page_labels  # noqa: E402
from evfind.ingest import index_texts  # noqa: E402

CHECKED = Path(__file__).with_name("folios_checked.tsv")


def checked() -> dict[str, dict[int, str]]:
    """The hand-read folios: {filing: {physical page: folio, '' where none is printed}}."""
    found: dict[str, dict[int, str]] = {}
    for line in CHECKED.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        filing, page, *folio = line.split("\t")
        found.setdefault(filing, {})[int(page)] = folio[0].strip() if folio else ""
    return found


def run(financebench: Path) -> list[str]:
    pdfs = sorted((financebench / "pdfs").glob("*.pdf"))
    truth = checked()
    out = ["# Printed folios (evfind.folios) on the development PDFs", ""]
    out.append(f"{'filing':48} {'labelled':>9} {'pages':>6} {'coverage':>9}")
    labelled = pages = 0
    right = wrong = missed = none_right = 0
    errors = []
    started = time.perf_counter()
    for pdf in pdfs:
        extraction = extract(pdf)
        labels = page_labels(extraction.labels, index_texts(extraction))
        count = sum(1 for label in labels if label)
        labelled += count
        pages += len(labels)
        out.append(f"{pdf.stem:48} {count:9} {len(labels):6} {count / len(labels):9.0%}")
        for page, folio in truth.get(pdf.stem, {}).items():
            given = labels[page - 1] or ""
            if given == folio:
                if folio:
                    right += 1
                else:
                    none_right += 1
            elif not given:
                missed += 1
                errors.append(f"  missed {pdf.stem} p{page}: prints {folio!r}, no label")
            else:
                wrong += 1
                errors.append(f"  WRONG  {pdf.stem} p{page}: prints {folio or 'no folio'!r}, labelled {given!r}")
    seconds = time.perf_counter() - started
    out.append(f"{'all':48} {labelled:9} {pages:6} {labelled / max(pages, 1):9.0%}")
    out.append("")
    given = right + wrong
    printed = sum(1 for folios in truth.values() for folio in folios.values() if folio)
    out.append(f"Hand-checked pages ({CHECKED.name}): {sum(len(p) for p in truth.values())} pages of {len(truth)} filings")
    out.append(f"  labels given: {given}; the printed folio: {right} (precision {right / max(given, 1):.1%})")
    out.append(f"  pages that print a folio: {printed}; labelled: {right} (recall {right / max(printed, 1):.1%})")
    out.append(f"  pages that print none, left without a label: {none_right}")
    out += errors
    out.append("")
    out.append(f"({len(pdfs)} PDFs extracted and read in {seconds:.0f} s)")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = REPO.parent / "shared" / "financebench"
    parser.add_argument("--financebench", type=Path, default=default if default.is_dir() else None)
    parser.add_argument("--output", type=Path, help="also write the report here")
    args = parser.parse_args()
    if args.financebench is None or not (args.financebench / "pdfs").is_dir():
        print("skipped: no FinanceBench folder (give --financebench DIR)")
        return 0
    lines = run(args.financebench)
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.output is not None:
        args.output.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
