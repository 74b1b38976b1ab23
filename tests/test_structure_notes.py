"""Where the notes to the financial statements begin, on pages written here: the heading styles
filers print ("Note 9 - Income Taxes", "9. Leases", "(9) Leases", "NOTE A"), the lines that only
look like one (the notes' running head, "Notes payable", a "(Continued)" head, an index of the
notes), and the order the notes run in."""

from __future__ import annotations

from evfind.structure import PageStructure, analyse, note_heading, note_number

CASH_LINES = "\n".join([
    "Net cash provided by operating activities 210.0 190.0 170.0",
    "Purchases of property, plant and equipment (80.0) (70.0) (60.0)",
    "Net cash used in investing activities (80.0) (70.0) (60.0)",
    "Dividends paid (30.0) (25.0) (20.0)",
    "Net cash used in financing activities (40.0) (35.0) (30.0)",
    "Cash and cash equivalents at end of year $ 50.0 $ 40.0 $ 30.0",
])
STATEMENT = f"Consolidated Statements of Cash Flows\nYears ended December 31, 2024 2023 2022\n{CASH_LINES}"
TEXT = "The Company recognizes revenue when control of the goods passes to the customer, at shipment."


def starts(page: PageStructure) -> list[tuple[str, str]]:
    """(label, heading) of the sections a page starts."""
    return [(label, heading) for label, heading, origin in page.sections if origin in ("title", "started")]


def test_the_notes_running_head_and_notes_payable_are_no_note():
    assert note_heading("NOTES TO CONSOLIDATED FINANCIAL STATEMENTS") is None
    assert note_heading("Notes payable") is None
    assert note_heading("Note A - Leases") == ("leases", "Note A - Leases")
    assert note_heading("NOTE 12: DEBT") == ("debt", "NOTE 12: DEBT")
    pages = analyse([
        STATEMENT,
        f"NOTES TO CONSOLIDATED FINANCIAL STATEMENTS\nNote 1 - Revenue\n{TEXT}",
        f"NOTES TO CONSOLIDATED FINANCIAL STATEMENTS (Continued)\n{TEXT}\n{TEXT}",
    ])
    # The running head on the second page of the note starts nothing: Note 1 goes on.
    assert starts(pages[2]) == []
    assert pages[2].sections == [("revenue", "Note 1 - Revenue", "carried")]


def test_a_continued_head_goes_on_with_its_note():
    pages = analyse([
        STATEMENT,
        f"1. Summary of Significant Accounting Policies\n{TEXT}",
        f"1. Summary of Significant Accounting Policies (Continued)\n{TEXT}",
        f"Note 2 - Income Taxes\n{TEXT}",
        f"Note 2 - Income Taxes (continued)\n{TEXT}",
    ])
    assert starts(pages[1]) == [("accounting_policies", "1. Summary of Significant Accounting Policies")]
    assert starts(pages[2]) == [] and pages[2].section == "accounting_policies"
    assert starts(pages[4]) == [] and pages[4].section == "income_taxes"


def test_an_index_of_the_notes_starts_no_note():
    index = "\n".join([
        "Notes to Consolidated Financial Statements",
        "Note 1 Summary of Significant Accounting Policies 50",
        "Note 2 Inventories 55",
        "Note 3 Property, Plant and Equipment 55",
        "Note 4 Income Taxes 59",
        "Note 5 Earnings Per Share 64",
    ])
    pages = analyse([STATEMENT, index, f"Note 1 - Summary of Significant Accounting Policies\n{TEXT}"])
    assert starts(pages[1]) == [("table_of_contents", "Table of contents")]
    assert starts(pages[2]) == [("accounting_policies", "Note 1 - Summary of Significant Accounting Policies")]


def test_bare_numbered_notes_in_order_whatever_their_topic():
    pages = analyse([
        STATEMENT,
        f"1. Description of Business\n{TEXT}",
        f"{TEXT}\n2. Summary of Significant Accounting Policies\n{TEXT}",
        f"3. Software Development\n{TEXT}\n1. Capital Transactions\n{TEXT}\n4. Fair Value Measurements\n{TEXT}",
        f"(5) Reinsurance\n{TEXT}",
    ])
    # Note 1's topic (the nature of the business) and Note 2's are both accounting_policies:
    # the page starts the second, though the first is carried onto its top.
    assert starts(pages[2]) == [("accounting_policies", "2. Summary of Significant Accounting Policies")]
    # "3. Software Development" names no known topic but is the next note; a "1." inside it is
    # a list's first item, not a note.
    assert starts(pages[3]) == [("note", "3. Software Development"), ("fair_value", "4. Fair Value Measurements")]
    assert starts(pages[4]) == [("note", "(5) Reinsurance")]
    assert [note_number(h) for h in ("Note 12 - Debt", "12. Debt", "(12) Debt", "Debt")] == [12, 12, 12, None]


def test_an_item_after_the_notes_ends_them():
    pages = analyse([
        STATEMENT,
        f"1. Revenue\n{TEXT}",
        f"Item 15. Exhibits and Financial Statement Schedules\n{TEXT}\n2. Financial Statement Schedules\n{TEXT}",
    ])
    assert starts(pages[1]) == [("revenue", "1. Revenue")]
    # Item 15's numbered list is no Note 2.
    assert starts(pages[2]) == [("exhibits", "Item 15. Exhibits and Financial Statement Schedules")]
