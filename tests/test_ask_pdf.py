"""Issue 11, item 6: `evfind query report.pdf "question"` asks the PDF through report.db beside
it: ingested on first use (one line on stderr), reused while the PDF's bytes are the same (no
extraction: the SHA-256 decides), a new revision when they change. Through the CLI."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3

import pytest

from evfind import store

from .conftest import snapshot
from .filing import LABELS, PAGES
from .hostile import fingerprint, leftovers, revised_pdf, run, state
from .pdfgen import make_pdf
from .test_hardening_writes import read_only  # noqa: F401 (a fixture: a folder evfind cannot write)

CAPEX = "What were capital expenditures in 2024? Use the cash flow statement."


def sha256(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_first_use_ingests_beside_the_pdf_and_says_so(cli, filing_pdf, tmp_path):
    db = tmp_path / "ACME_2024_10K.db"
    result = cli("query", filing_pdf, CAPEX)
    assert result.exit_code == 0, result.output
    assert result.stderr == f"{filing_pdf}: ingesting into {db} (first use)\n"
    assert state(db) == (("ACME_2024_10K", sha256(filing_pdf), 12),)
    # The answer is the one the database gives.
    assert result.stdout == cli("query", db, CAPEX).stdout
    assert result.stdout.splitlines()[4].split()[:2] == ["1", "10"]


def test_the_same_bytes_are_asked_again_without_a_write(cli, filing_pdf, tmp_path, monkeypatch):
    db = tmp_path / "ACME_2024_10K.db"
    assert cli("query", filing_pdf, CAPEX).exit_code == 0
    os.utime(db, ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000))
    before = fingerprint(tmp_path)
    import evfind.ingest

    def extract(*args, **kwargs):
        raise AssertionError("the PDF was extracted again")

    monkeypatch.setattr(evfind.ingest, "extract", extract)
    again, data = cli.json("query", filing_pdf, CAPEX)
    assert again.exit_code == 0, again.output
    assert again.stderr == ""
    assert data["document"]["document_sha256"] == sha256(filing_pdf)
    assert data["results"][0]["page_number"] == 10
    assert fingerprint(tmp_path) == before  # not a byte nor a time stamp changed


def test_new_bytes_are_a_new_revision_and_are_what_is_asked(cli, filing_pdf, tmp_path):
    db = tmp_path / "ACME_2024_10K.db"
    old_sha = sha256(filing_pdf)
    assert cli("query", filing_pdf, CAPEX).exit_code == 0
    revised_pdf(filing_pdf, 61)  # the same file, new bytes
    new_sha = sha256(filing_pdf)
    result, data = cli.json("query", filing_pdf, CAPEX)
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        f"{filing_pdf}: changed since it was ingested into {db} (sha256 {new_sha[:12]}, was "
        f"{old_sha[:12]}); ingesting a new revision\n"
    )
    assert data["document"]["document_sha256"] == new_sha
    assert state(db) == (("ACME_2024_10K", old_sha, 12), ("ACME_2024_10K", new_sha, 12))
    assert "(61.9)" in cli("show", filing_pdf, 10).stdout  # show reads the PDF's revision too


def test_the_bytes_of_an_older_revision_are_asked_as_that_revision(cli, filing_pdf, tmp_path):
    db = tmp_path / "ACME_2024_10K.db"
    original = filing_pdf.read_bytes()
    assert cli("query", filing_pdf, CAPEX).exit_code == 0
    revised_pdf(filing_pdf, 61)
    newest = sha256(filing_pdf)
    assert cli("query", filing_pdf, CAPEX).exit_code == 0
    filing_pdf.write_bytes(original)  # back to the first version
    before = snapshot(tmp_path)
    result, data = cli.json("query", filing_pdf, CAPEX)
    assert result.exit_code == 0, result.output
    old = sha256(filing_pdf)
    assert data["document"]["document_sha256"] == old
    assert result.stderr == (
        f"{filing_pdf}: its bytes are those of an older revision in {db} (sha256 {old[:12]}; the "
        f"newest is {newest[:12]}); reading that revision\n"
    )
    assert snapshot(tmp_path) == before
    assert "(52.8)" in cli("show", filing_pdf, 10).stdout


def test_a_document_id_given_at_ingest_is_kept(cli, filing_pdf, tmp_path):
    db = tmp_path / "ACME_2024_10K.db"
    assert cli("ingest", filing_pdf, "--document-id", "ACME").exit_code == 0
    result, data = cli.json("query", filing_pdf, CAPEX)
    assert result.exit_code == 0 and result.stderr == ""
    assert data["document"]["document_id"] == "ACME"
    revised_pdf(filing_pdf, 61)
    result, data = cli.json("query", filing_pdf, CAPEX)
    assert result.exit_code == 0, result.output
    assert [r[0] for r in state(db)] == ["ACME", "ACME"]  # a revision of the same document


def test_questions_file_and_explain_ask_the_pdf_too(cli, filing_pdf, tmp_path):
    questions = tmp_path / "q.txt"
    questions.write_text(CAPEX + "\n")
    result = cli("query", filing_pdf, "--questions", questions)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["results"][0]["page_number"] == 10
    assert result.stderr.endswith("(first use)\n")
    explained = cli("query", filing_pdf, CAPEX, "--explain")
    assert explained.exit_code == 0 and explained.stderr == ""
    assert explained.stdout.startswith("content words: capital expenditures 2024")


def test_show_and_info_on_a_pdf_before_it_is_ingested_say_how(cli, filing_pdf, tmp_path):
    before = snapshot(tmp_path)
    db = tmp_path / "ACME_2024_10K.db"
    how = f"ask it with `evfind query {filing_pdf} \"...\"`, which ingests it, or run `evfind ingest {filing_pdf}`"
    for args in (["show", filing_pdf, "10"], ["info", filing_pdf]):
        result = cli(*args)
        assert result.exit_code == 3
        assert result.stdout == ""
        assert result.stderr == f"Error: {filing_pdf} is a PDF, not yet ingested into {db}: {how}\n"
    assert snapshot(tmp_path) == before  # show and info never ingest
    assert cli("query", filing_pdf, CAPEX).exit_code == 0
    shown = cli("show", filing_pdf, 10)
    assert shown.exit_code == 0 and shown.stderr.startswith("Page 10 (printed 8) of 12")
    assert (shown.stdout, shown.stderr) == (cli("show", db, 10).stdout, cli("show", db, 10).stderr)
    info = cli("info", filing_pdf)
    assert info.exit_code == 0 and info.stdout.startswith(f"Database: {db}  (evfind schema ")
    revised_pdf(filing_pdf, 61)
    changed = cli("show", filing_pdf, 10)
    assert changed.exit_code == 3
    assert changed.stderr == f"Error: {filing_pdf} has changed since it was ingested into {db}: {how}\n"


@pytest.mark.parametrize("kind", ["other_app", "text", "empty"])
def test_a_file_beside_the_pdf_that_is_not_evfinds_is_never_written(cli, filing_pdf, tmp_path, kind):
    db = tmp_path / "ACME_2024_10K.db"
    if kind == "other_app":
        with sqlite3.connect(db) as conn:
            conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
        conn.close()
    else:
        db.write_text("" if kind == "empty" else "my own notes about this filing\n" * 30)
    os.utime(db, ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000))
    before = fingerprint(tmp_path)
    result = cli("query", filing_pdf, CAPEX)
    assert result.exit_code == 3
    assert result.stdout == ""
    assert result.stderr.startswith(f"Error: {db}: ")
    assert result.stderr.endswith(
        f"; it is left as it is: ingest {filing_pdf} elsewhere with `evfind ingest {filing_pdf} --db SOMEWHERE.db`\n"
    )
    assert len(result.stderr.splitlines()) == 1
    assert fingerprint(tmp_path) == before


def test_a_pdf_in_a_folder_that_cannot_be_written(read_only, filing_pdf):  # noqa: F811
    folder = read_only.folder
    pdf = folder / "report.pdf"
    shutil.copy(filing_pdf, pdf)
    asked = folder / "asked.pdf"  # asked once while the folder could be written
    shutil.copy(filing_pdf, asked)
    assert run("query", asked, CAPEX).returncode == 0
    with read_only:
        before = fingerprint(folder)
        refused = read_only.run("query", pdf, CAPEX)
        assert refused.returncode == 5, refused.stderr
        assert refused.stdout == ""
        assert refused.stderr == (
            f"Error: {pdf}: cannot write report.db beside it ({folder} is read-only); ingest it somewhere "
            f"writable: evfind ingest {pdf} --db SOMEWHERE.db\n"
        )
        reused = read_only.run("query", asked, CAPEX)  # its database is there: asked, not written
        assert reused.returncode == 0 and reused.stderr == "", reused.stderr
        assert fingerprint(folder) == before
    assert leftovers(folder) == []


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda p: None, "{pdf}: no such file"),
        (lambda p: p.write_text("not a pdf at all\n" * 20), "{pdf}: not a PDF file (it does not start with %PDF-)"),
        (lambda p: make_pdf(p, PAGES, LABELS, password="s3cret"),
         "{pdf}: ingesting into {db} (first use)\n"  # (the password is found missing on the way)
         "Error: {pdf}: the PDF is password-protected; ingest it with `evfind ingest {pdf} --password PW`, then ask {db}"),
    ],
)
def test_a_pdf_that_cannot_be_asked(cli, tmp_path, make, message):
    pdf = tmp_path / "report.pdf"
    make(pdf)
    before = snapshot(tmp_path)
    result = cli("query", pdf, CAPEX)
    assert result.exit_code == 3
    assert result.stdout == ""
    expected = message.format(pdf=pdf, db=tmp_path / "report.db")
    assert result.stderr == ("" if "\nError: " in expected else "Error: ") + expected + "\n"
    assert snapshot(tmp_path) == before


def test_a_pdf_without_the_pdf_name_is_asked_too(cli, filing_pdf, tmp_path):
    unnamed = tmp_path / "report"
    shutil.copy(filing_pdf, unnamed)
    result = cli("query", unnamed, CAPEX)
    assert result.exit_code == 0, result.output
    assert result.stderr == f"{unnamed}: ingesting into {tmp_path / 'report.db'} (first use)\n"


def test_a_database_is_still_a_database(cli, filing_db, monkeypatch):
    """A .db argument never goes near ingest (nor does the query path import it: test_startup)."""
    import evfind.ingest

    monkeypatch.setattr(evfind.ingest, "ensure_database", None)
    result = cli("query", filing_db, CAPEX)
    assert result.exit_code == 0 and result.stderr == ""


def test_the_schema_is_checked_before_anything_is_written(cli, filing_pdf, tmp_path):
    db = tmp_path / "ACME_2024_10K.db"
    assert cli("query", filing_pdf, CAPEX).exit_code == 0
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {store.SCHEMA_VERSION - 1}")
    conn.close()
    revised_pdf(filing_pdf, 61)
    before = snapshot(tmp_path)
    result = cli("query", filing_pdf, CAPEX)
    assert result.exit_code == 4
    assert f"re-index it with `evfind upgrade {db}`" in result.stderr
    assert snapshot(tmp_path) == before
