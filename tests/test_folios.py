"""Printed folios read from page texts (evfind/folios.py): page texts written here, not taken
from any filing."""

from __future__ import annotations

from evfind.folios import page_labels, printed_folios


def body(words: str = "Revenue grew in the year as demand rose across the segments.") -> str:
    return "\n".join([words] * 4)


def test_plain_folios_at_the_foot_run_in_sequence():
    pages = [f"{body()}\n{n}" for n in range(1, 7)]
    assert printed_folios(pages) == ["1", "2", "3", "4", "5", "6"]


def test_a_cover_without_folio_and_blank_pages_get_none():
    pages = ["ANNUAL REPORT\nHalden Corp.\nFiscal 2025", ""] + [f"{body()}\n{n}" for n in range(1, 5)] + ["", "  \n "]
    assert printed_folios(pages) == [None, None, "1", "2", "3", "4", None, None]


def test_a_table_whose_last_line_is_a_number_is_not_a_folio():
    pages = [
        f"{body()}\n1",
        "Segment results\nData Center 1,393\nTotal\n518",  # no folio printed, a figure at its foot
        f"{body()}\n3",
        f"{body()}\n4",
    ]
    assert printed_folios(pages) == ["1", None, "3", "4"]


def test_figures_and_years_out_of_step_are_never_taken():
    # every page ends in a number, but none runs in step with its neighbours
    pages = [f"{body()}\nTotal\n{n}" for n in (812, 44, 2019, 7, 1393, 250)]
    assert printed_folios(pages) == [None] * 6
    # years in column headings can run in step (2019 on one page, 2020 on the next)
    pages = [f"Fiscal\n{year}\n{body()}" for year in (2018, 2019, 2020, 2021)]
    assert printed_folios(pages) == [None] * 4


def test_a_gap_in_the_sequence_where_pages_print_no_folio():
    pages = [f"{body()}\n{n}" for n in range(10, 14)] + ["(chart)", "(chart)"] + [f"{body()}\n{n}" for n in range(16, 19)]
    assert printed_folios(pages) == ["10", "11", "12", "13", None, None, "16", "17", "18"]


def test_a_blank_page_inserted_puts_the_folios_out_of_step_by_one():
    pages = [f"{body()}\n{n}" for n in (50, 51, 52)] + ["", f"{body()}\n53", "(full-page table)", f"{body()}\n54", f"{body()}\n55"]
    assert printed_folios(pages) == ["50", "51", "52", None, "53", None, "54", "55"]


def test_roman_numerals_in_the_front_matter_then_arabic():
    pages = ["COVER", "Contents\nItem 1 Business 1\nii", "Contents, continued\niii", "Forward-looking statements\niv"]
    pages += [f"{body()}\n{n}" for n in range(1, 4)]
    assert printed_folios(pages) == [None, "ii", "iii", "iv", "1", "2", "3"]


def test_f_pages_and_letter_prefixes_as_printed():
    pages = [f"{body()}\n{n}" for n in (58, 59)] + [f"{body()}\nF-{n}" for n in range(1, 4)]
    pages += [f"{body()}\nA - {n}" for n in (1, 2)]
    assert printed_folios(pages) == ["58", "59", "F-1", "F-2", "F-3", "A-1", "A-2"]


def test_dashed_parenthesised_and_page_of_forms():
    assert printed_folios([f"{body()}\n- {n} -" for n in (4, 5, 6)]) == ["4", "5", "6"]
    assert printed_folios([f"-{n}-\n{body()}" for n in (9, 10)]) == ["9", "10"]
    assert printed_folios([f"{body()}\n(i{'i' * n})" for n in range(3)]) == ["i", "ii", "iii"]
    assert printed_folios([f"{body()}\nPage {n} of 3" for n in (1, 2, 3)]) == ["1", "2", "3"]


def test_a_folio_beside_a_running_footer():
    pages = []
    for n in range(20, 26):
        pages.append(f"{body()}\n{n} HALDEN CORP." if n % 2 == 0 else f"{body()}\n2025 FORM 10-K {n}")
    assert printed_folios(pages) == [str(n) for n in range(20, 26)]


def test_numbered_headings_are_not_folios():
    # "Exhibit 21", "Exhibit 22"... at the head of consecutive pages run in step, but number exhibits
    pages = [f"EXHIBIT {n}\n{body()}" for n in (21, 22, 23, 24)]
    assert printed_folios(pages) == [None] * 4
    pages = [f"Note {n}\n{body()}" for n in (4, 5, 6, 7)]
    assert printed_folios(pages) == [None] * 4


def test_a_folio_at_the_head_of_html_pages():
    # the first line of an HTML page (a filer's page break) holds its folio as often as the last
    pages = [f"{n}\nHALDEN CORP.\n{body()}" for n in range(31, 35)]
    assert printed_folios(pages) == ["31", "32", "33", "34"]


def test_a_folio_glued_to_the_last_sentence_between_two_in_step():
    pages = [f"{body()}\n40", f"{body()}\nas shown in the table above. 41", f"{body()}\n42"]
    assert printed_folios(pages) == ["40", "41", "42"]


def test_a_lone_page_number_with_no_neighbour_is_not_enough():
    assert printed_folios([f"{body()}\n7"]) == [None]
    assert printed_folios([]) == []


def test_pdf_page_labels_win_unless_they_only_repeat_the_physical_numbers():
    texts = [f"{body()}\n{n}" for n in (5, 6, 7)]
    assert page_labels(["i", "ii", "1"], texts) == ["i", "ii", "1"]
    assert page_labels(["1", "2", "3"], texts) == ["5", "6", "7"]  # 1..N says nothing
    assert page_labels([None, None, None], texts) == ["5", "6", "7"]
