"""Does this checkout ingest the EDGAR filings exactly as another one does? (a check, not a timing)

    python benchmarks/html_same.py --against DIR [--edgar ../shared/edgar] [--html-pages N]

DIR is another checkout of evfind (e.g. main's: ``git archive main | tar -x -C /tmp/main``).
Each filing of the folder is ingested into a fresh database by each checkout's own code, in a
process of its own (``PYTHONPATH``), and everything ingest wrote is compared: the documents row
(but its time of ingest), every page's text, raw text, folio (page label), headings, context,
section and statement, the section labels of every page, the common words, every fact, the
facts' (concept, row label) pairs and every text block, FTS5's own tables row for row, the
schema and the file's marks (application id, schema version, page size, free pages); and the
page HTML that `evfind show --html` cuts from the filing
(``pagehtml.cut_page``), of every page (``--html-pages 0``, the default) or of N pages spread
over each filing. It prints one line per filing, the first difference where there is one, and
exits 1 if any filing differs. Without the folder it says so and exits 0.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Run by each checkout: ingest one filing, print what it wrote (one JSON row a line).
_DUMP = r'''
import hashlib, json, sqlite3, sys
from pathlib import Path
from evfind.ingest import ingest
from evfind.pagehtml import cut_page
source, db, html_pages = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
ingest(source, db)
conn = sqlite3.connect(db)
def rows(sql):
    for row in conn.execute(sql):
        print(json.dumps([r.hex() if isinstance(r, bytes) else r for r in row], ensure_ascii=False))
print("# documents")
rows("SELECT revision_id, document_id, sha256, source_name, source_kind, page_count, form, tickers FROM documents")
print("# sources")
rows("SELECT revision_id, path, bytes IS NULL FROM sources")
print("# pages")
rows("SELECT id, revision_id, page_number, page_label, text, raw_text, heading, context, section, section_heading, "
     "statement FROM pages ORDER BY id")
print("# page_sections")
rows("SELECT * FROM page_sections ORDER BY page_id, label")
print("# common_words")
rows("SELECT * FROM common_words ORDER BY revision_id, word")
print("# facts")
rows("SELECT * FROM facts ORDER BY id")
print("# text_blocks")
rows("SELECT * FROM text_blocks ORDER BY id")
print("# fact_labels")
rows("SELECT * FROM fact_labels ORDER BY rowid")
print("# fts")
rows("SELECT count(*) FROM pages_fts")
print("# fts index")  # FTS5's own tables, row for row (hashed): the same index, not only as many rows
for table in ("pages_fts_data", "pages_fts_idx", "pages_fts_docsize", "pages_fts_config"):
    digest = hashlib.sha256()
    for row in conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2"):
        digest.update(repr(row).encode())
    print(json.dumps([table, digest.hexdigest()]))
print("# schema")
rows("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")
rows("SELECT * FROM pragma_application_id, pragma_user_version, pragma_page_size, pragma_freelist_count")
count = conn.execute("SELECT page_count FROM documents").fetchone()[0]
conn.close()
data = source.read_bytes()
if html_pages <= 0 or html_pages >= count:
    chosen = range(1, count + 1)
else:
    chosen = sorted({1 + (count - 1) * i // (html_pages - 1) for i in range(html_pages)}) if html_pages > 1 else [1]
print("# page html")
for number in chosen:
    html = cut_page(data, number, ("net sales",))
    print(json.dumps([number, len(html), hashlib.sha256(html.encode()).hexdigest()]))
'''


def dump(checkout: Path, source: Path, folder: Path, html_pages: int) -> list[str]:
    db = folder / f"{source.stem}.{hashlib.sha256(str(checkout).encode()).hexdigest()[:8]}.db"
    if db.exists():
        db.unlink()
    environment = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run([sys.executable, "-c", _DUMP, str(source), str(db), str(html_pages)], capture_output=True,
                          text=True, cwd=checkout, env=environment)
    if done.returncode != 0:
        raise SystemExit(f"{checkout}: the ingest of {source.name} failed: {done.stderr.strip()[-2000:]}")
    return done.stdout.splitlines()


def first_difference(ours: list[str], theirs: list[str]) -> str | None:
    table = "?"
    for index in range(max(len(ours), len(theirs))):
        mine = ours[index] if index < len(ours) else "(none)"
        other = theirs[index] if index < len(theirs) else "(none)"
        if mine.startswith("# "):
            table = mine[2:]
        if mine != other:
            return f"{table}, line {index + 1}:\n    here:    {mine[:300]}\n    against: {other[:300]}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, required=True, help="the other checkout of evfind")
    parser.add_argument("--edgar", type=Path, default=REPO.parent / "shared" / "edgar")
    parser.add_argument("--html-pages", type=int, default=0, help="page HTML of N pages a filing (0: every page)")
    args = parser.parse_args()
    files = sorted(p for p in args.edgar.glob("*") if p.suffix.lower() in (".htm", ".html")) if args.edgar.is_dir() else []
    if not files:
        print(f"no EDGAR HTML filings in {args.edgar}: nothing to compare (give --edgar DIR)")
        return
    against = args.against.resolve()
    differ = 0
    with tempfile.TemporaryDirectory(prefix="evfind-same-") as temporary:
        for source in files:
            ours = dump(REPO, source, Path(temporary), args.html_pages)
            theirs = dump(against, source, Path(temporary), args.html_pages)
            counts = {}
            table = None
            for line in ours:
                if line.startswith("# "):
                    table = line[2:]
                    counts[table] = 0
                else:
                    counts[table] += 1
            shown = ", ".join(f"{counts[t]} {t}" for t in ("pages", "page_sections", "facts", "text_blocks", "page html"))
            difference = first_difference(ours, theirs)
            if difference is None:
                digest = hashlib.sha256("\n".join(ours).encode()).hexdigest()[:12]
                print(f"{source.name:34} the same ({shown}; sha256 of all {digest})")
            else:
                differ += 1
                print(f"{source.name:34} DIFFERS at {difference}")
    print(f"{len(files) - differ} of {len(files)} filings ingest the same here as in {against}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
