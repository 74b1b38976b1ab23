"""Issue 11, item 9: the smaller frictions of the CLI, each through the CLI.

`info`'s labels say what is a count and what is a list; `upgrade` on a current database is a
no-op that says so; a closed pipe ends quietly with the status of the output that was wanted;
"1 page", never "1 pages"; a question that starts with '-' gets a one-line hint.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys

import pytest

from evfind import store
from evfind.ingest import ingest

from .conftest import write_jsonl
from .filing import BLANK_PAGE, LABELS, PAGES
from .hostile import EVFIND, fingerprint
from .pdfgen import make_pdf

CAPEX = "What were capital expenditures in 2024? Use the cash flow statement."


# ---------------------------------------------------------------------------------------------
# info: counts and lists told apart


def info_fields(stdout: str) -> dict[str, str]:
    """The `  label  value` lines of one revision in `evfind info`."""
    fields = {}
    for line in stdout.splitlines():
        match = re.fullmatch(r"  ([a-z0-9][a-z0-9 ]*?)  +(\S.*)", line)
        if match:
            fields[match.group(1)] = match.group(2)
    return fields


def test_info_tells_counts_from_lists(cli, filing_db):
    result = cli("info", filing_db)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    fields = info_fields(result.stdout)
    sha = store.select_revision(store.connect_read(filing_db)).sha256
    assert fields == {
        "sha256": sha,
        "source": fields["source"],
        "form": "10-K",
        "pages": "12",
        "blank pages": f"1 (page {BLANK_PAGE})",
        "page labels": "12 of 12 pages (printed folios stored)"  # i, ii, then 1 to 10,
    }
    assert fields["source"].startswith("ACME_2024_10K.pdf (pdf), ingested ")
    lines = result.stdout.splitlines()
    assert lines[0] == f"Database: {filing_db}  (evfind schema {store.SCHEMA_VERSION})"
    assert "ACME_2024_10K  revision 1  [newest]" in lines
    # A page list says p. for one page and pp. for several; the heading follows.
    assert any(re.fullmatch(r"    cash_flow_statement +p\. 10 +Consolidated Statements of Cash Flows", line)
               for line in lines), result.stdout
    assert any(re.fullmatch(r"    income_taxes +pp\. 11-12 +\S.*", line) for line in lines), result.stdout


def test_info_lists_many_blank_pages_as_ranges_after_their_count(cli, tmp_path):
    pages = ["Some text on the first page."] + [""] * 3 + ["Text again."] + [""] * 2 + ["The end."]
    db = ingest(write_jsonl(tmp_path / "gaps.jsonl", pages)).db_path
    fields = info_fields(cli("info", db).stdout)
    assert fields["blank pages"] == "5 (pages 2-4, 6-7)"
    assert fields["page labels"] == "none"
    full = ingest(write_jsonl(tmp_path / "full.jsonl", ["Text.", "More text."])).db_path
    assert info_fields(cli("info", full).stdout)["blank pages"] == "none"


def test_ingest_line_tells_the_blank_pages_count_from_their_list(cli, filing_pdf, tmp_path):
    result = cli("ingest", filing_pdf)
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip().endswith(f"12 pages, 1 blank (page {BLANK_PAGE}), printed page labels stored")
    gaps = write_jsonl(tmp_path / "gaps.jsonl", ["Text.", "", "", "More text."])
    assert cli("ingest", gaps).stdout.rstrip().endswith(": 4 pages, 2 blank (pages 2-3)")


# ---------------------------------------------------------------------------------------------
# Plurals


def test_one_page_is_one_page_everywhere(cli, tmp_path):
    source = write_jsonl(tmp_path / "memo.jsonl", ["Capital expenditures were 12.5 million in 2024."])
    created = cli("ingest", source)
    assert created.exit_code == 0, created.output
    assert re.fullmatch(r"\S+memo\.db: created memo sha256 [0-9a-f]{12}: 1 page\n", created.stdout), created.stdout
    again = cli("ingest", source)
    assert again.stdout.endswith("is already ingested (1 page); nothing to do\n"), again.stdout
    db = tmp_path / "memo.db"
    table = cli("query", db, "capital expenditures")
    assert table.exit_code == 0, table.output
    assert table.stdout.splitlines()[1].endswith("  (1 page)")
    missing = cli("show", db, 2)
    assert missing.exit_code == 2
    assert missing.stderr == "Error: page 2 does not exist: memo has only page 1\n"
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {store.SCHEMA_VERSION - 1}")
    conn.close()
    upgraded = cli("upgrade", db)
    assert upgraded.exit_code == 0, upgraded.output
    assert upgraded.stdout == (
        f"{db}: re-indexed 1 revision, schema {store.SCHEMA_VERSION - 1} -> {store.SCHEMA_VERSION}\n"
    )


# ---------------------------------------------------------------------------------------------
# upgrade: a no-op on a current database


def test_upgrade_of_a_current_database_changes_nothing(cli, filing_db):
    os.utime(filing_db, ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000))
    before = fingerprint(filing_db.parent)
    result = cli("upgrade", filing_db)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{filing_db}: already at schema {store.SCHEMA_VERSION}; nothing to do\n"
    assert result.stderr == ""
    assert fingerprint(filing_db.parent) == before  # same bytes, same time stamp, nothing beside it


def test_upgrade_of_an_older_database_still_reindexes(cli, filing_db):
    with sqlite3.connect(filing_db) as conn:
        conn.execute(f"PRAGMA user_version = {store.SCHEMA_VERSION - 1}")
    conn.close()
    result = cli("upgrade", filing_db)
    assert result.exit_code == 0, result.output
    old, new = store.SCHEMA_VERSION - 1, store.SCHEMA_VERSION
    assert result.stdout == f"{filing_db}: re-indexed 1 revision, schema {old} -> {new}\n"
    assert cli("upgrade", filing_db).stdout.endswith("nothing to do\n")


# ---------------------------------------------------------------------------------------------
# A closed pipe: quiet, and the status of the output that was wanted


def closed_pipe(*args) -> subprocess.CompletedProcess:
    """evfind with its stdout a pipe whose reader has gone before anything is written (what
    `| head -1` becomes once head has its line)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
        return subprocess.run([*EVFIND, *map(str, args)], stdout=write_end, stderr=subprocess.PIPE,
                              text=True, env=env, timeout=120)
    finally:
        os.close(write_end)


