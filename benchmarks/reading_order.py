"""The reading order of lines as printed on the development PDFs: what each step changes, and what it costs.

    python benchmarks/reading_order.py --financebench ../shared/financebench
    python benchmarks/reading_order.py --financebench ../shared/financebench --output benchmarks/reading_order.txt

Every page of every PDF is read as ingest reads it (evfind/printed.py), and its lines are
compared with the lines by baselines alone (``layout.group_lines``) and with each step of
``layout.read`` on its own: pages with a run of lines split at a column's edge (two columns of
prose read one after the other; a table of text read row by row, cell by cell), pages whose
stacked table headings are read as cells, pages where a wrapped cell is joined. No word is
ever lost or doubled (checked on every page). Then the tables whose line above their first row
of figures holds two or more years: how many have that period row on a line of its own, and
how many share it with a title over the row labels.

Speed: the same five filings, in interleaved rounds, read by raw pypdfium2 text extraction, by
``evfind.extract.extract`` (lines as printed, in reading order) and by ``extract`` with the
reading order off (lines by baselines); medians, pages per second and the ratio to raw
extraction. Skips cleanly without the FinanceBench folder.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from evfind import layout, printed  # noqa: E402
from evfind.extract import extract  # noqa: E402

SPEED_FILINGS = ("3M_2018_10K", "AMAZON_2019_10K", "ADOBE_2017_10K", "BOEING_2022_10K", "WALMART_2018_10K")
_YEAR = re.compile(r"^\(?(19|20)\d\d[,.)]?$")


class Recorder:
    """Wraps ``printed.read`` for one extraction: keeps each page's lines by baselines and
    what each step of the reading order makes of them on its own."""

    def __init__(self) -> None:
        self.pages: list[dict] = []
        self.original = printed.read

    def __enter__(self) -> Recorder:
        printed.read = self.read
        return self

    def __exit__(self, *exc) -> None:
        printed.read = self.original

    def read(self, lines: list[layout.Line]) -> list[layout.Line]:
        base = [list(line) for line in lines]
        out = self.original(lines)
        page = {"base": base, "out": out, "steps": set(), "regions": []}
        if len(base) >= 2:
            height = layout._median([layout._height(line) for line in base])
            if height > 0:
                space = layout._word_space(base, height)
                page["regions"] = _regions(base, height, space)
                cells = [layout._segments(line, height) for line in base]
                if layout._stacked_headings(base, cells, height) != base:
                    page["steps"].add("headings")
                if layout._wrapped_cells(base, cells, height, space) != base:
                    page["steps"].add("cells")
                page["height"] = height
        self.pages.append(page)
        return out


def _regions(lines: list[layout.Line], height: float, space: float) -> list[str]:
    """The page's runs split at a column's edge, by how they are read: 'columns' or 'table'."""
    found = layout._gutter(lines, height, space)
    if found is None:
        return []
    first, last, _, by_rows = found
    return _regions(lines[:first], height, space) + ["table" if by_rows else "columns"] + _regions(lines[last + 1 :], height, space)


def _words(lines: list[layout.Line]) -> list[str]:
    return sorted(w.text for line in lines for w in line)


def _row_of_figures(line: layout.Line, height: float) -> bool:
    """A row of a table: a label (or a first figure) and cells of figures after it."""
    cells = layout._segments(line, height)
    return len(cells) > 1 and layout._has_figures([w for cell in cells[1:] for w in cell], height)


def _period_rows(lines: list[layout.Line], height: float) -> tuple[int, int]:
    """Tables whose line above the first row of figures holds two or more years: (period row on
    a line of its own, sharing its line with words over the row labels)."""
    own = shared = 0
    for i in range(1, len(lines)):
        row, above = lines[i], lines[i - 1]
        if not _row_of_figures(row, height) or _row_of_figures(above, height):
            continue
        if sum(bool(_YEAR.match(w.text)) for w in above) < 2 or layout._has_figures(above, height):
            continue
        cells = layout._segments(row, height)
        labels_end = cells[1][0].left - layout.CELL_GAP * height
        if any(w.right <= labels_end for w in above):
            shared += 1
        else:
            own += 1
    return own, shared


def pages_section(financebench: Path) -> list[str]:
    pdfs = sorted((financebench / "pdfs").glob("*.pdf"))
    counts: Counter = Counter()
    periods = {"by baselines": [0, 0], "in reading order": [0, 0]}
    per_filing = []
    lost = []
    started = time.perf_counter()
    for pdf in pdfs:
        with Recorder() as recorder:
            extract(pdf)
        filing: Counter = Counter()
        for number, page in enumerate(recorder.pages, start=1):
            counts["pages"] += 1
            if page["out"] != page["base"]:
                counts["changed"] += 1
                filing["changed"] += 1
            if _words(page["out"]) != _words(page["base"]):
                lost.append(f"{pdf.stem} page {number}")
            for kind in set(page["regions"]):
                counts[kind] += 1
                filing[kind] += 1
            for step in page["steps"]:
                counts[step] += 1
            if "height" in page:
                for key, lines in (("by baselines", page["base"]), ("in reading order", page["out"])):
                    own, shared = _period_rows(lines, page["height"])
                    periods[key][0] += own
                    periods[key][1] += shared
        if filing["columns"] or filing["table"]:
            per_filing.append(f"  {pdf.stem:44} {filing['columns']:8} {filing['table']:14}")
    seconds = time.perf_counter() - started
    out = [f"# Lines as printed, in reading order (evfind/layout.py): {len(pdfs)} PDFs, {counts['pages']} pages", ""]
    out.append(f"pages whose lines differ from lines by baselines alone: {counts['changed']} ({counts['changed'] / counts['pages']:.1%})")
    out.append(f"  with two columns of prose read one after the other:  {counts['columns']}")
    out.append(f"  with a table of text read row by row, cell by cell:  {counts['table']}")
    out.append(f"  with stacked table headings read as cells:           {counts['headings']}")
    out.append(f"  with a wrapped cell joined to its row:               {counts['cells']}")
    out.append(f"pages where a word was lost or doubled: {len(lost)}" + (f" ({', '.join(lost[:5])})" if lost else ""))
    out.append("")
    out.append(f"  {'filing (pages split at a column edge)':44} {'columns':>8} {'table of text':>14}")
    out.extend(per_filing or ["  (none)"])
    out.append("")
    out.append("tables whose line above the first row of figures holds two or more years:")
    for key, (own, shared) in periods.items():
        out.append(f"  {key:17} {own + shared:5} tables: period row on a line of its own {own}, beside words over the row labels {shared}")
    out.append(f"\n({len(pdfs)} PDFs read in {seconds:.0f} s)")
    return out


def speed_section(financebench: Path, rounds: int) -> list[str]:
    import pypdfium2 as pdfium

    pdfs = [financebench / "pdfs" / f"{name}.pdf" for name in SPEED_FILINGS]
    pdfs = [pdf for pdf in pdfs if pdf.is_file()]
    if not pdfs:
        return ["# Speed: skipped (the five filings are not in the folder)"]

    def raw() -> int:
        pages = 0
        for path in pdfs:
            pdf = pdfium.PdfDocument(str(path))
            for index in range(len(pdf)):
                page = pdf[index]
                textpage = page.get_textpage()
                textpage.get_text_range()
                textpage.close()
                page.close()
                pages += 1
            pdf.close()
        return pages

    def evfind() -> int:
        return sum(extract(path).page_count for path in pdfs)

    def baselines() -> int:
        saved = printed.read
        printed.read = lambda lines: lines
        try:
            return evfind()
        finally:
            printed.read = saved

    timings: dict[str, list[float]] = {"raw pypdfium2 extraction": [], "extract, in reading order": [], "extract, lines by baselines": []}
    pages = 0
    for _ in range(rounds):
        for name, run in zip(timings, (raw, evfind, baselines)):
            started = time.perf_counter()
            pages = run()
            timings[name].append(time.perf_counter() - started)
    floor = statistics.median(timings["raw pypdfium2 extraction"])
    out = [f"# Speed: {', '.join(p.stem for p in pdfs)} ({pages} pages), {rounds} interleaved rounds, medians", ""]
    for name, seconds in timings.items():
        median = statistics.median(seconds)
        out.append(f"  {name:30} {pages / median:6.0f} pages/s   {floor / median:.2f}x raw extraction")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = REPO.parent / "shared" / "financebench"
    parser.add_argument("--financebench", type=Path, default=default if default.is_dir() else None)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the speed timing (default 3)")
    parser.add_argument("--output", type=Path, help="also write the report to this file")
    args = parser.parse_args()
    if args.financebench is None or not (args.financebench / "pdfs").is_dir():
        print("FinanceBench folder not given (--financebench DIR): skipped")
        return 0
    lines = pages_section(args.financebench) + [""] + speed_section(args.financebench, args.rounds)
    report = "\n".join(lines) + "\n"
    print(report, end="")
    if args.output:
        args.output.write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
