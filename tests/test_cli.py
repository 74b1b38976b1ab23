"""The CLI end to end, on a PDF made in the test (tests/filing.py), asserting exact pages."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys

import pytest

from evfind import store, writes

from .conftest import snapshot, write_jsonl
from .filing import BLANK_PAGE, LABELS, PAGES
from .pdfgen import make_pdf

CAPEX = "What were capital expenditures in 2024? Use the cash flow statement."


def top_pages(cli, db, question, *extra):
    result, data = cli.json("query", db, question, *extra)
    assert result.exit_code == 0, result.output
    return [hit["page_number"] for hit in data["results"]]


def test_ingest_pdf_reports_pages_blank_page_and_labels(cli, filing_pdf):
    result = cli("ingest", filing_pdf)
    assert result.exit_code == 0, result.output
    db = filing_pdf.with_suffix(".db")
    assert db.is_file()
    assert result.stdout.startswith(f"{db}: created ACME_2024_10K sha256 ")
    assert result.stdout.rstrip().endswith(
        f"12 pages, 1 blank (page {BLANK_PAGE}), printed page labels stored"
    )
    assert result.stderr == ""


@pytest.mark.parametrize(
    "question, page",
    [
        (CAPEX, 10),
        ("Where is the effective tax rate reconciliation?", 11),
        ("Is the company involved in any patent lawsuit or legal proceedings?", 5),
        ("How concentrated are our customers? Which customer is the largest share of net sales?", 4),
        ("Using the balance sheet, what were total current assets at the end of 2024?", 9),
        ("What was cost of goods sold in 2023 according to the income statement?", 8),
        ("Where is net sales by geography?", 12),
    ],
)
def test_query_puts_the_evidence_page_first(cli, filing_db, question, page):
    assert top_pages(cli, filing_db, question)[0] == page


def test_json_schema(cli, filing_db):
    result, data = cli.json("query", filing_db, CAPEX, "--top", "3")
    assert result.exit_code == 0
    assert set(data) == {"question", "document", "results", "message"}
    assert data["question"] == CAPEX
    assert data["message"] is None
    document = data["document"]
    assert set(document) == {"document_id", "document_sha256", "page_count"}
    assert document["document_id"] == "ACME_2024_10K"
    assert len(document["document_sha256"]) == 64
    assert document["page_count"] == 12
    assert [hit["rank"] for hit in data["results"]] == [1, 2, 3]
    first = data["results"][0]
    assert set(first) >= {"rank", "page_number", "document_id", "document_sha256", "score",
                          "heading", "matched_terms", "note"}
    assert first["page_number"] == 10
    assert first["page_label"] == "8"  # the printed folio, beside the physical page
    assert first["document_sha256"] == document["document_sha256"]
    assert first["statement"] == "cash_flow_statement"
    assert first["heading"] == "Consolidated Statements of Cash Flows"
    assert "purchases of property, plant and equipment" in first["matched_terms"]
    assert first["note"].startswith("Consolidated Statements of Cash Flows; matched: ")
    assert isinstance(first["score"], float)
    pages = [hit["page_number"] for hit in data["results"]]
    assert len(pages) == len(set(pages))


def test_notes_only_say_what_is_on_the_page(cli, filing_db):
    result, data = cli.json("query", filing_db, CAPEX, "--top", "10")
    assert result.exit_code == 0 and len(data["results"]) >= 5, result.output  # something to check
    for hit in data["results"]:
        shown = cli("show", filing_db, hit["page_number"]).stdout.lower()
        for term in hit["matched_terms"]:
            assert " ".join(term.split()) in " ".join(shown.split()), (hit["page_number"], term)


def test_table_and_markdown(cli, filing_db):
    table = cli("query", filing_db, CAPEX, "--top", "2")
    assert table.exit_code == 0
    lines = table.stdout.splitlines()
    assert lines[0] == f"Question: {CAPEX}"
    assert lines[1].startswith("Document: ACME_2024_10K  sha256 ")
    assert lines[3].split() == ["Rank", "Page", "Conf", "Document", "SHA-256", "What", "matched"]
    assert lines[4].split()[:4] == ["1", "10", "(printed", "8)"]
    markdown = cli("query", filing_db, CAPEX, "--top", "2", "--format", "markdown")
    md_lines = markdown.stdout.splitlines()
    assert md_lines[0] == "| Rank | Physical page | Confidence | Document | What matched | Evidence |"
    assert re.match(r"\| 1 \| 10 \(printed 8\) \| [01]\.\d\d \| ACME_2024_10K \(sha256 ", md_lines[2])


def test_show_prints_the_stored_page(cli, filing_db):
    result = cli("show", filing_db, 10)
    assert result.exit_code == 0
    # the header goes to stderr: stdout is the page text alone, line for line
    assert result.stderr.startswith("Page 10 (printed 8) of 12 · ACME_2024_10K · sha256 ")
    _, page = cli.json("show", filing_db, 10)
    assert result.stdout == page["text"] + "\n"
    assert "Purchases of property, plant and equipment (52.8)" in result.stdout
    blank = cli("show", filing_db, BLANK_PAGE)
    assert blank.exit_code == 0
    assert blank.stdout.strip() == "" and blank.stderr.startswith(f"Page {BLANK_PAGE} (printed 5) of 12")
    _, page = cli.json("show", filing_db, 10)
    assert "\r\n" in page["raw_text"]  # pdfium's line breaks, kept as extracted
    assert "\r" not in page["text"]  # what is indexed is normalised


def test_show_a_page_that_does_not_exist(cli, filing_db):
    result = cli("show", filing_db, 13)
    assert result.exit_code == 2
    assert result.stderr == "Error: page 13 does not exist: ACME_2024_10K has pages 1 to 12\n"


def test_info_lists_revisions_blank_pages_and_structure(cli, filing_db):
    result = cli("info", filing_db)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "ACME_2024_10K  revision 1  [newest]" in out
    assert f"  blank pages  1 (page {BLANK_PAGE})\n" in out
    assert "  page labels  12 of 12 pages (printed folios stored)\n" in out
    assert "income_statement         p. 8 " in out
    assert "balance_sheet            p. 9 " in out
    assert "cash_flow_statement      p. 10 " in out
    assert "legal_proceedings        p. 5 " in out
    _, data = cli.json("info", filing_db)
    sections = {s["label"]: s["pages"] for s in data["revisions"][0]["sections"]}
    assert sections["risk_factors"] == [4]
    assert sections["income_taxes"] == [11, 12]  # the note runs onto page 12
    assert sections["segment_information"] == [12]  # a heading, not a passing mention (p. 3)


def test_same_bytes_again_is_a_no_op(cli, filing_pdf, tmp_path):
    assert cli("ingest", filing_pdf).exit_code == 0
    before = snapshot(tmp_path)
    again = cli("ingest", filing_pdf)
    assert again.exit_code == 0
    assert "is already ingested (12 pages); nothing to do" in again.stdout
    assert snapshot(tmp_path) == before


def test_new_revision_keeps_the_old_one_queryable(cli, filing_pdf, filing_db, tmp_path):
    old_sha = store.select_revision(store.connect_read(filing_db)).sha256
    revised = list(PAGES)
    revised[9] = revised[9].replace("(52.8) (47.3) (44.1)\nNet cash used", "(61.9) (47.3) (44.1)\nNet cash used")
    make_pdf(filing_pdf, revised, LABELS)  # same name, new bytes
    result = cli("ingest", filing_pdf)
    assert result.exit_code == 0, result.output
    assert "added revision to ACME_2024_10K" in result.stdout
    _, new = cli.json("query", filing_db, CAPEX)
    _, old = cli.json("query", filing_db, CAPEX, "--sha", old_sha[:10])
    assert new["document"]["document_sha256"] != old_sha
    assert old["document"]["document_sha256"] == old_sha
    assert new["results"][0]["page_number"] == old["results"][0]["page_number"] == 10
    assert "(61.9)" in cli("show", filing_db, 10).stdout
    assert "(52.8)" in cli("show", filing_db, 10, "--sha", old_sha[:8]).stdout
    info = cli("info", filing_db).stdout
    assert "revision 1\n" in info and "revision 2  [newest]" in info
    unknown = cli("query", filing_db, CAPEX, "--sha", "0000000")
    assert unknown.exit_code == 2 and unknown.stderr.startswith("Error: no revision whose SHA-256")


def test_jsonl_and_form_feed_text(cli, tmp_path):
    jsonl = write_jsonl(tmp_path / "acme.jsonl", PAGES)
    result = cli("ingest", jsonl, "--document-id", "ACME")
    assert result.exit_code == 0, result.output
    assert top_pages(cli, tmp_path / "acme.db", CAPEX)[0] == 10
    text = tmp_path / "acme.txt"
    text.write_text("\f".join(PAGES) + "\f", encoding="utf-8")  # pdftotext ends with \f
    result = cli("ingest", text, "--db", tmp_path / "text.db")
    assert result.exit_code == 0, result.output
    assert "12 pages, 1 blank (page 7)" in result.stdout
    assert top_pages(cli, tmp_path / "text.db", "Where is the effective tax rate reconciliation?")[0] == 11


@pytest.mark.parametrize(
    "numbers, message",
    [
        ([1, 2, 4], "page numbers must run 1..N without gaps (missing 3)"),
        ([1, 2, 2], "page 2 appears twice"),
        ([0, 1, 2], "bad.jsonl:1: page_number 0 is not a page (pages are counted from 1)"),
    ],
)
def test_jsonl_page_numbers_are_never_renumbered(cli, tmp_path, numbers, message):
    source = tmp_path / "bad.jsonl"
    source.write_text("".join(f'{{"page_number": {n}, "text": "page {n}"}}\n' for n in numbers))
    result = cli("ingest", source)
    assert result.exit_code == 3
    assert message in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "bad.db").exists()


def test_failed_ingest_leaves_the_database_as_it_was(cli, filing_db, tmp_path):
    before = snapshot(tmp_path)
    fake = tmp_path / "fake.pdf"
    fake.write_text("this is not a pdf")
    result = cli("ingest", fake, "--db", filing_db, "--document-id", "ACME_2024_10K")
    assert result.exit_code == 3
    assert result.stderr == f"Error: {fake}: not a PDF file (it does not start with %PDF-)\n"
    truncated = tmp_path / "truncated.pdf"
    truncated.write_bytes(make_pdf(tmp_path / "whole.pdf", PAGES).read_bytes()[:700])
    before = snapshot(tmp_path)
    result = cli("ingest", truncated, "--db", filing_db)
    assert result.exit_code == 3
    assert result.stderr.startswith(f"Error: {truncated}: cannot read the PDF")
    assert snapshot(tmp_path) == before


def test_missing_database_is_reported_and_never_created(cli, tmp_path):
    missing = tmp_path / "missing.db"
    result = cli("query", missing, CAPEX)
    assert result.exit_code == 3
    assert result.stdout == ""
    assert result.stderr == f"Error: {missing}: no such database (run `evfind ingest REPORT.pdf --db {missing}`)\n"
    assert not missing.exists()


def test_files_that_are_not_evfind_databases(cli, tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("just some text, not a database\n" * 50)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    for path, expected in [
        (tmp_path, "is a directory, not a database file"),
        (text, "not an evfind database (the file is not SQLite or is damaged)"),
        (other, "an SQLite database of another application, not an evfind database"),
    ]:
        before = snapshot(tmp_path)
        result = cli("query", path, CAPEX)
        assert result.exit_code == 3, (path, result.output)
        assert result.stderr == f"Error: {path}: {expected}\n"
        assert snapshot(tmp_path) == before


def test_database_from_a_newer_evfind_is_refused(cli, filing_db):
    with sqlite3.connect(filing_db) as conn:
        conn.execute(f"PRAGMA user_version = {store.SCHEMA_VERSION + 1}")
    result = cli("query", filing_db, CAPEX)
    assert result.exit_code == 4
    assert "written by a newer evfind" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_older_database_is_refused_then_upgraded(cli, filing_db):
    with sqlite3.connect(filing_db) as conn:
        conn.execute(f"PRAGMA user_version = {store.SCHEMA_VERSION - 1}")
    refused = cli("query", filing_db, CAPEX)
    assert refused.exit_code == 4
    assert f"re-index it with `evfind upgrade {filing_db}`" in refused.stderr
    upgraded = cli("upgrade", filing_db)
    assert upgraded.exit_code == 0, upgraded.output
    assert top_pages(cli, filing_db, CAPEX)[0] == 10
    assert cli.json("show", filing_db, 10)[1]["raw_text"].count("\r\n") > 3


@pytest.mark.parametrize("top", ["0", "21", "-1", "many"])
def test_top_out_of_range_is_a_usage_error(cli, filing_db, top):
    result = cli("query", filing_db, CAPEX, "--top", top)
    assert result.exit_code == 2
    assert "--top" in result.stderr


@pytest.mark.parametrize("question", ["", "   ", "what is the", "Where is it? Which page?"])
def test_question_without_content_words(cli, filing_db, question):
    result = cli("query", filing_db, question)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("Error: the question has no searchable content words")


def test_nothing_matches(cli, filing_db):
    result = cli("query", filing_db, "zebra giraffe hippopotamus")
    assert result.exit_code == 1
    assert "No relevant page found in this document" in result.stdout
    assert "try other words" in result.stdout
    result, data = cli.json("query", filing_db, "zebra giraffe hippopotamus")
    assert result.exit_code == 1
    assert data["results"] == []
    assert data["message"].startswith("No relevant page found in this document")


def test_weak_match_lists_candidates_for_checking(cli, filing_db):
    result, data = cli.json("query", filing_db, "zebra giraffe hippopotamus widgets")
    assert result.exit_code == 0
    assert len(data["results"]) > 1
    assert data["message"].startswith("No page holds all of the question's words")


@pytest.mark.parametrize(
    "question",
    ['"capital expenditures', "cash-flow: NEAR(investing", "AND OR NOT", "capex*", "text:cash ^flows",
     "(purchases) {of} [property]", "cash' flows'"],
)
def test_fts_syntax_in_questions_is_plain_text(cli, filing_db, question):
    result = cli("query", filing_db, question)
    if question == "AND OR NOT":  # operators are words here, and these are stopwords
        assert result.exit_code == 2
        assert result.stderr.startswith("Error: the question has no searchable content words")
    else:
        assert result.exit_code in (0, 1), result.output
        assert result.stderr == ""


def test_empty_store_says_how_to_ingest(cli, tmp_path):
    db = tmp_path / "empty.db"
    writes.create_empty(db)
    result = cli("query", db, CAPEX)
    assert result.exit_code == 2
    assert result.stderr == f"Error: no pages are loaded in {db}; run `evfind ingest REPORT.pdf --db {db}`\n"


def test_python_dash_m_help():
    result = subprocess.run([sys.executable, "-m", "evfind", "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    for command in ("ingest", "query", "show", "info", "eval"):
        assert command in result.stdout


def test_version(cli):
    from evfind import __version__

    result = cli("--version")
    assert result.exit_code == 0
    assert result.stdout == f"evfind {__version__}\n"


def test_words_on_most_pages_are_left_out_of_the_match(filing_db):
    """'widgets' and '2024' are on more than half of the pages: no bm25 weight, not searched."""
    from evfind import Finder

    with Finder(filing_db) as finder:
        plan = finder.explain("Acme widgets capital expenditures in 2024")
        assert '"widgets"' not in plan.match and '"2024"' not in plan.match
        assert '"capital expenditures"' in plan.match
        assert finder.query("Acme widgets capital expenditures in 2024").results[0].page_number == 10
        only_common = finder.explain("widgets 2024")  # nothing else: the common words are used
        assert only_common.match == '"widgets" OR "2024"'


def test_progress_bar_only_on_a_terminal(monkeypatch):
    import io

    from evfind import cli_app

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    show = cli_app.progress_bar(quiet=False)
    for done in range(1, 41):
        show(done, 40)
    assert "Extracting pages [###############...............] 20/40" in terminal.getvalue()
    assert terminal.getvalue().endswith("\r")  # the bar is wiped when extraction is done
    assert cli_app.progress_bar(quiet=True) is None
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # not a terminal: silent
    assert cli_app.progress_bar(quiet=False) is None


# --- One JSON object for every outcome ----------------------------------------------------------

NO_CONTENT_WORDS = (
    "the question has no searchable content words; ask with the words of the filing "
    "(e.g. capital expenditures, legal proceedings)"
)


def acme_document(db) -> dict:
    sha = store.select_revision(store.connect_read(db)).sha256
    return {"document_id": "ACME_2024_10K", "document_sha256": sha, "page_count": 12}


@pytest.mark.parametrize("question", ["", "what is the", "Where is it? Which page?"])
@pytest.mark.parametrize("explain", [[], ["--explain"]])
def test_question_without_content_words_prints_the_json_object(cli, filing_db, question, explain):
    result = cli("query", filing_db, question, *explain, "--format", "json")
    assert result.exit_code == 2
    assert result.stderr == ""
    assert json.loads(result.stdout) == {
        "question": question,
        "document": acme_document(filing_db),
        "results": [],
        "message": NO_CONTENT_WORDS,
    }


@pytest.mark.parametrize("explain", [[], ["--explain"]])
def test_empty_store_prints_the_json_object(cli, tmp_path, explain):
    db = tmp_path / "empty.db"
    writes.create_empty(db)
    result = cli("query", db, CAPEX, *explain, "--format", "json")
    assert result.exit_code == 2
    assert result.stderr == ""
    assert json.loads(result.stdout) == {
        "question": CAPEX,
        "document": None,
        "results": [],
        "message": f"no pages are loaded in {db}; run `evfind ingest REPORT.pdf --db {db}`",
    }


@pytest.mark.parametrize("fmt", ["table", "markdown"])
def test_exit_2_outcomes_stay_on_stderr_for_people(cli, filing_db, fmt):
    for extra in ([], ["--explain"]):
        result = cli("query", filing_db, "what is the", *extra, "--format", fmt)
        assert result.exit_code == 2
        assert result.stdout == ""
        assert result.stderr == f"Error: {NO_CONTENT_WORDS}\n"


@pytest.mark.parametrize("kind", ["missing", "directory", "text", "bad sha"])
def test_file_errors_stay_one_line_on_stderr_with_json(cli, filing_db, tmp_path, kind):
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 50)
    db, extra, expected = {
        "missing": (tmp_path / "missing.db", [], "no such database (run `evfind ingest REPORT.pdf --db "),
        "directory": (tmp_path, [], "is a directory, not a database file"),
        "text": (text, [], "not an evfind database (the file is not SQLite or is damaged)"),
        "bad sha": (filing_db, ["--sha", "0000"], "no revision whose SHA-256 starts with '0000'"),
    }[kind]
    for explain in ([], ["--explain"]):
        result = cli("query", db, CAPEX, *extra, *explain, "--format", "json")
        assert result.exit_code == (2 if kind == "bad sha" else 3)
        assert result.stdout == ""
        assert result.stderr.startswith("Error: ") and expected in result.stderr
        assert len(result.stderr.splitlines()) == 1


def test_explain_as_json(cli, filing_db):
    from evfind import Finder

    result, plan = cli.json("query", filing_db, CAPEX, "--explain", "--top", "3")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert list(plan) == [
        "question", "document", "reading", "content_words", "cues", "statements", "named_statements",
        "sections", "named_items", "named_exhibits", "named_pages", "match", "sql", "lists", "facts", "fused",
        "passages",
    ]
    assert plan["question"] == CAPEX
    assert plan["document"] == acme_document(filing_db)
    assert plan["reading"] is None
    assert plan["content_words"] == ["capital", "expenditures", "2024", "cash", "flow", "statement"]
    assert plan["statements"] == plan["named_statements"] == ["cash_flow_statement"]
    assert plan["sections"] == []
    assert '"capital expenditures"' in plan["match"]
    assert plan["sql"]["lexical"].startswith("SELECT pages_fts.rowid, bm25(pages_fts, 1.0, 3.0, 3.0)")
    assert plan["sql"]["statements"].startswith("SELECT pages.id, pages.statement")
    assert plan["sql"]["sections"] is None
    lexical = plan["lists"]["lexical"]
    assert lexical[0]["page_number"] == 10 and set(lexical[0]) == {"page_number", "bm25"}
    assert [entry["bm25"] for entry in lexical] == sorted(entry["bm25"] for entry in lexical)
    assert plan["lists"]["statements"] == [lexical[0]]  # the cash flow statement, with its bm25
    assert plan["lists"]["sections"] == []
    # The fused list is the answer's pages, scores and confidences (the learned stage's) and all.
    _, answer = cli.json("query", filing_db, CAPEX, "--top", "3")
    assert plan["fused"] == [{"page_number": h["page_number"], "score": h["score"], "confidence": h["confidence"]}
                             for h in answer["results"]]
    _, rules = cli.json("query", filing_db, CAPEX, "--top", "3", "--explain", "--method", "rules")
    assert all(set(entry) == {"page_number", "score"} for entry in rules["fused"])  # the rules give no confidence
    # Each fused page that holds a word of the question has its best passage: the answer's
    # evidence lines are that passage's lines.
    evidence = {h["page_number"]: [e["line"] for e in h["evidence"]] for h in answer["results"]}
    assert [p["page_number"] for p in plan["passages"]] == [p for p in evidence if evidence[p]]
    assert all(evidence[p["page_number"]] == p["lines"] for p in plan["passages"])
    with Finder(filing_db) as finder:
        assert plan == json.loads(json.dumps(finder.explain(CAPEX, top=3).to_dict()))


def test_explain_shows_each_pages_confidence_and_the_doubt_threshold(cli, filing_db):
    from evfind import learned

    _, answer = cli.json("query", filing_db, CAPEX, "--top", "3")
    text = cli("query", filing_db, CAPEX, "--explain", "--top", "3").stdout.splitlines()
    assert text[-1] == f"confidence (doubtful under {learned.shipped().doubt:g}): " + " ".join(
        f"{h['page_number']}({h['confidence']:.2f})" for h in answer["results"])
    assert text[-2].startswith("fused: ")
    # the rules give no confidence: no such line
    assert cli("query", filing_db, CAPEX, "--explain", "--method", "rules").stdout.splitlines()[-1].startswith("fused: ")


def test_explain_as_json_lists_the_section_route(cli, filing_db):
    _, plan = cli.json("query", filing_db, "Where is net sales by geography?", "--explain")
    assert plan["sections"] == ["segment_information"]
    assert plan["sql"]["sections"].startswith("SELECT DISTINCT page_id FROM page_sections")
    assert plan["lists"]["sections"][0]["page_number"] == 12
    assert plan["fused"][0]["page_number"] == 12


def test_show_names_the_section_a_page_continues(cli, filing_db):
    result = cli("show", filing_db, 7)
    assert result.stderr.splitlines()[1] == "Heading: continues: Liquidity and Capital Resources"


def test_a_short_filing_keeps_its_common_words(tmp_path, cli, monkeypatch):
    """In a 3-page 8-K a word on two pages is "common"; left out of the MATCH, the page that
    holds the dividend (it shares "dividend" with the exhibit) would match nothing at all."""
    from evfind import lists

    source = write_jsonl(tmp_path / "ACME_2024_8K.jsonl", [
        "ACME CORP\nFORM 8-K\nCurrent report, 2024",
        "Item 8.01 Other Events\nOn January 19, 2024 the Board of Acme declared a quarterly cash dividend of "
        "25 cents per share, payable February 16, 2024.",
        "Exhibit 99.1\nACME ANNOUNCES QUARTERLY CASH DIVIDEND\nAcme announces that its board declared a cash "
        "dividend in 2024.",
    ])
    db = tmp_path / "acme.db"
    assert cli("ingest", source, "--db", db, "--quiet").exit_code == 0
    question = "What dividend did Acme announce in 2024?"
    result, data = cli.json("query", db, question)
    assert result.exit_code == 0 and sorted(r["page_number"] for r in data["results"]) == [1, 2, 3]
    monkeypatch.setattr(lists, "FEW_PAGES", 0)  # as a long filing: its common words left out
    result, data = cli.json("query", db, question)
    assert [r["page_number"] for r in data["results"]] == [3]


def test_the_first_pages_do_not_depend_on_how_many_are_asked_for(tmp_path, cli):
    """--top 5 lists the first five pages of --top 20. Pages of an attached instrument are set
    aside; which pages were looked at for it once grew with --top (twice max(top, 10)), so with
    --top 5 the credit agreement's pages ranked 21 to 40 kept their full score and rose above
    the ones set aside, and the first five pages were not those of --top 20."""
    pages = [
        "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nFORM 8-K\nCURRENT REPORT\nAcme Widgets Inc.",
        "Item 2.02 Results of Operations and Financial Condition.\nOn May 1, 2024 Acme reported that interest "
        "expense for the quarter was $40 million.",
        "Item 9.01 Financial Statements and Exhibits.\n(d) Exhibits\nExhibit No. Description\n10.1 Credit "
        "Agreement, dated as of May 1, 2024.\n99.1 Press release dated May 1, 2024.",
        "Exhibit 10.1\nEXECUTION VERSION\nCREDIT AGREEMENT\ndated as of May 1, 2024\namong ACME WIDGETS INC. "
        "and THE LENDERS PARTY HERETO",
    ]
    pages += [  # 45 pages of the agreement, of every length, all about interest
        f"Section {n}.01 Interest. " + "The Borrower shall pay interest on the Loans at the rate set forth herein. " * (1 + n % 7)
        + "Interest expense shall be computed on the basis of a year of 360 days. " * (n % 3)
        for n in range(45)
    ]
    pages.append("EXHIBIT 99.1\nAcme Widgets Reports First Quarter Results\nSPRINGFIELD, Ill., May 1, 2024 -- Acme "
                 "Widgets Inc. (NYSE: ACMW) reported interest expense of $40 million.")
    db = tmp_path / "acme.db"
    assert cli("ingest", write_jsonl(tmp_path / "ACME_2024_8K.jsonl", pages), "--db", db, "--quiet").exit_code == 0
    _, few = cli.json("query", db, "interest expense", "--top", "5")
    _, many = cli.json("query", db, "interest expense", "--top", "20")
    assert [r["page_number"] for r in few["results"]] == [r["page_number"] for r in many["results"]][:5]


@pytest.mark.parametrize("symbol, question, first, cover_cited", [
    ("ACMW", "How much capex does ACMW expect to spend in 2025?", 2, False),
    # "cost" is also a word of this question: the ticker is not told from it, and kept
    ("COST", "What was COST's cost of widgets in 2024?", 3, True),
])
def test_a_ticker_names_the_filer_and_does_not_pull_up_the_cover(tmp_path, cli, symbol, question, first, cover_cited):
    """The cover lists the trading symbol; a question naming the filer by it asks about the
    filer, as one naming it by its name does: the cover is no evidence."""
    source = write_jsonl(tmp_path / "ACME_2024_10K.jsonl", [
        "ACME CORP\nFORM 10-K\nTitle of each class Trading Symbol(s) Name of each exchange on which registered\n"
        f"Common Stock, $0.01 par value {symbol} New York Stock Exchange",
        "Liquidity\nWe expect capital expenditures of about $40 million in 2025.",
        "Results\nThe cost of widgets was $35 million in 2024.",
    ] + [f"Other matters of ACME, part {n}." for n in range(1, 10)])
    db = tmp_path / "acme.db"
    assert cli("ingest", source, "--db", db, "--quiet").exit_code == 0
    _, data = cli.json("query", db, question)
    pages = [r["page_number"] for r in data["results"]]
    assert pages[0] == first and (1 in pages) == cover_cited


def test_a_named_statements_title_is_not_its_evidence_line(tmp_path, cli):
    """"Using the income statement" says where to look: the evidence line is the line item
    beside its figure, not the statement's title and the company's name above it."""
    statement = "\n".join([
        "ACME CORP", "CONSOLIDATED STATEMENTS OF INCOME", "(In millions) 2024 2023",
        "Revenue 9,000 8,000", "Cost of revenue 5,000 4,500", "Operating income 2,000 1,800",
        "Other income 10 12", "Income before income taxes 2,010 1,812", "Provision for income taxes 410 380",
        "Net income 1,600 1,432",
    ])
    source = write_jsonl(tmp_path / "ACME_2024_10K.jsonl", [
        "ACME CORP annual report 2024", statement, "Notes\nNet income per share is computed on shares outstanding.",
    ] + [f"Other matters of ACME, part {n}." for n in range(1, 10)])
    db = tmp_path / "acme.db"
    assert cli("ingest", source, "--db", db, "--quiet").exit_code == 0
    result, data = cli.json("query", db, "Using the income statement, what is Acme's net income for 2024?")
    top = data["results"][0]
    assert top["page_number"] == 2
    assert top["evidence"][0]["text"] == "Net income 1,600 1,432"


def test_each_command_is_defined_by_the_module_cli_names_and_listed_in_its_order(cli):
    """cli.COMMANDS names each command's module (the console script imports that one alone) in
    the order `evfind --help` lists the commands, whatever order the modules are imported in."""
    from evfind import cli as command_line

    commands = command_line.app.registered_commands
    assert [c.name or c.callback.__name__ for c in commands] == list(command_line.COMMANDS)
    for info, module in zip(commands, command_line.COMMANDS.values()):
        assert info.callback.__module__ == f"evfind.{module}"
    listed = [line.split()[1] for line in cli("--help").stdout.splitlines() if line.startswith("│ ") and "  " in line[2:]]
    assert listed[-len(commands):] == list(command_line.COMMANDS)
