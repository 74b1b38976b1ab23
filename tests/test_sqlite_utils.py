"""sqlite-utils reads evfind databases (its CLI and its Python API), and evfind runs without it.

evfind writes and reads its files with the standard library's sqlite3; sqlite-utils is a test
dependency, here to prove that the files are plain SQLite that other tools understand: the
full-text index is declared as sqlite-utils' own enable_fts() declares it. (Datasette, the
other reader, is tested in tests/test_datasette.py.)
"""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner
from sqlite_utils import Database
from sqlite_utils.cli import cli as sqlite_utils_cli

from .conftest import REPO
from .hostile import fingerprint
from .test_cli import CAPEX


def sqlite_utils(*args) -> str:
    """The `sqlite-utils` command, in-process; its standard output."""
    result = CliRunner().invoke(sqlite_utils_cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def test_sqlite_utils_tables_counts(filing_db):
    before = fingerprint(filing_db.parent)
    counts = {row["table"]: row["count"] for row in json.loads(sqlite_utils("tables", filing_db, "--counts"))}
    assert {name: counts[name] for name in ("documents", "pages", "common_words", "pages_fts")} == {
        "documents": 1, "pages": 12, "common_words": 11, "pages_fts": 12,
    }
    assert counts["page_sections"] > 12  # every page has a section, some several
    assert json.loads(sqlite_utils("tables", filing_db, "--fts5")) == [{"table": "pages_fts"}]
    assert fingerprint(filing_db.parent) == before  # reading changed nothing


def test_sqlite_utils_search_finds_the_page(filing_db):
    found = json.loads(sqlite_utils("search", filing_db, "pages", "purchases", "-c", "page_number"))
    assert found == [{"page_number": 10}]  # the cash flow statement
    found = json.loads(sqlite_utils("search", filing_db, "pages", "patents", "-c", "page_number", "-c", "heading"))
    assert [row["page_number"] for row in found] == [5]


def test_sqlite_utils_python_api(filing_db):
    db = Database(filing_db)
    assert {"documents", "pages", "page_sections", "common_words", "pages_fts"} <= set(db.table_names())
    assert db["pages"].detect_fts() == "pages_fts"
    assert [row["page_number"] for row in db["pages"].search("purchases")] == [10]
    assert db["pages"].count == 12
    (document,) = db["documents"].rows
    assert document["document_id"] == "ACME_2024_10K" and document["page_count"] == 12
    db.close()


_WITHOUT_SQLITE_UTILS = """
import sys
sys.modules["sqlite_utils"] = None  # `import sqlite_utils` now fails, as where it is not installed
from evfind.cli import main
for args in (["ingest", sys.argv[1], "--db", sys.argv[2], "--quiet"], ["query", sys.argv[2], sys.argv[3]],
             ["info", sys.argv[2]], ["upgrade", sys.argv[2]]):
    sys.argv = ["evfind", *args]
    try:
        main()
    except SystemExit as exc:
        assert exc.code in (0, None), (args, exc.code)
"""


def test_evfind_runs_without_sqlite_utils(filing_pdf, tmp_path):
    db = tmp_path / "without.db"
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_SQLITE_UTILS, str(filing_pdf), str(db), CAPEX],
        capture_output=True, text=True, cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    assert "Consolidated Statements of Cash Flows" in done.stdout  # the query answered
    assert db.is_file()
