"""Batch mode: `evfind query DB --questions FILE`, one JSON object a line, in the file's order."""

from __future__ import annotations

import json

import pytest

from evfind import Finder, writes
from evfind.batch import answer_all, read_questions

from .conftest import snapshot
from .test_cli import CAPEX

TAX = "Where is the effective tax rate reconciliation?"
LEGAL = "Is the company involved in any patent lawsuit or legal proceedings?"


def lines(result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_jsonl_questions_get_one_line_each_with_their_id(cli, filing_db, tmp_path):
    source = tmp_path / "questions.jsonl"
    records = [
        {"id": "capex", "question": CAPEX, "company": "Acme"},  # other fields are ignored
        {"id": 7, "question": "what is the"},  # no content words
        {"question": "zebra giraffe hippopotamus"},  # no match, no id
        {"id": "tax", "question": TAX},
    ]
    source.write_text("\n".join(json.dumps(r) for r in records) + "\n\n", encoding="utf-8")
    result = cli("query", filing_db, "--questions", source, "--top", "3")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    out = lines(result)
    assert len(out) == 4
    assert [o.get("id") for o in out] == ["capex", 7, None, "tax"]
    assert "id" not in out[2]
    assert [o["question"] for o in out] == [r["question"] for r in records]
    assert [h["page_number"] for h in out[0]["results"]][0] == 10
    assert len(out[0]["results"]) == 3
    assert out[1]["results"] == [] and out[1]["message"].startswith("the question has no searchable content words")
    assert out[2]["results"] == [] and out[2]["message"].startswith("No relevant page found in this document")
    assert out[3]["results"][0]["page_number"] == 11
    for o in out:
        assert o["document"]["document_id"] == "ACME_2024_10K"
        assert len(o["document"]["document_sha256"]) == 64


def test_each_line_is_the_single_query_json(cli, filing_db, tmp_path):
    source = tmp_path / "questions.txt"
    source.write_text(f"{CAPEX}\n\n   \n{LEGAL}\n", encoding="utf-8")  # blank lines are skipped
    result = cli("query", filing_db, "--questions", source, "--format", "json")
    assert result.exit_code == 0, result.output
    out = lines(result)
    assert len(out) == 2
    for question, line in zip([CAPEX, LEGAL], out):
        single, data = cli.json("query", filing_db, question)
        assert single.exit_code == 0
        assert line == data
    assert out[1]["results"][0]["page_number"] == 5


def test_a_line_is_the_single_query_json_for_every_outcome(cli, filing_db):
    asked = [CAPEX, "what is the", "zebra giraffe hippopotamus", "在哪一页？"]  # found, exit 2, 1, 2
    result = cli("query", filing_db, "--questions", "-", input="\n".join(asked) + "\n")
    assert result.exit_code == 0, result.output
    for question, line in zip(asked, lines(result), strict=True):
        single = cli("query", filing_db, question, "--format", "json")
        assert single.stderr == ""
        assert line == json.loads(single.stdout)


def test_an_empty_store_gives_every_question_its_line_and_exit_2(cli, tmp_path):
    db = tmp_path / "empty.db"
    writes.create_empty(db)
    source = tmp_path / "questions.jsonl"
    source.write_text(f'{{"id": 1, "question": "{CAPEX}"}}\n{{"id": "zh", "question": "资本支出在哪一页？"}}\n')
    result = cli("query", db, "--questions", source)
    assert result.exit_code == 2
    assert result.stderr == ""
    assert lines(result) == [
        {"id": 1, "question": CAPEX, "document": None, "results": [],
         "message": f"no pages are loaded in {db}; run `evfind ingest REPORT.pdf --db {db}`"},
        {"id": "zh", "question": "资本支出在哪一页？", "document": None, "results": [],
         "message": f"尚未载入任何页面，无法检索：{db}；请先运行 `evfind ingest REPORT.pdf --db {db}`"},
    ]


def test_questions_from_stdin(cli, filing_db):
    result = cli("query", filing_db, "--questions", "-", input=f"{TAX}\n{CAPEX}\n")
    assert result.exit_code == 0, result.output
    assert [o["results"][0]["page_number"] for o in lines(result)] == [11, 10]


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"id": 1, "question": "capex"}\n{"id": 2, "question": "tax"\n', ":2: not valid JSON"),
        ('{"id": 1, "question": "capex"}\nWhat about taxes?\n', ":2: not valid JSON"),
        ('{"id": 1, "question": "capex"}\n["tax"]\n', ':2: expected an object {"question": "...", "id": ...}'),
        ('{"id": 1, "question": "capex"}\n{"id": 2, "text": "tax"}\n', ':2: "question" must be a string'),
        ('{"id": [1], "question": "capex"}\n', ':1: "id" must be a string or an integer'),
        ("\n  \n", ": holds no questions"),
    ],
)
def test_malformed_questions_file_stops_before_any_output(cli, filing_db, tmp_path, content, message):
    source = tmp_path / "bad.jsonl"
    source.write_text(content, encoding="utf-8")
    before = snapshot(tmp_path)
    result = cli("query", filing_db, "--questions", source)
    assert result.exit_code == 3
    assert result.stdout == ""
    assert result.stderr.startswith(f"Error: {source}{message}")
    assert len(result.stderr.splitlines()) == 1
    assert snapshot(tmp_path) == before


def test_questions_file_that_cannot_be_read(cli, filing_db, tmp_path):
    missing = tmp_path / "missing.txt"
    result = cli("query", filing_db, "--questions", missing)
    assert result.exit_code == 3
    assert result.stderr == f"Error: {missing}: no such file\n"
    latin = tmp_path / "latin1.txt"
    latin.write_bytes("Qu\xe9 es capex?\n".encode("latin-1"))
    result = cli("query", filing_db, "--questions", latin)
    assert result.exit_code == 3
    assert result.stderr == f"Error: {latin}: not UTF-8 text (byte 2)\n"


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "Error: give one QUESTION, or --questions FILE to ask many (one a line)"),
        ([CAPEX, "--questions", "-"], "Error: give one QUESTION, or --questions FILE to ask many (one a line)"),
        (["--questions", "-", "--format", "table"], "Error: --questions prints one JSON object a line"),
        (["--questions", "-", "--explain"], "Error: --explain shows one question"),
    ],
)
def test_batch_usage_errors(cli, filing_db, args, message):
    result = cli("query", filing_db, *args, input=f"{CAPEX}\n")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message)


def test_python_api(filing_db, tmp_path):
    source = tmp_path / "q.jsonl"
    source.write_text(json.dumps({"id": "a", "question": LEGAL}) + "\n", encoding="utf-8")
    questions = read_questions(source)
    assert [(q.id, q.text, q.line) for q in questions] == [("a", LEGAL, 1)]
    with Finder(filing_db) as finder:
        (data,) = list(answer_all(finder, questions, top=2))
    assert data["id"] == "a"
    assert [hit["rank"] for hit in data["results"]] == [1, 2]
    assert data["results"][0]["page_number"] == 5
