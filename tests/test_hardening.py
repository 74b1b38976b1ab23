"""Hardening (issue 7), part 1: hostile questions, hostile files and old revisions.

Every case goes through the CLI and checks the exit code and the one-line message the table of
docs/errors.md promises, and that no file was changed, created or left behind.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evfind import Finder, store, zh
from evfind.errors import NoContentWordsError
from evfind.ingest import ingest
from evfind.question import MAX_TERMS, MAX_WORDS, parse

from .filing import BLANK_PAGE, LABELS, PAGES
from .hostile import fingerprint, leftovers, revised_pages, run, state
from .pdfgen import make_pdf

CAPEX = "What were capital expenditures in 2024? Use the cash flow statement."
NO_WORDS = "Error: the question has no searchable content words"
# A question with Chinese characters is answered in Chinese, its errors too.
NO_WORDS_ZH = "Error: " + zh.error_message(NoContentWordsError("", key="no_content_words"), "zh")


@pytest.fixture(scope="module")
def shared_db(tmp_path_factory):
    """One database for the question tests (they only read it)."""
    folder = tmp_path_factory.mktemp("shared")
    return ingest(make_pdf(folder / "ACME_2024_10K.pdf", PAGES, LABELS)).db_path


def ask(cli, db, question: str, *options: str):
    """query --format json, the question after `--` (a question may start with a dash)."""
    result = cli("query", *options, "--format", "json", db, "--", question)
    return result, (json.loads(result.stdout) if result.stdout else None)


def check_answer(data: dict, page_count: int = len(PAGES)) -> list[int]:
    """Every cited page exists, none repeats, all belong to the revision read."""
    pages = [hit["page_number"] for hit in data["results"]]
    assert len(pages) == len(set(pages)), pages
    assert all(1 <= n <= page_count for n in pages), pages
    assert {hit["document_sha256"] for hit in data["results"]} <= {data["document"]["document_sha256"]}
    assert [hit["rank"] for hit in data["results"]] == list(range(1, len(pages) + 1))
    return pages


# ---------------------------------------------------------------------------------------------
# Hostile questions

HOSTILE_QUESTIONS = [
    '"capital expenditures',
    "capital expenditures\"\"\"'''",
    "What's the company's capex? It's in the cash-flow statement, isn't it?",
    "cash-flow -investing - - -purchases",
    "cash: flows: investing:",
    "capex* * ** purchases*",
    "^capital ^expenditures ^",
    "((purchases of) (property)) ) ( ((",
    "capital AND expenditures OR NOT cash NEAR flows",
    "NEAR(capital expenditures, 5) AND NOT",
    "text: capital expenditures",
    "heading:cash flows",
    "{text heading}: purchases of property",
    "- heading : cash",
    "pages_fts: cash rank: bm25 rowid:1",
    "capital + expenditures & PP&E | cash ~ flows",
    "💰 capital expenditures 📈 in 2024 🏭",
    "capital\x00expenditures\x1b[31m\x07 cash\x7f flows\t\r\n",
    "\u202ecapital expenditures\u202c \u200fcash flow\u200e",
    "ما هي النفقات الرأسمالية capital expenditures في 2024؟",
    "מהן ההוצאות ההוניות? capital expenditures",
    "资本支出是多少？ capital expenditures",
    "CAPITAL EXPENDITURES 2024",
    "capital expenditures " * 500,
]


@pytest.mark.parametrize("question", HOSTILE_QUESTIONS)
def test_hostile_questions_find_the_page(cli, shared_db, question):
    result, data = ask(cli, shared_db, question)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert 10 in check_answer(data)  # the cash flow statement, wherever the operators were


@pytest.mark.parametrize(
    "question",
    [
        "AND OR NOT",
        "\"\" '' -- :: ** ^^ () {} []",
        "😀😀😀 🚀",
        "\x00\x01\x02\x1b\x7f",
        "ما هي النفقات الرأسمالية؟",
        "מה קרה",
        "\u202e\u200f\u200e",
    ],
)
def test_questions_without_searchable_words(cli, shared_db, question):
    result = cli("query", shared_db, "--", question)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(NO_WORDS)
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("question", ["zebra* NEAR(giraffe) \"hippopotamus", "text: aardvark OR ^okapi", "NEAR"])
def test_hostile_questions_with_no_page(cli, shared_db, question):
    result, data = ask(cli, shared_db, question)
    assert result.exit_code == 1
    assert result.stderr == ""
    assert data["results"] == []
    assert data["message"].startswith("No relevant page found in this document")


def test_a_question_that_starts_with_a_dash_goes_after_double_dash(cli, shared_db):
    question = "-5% capital expenditures?"
    refused = cli("query", shared_db, question)  # Click reads it as options: a usage error
    assert refused.exit_code == 2 and refused.stdout == ""
    result, data = ask(cli, shared_db, question)
    assert result.exit_code == 0 and data["question"] == question
    assert 10 in check_answer(data)


def test_a_50000_character_question(shared_db):
    """Real argv, a real process: the question is read up to a bounded number of terms."""
    words = " ".join(f"word{i} capital expenditures" for i in range(4000))
    question = ("Please tell me: " + words)[:50_000]
    assert len(question) == 50_000
    parsed = parse(question)
    assert len(parsed.words) <= MAX_WORDS and len(parsed.terms) <= MAX_TERMS
    assert {"capital", "expenditures"} <= set(parsed.words)
    result = run("query", shared_db, question, "--format", "json")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    data = json.loads(result.stdout)
    assert data["question"] == question
    assert 10 in check_answer(data)


def test_the_bound_keeps_the_first_words_and_ordinary_questions_whole():
    long = " ".join(f"alpha{i}" for i in range(MAX_WORDS + 20)) + " capex"
    parsed = parse(long)
    assert parsed.words == tuple(f"alpha{i}" for i in range(MAX_WORDS))
    assert "purchases of property plant and equipment" in {t.phrase for t in parsed.terms}
    ordinary = parse(CAPEX)
    assert ordinary.words == ("capital", "expenditures", "2024", "cash", "flow", "statement")


# Questions built from pieces a user might paste: FTS5 operators and syntax characters, column
# filters, the filing's own words, numbers, and any Unicode text (controls, emoji, scripts).
_PIECES = st.sampled_from(
    ['"', "'", "-", ":", "*", "^", "(", ")", "{", "}", "+", "AND", "OR", "NOT", "NEAR", "NEAR(",
     "text:", "heading:", "pages_fts:", "rank", "bm25(", "capital", "expenditures", "cash", "flow",
     "net", "sales", "2024", "FY2023", "legal", "proceedings", "PP&E", "capex", "\x00", "\x1b", "💰",
     "النفقات", "הוצאות", "资本"]
)
_QUESTIONS = st.lists(st.one_of(_PIECES, st.text(max_size=12)), max_size=30).map(
    lambda parts: " ".join(parts)
) | st.text(max_size=200)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=_QUESTIONS, top=st.integers(min_value=1, max_value=20))
def test_property_every_cited_page_exists_and_none_repeats(shared_db, question, top):
    with Finder(shared_db) as finder:
        try:
            answer = finder.query(question, top=top)
        except NoContentWordsError:
            assert parse(question).empty
            return
        data = answer.to_dict()
        pages = check_answer(data)
        assert len(pages) <= top
        for number in pages:  # each citation opens
            assert finder.page(number).page_number == number


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=_QUESTIONS)
def test_property_the_cli_answers_or_says_why_not(cli, shared_db, question):
    result = cli("query", "--format", "json", shared_db, "--", question)
    assert result.exit_code in (0, 1, 2), result.output
    assert result.stderr == ""
    data = json.loads(result.stdout)  # every outcome prints the object, exit 2 included
    assert bool(data["results"]) == (result.exit_code == 0)
    check_answer(data)
    table = cli("query", shared_db, "--", question)  # and the table prints, or says why not
    assert table.exit_code == result.exit_code
    if result.exit_code == 2:
        assert "Error: " + data["message"] == table.stderr.rstrip("\n"), table.stderr
        assert table.stderr.startswith((NO_WORDS, NO_WORDS_ZH)) and len(table.stderr.splitlines()) == 1
    else:
        assert table.stderr == ""


# ---------------------------------------------------------------------------------------------
# Hostile databases: every command refuses them with one line, its exit code, and no change.


def _hot_journal(db):
    """A write killed in the middle by another program: the file is half-written and the
    -journal beside it holds the old pages (SQLite's own state after a crash)."""
    code = (
        "import os, signal, sqlite3, sys\n"
        "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "conn.execute('PRAGMA cache_size = 1')\n"  # spill: pages reach the file before commit
        "conn.execute('BEGIN')\n"
        "conn.execute('CREATE TABLE junk (x)')\n"
        "conn.execute('INSERT INTO junk SELECT randomblob(2000) FROM pages, pages, pages')\n"
        "conn.execute('UPDATE pages SET text = upper(text)')\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(db)])
    assert done.returncode == -signal.SIGKILL
    journal = db.with_name(db.name + "-journal")
    assert journal.stat().st_size > 0


def make_hostile(kind: str, folder, filing_db):
    """A path of the given kind in ``folder`` (filing_db is a good database in the same folder)."""
    path = folder / f"{kind}.db"
    if kind == "missing":
        return path
    if kind == "directory":
        path.mkdir()
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "text":
        path.write_text("Revenue was $5 billion.\n" * 200)
    elif kind == "truncated":
        path.write_bytes(filing_db.read_bytes()[: filing_db.stat().st_size // 2])
    elif kind == "corrupt":
        data = bytearray(filing_db.read_bytes())
        page_size = int.from_bytes(data[16:18], "big")
        data[page_size:] = bytes((i * 131) % 251 for i in range(len(data) - page_size))
        path.write_bytes(bytes(data))
    elif kind == "other_app":
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
            conn.execute("INSERT INTO customers (name) VALUES ('Big Box Stores')")
        conn.close()
    elif kind in ("newer", "older"):
        path.write_bytes(filing_db.read_bytes())
        version = store.SCHEMA_VERSION + (1 if kind == "newer" else -1)
        with sqlite3.connect(path) as conn:
            conn.execute(f"PRAGMA user_version = {version}")
        conn.close()
    elif kind == "hot_journal":
        path.write_bytes(filing_db.read_bytes())
        _hot_journal(path)
    return path


# kind -> (exit code, the message after "Error: {path}: ")
HOSTILE_DATABASES = {
    "missing": (3, "no such database (run `evfind ingest REPORT.pdf --db {path}`)"),
    "directory": (3, "is a directory, not a database file"),
    "empty": (3, "an empty file, not an evfind database"),
    "text": (3, "not an evfind database (the file is not SQLite or is damaged)"),
    "truncated": (3, "the database is damaged (truncated: "),
    "corrupt": (3, "the database is damaged (corrupt); ingest the filing again into a new database"),
    "other_app": (3, "an SQLite database of another application, not an evfind database"),
    "newer": (4, f"written by a newer evfind (schema {store.SCHEMA_VERSION + 1}, this evfind reads "
                 f"{store.SCHEMA_VERSION}); upgrade evfind"),
    "older": (4, f"written by an older evfind (schema {store.SCHEMA_VERSION - 1}, this evfind reads "
                 f"{store.SCHEMA_VERSION}); re-index it with `evfind upgrade {{path}}`"),
    "hot_journal": (5, "an interrupted write left hot_journal.db-journal beside it; run `evfind upgrade {path}`"),
}
COMMANDS = {
    "query": lambda db, pdf: ("query", db, CAPEX),
    "query-json": lambda db, pdf: ("query", db, CAPEX, "--format", "json"),
    "show": lambda db, pdf: ("show", db, "10"),
    "info": lambda db, pdf: ("info", db),
    "ingest": lambda db, pdf: ("ingest", pdf, "--db", db),
    "upgrade": lambda db, pdf: ("upgrade", db),
}


# Not hostile: ingest creates a database that does not exist, and upgrade repairs an older
# database and a half-written one (tested below).
NOT_HOSTILE = {("missing", "ingest"), ("older", "upgrade"), ("hot_journal", "upgrade")}


@pytest.mark.parametrize(
    "kind, command",
    [(k, c) for k in sorted(HOSTILE_DATABASES) for c in sorted(COMMANDS) if (k, c) not in NOT_HOSTILE],
)
def test_hostile_databases(cli, tmp_path, filing_db, kind, command):
    path = make_hostile(kind, tmp_path, filing_db)
    source = make_pdf(tmp_path / "revised.pdf", revised_pages(61), LABELS)
    before = fingerprint(tmp_path)
    result = cli(*COMMANDS[command](path, source))
    code, message = HOSTILE_DATABASES[kind]
    assert result.exit_code == code, result.output
    assert result.stdout == ""
    assert result.stderr.startswith(f"Error: {path}: " + message.format(path=path)), result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert fingerprint(tmp_path) == before  # nothing changed, created, removed or left behind
    # and, whatever the fingerprint holds, the path is what it was: nothing where nothing was
    assert (path.exists(), path.is_dir()) == (kind != "missing", kind == "directory")


def test_upgrade_rolls_back_what_another_program_left_half_written(cli, tmp_path, filing_db):
    before = state(filing_db)
    db = make_hostile("hot_journal", tmp_path, filing_db)
    result = cli("upgrade", db)
    assert result.exit_code == 0, result.output
    assert leftovers(tmp_path) == []
    assert state(db) == before  # the old content, rolled back, re-indexed
    result, data = cli.json("query", db, CAPEX)
    assert result.exit_code == 0 and check_answer(data)[0] == 10
    assert "junk" not in {r[0] for r in sqlite3.connect(db).execute("SELECT name FROM sqlite_master")}


def test_a_database_a_program_left_in_wal_mode_is_read_and_left_alone(cli, tmp_path, filing_db):
    db = tmp_path / "wal.db"
    db.write_bytes(filing_db.read_bytes())
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal"
    conn.close()
    result, data = cli.json("query", db, CAPEX)
    assert result.exit_code == 0 and check_answer(data)[0] == 10
    added = cli("ingest", make_pdf(tmp_path / "revised.pdf", revised_pages(61), LABELS), "--db", db)
    assert added.exit_code == 0, added.output
    assert db.read_bytes()[18:20] == b"\x01\x01"  # written back in rollback-journal mode
    assert len(state(db)) == 2


# ---------------------------------------------------------------------------------------------
# Hostile sources: ingest refuses them with one line and creates or changes nothing.


def _source(kind: str, folder):
    if kind == "missing":
        return folder / "never.pdf"
    if kind == "directory":
        path = folder / "folder.pdf"
        path.mkdir()
        return path
    if kind == "empty":
        path = folder / "empty.txt"
        path.write_bytes(b"")
        return path
    if kind == "not_a_pdf":
        path = folder / "report.pdf"
        path.write_text("Annual report\nRevenue was $5 billion.\n")
        return path
    if kind == "truncated_pdf":
        path = folder / "truncated.pdf"
        path.write_bytes(make_pdf(folder / "whole.pdf", PAGES).read_bytes()[:900])
        (folder / "whole.pdf").unlink()
        return path
    if kind == "binary":
        path = folder / "photo.png"
        path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
        return path
    if kind == "sqlite":
        path = folder / "other.sqlite"
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE t (x)")
        conn.close()
        return path
    if kind == "encrypted":
        return make_pdf(folder / "locked.pdf", PAGES, LABELS, password="s3cret")
    raise AssertionError(kind)


HOSTILE_SOURCES = {
    "missing": "no such file",
    # A directory is many filings (its PDFs: tests/test_ingest_many.py), for which --db is a usage error
    "directory": "--db names the database of one filing",
    "empty": "an empty file, not a filing",
    "not_a_pdf": "not a PDF file (it does not start with %PDF-)",
    "truncated_pdf": "cannot read the PDF (",
    "binary": "not UTF-8 text (byte ",
    "sqlite": "an SQLite database, not a filing",
    "encrypted": "the PDF is password-protected; give it with --password",
}


@pytest.mark.parametrize("existing", [False, True], ids=["new-db", "existing-db"])
@pytest.mark.parametrize("kind", sorted(HOSTILE_SOURCES))
def test_hostile_sources(cli, tmp_path, filing_pdf, kind, existing):
    db = tmp_path / "target.db"
    if existing:
        ingest(filing_pdf, db)
    source = _source(kind, tmp_path)
    before = fingerprint(tmp_path)
    result = cli("ingest", source, "--db", db)
    assert result.exit_code == (2 if kind == "directory" else 3), result.output
    assert result.stdout == ""
    where = "" if kind == "directory" else f"{source}: "
    assert result.stderr.startswith(f"Error: {where}{HOSTILE_SOURCES[kind]}"), result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert fingerprint(tmp_path) == before
    assert db.exists() == existing


def test_password_protected_pdf(cli, tmp_path):
    locked = make_pdf(tmp_path / "locked.pdf", PAGES, LABELS, password="s3cret")
    wrong = cli("ingest", locked, "--password", "guess")
    assert wrong.exit_code == 3
    assert wrong.stderr == f"Error: {locked}: wrong password for this PDF\n"
    assert not (tmp_path / "locked.db").exists()
    opened = cli("ingest", locked, "--password", "s3cret")
    assert opened.exit_code == 0, opened.output
    assert "12 pages, 1 blank (page 7), printed page labels stored" in opened.stdout
    result, data = cli.json("query", tmp_path / "locked.db", CAPEX)
    assert result.exit_code == 0 and check_answer(data)[0] == 10
    assert data["results"][0]["page_label"] == "8"


def test_pdf_with_only_an_owner_password_opens_without_one(cli, tmp_path):
    restricted = make_pdf(tmp_path / "restricted.pdf", PAGES, password="", owner_password="boss")
    result = cli("ingest", restricted)
    assert result.exit_code == 0, result.output
    _, data = cli.json("query", tmp_path / "restricted.db", CAPEX)
    assert check_answer(data)[0] == 10


def test_image_only_pdf_keeps_its_pages_and_warns(cli, tmp_path):
    scan = make_pdf(tmp_path / "scan.pdf", ["", "", "", ""], pictures=True)
    result = cli("ingest", scan)
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        f"Warning: {scan}: no text could be extracted from any page (scanned images?); the pages "
        "are kept, but OCR is out of scope, so questions will find nothing\n"
    )
    assert "4 pages, 4 blank (pages 1-4)" in result.stdout
    db = tmp_path / "scan.db"
    _, info = cli.json("info", db)
    assert info["revisions"][0]["page_count"] == 4
    shown = cli("show", db, 4)
    assert shown.exit_code == 0 and shown.stdout.partition("\n\n")[2].strip() == ""
    query = cli("query", db, CAPEX)
    assert query.exit_code == 1
    assert "No relevant page found in this document" in query.stdout


# ---------------------------------------------------------------------------------------------
# Revisions: a citation keeps resolving after newer revisions are ingested.


def test_old_citations_keep_resolving_after_newer_revisions(cli, tmp_path, filing_pdf):
    db = tmp_path / "acme.db"
    questions = [CAPEX, "Where are the legal proceedings?", "Where is net sales by geography?"]
    assert cli("ingest", filing_pdf, "--db", db).exit_code == 0
    first_sha = cli.json("info", db)[1]["revisions"][0]["sha256"]
    cited = {}
    for question in questions:
        _, data = cli.json("query", db, question)
        cited[question] = data
        for hit in data["results"]:
            cited[(hit["page_number"],)] = cli.json("show", db, hit["page_number"])[1]

    # Newer revisions: a changed figure, then a shorter filing, then the same text as JSONL.
    assert cli("ingest", make_pdf(tmp_path / "v2.pdf", revised_pages(61), LABELS), "--db", db,
               "--document-id", "ACME_2024_10K").exit_code == 0
    assert cli("ingest", make_pdf(tmp_path / "v3.pdf", PAGES[:9]), "--db", db,
               "--document-id", "ACME_2024_10K").exit_code == 0
    with sqlite3.connect(db) as conn:  # an older schema, so that upgrade re-indexes
        conn.execute(f"PRAGMA user_version = {store.SCHEMA_VERSION - 1}")
    conn.close()
    assert "re-indexed 3 revisions" in cli("upgrade", db).stdout  # a re-index keeps every revision too
    _, info = cli.json("info", db)
    assert [r["page_count"] for r in info["revisions"]] == [12, 12, 9]
    assert info["revisions"][0]["sha256"] == first_sha and not info["revisions"][0]["newest"]
    newest = cli("show", db, 12)
    assert newest.exit_code == 2  # the newest revision has 9 pages ...

    for question in questions:  # ... and the first one still answers from its own pages
        result, data = cli.json("query", db, question, "--sha", first_sha[:12])
        assert result.exit_code == 0
        assert data["document"] == cited[question]["document"]
        assert {hit["document_sha256"] for hit in data["results"]} == {first_sha}
        # bm25's statistics span the whole file, so the order may shift a little as revisions
        # are added; the pages it cites are the same pages, and every old citation resolves
        assert data["results"][0]["page_number"] == cited[question]["results"][0]["page_number"]
    for (number,), page in ((key, value) for key, value in cited.items() if isinstance(key, tuple)):
        assert cli.json("show", db, number, "--sha", first_sha)[1] == page
    assert "(52.8)" in cli("show", db, 10, "--sha", first_sha[:8]).stdout
    assert cli("show", db, BLANK_PAGE, "--sha", first_sha[:8]).exit_code == 0
    with Finder(db, sha=first_sha) as finder:
        assert finder.page(12).page_label == "10"
