"""Structure against the hand-read labels: where each Item, primary statement, note and 8-K
exhibit begins, as evfind finds it at ingest, against benchmarks/structure_labels.jsonl.

    python benchmarks/structure.py --financebench ../shared/financebench --edgar ../shared/edgar \\
        [--cache DIR] [--reading stored|pdfium|printed] [--only DOC] [--details]

Each filing is ingested into ``--cache`` (once: a cache holds what the evfind that wrote it
found, so empty it after a change to the structure) and its ``page_sections`` rows (and an HTML
filing's text blocks) are read back: what routing and `evfind info` read. ``--reading pdfium``
or ``printed`` instead reads the filing again in-process, structure reading the pages in
pdfium's own order (what ingest does) or as the lines are printed (the index text), to compare
the two readings on the same measure; nothing is stored.

What evfind found, read from the rows (origin ``title`` or ``started``: a start on that page):
- an **Item**: a row of an Item's label (data/form_items.tsv for the form) whose heading opens
  "Item 7" / "Part II, Item 1A"; its key is the number printed, with a 10-Q's Part looked up
  in data/form_items.tsv by the label and the number (a 10-Q's Item 1 is Part I's
  financial_statements or Part II's legal_proceedings);
- a **primary statement**: rows of origin ``statement`` of one of the five kinds; a run of
  consecutive pages of one kind is one statement, starting on its first page;
- a **note**: a row whose heading opens "Note 9", "NOTE 9:", "9." or "(9)" followed by a
  title, or (HTML) an inline-XBRL text block that marks a whole note (one evfind gives a label:
  data/textblocks.tsv, or a filer's own note-level block; not the cyd blocks of Item 1C),
  starting on its first page;
- an **exhibit** (8-K): a row ``exhibit`` of origin ``title``; its key is the number.

Matching rule: a found start matches a labelled start of the same kind when it is on the same
physical page (no tolerance: the yardstick is physical pages, and a start one page off puts a
page into the wrong section) and has the same key: the Item's (Part and) number, the
statement's kind, the exhibit's number. A note matches on its page and its number; where one
side has no number (a text block's heading is the bare title), on its page and its title words
(at least half of the shorter title's content words shared). Each labelled start is matched
at most once, and each found one: a second find of the same start is a false start.
Precision = found starts matched / found starts; recall = labelled starts matched / labelled.
Near misses (right key, one page off) are counted apart, as a diagnosis.

Not measured: the labels' ``other_statement`` (condensed parent-company schedules, Reg S-X
Rule 12-04: evfind has no such kind, and counts none as a primary statement); the exhibits of
10-Ks and 10-Qs (the labels give 8-K exhibits only). A statement evfind finds on such a page
is a false start like any other.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
LABELS = REPO / "benchmarks" / "structure_labels.jsonl"
KINDS = ("items", "statements", "notes", "exhibits")
TARGET = 0.9
STATEMENT_KINDS = ("income_statement", "comprehensive_income", "balance_sheet", "cash_flow_statement", "equity_statement")
TITLE_SHARE = 0.5  # a bare-titled note matches a label on its page that shares half its title words

_ITEM = re.compile(r"^(?:part\s+[ivx]+\W*)?item\s*(\d{1,2}(?:\s*\.\s*\d{2})?\s*[a-d]?)\b", re.I)
# A note's heading: "Note 9", "NOTE A", "9." or "(9)" and a title; a heading that opens "Note" with
# no number ("NOTES TO CONSOLIDATED FINANCIAL STATEMENTS") is a note start evfind claims too, of
# no number (and so matched by its title words, which name no note).
_NOTE = re.compile(r"^(?:note(?:\s*(\d{1,2}|(?<=\s)[a-z])(?![\w]))?|\(?(\d{1,2})\)?\s*[.:\-\u2013\u2014)]\s*(?=[A-Za-z]))", re.I)
_FORM_BLOCKS = ("cyd", "dei")  # taxonomies of a form's sections (Item 1C, the cover), not of the notes
_SMALL = {"and", "of", "the", "for", "to", "in", "on", "a", "an", "other", "note", "notes"}


@dataclass(frozen=True)
class Start:
    kind: str  # items | statements | notes | exhibits
    key: str | None  # "7", "II 1A", "balance_sheet", "9", "99.1"; a note's number may be None
    page: int
    title: str = ""


# ---------------------------------------------------------------------------------------------
# The yardstick


def load_labels(path: Path = LABELS) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def labelled_starts(record: dict) -> dict[str, list[Start]]:
    form = record["form"]
    starts: dict[str, list[Start]] = {kind: [] for kind in KINDS}
    for item in record["items"]:
        starts["items"].append(Start("items", _item_key(form, item["part"], item["item"]), item["page"], item["title"]))
    for statement in record["statements"]:
        if statement["kind"] in STATEMENT_KINDS:
            starts["statements"].append(Start("statements", statement["kind"], statement["pages"][0], statement["title"]))
    for note in record["notes"]:
        starts["notes"].append(Start("notes", note["number"].upper(), note["page"], note["title"]))
    if form == "8-K":
        for exhibit in record["exhibits"]:
            starts["exhibits"].append(Start("exhibits", exhibit["number"].upper(), exhibit["page"], exhibit["title"]))
    return starts


def _item_key(form: str, part: str | None, number: str) -> str:
    number = re.sub(r"\s+", "", number).upper()
    return f"{part} {number}" if form == "10-Q" and part else number


# ---------------------------------------------------------------------------------------------
# What evfind found


def _form_items() -> dict[str, dict[tuple[str, str], str]]:
    """{form: {(label, number): part}} from data/form_items.tsv."""
    from evfind._data import rows

    table: dict[str, dict[tuple[str, str], str]] = defaultdict(dict)
    for form, part, item, label, _ in rows("form_items.tsv", 5):
        table[form][(label, item)] = part
    return table


def found_starts(rows: list[tuple], blocks: list[dict], form: str) -> dict[str, list[Start]]:
    """Starts from (page, label, heading, origin) rows and text blocks (concept, first_page,
    heading), read as the module's docstring says; ``form`` is the filing's (the labels')."""
    from evfind.xbrl import block_labels

    items = _form_items()
    item_labels = {label for label, _ in items.get(form, {})}
    starts: dict[str, list[Start]] = {kind: [] for kind in KINDS}
    statement_pages: dict[str, list[int]] = defaultdict(list)
    notes: list[Start] = []
    for page, label, heading, origin in rows:
        if origin == "statement":
            if label in STATEMENT_KINDS:
                statement_pages[label].append(page)
            continue
        if origin not in ("title", "started"):
            continue
        if label == "exhibit" and origin == "title" and form == "8-K":
            number = heading.removeprefix("Exhibit ").partition(" - ")[0]
            starts["exhibits"].append(Start("exhibits", number.upper(), page, heading))
            continue
        match = _ITEM.match(heading)
        if match and label in item_labels:
            number = re.sub(r"\s+", "", match.group(1)).upper()
            part = items[form].get((label, number))
            if form == "10-Q":
                key = f"{part} {number}" if part else f"? {number}"
            else:
                key = number
            starts["items"].append(Start("items", key, page, heading))
            continue
        match = _NOTE.match(heading)
        if match and not _ITEM.match(heading):
            number = match.group(1) or match.group(2)
            notes.append(Start("notes", number.upper() if number else None, page, heading))
    for block in blocks:
        if block["concept"].split(":")[0] not in _FORM_BLOCKS and block_labels(block["concept"], block["heading"]):
            heading = " ".join(block["heading"].split())
            match = _NOTE.match(heading)
            number = (match.group(1) or match.group(2) or "").upper() if match else ""
            notes.append(Start("notes", number or None, block["first_page"], heading))
    seen: list[Start] = []
    for note in sorted(notes, key=lambda n: (n.page, n.key is None)):
        if any(s.page == note.page and _same_note(s, note) for s in seen):
            continue  # a text block and the heading of the same note
        seen.append(note)
    starts["notes"] = seen
    for label, pages in statement_pages.items():
        pages = sorted(set(pages))
        for index, page in enumerate(pages):
            if index == 0 or page != pages[index - 1] + 1:
                starts["statements"].append(Start("statements", label, page))
    return starts


def _title_words(title: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", title.lower()) if w not in _SMALL and len(w) > 1}


def _same_note(a: Start, b: Start) -> bool:
    if a.key is not None and b.key is not None:
        return a.key == b.key
    one, two = _title_words(a.title), _title_words(b.title)
    return bool(one and two) and len(one & two) >= TITLE_SHARE * min(len(one), len(two))


# ---------------------------------------------------------------------------------------------
# Matching


@dataclass
class Outcome:
    hits: list[tuple[Start, Start]]
    misses: list[Start]
    false: list[Start]
    near: int  # misses with a found start of the same key one page off


def match(found: list[Start], labelled: list[Start]) -> Outcome:
    free = list(found)
    hits, misses = [], []
    for want in labelled:
        candidates = [f for f in free if f.page == want.page and _fits(f, want)]
        # the same key first (a note's number), then a title match
        candidates.sort(key=lambda f: f.key != want.key)
        if candidates:
            hits.append((want, candidates[0]))
            free.remove(candidates[0])
        else:
            misses.append(want)
    near = sum(1 for want in misses if any(abs(f.page - want.page) == 1 and f.key == want.key for f in free))
    return Outcome(hits, misses, free, near)


def _fits(found: Start, want: Start) -> bool:
    if want.kind != "notes":
        return found.key == want.key
    return _same_note(found, want)


# ---------------------------------------------------------------------------------------------
# Reading the filings


def sources(financebench: Path | None, edgar: Path | None) -> dict[str, Path]:
    found = {}
    if financebench is not None:
        found.update({p.stem: p for p in sorted((financebench / "pdfs").glob("*.pdf"))})
    if edgar is not None:
        found.update({p.stem: p for p in sorted(edgar.glob("*.htm*"))})
    return found


def stored(source: Path, cache: Path) -> tuple[str, list[tuple], list[dict]]:
    """(form read, page_sections rows, text blocks) of the filing as ingested into ``cache``."""
    from evfind import factstore, store
    from evfind.ingest import ingest

    cache.mkdir(parents=True, exist_ok=True)
    result = ingest(source, cache / f"{source.stem}.db", source.stem)
    conn = store.connect_read(result.db_path)
    try:
        rows = store.page_sections(conn, result.revision_id)
        form = store.revision_form(conn, result.revision_id)
        blocks = [
            {"concept": b["concept"], "first_page": b["first_page"], "heading": b["heading"]}
            for b in factstore.text_blocks(conn, result.revision_id)
        ]
    finally:
        conn.close()
    return form, rows, blocks


def recomputed(source: Path, reading: str) -> tuple[str, list[tuple], list[dict]]:
    """The same, read again in-process with structure reading ``pdfium`` order or ``printed`` lines."""
    from evfind.extract import extract
    from evfind.forms import form_of
    from evfind.ingest import _Reader, prepare_pages, reading_texts

    reader = _Reader()
    extraction = extract(source, each=reader)
    reader.repair(extraction)
    texts = reader.texts
    lines = reading_texts(extraction, texts) if reading == "pdfium" else texts
    form = form_of(lines)
    pages = prepare_pages(extraction, texts, form, lines)
    rows = [(p["page_number"], label, heading, origin) for p in pages for label, heading, origin in p["sections"]]
    blocks = [{"concept": b["concept"], "first_page": b["first_page"], "heading": b.get("heading", "")}
              for b in extraction.blocks]
    return form, rows, blocks


def measure(financebench: Path | None, edgar: Path | None, cache: Path, reading: str = "stored",
            only: set[str] | None = None) -> list[dict]:
    """One result per labelled filing found in the folders: its labels' form, the form evfind
    read, and an Outcome per kind."""
    files = sources(financebench, edgar)
    results = []
    for record in load_labels():
        name = record["doc_name"]
        if name not in files or (only and name not in only):
            continue
        if reading == "stored":
            form, rows, blocks = stored(files[name], cache)
        else:
            form, rows, blocks = recomputed(files[name], reading)
        found = found_starts(rows, blocks, record["form"])
        want = labelled_starts(record)
        results.append({
            "doc": name, "source": record["source"], "form": record["form"], "form_read": form,
            "outcomes": {kind: match(found[kind], want[kind]) for kind in KINDS},
        })
    return results


# ---------------------------------------------------------------------------------------------
# Figures


def figures(results: list[dict], kind: str) -> tuple[int, int, int, int]:
    """(hits, labelled, found, near misses) of one kind over some results."""
    hits = labelled = found = near = 0
    for result in results:
        o = result["outcomes"][kind]
        hits += len(o.hits)
        labelled += len(o.hits) + len(o.misses)
        found += len(o.hits) + len(o.false)
        near += o.near
    return hits, labelled, found, near


def ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def precision_recall(results: list[dict], kind: str) -> tuple[float | None, float | None]:
    hits, labelled, found, _ = figures(results, kind)
    return ratio(hits, found), ratio(hits, labelled)


def _cell(value: float | None) -> str:
    return "    -" if value is None else f"{value:.3f}"


def table(title: str, groups: dict[str, list[dict]]) -> list[str]:
    lines = [title, f"{'':24} " + "  ".join(f"{kind:>24}" for kind in KINDS),
             f"{'':24} " + "  ".join(f"{'P     R   (hit/lab/fnd)':>24}" for _ in KINDS)]
    for name, results in groups.items():
        cells = []
        for kind in KINDS:
            hits, labelled, found, _ = figures(results, kind)
            cells.append(f"{_cell(ratio(hits, found))} {_cell(ratio(hits, labelled))} {f'({hits}/{labelled}/{found})':>12}")
        lines.append(f"{name:24} " + "  ".join(f"{c:>24}" for c in cells))
    return lines


def report(results: list[dict], details: bool = True) -> str:
    pdf = [r for r in results if r["source"] == "pdf"]
    html = [r for r in results if r["source"] != "pdf"]
    out = [f"Structure starts against benchmarks/structure_labels.jsonl: {len(results)} filings "
           f"({len(pdf)} PDF, {len(html)} HTML); a start is found on its labelled physical page (+-0)", ""]
    out += table("By source", {"all": results, "pdf": pdf, "html": html})
    near = {kind: figures(results, kind)[3] for kind in KINDS}
    out.append("near misses (right key, one page off): " + ", ".join(f"{k} {v}" for k, v in near.items()))
    out.append("")
    by_form: dict[str, list[dict]] = defaultdict(list)
    for result in results:
        by_form[f"{result['form']} {'pdf' if result['source'] == 'pdf' else 'html'}"].append(result)
    out += table("By form", dict(sorted(by_form.items())))
    wrong = [f"{r['doc']} ({r['form']} read as {r['form_read']})" for r in results if r["form_read"] != r["form"]]
    out.append(f"form read: {len(results) - len(wrong)} of {len(results)} right" + (f"; wrong: {', '.join(wrong)}" if wrong else ""))
    out.append("")
    out += table("By filing", {r["doc"]: [r] for r in results})
    if details:
        out += ["", "Misses (labelled, not found) and false starts (found, not labelled), by filing"]
        for result in results:
            lines = []
            for kind in KINDS:
                o = result["outcomes"][kind]
                for s in o.misses:
                    lines.append(f"  miss  {kind:10} {s.key or '':>22}  p.{s.page:<4} {s.title[:70]}")
                for s in o.false:
                    lines.append(f"  false {kind:10} {s.key or '':>22}  p.{s.page:<4} {s.title[:70]}")
            if lines:
                out.append(f"{result['doc']} ({result['form']})")
                out += lines
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--financebench", type=Path, help="the FinanceBench folder (pdfs/)")
    parser.add_argument("--edgar", type=Path, help="the EDGAR HTML filings")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "evfind" / "structure")
    parser.add_argument("--reading", choices=("stored", "pdfium", "printed"), default="stored",
                        help="stored: the ingested databases (default); pdfium / printed: read again in-process")
    parser.add_argument("--only", action="append", help="one filing (repeatable)")
    parser.add_argument("--details", action=argparse.BooleanOptionalAction, default=True,
                        help="list the misses and false starts (default: yes)")
    parser.add_argument("--out", type=Path, help="write the report here too")
    args = parser.parse_args()
    if args.financebench is None and args.edgar is None:
        print("no filings given: pass --financebench DIR and/or --edgar DIR", file=sys.stderr)
        sys.exit(2)
    results = measure(args.financebench, args.edgar, args.cache, args.reading, set(args.only or ()))
    text = report(results, args.details)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