@pytest.mark.parametrize(
    "args, status",
    [
        (["query", "{db}", CAPEX], 0),
        (["query", "{db}", CAPEX, "--format", "json"], 0),
        (["query", "{db}", CAPEX, "--format", "markdown"], 0),
        (["query", "{db}", CAPEX, "--explain"], 0),
        (["query", "{db}", "--questions", "{questions}"], 0),
        (["show", "{db}", "10"], 0),
        (["info", "{db}"], 0),
        (["query", "{db}", "zebra giraffe hippopotamus"], 1),  # no page found stays 1
    ],
)
def test_a_closed_pipe_ends_quietly(filing_db, tmp_path, args, status):
    questions = tmp_path / "questions.txt"
    questions.write_text("\n".join([CAPEX, "Where are the legal proceedings?"] * 50) + "\n")
    result = closed_pipe(*[a.format(db=filing_db, questions=questions) for a in args])
    stderr = result.stderr
    if args[0] == "show":  # show's header goes to stderr (stdout is the page text, line for line)
        assert stderr.startswith("Page 10 (printed 8) of 12 · ACME_2024_10K · sha256 ")
        stderr = stderr.split("\n", 2)[2]  # the page line and its heading
    assert stderr == ""  # no traceback, no "Exception ignored"
    assert result.returncode == status


def test_head_takes_the_first_line_of_many_answers(filing_db, tmp_path):
    """The real thing: a shell pipeline into `head -1`, the status of evfind's side."""
    questions = tmp_path / "questions.txt"
    questions.write_text((CAPEX + "\n") * 2000)
    script = f'{" ".join(EVFIND)} query "$1" --questions "$2" | head -1; echo "status ${{PIPESTATUS[0]}}" >&2'
    result = subprocess.run(["bash", "-c", script, "bash", filing_db, questions], capture_output=True,
                            text=True, timeout=300)
    assert result.stdout.startswith('{"question": "What were capital expenditures')
    assert len(result.stdout.splitlines()) == 1
    assert result.stderr == "status 0\n"


# ---------------------------------------------------------------------------------------------
# A question that starts with '-'


@pytest.mark.parametrize("question", ["-5% capital expenditures?", "-$3 million impairment", "-capex growth"])
def test_a_question_that_starts_with_a_dash_gets_a_hint(cli, filing_db, question):
    result = cli("query", filing_db, question)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"Error: a question that starts with '-' goes after '--': evfind query {filing_db} -- '{question}'\n"
    )


def test_a_mistyped_option_keeps_clicks_message(cli, filing_db):
    result = cli("query", filing_db, CAPEX, "--tpo", "3")
    assert result.exit_code == 2
    assert "No such option: --tpo" in result.stderr
    assert "goes after '--'" not in result.stderr


def test_the_hint_in_a_real_process(filing_db):
    result = subprocess.run([*EVFIND, "query", str(filing_db), "-5% capital expenditures?"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"Error: a question that starts with '-' goes after '--': evfind query {filing_db} -- '-5% capital expenditures?'"
    ]
