"""lines.py: the line primitives structure.py and forms.py share, on lines worked out by hand."""

from __future__ import annotations

import pytest

from evfind import forms, structure
from evfind.lines import TOP_LINES, boilerplate, first_content, lines, reflow, tickers, top, top_end


@pytest.mark.parametrize(
    "line, expected",
    [
        ("12", True), ("Page 12", True), ("xiv", True), ("F-12", True), ("MD-4", True), (".00", True),
        ("Table of Contents", True), ("INDEX", True), ("PART II", True), ("Part I - Financial Information", True),
        ("Notes to Consolidated Financial Statements (continued)", True),
        ("Revenue 12", False), ("Part II, Item 1A of our annual report describes risks", False), ("ABC-1234", False),
    ],
)
def test_boilerplate_is_one_rule_for_both_readers(line, expected):
    assert boilerplate(line) is expected


def test_the_top_of_a_page_is_its_first_lines_of_content():
    page = lines("Table of Contents\n\n  PART II \n" + "\n".join(f"line {n}" for n in range(1, 12)) + "\n12\n")
    assert top(page) == [f"line {n}" for n in range(1, TOP_LINES + 1)]
    assert top_end(page) == 2 + TOP_LINES  # the two headers counted in
    assert first_content(page) == 2
    assert top(page, 2) == ["line 1", "line 2"]


def test_structure_and_forms_read_the_same_top():
    """One TOP_LINES: a statement title on the eighth line of content is at the top for
    structure.py, and an "Exhibit 4.1" line there starts an exhibit for forms.py."""
    filler = "\n".join(f"Some text line {n}" for n in range(1, 8))
    assert forms.exhibit_start(f"{filler}\nExhibit 4.1\nINDENTURE") == ("4.1", "")
    assert forms.exhibit_start(f"{filler}\nOne more line\nExhibit 4.1\nINDENTURE") is None
    names = [h.label for h in structure.find_headings(lines(f"{filler}\nConsolidated Balance Sheets"), False)]
    assert names == ["balance_sheet"]
    assert structure.find_headings(lines(f"{filler}\nOne more line of running text\nConsolidated Balance Sheets"), False) == []


def test_reflow_joins_a_sentence_extracted_a_word_a_line():
    assert reflow(["Item", "1.01 Entry", "into", "a", "Material", "Agreement."]) == ["Item 1.01 Entry into a Material Agreement."]
    assert reflow(["Backlog", "12"]) == ["Backlog", "12"]  # a heading and its number: two lines


def test_tickers_of_a_cover_and_of_a_dateline():
    cover = "Title of each class Trading Symbol(s) Name of each exchange\nCommon Stock MMM New York Stock Exchange\nMMM Chicago Stock Exchange"
    assert tickers(cover) == ("MMM",)
    assert tickers("PURCHASE, N.Y., Feb. 9, 2023 (Nasdaq: PEP) -- PepsiCo today reported") == ("PEP",)
    assert tickers("BRK.B NYSE") == ("BRK.B",)
    assert tickers("the stock (nyse: abc) rose") == ()  # a symbol is printed in capitals
