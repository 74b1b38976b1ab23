"""`evfind show`: printed folios read from the text, --label, -n and --lines, and a page's line N
on standard output being the evidence's line N."""

from __future__ import annotations

import re

import pytest

from .conftest import write_jsonl
from .filing import BLANK_PAGE, PAGES

CAPEX = "What were capital expenditures in 2024?"


@pytest.fixture
def text_db(cli, tmp_path):
    """The test filing as JSONL: no PDF page labels, so its folios are read from its text."""
    source = write_jsonl(tmp_path / "ACME_2024_10K.jsonl", PAGES)
    result = cli("ingest", source)
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip().endswith("printed page labels stored")
    return source.with_suffix(".db")


def test_folios_printed_on_the_pages_are_stored_and_shown_beside_the_physical_page(cli, text_db):
    result, data = cli.json("query", text_db, CAPEX, "--top", "1")
    hit = data["results"][0]
    assert (hit["page_number"], hit["page_label"]) == (10, "8")
    table = cli("query", text_db, CAPEX, "--top", "1").stdout
    assert re.search(r"\n   1  10 \(printed 8\)  [01]\.\d\d  ACME_2024_10K", table)
    markdown = cli("query", text_db, CAPEX, "--top", "1", "--format", "markdown").stdout
    assert re.search(r"\| 1 \| 10 \(printed 8\) \| [01]\.\d\d \| ACME_2024_10K", markdown)
    labels = [cli.json("show", text_db, n)[1]["page_label"] for n in range(1, 13)]
    # cover and contents print no folio, nor the blank page; 1 to 10 on the others
    assert labels == [None, None, "1", "2", "3", "4", None, "6", "7", "8", "9", "10"]
    assert BLANK_PAGE == 7
    info = cli("info", text_db).stdout
    assert "  page labels  9 of 12 pages (printed folios stored)\n" in info


def test_show_label_finds_the_physical_page(cli, text_db):
    by_label = cli("show", text_db, "--label", "8")
    assert by_label.exit_code == 0, by_label.output
    assert (by_label.stdout, by_label.stderr) == (cli("show", text_db, 10).stdout, cli("show", text_db, 10).stderr)
    _, page = cli.json("show", text_db, "--label", " 8 ")
    assert page["page_number"] == 10
    none = cli("show", text_db, "--label", "F-3")
    assert (none.exit_code, none.stdout) == (2, "")
    assert none.stderr == "Error: no page is labelled 'F-3' in ACME_2024_10K (9 of its pages have one)\n"
    both = cli("show", text_db, "10", "--label", "8")
    assert (both.exit_code, both.stderr) == (2, "Error: give a physical page number or --label FOLIO, not both\n")
    neither = cli("show", text_db)
    assert (neither.exit_code, neither.stderr) == (2, "Error: give a physical page number, or --label FOLIO\n")


def test_show_label_printed_on_several_pages_lists_them(cli, tmp_path):
    body = "Revenue grew in the year as demand rose across the segments."
    pages = [f"Report\n{body}\n{n}" for n in (1, 2, 3)] + [f"Exhibit 10.1 Credit agreement\n{body}\n{n}" for n in (1, 2, 3)]
    source = write_jsonl(tmp_path / "TWO.jsonl", pages)
    assert cli("ingest", source).exit_code == 0
    result = cli("show", source.with_suffix(".db"), "--label", "2")
    assert result.exit_code == 0
    assert result.stderr.startswith("Note: 2 pages print the folio 2: pages 2, 5\nPage 2 (printed 2) of 6")
    assert result.stdout == f"{pages[1]}\n\f\n{pages[4]}\n"
    _, listed = cli.json("show", source.with_suffix(".db"), "--label", "2")
    assert [p["page_number"] for p in listed] == [2, 5]


def test_line_n_of_standard_output_is_the_evidence_line_n(cli, filing_db):
    _, data = cli.json("query", filing_db, CAPEX, "--top", "1")
    hit = data["results"][0]
    assert hit["page_number"] == 10 and hit["evidence"]
    shown = cli("show", filing_db, 10).stdout.split("\n")
    numbered = cli("show", filing_db, 10, "-n").stdout.split("\n")
    for entry in hit["evidence"]:
        number, text = entry["line"], entry["text"]
        assert shown[number - 1] == text  # `evfind show DB 10 | sed -n {number}p`
        assert numbered[number - 1] == f"{number:>2}  {text}"
        only = cli("show", filing_db, 10, "--lines", str(number))
        assert (only.exit_code, only.stdout) == (0, text + "\n")
    assert numbered[0] == " 1  Table of Contents"
    assert shown[9] == "Purchases of property, plant and equipment (52.8) (47.3) (44.1)"


def test_show_lines_prints_a_range_numbered_with_n(cli, filing_db):
    result = cli("show", filing_db, 10, "--lines", "9-11", "-n")
    assert result.exit_code == 0
    assert result.stdout == (
        " 9  Investing activities\n"
        "10  Purchases of property, plant and equipment (52.8) (47.3) (44.1)\n"
        "11  Net cash used in investing activities (52.8) (47.3) (44.1)\n"
    )
    assert cli("show", filing_db, 10, "--lines", "17-40").stdout == "8\n"  # to the end of the page
    _, page = cli.json("show", filing_db, 10, "--lines", "10")
    assert page["lines"] == [[10, "Purchases of property, plant and equipment (52.8) (47.3) (44.1)"]]


@pytest.mark.parametrize(
    "spec, message",
    [
        ("0", "--lines '0': give a line 17 or a range 17-19 (lines count from 1)"),
        ("ten", "--lines 'ten': give a line 17 or a range 17-19 (lines count from 1)"),
        ("19-17", "--lines 19-17 runs backwards: write 17-19"),
        ("40-41", "--lines 40-41: the page has 17 lines"),
    ],
)
def test_show_lines_refuses_bad_ranges_in_one_line(cli, filing_db, spec, message):
    result = cli("show", filing_db, 10, "--lines", spec)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"Error: {message}\n")
