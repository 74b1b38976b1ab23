"""The shared folio reader (evfind/folios.py) on pages as HTML ingest lays them out: the folio
printed at a page's foot or head, accepted only where it runs in sequence with its neighbours."""

from __future__ import annotations

import pytest

from evfind.folios import folio_candidate, printed_folios


@pytest.mark.parametrize(
    "line, folio",
    [
        ("49", "49"), ("- 49 -", "49"), ("Page 49", "49"), ("Page 49 of 120", "49"), ("[7]", "7"),
        ("ii", "ii"), ("(iv)", "iv"), ("XII", "XII"), ("F-12", "F-12"), ("S-1", "S-1"),
        ("2025 FORM 10-K 56", "56"), ("56 | Annual Report", "56"), ("Morrow Tools | 7", "7"),
        ("1 of 2", "1"),  # page one of two
        ("Net sales $ 1,234 $ 1,100", None), ("(1,234)", None), ("ivi", None), ("The year ended.", None),
        ("", None), ("Exhibit 21", None), ("Note 5", None),
    ],
)
def test_what_a_line_may_print_as_its_folio(line, folio):
    assert folio_candidate(line) == folio


def page(*lines: str) -> str:
    return "\n".join(lines)


def test_a_folio_counts_only_in_sequence_with_a_neighbour():
    pages = [
        page("ANNUAL REPORT", "Morrow Tools Inc."),  # a cover
        page("Table of Contents", "Item 1. Business 1", "Signatures 137"),  # a contents page's last line
        page("Item 1. Business", "We make tools.", "1"),
        page("Item 1A. Risk Factors", "Risks.", "2"),
        page("A chart", ""),  # a page without a folio between two that print one
        page("Liquidity", "Cash was 2025", "4"),
        page("Total 2024 sales", "2024"),  # a year at the foot: no neighbour runs with it
        page("ii"),  # a lone roman numeral
        page("Exhibit index", "F-1"),
        page("Balance sheet", "F-2"),
    ]
    assert printed_folios(pages) == [None, None, "1", "2", None, "4", None, None, "F-1", "F-2"]


def test_heads_running_footers_and_roman_front_matter():
    pages = [
        page("i", "Contents"),
        page("ii", "More contents"),
        page("Text", "2025 FORM 10-K 1"),
        page("Text", "2025 FORM 10-K 2"),
        page("Page 3", "Text"),  # a head folio, in the same arabic run as its bare neighbour
        page("Text", "4"),
    ]
    assert printed_folios(pages) == ["i", "ii", "1", "2", "3", "4"]


def test_a_number_beside_running_text_needs_two_neighbours_in_step():
    # a note or an article number beside text could imitate one neighbour, not two
    pages = [page("Text", "Annual Report 5"), page("Text", "Quarterly Note 6"), page("Text", "Annual Report 7")]
    assert printed_folios(pages) == [None, None, None]
    pages.append(page("Text", "Annual Report 8"))
    assert printed_folios(pages) == ["5", None, "7", "8"]


def test_no_pages_no_folios():
    assert printed_folios([]) == []
    assert printed_folios(["", "  "]) == [None, None]
