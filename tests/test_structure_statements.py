"""Where the primary statements begin, on pages written here: titles as filers print them (over
two lines, named after the interests beside equity), two statements on one page, and the pages
that borrow a statement's name (a sentence, a caption over a note's table, the registrant's own
condensed statements, a note's restated balance sheet)."""

from __future__ import annotations

import pytest

from evfind.structure import analyse

from .test_structure import BALANCE_LINES, CASH_LINES, EQUITY_LINES, INCOME_LINES

BALANCE = f"Consolidated Balance Sheets\nDecember 31, 2024 and 2023\n{BALANCE_LINES}"
INCOME = f"Consolidated Statements of Income\nYears ended December 31, 2024 2023 2022\n{INCOME_LINES}"
CASH = f"Consolidated Statements of Cash Flows\nYears ended December 31, 2024 2023 2022\n{CASH_LINES}"
EQUITY = f"Consolidated Statements of Shareholders' Equity\n{EQUITY_LINES}"
TEXT = "The Company recognizes revenue when control of the goods passes to the customer, at shipment."


def statements(page) -> list[str]:
    return [label for label, _, origin in page.sections if origin == "statement" and label != "primary_statements"]


@pytest.mark.parametrize(
    "line",
    [
        "This data should be read in conjunction with our Consolidated Statements of Cash Flows.",
        "Amounts recognized in the Consolidated Statements of Cash Flows as of December 31, (Millions)",
        "Gains/(Losses) Recognized in Consolidated Statements of Cash Flows",
        "Statements of Cash Flows:",
    ],
)
def test_a_sentence_or_a_caption_naming_a_statement_is_no_title(line):
    page = analyse([f"{TEXT}\n{line}\n{CASH_LINES}"])[0]
    assert page.statement is None


def test_a_statements_name_ending_a_wrapped_sentence_is_no_title():
    page = analyse([f"{TEXT}\nthe changes in their values are recorded currently in cost of sales in our\n"
                    f"Statements of Cash Flows.\n{CASH_LINES}"])[0]
    assert page.statement is None


@pytest.mark.parametrize(
    "title",
    [
        "Consolidated Statements of Total Equity and Redeemable Interest",
        "Consolidated Statements of Redeemable Noncontrolling Interests and Equity",
        "Condensed Consolidated Statements of Convertible Preferred Stock and Stockholders' Deficit",
        "STOCKHOLDERS' EQUITY STATEMENTS",
        "CONSOLIDATED STATEMENTS OF CHANGES IN\nSHAREHOLDERS' EQUITY",  # wrapped onto a short line
    ],
)
def test_equity_statements_as_filers_title_them(title):
    page = analyse([f"{title}\n(In millions)\n{EQUITY_LINES}"])[0]
    assert page.statement == "equity_statement"


def test_a_partnerships_statement_of_partners_capital():
    lines = "\n".join([
        "General Partner Limited Partners Total",
        "Balance, January 1, 2024 $ 1,000 $ 390,206 $ 391,206",
        "Net loss - (31,201) (31,201)",
        "Distributions - (183,483) (183,483)",
        "Balance, December 31, 2024 $ 1,000 $ 175,522 $ 176,522",
    ])
    assert analyse([f"Statements of Partners' Capital\n{lines}"])[0].statement == "equity_statement"


def test_a_title_wrapped_onto_a_second_line():
    page = analyse([f"NIKE, INC.\nCONSOLIDATED STATEMENTS OF CASH\nFLOWS\n{CASH_LINES}"])[0]
    assert page.statement == "cash_flow_statement"


def test_a_combined_statement_is_both():
    page = analyse([f"Consolidated Statements of Shareholders' Equity and Comprehensive Income\n{EQUITY_LINES}"])[0]
    assert page.statement == "equity_statement"
    assert statements(page) == ["equity_statement", "comprehensive_income"]


def test_two_statements_on_a_page_and_the_second_running_on():
    first = f"{INCOME}\nCONSOLIDATED BALANCE SHEETS\n(amounts in millions)\nCURRENT ASSETS\nCash and cash equivalents $ 50.0 $ 40.0"
    pages = analyse([f"XYZ Reports Fourth Quarter Results\n{TEXT}", first, BALANCE_LINES])
    assert pages[1].statement == "income_statement"
    assert statements(pages[1]) == ["income_statement", "balance_sheet"]
    # The next page goes on with the balance sheet, the statement that ended the page before.
    assert pages[2].statement == "balance_sheet"


def test_the_registrants_own_condensed_statements_are_a_schedule():
    schedule = f"Schedule I\nCONDENSED FINANCIAL INFORMATION OF REGISTRANT\n(PARENT COMPANY)\n{BALANCE}"
    pages = analyse([INCOME, BALANCE, CASH, TEXT, TEXT, TEXT, schedule])
    assert [p.statement for p in pages] == ["income_statement", "balance_sheet", "cash_flow_statement", None, None, None, None]


def test_a_partial_second_copy_of_the_statements_is_no_primary_statement():
    restated = f"Note 2 - Accounting Standards Adopted\n{TEXT}"
    pages = analyse([INCOME, BALANCE, CASH, EQUITY, restated, TEXT, TEXT, BALANCE, CASH])
    assert [p.statement for p in pages[:4]] == ["income_statement", "balance_sheet", "cash_flow_statement", "equity_statement"]
    # The note's restated balance sheet and cash flows name the statements, and are not them.
    assert pages[7].statement is None and pages[8].statement is None
    assert ("balance_sheet", "Consolidated Balance Sheets", "title") in pages[7].sections
    assert pages[7].section == "accounting_policies"  # the note in force
    # A full second set (another registrant's, in a combined filing) stays.
    pages = analyse([INCOME, BALANCE, CASH, TEXT, TEXT, TEXT, INCOME, BALANCE, CASH])
    assert [p.statement for p in pages[6:]] == ["income_statement", "balance_sheet", "cash_flow_statement"]
