"""Every size read from input is bounded before it is used (issue 12, item 9; evfind/limits.py).

Each bound is refused with one line, exit 3, and nothing written. The bounds themselves are
large (50,000 pages, a million characters on a page), so most tests make the input just past
the real bound where that is cheap, and lower the bound (monkeypatch) where building the input
would not be (a PDF page of a million characters).
"""

from __future__ import annotations

import json
import re
import resource
import time

import pytest

from evfind import Finder, limits
from evfind.batch import parse_questions
from evfind.errors import EXIT_INPUT, EvfindError, InputError, SourceError
from evfind.extract import extract

from .hostile import fingerprint, run
from .pdfgen import make_pdf
from .test_hardening import CAPEX

MAX_PAGES = limits.MAX_PAGES


def _jsonl(path, records) -> object:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def refused(cli, source, message: str, tmp_path):
    """ingest refuses the source with this one line, exit 3, and writes nothing."""
    before = fingerprint(tmp_path)
    result = cli("ingest", source, "--db", tmp_path / "out.db")
    assert result.exit_code == EXIT_INPUT, result.output
    assert result.stdout == ""
    assert result.stderr == f"Error: {message}\n"
    assert fingerprint(tmp_path) == before


# ---------------------------------------------------------------------------------------------
# Page numbers and page counts


