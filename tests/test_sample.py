"""sample.db: generated from sample/ by scripts/build_sample.py, and answering its questions."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

from .conftest import REPO

SAMPLE = REPO / "sample.db"
QUESTIONS = [json.loads(line) for line in (REPO / "sample" / "questions.jsonl").read_text().splitlines()]


def rows(db, sql):
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute(sql).fetchall()


def test_sample_db_is_up_to_date(tmp_path):
    built = tmp_path / "sample.db"
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "build_sample.py"), "--db", str(built)],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr
    for sql in (
        "SELECT document_id, sha256, source_name, source_kind, page_count, ingested_at FROM documents",
        "SELECT page_number, page_label, text, raw_text, heading, section, section_heading, statement FROM pages ORDER BY id",
        "SELECT p.page_number, s.label, s.heading, s.origin FROM page_sections s JOIN pages p ON p.id = s.page_id ORDER BY 1, 2",
        "PRAGMA user_version",
    ):
        assert rows(SAMPLE, sql) == rows(built, sql), f"sample.db is stale: run python scripts/build_sample.py ({sql})"


def test_sample_shape(cli):
    _, info = cli.json("info", SAMPLE)
    revision = info["revisions"][0]
    assert revision["document_id"] == "HALDEN_2025_10K"
    assert revision["page_count"] == 61
    assert revision["blank_pages"] == [20]
    statements = {s["label"]: s["pages"] for s in revision["statements"]}
    assert statements == {
        "income_statement": [35],
        "comprehensive_income": [36],
        "balance_sheet": [37],
        "cash_flow_statement": [38],
        "equity_statement": [39],
    }


@pytest.mark.parametrize(
    "question, page",
    [
        ("What were Halden's capital expenditures in 2025? Use the cash flow statement.", 38),
        ("What were Halden's total current assets at December 31, 2025?", 37),
        ("Where is the effective tax rate reconciliation?", 49),
        ("Who are the executive officers and how old are they?", 10),
        ("How many employees did Halden have at the end of 2025?", 8),
        ("What critical audit matter did the auditor report?", 33),
        ("What was the backlog at year end?", 7),
    ],
)
def test_sample_questions_with_known_pages(cli, question, page):
    result, data = cli.json("query", SAMPLE, question)
    assert result.exit_code == 0, result.output
    assert data["results"][0]["page_number"] == page


def test_sample_question_set_finds_the_evidence(cli):
    """Every labelled sample question: how often a gold page is in the top 5."""
    found = 0
    for q in QUESTIONS:
        _, data = cli.json("query", SAMPLE, q["question"])
        found += any(hit["page_number"] in q["gold_pages"] for hit in data["results"])
    assert found / len(QUESTIONS) >= 0.9
