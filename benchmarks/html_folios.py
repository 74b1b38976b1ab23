"""Page counts and printed folios of the EDGAR HTML filings, against what the filings print.

    python benchmarks/html_folios.py --edgar ../shared/edgar [--cache DIR] [--output FILE]

For each filing of the folder: its pages as evfind ingests them against the count its README's
table gives, and the page label evfind stores against the folio printed on the page, as a
person read it off the pages (benchmarks/edgar_folios.tsv). The target (issue 22): the same
count for every filing, and where a page prints its folio, the label is that folio on at least
90% of such pages. Also counted: labels on pages that print none (which should be none).
tests/test_html_edgar.py asserts the same with --edgar DIR. Without the folder it says so.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
REFERENCE = REPO / "benchmarks" / "edgar_folios.tsv"
TARGET = 0.90
_ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii")


def readme_pages(folder: Path) -> dict[str, int]:
    """{file: pages} from the table of the folder's README.md."""
    pages = {}
    for line in (folder / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) > 6 and cells[1].startswith("`") and cells[5].isdigit():
            pages[cells[1].strip("`")] = int(cells[5])
    return pages


def printed(reference: Path = REFERENCE) -> dict[str, dict[int, str]]:
    """{file: {physical page: the folio printed on it}} from the reference file."""
    found: dict[str, dict[int, str]] = {}
    for line in reference.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, pages, first = line.split("\t")
        low, _, high = pages.partition("-")
        lettered = re.fullmatch(r"([A-Z]{1,2}-)?(\d+)", first)
        for offset, page in enumerate(range(int(low), int(high or low) + 1)):
            if lettered:
                folio = f"{lettered.group(1) or ''}{int(lettered.group(2)) + offset}"
            else:
                folio = _ROMAN[_ROMAN.index(first) + offset]
            found.setdefault(name, {})[page] = folio
    return found


def measure(folder: Path, cache: Path) -> dict:
    """Per filing: (pages ingested, pages the README gives, folios right, folios printed,
    labels where none is printed); ingested into ``cache``."""
    from evfind import store
    from evfind.ingest import ingest

    expected = readme_pages(folder)
    folios = printed()
    results = {}
    for name in sorted(expected):
        result = ingest(folder / name, cache / (Path(name).stem + ".db"))
        conn = store.connect_read(result.db_path)
        try:
            labels = dict(conn.execute("SELECT page_number, page_label FROM pages WHERE revision_id = ?",
                                       (result.revision_id,)).fetchall())
        finally:
            conn.close()
        want = folios.get(name, {})
        right = sum(1 for page, folio in want.items() if labels.get(page) == folio)
        stray = sum(1 for page, label in labels.items() if label is not None and page not in want)
        results[name] = (result.page_count, expected[name], right, len(want), stray)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edgar", type=Path, default=REPO.parent / "shared" / "edgar")
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args()
    if not (args.edgar / "README.md").is_file():
        print(f"no EDGAR filings with their README in {args.edgar}: nothing to measure (give --edgar DIR)")
        return
    with tempfile.TemporaryDirectory(prefix="evfind-folios-") as temporary:
        cache = args.cache or Path(temporary)
        cache.mkdir(parents=True, exist_ok=True)
        results = measure(args.edgar, cache)
    lines = ["EDGAR HTML pages and folios (benchmarks/html_folios.py)", "",
             f"{'filing':34} {'pages':>5} {'README':>6} {'folios right':>13} {'stray labels':>12}"]
    for name, (pages, readme, right, printed_count, stray) in results.items():
        mark = "" if pages == readme else "  <- differs"
        lines.append(f"{name:34} {pages:5} {readme:6} {right:6}/{printed_count:<6} {stray:12}{mark}")
    right = sum(r[2] for r in results.values())
    total = sum(r[3] for r in results.values())
    same = sum(1 for r in results.values() if r[0] == r[1])
    lines += ["", f"page counts as the README gives them: {same} of {len(results)} filings",
              f"folios: {right} of {total} printed folios are the page's label ({right / total:.1%}; target {TARGET:.0%}); "
              f"{sum(r[4] for r in results.values())} labels on pages that print none"]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.output:
        args.output.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