def _small_address_space():
    """A child that may not take more than 1 GiB: an unbounded page range fails fast in it."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def test_a_huge_jsonl_page_number_is_refused_at_once(tmp_path):
    """It once made ingest count up to the number (range(1, max + 1)): without end."""
    source = _jsonl(tmp_path / "huge.jsonl", [{"page_number": 1, "text": "Net sales"},
                                               {"page_number": 10**18, "text": "Total assets"}])
    start = time.monotonic()
    result = run("ingest", source, "--db", tmp_path / "huge.db", timeout=60, preexec_fn=_small_address_space)
    assert result.returncode == EXIT_INPUT, result.stderr
    assert result.stderr == (
        f"Error: {source}:2: page_number 1000000000000000000 is more than the {MAX_PAGES} pages "
        "evfind reads in one filing\n"
    )
    assert time.monotonic() - start < 30
    assert not (tmp_path / "huge.db").exists()


@pytest.mark.parametrize("number", [0, -1, -(10**18)])
def test_zero_and_negative_jsonl_page_numbers(cli, tmp_path, number):
    source = _jsonl(tmp_path / "pages.jsonl", [{"page_number": 1, "text": "Net sales"},
                                                {"page_number": number, "text": "Total assets"}])
    refused(cli, source, f"{source}:2: page_number {number} is not a page (pages are counted from 1)", tmp_path)


def test_a_jsonl_source_of_too_many_pages(cli, tmp_path):
    source = _jsonl(tmp_path / "long.jsonl", [{"page_number": n, "text": ""} for n in range(1, MAX_PAGES + 2)])
    refused(cli, source, f"{source}:{MAX_PAGES + 1}: page_number {MAX_PAGES + 1} is more than the "
            f"{MAX_PAGES} pages evfind reads in one filing", tmp_path)


def test_a_text_source_of_too_many_pages(cli, tmp_path):
    source = tmp_path / "long.txt"
    source.write_text("Net sales\f" * (MAX_PAGES + 1), encoding="utf-8")  # (a last \f ends the last page)
    refused(cli, source, f"{source}: {MAX_PAGES + 1} pages; evfind reads at most {MAX_PAGES} pages in one filing",
            tmp_path)


def test_the_page_bound_is_inclusive(tmp_path):
    """MAX_PAGES pages are read (the check alone, without ingesting them); one more is not."""
    source = tmp_path / "bound.txt"
    source.write_text("x\f" * MAX_PAGES, encoding="utf-8")
    assert extract(source).page_count == MAX_PAGES
    _jsonl(source.with_suffix(".jsonl"), [{"page_number": n, "text": "x"} for n in range(MAX_PAGES, 0, -1)])
    assert extract(source.with_suffix(".jsonl")).page_count == MAX_PAGES


def _claiming(path, pages: int):
    """A two-page PDF whose page tree says it has ``pages`` pages: pdfium believes the count
    (below about a million), so len(pdf) says so, and pages past the second fail to load."""
    data = make_pdf(path, ["Net sales 812.4", "Total assets 1,204.9"]).read_bytes()
    claimed, count = re.subn(rb"/Count 2\b", b"/Count %d" % pages, data)
    assert count == 1
    path.write_bytes(claimed)
    return path


def test_a_pdf_that_claims_a_million_pages(cli, tmp_path):
    import pypdfium2 as pdfium

    source = _claiming(tmp_path / "claims.pdf", 999_999)
    pdf = pdfium.PdfDocument(str(source))
    assert len(pdf) == 999_999  # the claim this test is about: pdfium takes it as said
    pdf.close()
    refused(cli, source, f"{source}: 999999 pages; evfind reads at most {MAX_PAGES} pages in one filing", tmp_path)


def test_a_pdf_of_more_pages_than_the_bound(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_PAGES", 11)
    source = make_pdf(tmp_path / "twelve.pdf", [f"Page {n}" for n in range(1, 13)])
    refused(cli, source, f"{source}: 12 pages; evfind reads at most 11 pages in one filing", tmp_path)


# ---------------------------------------------------------------------------------------------
# Long pages and long lines


def test_a_jsonl_page_too_long(cli, tmp_path):
    text = ("Net sales were 812.4 million.\n" * (limits.MAX_PAGE_CHARS // 30 + 1))[: limits.MAX_PAGE_CHARS + 1]
    source = _jsonl(tmp_path / "long.jsonl", [{"page_number": 1, "text": "Cover"}, {"page_number": 2, "text": text}])
    refused(cli, source, f"{source}:2: {limits.MAX_PAGE_CHARS + 1} characters of text on one page; evfind reads "
            f"at most {limits.MAX_PAGE_CHARS} on a page", tmp_path)


def test_a_text_page_with_a_line_too_long(cli, tmp_path):
    source = tmp_path / "line.txt"
    line = "x" * (limits.MAX_LINE_CHARS + 1)
    source.write_text(f"Cover\fNet sales\n{line}\nTotal\f", encoding="utf-8")
    refused(cli, source, f"{source}: page 2: a line of {limits.MAX_LINE_CHARS + 1} characters; evfind reads lines "
            f"of at most {limits.MAX_LINE_CHARS}", tmp_path)


def test_lines_are_broken_where_ingest_breaks_them():
    """CR, LF and CRLF end a line; a page of many lines is never one long line."""
    many = "Net sales 812.4\r\n" * (limits.MAX_LINE_CHARS // 10)
    limits.check_page_text(many, "p")
    limits.check_page_text(many.replace("\r\n", "\r"), "p")
    limits.check_page_text("x" * limits.MAX_LINE_CHARS + "\n" + "y" * limits.MAX_LINE_CHARS, "p")
    with pytest.raises(SourceError, match=f"a line of {limits.MAX_LINE_CHARS + 1} characters"):
        limits.check_page_text("a\n" + "x" * (limits.MAX_LINE_CHARS + 1) + "\nb", "p")


def test_a_pdf_page_too_long_and_a_line_too_long(cli, tmp_path, monkeypatch):
    """A PDF page of a million characters takes long to make: the bounds are lowered instead,
    to see that every PDF page goes through them."""
    pages = ["Cover", "Net sales\n" + "Revenue by segment " * 20 + "\nTotal"]
    source = make_pdf(tmp_path / "long.pdf", pages)
    raw = extract(source).texts[1]  # as pdfium gives it, under the real bounds
    longest = max(len(line) for line in raw.splitlines())
    assert longest > 300 and len(raw) > longest + 10
    monkeypatch.setattr(limits, "MAX_LINE_CHARS", 200)
    refused(cli, source, f"{source}: page 2: a line of {longest} characters; evfind reads lines of at most 200",
            tmp_path)
    monkeypatch.setattr(limits, "MAX_PAGE_CHARS", longest)
    refused(cli, source, f"{source}: page 2: {len(raw)} characters of text on one page; evfind reads at most "
            f"{longest} on a page", tmp_path)


# ---------------------------------------------------------------------------------------------
# Questions


def _too_long(where: str = "") -> str:
    return (f"{where}the question has {limits.MAX_QUESTION_CHARS + 1} characters; evfind reads questions of at "
            f"most {limits.MAX_QUESTION_CHARS} characters")


def test_a_question_of_megabytes_is_refused_at_once(filing_db):
    question = "What were capital expenditures? " * 40_000  # 1.3 MB: reading it would take seconds
    start = time.monotonic()
    with Finder(filing_db) as finder:
        with pytest.raises(InputError) as caught:
            finder.query(question)
        with pytest.raises(InputError):
            finder.explain(question)
    assert time.monotonic() - start < 1
    assert str(caught.value) == (f"the question has {len(question)} characters; evfind reads questions of at most "
                                 f"{limits.MAX_QUESTION_CHARS} characters")


def test_the_question_bound_is_inclusive(filing_db):
    with Finder(filing_db) as finder:
        at_bound = (CAPEX + " ") * (limits.MAX_QUESTION_CHARS // (len(CAPEX) + 1) + 1)
        assert finder.query(at_bound[: limits.MAX_QUESTION_CHARS]).results[0].page_number == 10
        with pytest.raises(InputError, match=f"the question has {limits.MAX_QUESTION_CHARS + 1} characters"):
            finder.query(at_bound[: limits.MAX_QUESTION_CHARS + 1])


def test_a_question_too_long_on_the_command_line(cli, filing_db):
    question = "x" * (limits.MAX_QUESTION_CHARS + 1)
    for args in [("query", filing_db, question), ("query", filing_db, question, "--format", "json"),
                 ("query", filing_db, question, "--explain")]:
        result = cli(*args)
        assert result.exit_code == EXIT_INPUT, result.output
        assert result.stdout == "" and result.stderr == f"Error: {_too_long()}\n"


def test_a_question_too_long_in_the_datasette_ask_view(filing_db):
    from evfind.datasette_plugin import answer_json

    data = json.loads(answer_json(filing_db, "x" * (limits.MAX_QUESTION_CHARS + 1)))
    assert data["results"] == [] and data["message"] == f"Error: {_too_long()}"


def test_a_questions_file_with_too_many_questions(cli, filing_db, tmp_path):
    questions = tmp_path / "many.txt"
    questions.write_text("capital expenditures\n\n" * (limits.MAX_QUESTIONS + 1), encoding="utf-8")
    result = cli("query", filing_db, "--questions", questions)
    assert result.exit_code == EXIT_INPUT and result.stdout == ""
    assert result.stderr == (f"Error: {questions}: {limits.MAX_QUESTIONS + 1} questions; evfind asks at most "
                             f"{limits.MAX_QUESTIONS} from one file (split it)\n")
    # blank lines are no questions: MAX_QUESTIONS of them, among blank lines, are asked
    assert len(parse_questions("q\n\n" * limits.MAX_QUESTIONS)) == limits.MAX_QUESTIONS


def test_a_questions_file_with_a_question_too_long(cli, filing_db, tmp_path):
    plain = tmp_path / "long.txt"
    plain.write_text(f"{CAPEX}\n{'x' * (limits.MAX_QUESTION_CHARS + 1)}\n", encoding="utf-8")
    jsonl = _jsonl(tmp_path / "long.jsonl", [{"id": 1, "question": CAPEX},
                                             {"id": 2, "question": "x" * (limits.MAX_QUESTION_CHARS + 1)}])
    for questions in (plain, jsonl):
        result = cli("query", filing_db, "--questions", questions)
        assert result.exit_code == EXIT_INPUT and result.stdout == ""  # nothing asked
        assert result.stderr == f"Error: {_too_long(f'{questions}:2: ')}\n"


def test_a_jsonl_line_too_long_is_refused_before_it_is_decoded():
    line = json.dumps({"question": "capex", "note": "x" * limits.MAX_JSONL_LINE_CHARS})
    with pytest.raises(SourceError) as caught:
        parse_questions('{"question": "capex"}\n' + line + "\n", "q.jsonl")
    assert str(caught.value) == (f"q.jsonl:2: a line of {len(line)} characters; evfind reads JSONL lines of at "
                                 f"most {limits.MAX_JSONL_LINE_CHARS}")


def test_every_bound_is_an_input_error_of_exit_code_3():
    checks = [
        lambda: limits.check_page_count(MAX_PAGES + 1, "f"),
        lambda: limits.check_page_number(MAX_PAGES + 1, "f"),
        lambda: limits.check_page_number(0, "f"),
        lambda: limits.check_page_text("x" * (limits.MAX_PAGE_CHARS + 1), "f"),
        lambda: limits.check_page_text("x" * (limits.MAX_LINE_CHARS + 1), "f"),
        lambda: limits.check_jsonl_line("x" * (limits.MAX_JSONL_LINE_CHARS + 1), "f"),
        lambda: limits.check_question("x" * (limits.MAX_QUESTION_CHARS + 1)),
        lambda: limits.check_question_count(limits.MAX_QUESTIONS + 1, "f"),
    ]
    for check in checks:
        with pytest.raises(EvfindError) as caught:
            check()
        assert isinstance(caught.value, InputError) and caught.value.exit_code == EXIT_INPUT
        assert "\n" not in str(caught.value)
    # at each bound, nothing is refused
    limits.check_page_count(MAX_PAGES, "f")
    limits.check_page_number(1, "f")
    limits.check_page_number(MAX_PAGES, "f")
    limits.check_page_text("x" * limits.MAX_LINE_CHARS, "f")
    limits.check_jsonl_line("x" * limits.MAX_JSONL_LINE_CHARS, "f")
    limits.check_question("x" * limits.MAX_QUESTION_CHARS)
    limits.check_question_count(limits.MAX_QUESTIONS, "f")


def test_the_docs_state_the_bounds_as_they_are():
    """The exit-code table (docs/errors.md) quotes the messages with the bounds in them: they must
    not go stale."""
    from .conftest import REPO

    table = (REPO / "docs" / "errors.md").read_text(encoding="utf-8").split("## Every exit code and message")[1]
    for shown in [
        f"`SRC: N pages; evfind reads at most {MAX_PAGES} pages in one filing`",
        f"`SRC:LINE: page_number N is more than the {MAX_PAGES} pages evfind reads in one filing`",
        "`SRC:LINE: page_number N is not a page (pages are counted from 1)`",
        f"evfind reads at most {limits.MAX_PAGE_CHARS} on a page`",
        f"evfind reads lines of at most {limits.MAX_LINE_CHARS}`",
        f"evfind reads JSONL lines of at most {limits.MAX_JSONL_LINE_CHARS}`",
        f"evfind reads questions of at most {limits.MAX_QUESTION_CHARS} characters`",
        f"evfind asks at most {limits.MAX_QUESTIONS} from one file (split it)`",
        f"({MAX_PAGES:,}; ", f"more than {limits.MAX_PAGE_CHARS:,} characters", f"more than {limits.MAX_LINE_CHARS:,},",
        f"of more than {limits.MAX_JSONL_LINE_CHARS:,} |", f"more than {limits.MAX_QUESTION_CHARS:,} characters (",
        f"more than {limits.MAX_QUESTIONS:,} questions |",
    ]:
        assert shown in table, shown
