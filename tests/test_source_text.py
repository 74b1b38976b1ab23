"""Text sources a user may hand evfind by mistake: JSONL that is not valid Unicode, and a text
file of many pages without form feeds between them."""

from __future__ import annotations

from .conftest import snapshot

LINE = "Net sales rose to $812.4 million in 2024 from $760.1 million in 2023."


def test_jsonl_text_with_a_lone_surrogate_is_a_one_line_error_and_writes_nothing(cli, tmp_path):
    source = tmp_path / "BAD.jsonl"
    source.write_text('{"page_number": 1, "text": "fine"}\n{"page_number": 2, "text": "cash \\ud800 flow"}\n')
    before = snapshot(tmp_path)
    result = cli("ingest", source)
    assert result.exit_code == 3
    assert result.stdout == ""
    assert result.stderr == (
        f"Error: {source}:2: not valid Unicode (an unpaired surrogate \\ud800 in a string): escape a "
        "character beyond U+FFFF as its pair, or write it as it is\n"
    )
    assert snapshot(tmp_path) == before  # no database, nothing half-written


def test_jsonl_with_a_surrogate_pair_reads_the_character(cli, tmp_path):
    source = tmp_path / "PAIR.jsonl"
    source.write_text('{"page_number": 1, "text": "Revenue \\ud83d\\udcc8 rose"}\n')
    assert cli("ingest", source).exit_code == 0
    _, page = cli.json("show", source.with_suffix(".db"), 1)
    assert page["text"] == "Revenue \U0001f4c8 rose"


def test_questions_jsonl_with_a_lone_surrogate_is_a_one_line_error(cli, filing_db, tmp_path):
    questions = tmp_path / "questions.jsonl"
    questions.write_text('{"question": "What were capital \\udc00 expenditures?"}\n')
    result = cli("query", filing_db, "--questions", questions)
    assert result.exit_code != 0 and result.stdout == ""
    assert result.stderr.startswith(f"Error: {questions}:1: not valid Unicode (an unpaired surrogate \\udc00")
    assert result.stderr.count("\n") == 1


def test_a_long_text_without_form_feeds_is_one_page_with_a_warning(cli, tmp_path):
    source = tmp_path / "REPORT.txt"
    source.write_text("\n".join([LINE] * 250) + "\n")
    result = cli("ingest", source)
    assert result.exit_code == 0
    assert result.stderr == (
        f"Warning: {source}: no form feed between pages, so all 251 lines are one page and every citation will "
        "be page 1; separate the pages with form feeds (pdftotext -layout writes them), or give the PDF\n"
    )
    assert "1 page" in result.stdout


def test_a_short_text_or_one_with_form_feeds_has_no_warning(cli, tmp_path):
    short = tmp_path / "NOTE.txt"
    short.write_text("\n".join([LINE] * 20))
    assert (cli("ingest", short).stderr, cli("info", short.with_suffix(".db")).exit_code) == ("", 0)
    paged = tmp_path / "PAGED.txt"
    paged.write_text("\f".join("\n".join([LINE] * 60) for _ in range(5)))
    result = cli("ingest", paged)
    assert (result.exit_code, result.stderr) == (0, "")
    assert "5 pages" in result.stdout
