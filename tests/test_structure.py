"""structure.py on page texts written here: headings, sections carried forward, statements."""

from __future__ import annotations

import pytest

from evfind.structure import analyse, item_heading, note_heading

INCOME_LINES = """Net sales $ 1,000.0 $ 900.0 $ 800.0
Cost of sales 600.0 550.0 500.0
Gross profit 400.0 350.0 300.0
Operating income 150.0 120.0 100.0
Income before income taxes 140.0 110.0 90.0
Net income $ 110.0 $ 85.0 $ 70.0
Net income per share, diluted $ 1.10 $ 0.85 $ 0.70"""

BALANCE_LINES = """Cash and cash equivalents $ 50.0 $ 40.0
Inventories 120.0 110.0
Total current assets 300.0 280.0
Total assets $ 900.0 $ 850.0
Total current liabilities 200.0 190.0
Total liabilities 500.0 480.0
Total shareholders' equity 400.0 370.0"""

CASH_LINES = """Net cash provided by operating activities 210.0 190.0 170.0
Purchases of property, plant and equipment (80.0) (70.0) (60.0)
Net cash used in investing activities (80.0) (70.0) (60.0)
Dividends paid (30.0) (25.0) (20.0)
Net cash used in financing activities (40.0) (35.0) (30.0)
Cash and cash equivalents at end of year $ 50.0 $ 40.0 $ 30.0"""


@pytest.mark.parametrize(
    "title",
    [
        "Consolidated Statements of Income",
        "CONSOLIDATED STATEMENTS OF OPERATIONS",
        "Consolidated Statement of Incom e",  # extraction damage
        "NIKE, Inc. Consolidated Statements of Income",  # company name before the title
        "Consolidated Statements of Earnings GENERAL MILLS, INC. AND SUBSIDIARIES",  # and after
        "Consolidated Statements of Operations (In millions, except per share data)",
        # one continuous statement of income and comprehensive income (ASC 220-10-45-1A)
        "Consolidated Statements of Operations and Comprehensive Loss",
        "CONSOLIDATED STATEMENTS OF INCOME AND COMPREHENSIVE INCOME (LOSS)",
        "Consolidated Statements of Income (Loss)",  # the sign in brackets
        "Consolidated Statements of Earnings and Retained Earnings",
    ],
)
def test_income_statement_titles(title):
    page = analyse([f"Table of Contents\n{title}\nYears ended December 31, 2024 2023 2022\n{INCOME_LINES}\n44"])[0]
    assert page.statement == "income_statement"
    assert page.heading == title  # the title as printed, whatever surrounds it
    assert page.section_heading == title
    # A title that names comprehensive income too is both statements (ASC 220-10-45-1A).
    both = [("comprehensive_income", title, "statement")] if "omprehensive" in title.lower() else []
    assert page.sections == [
        ("income_statement", title, "statement"),
        *both,
        ("primary_statements", title, "statement"),
    ]


def test_balance_sheet_split_over_one_word_lines_and_damaged():
    split = analyse([f"SQUARE,\nINC.\nCONSOLIDATED\nBALANCE\nSHEETS\n(In thousands)\n{BALANCE_LINES}"])[0]
    assert split.statement == "balance_sheet"
    damaged = analyse([f"3M Company and Subsidiaries\nConsolidated Balance Shee t\nAt December 31\n{BALANCE_LINES}"])[0]
    assert damaged.statement == "balance_sheet"
    position = analyse([f"Consolidated Statements of Financial Position\n{BALANCE_LINES}"])[0]
    assert position.statement == "balance_sheet"


EQUITY_LINES = """Common stock Retained earnings Total
Balance at December 31, 2023 $ 10.0 $ 360.0 $ 370.0
Net income 110.0 110.0
Dividends declared (30.0) (30.0)
Repurchases of common stock (50.0) (50.0)
Balance at December 31, 2024 $ 10.0 $ 390.0 $ 400.0"""


@pytest.mark.parametrize(
    "title, lines, statement",
    [
        ("Consolidated Statements of Shareholders' Equity and Comprehensive Income", EQUITY_LINES, "equity_statement"),
        ("Consolidated Statements of Stockholders' Equity (Deficit)", EQUITY_LINES, "equity_statement"),
        ("Consolidated Statements of Comprehensive Income (Loss)", INCOME_LINES, "comprehensive_income"),
    ],
)
def test_other_statements_titled_with_a_second_statement_or_a_sign(title, lines, statement):
    assert analyse([f"{title}\n{lines}"])[0].statement == statement


def test_a_sentence_ending_in_a_statements_name_is_not_its_title():
    """A line of prose that wraps onto "... in the consolidated statements of income (loss)" starts
    in lower case: it is not the statement's title, and the note's page is not the statement."""
    text = ("Note 9. Other Income\nGains and losses on equity investments are recorded in other income in the\n"
            "consolidated statements of income (loss) for the year ended December 31, 2024.\n"
            "liabilities on our Consolidated Balance Sheets.\n" + INCOME_LINES)
    page = analyse([text])[0]
    assert page.statement is None
    assert all(label not in ("income_statement", "balance_sheet") for label, _, _ in page.sections)


def test_pages_that_merely_name_the_statements_are_not_statements():
    toc = "\n".join(
        ["Index to Consolidated Financial Statements", "Consolidated Statements of Income 44",
         "Consolidated Balance Sheets 45", "Consolidated Statements of Cash Flows 46", INCOME_LINES]
    )
    audit = "\n".join(
        ["Report of Independent Registered Public Accounting Firm", "Consolidated Balance Sheets",
         "We have audited the accompanying consolidated balance sheets of the Company", BALANCE_LINES]
    )
    words_only = "Consolidated Statements of Cash Flows\nThe statements are prepared on a consistent basis."
    off_balance = f"Off-Balance Sheet Arrangements\n{BALANCE_LINES}"
    consolidating = f"Condensed Consolidating Statements of Income\n{INCOME_LINES}"
    for text in (toc, audit, words_only, off_balance, consolidating):
        assert analyse([text])[0].statement is None, text.splitlines()[0]


def test_statement_running_onto_a_second_page():
    pages = analyse([
        f"Consolidated Statements of Cash Flows\n{CASH_LINES}",
        f"Consolidated Statements of Cash Flows (continued)\n{CASH_LINES}",
        f"Supplemental disclosures\n{CASH_LINES}",
    ])
    assert [p.statement for p in pages] == ["cash_flow_statement"] * 3


def test_the_main_block_of_statements_is_primary():
    pages = [
        f"Selected Quarterly Data\nConsolidated Statements of Income\n{INCOME_LINES}",  # 1: a copy
        "Item 7. Management's Discussion and Analysis\nResults of operations were strong.",
        "Liquidity was ample throughout the year, and we repaid part of our term loan.",
        "Item 8. Financial Statements and Supplementary Data",
        f"Consolidated Statements of Income\n{INCOME_LINES}",  # 5: the main block
        f"Consolidated Balance Sheets\n{BALANCE_LINES}",
        f"Consolidated Statements of Cash Flows\n{CASH_LINES}",
    ]
    primary = [i for i, p in enumerate(analyse(pages), 1) if any(s[0] == "primary_statements" for s in p.sections)]
    assert primary == [5, 6, 7]


def test_sections_are_carried_forward_and_notes_start_mid_page():
    pages = analyse([
        "Item 1A. Risk Factors\nOur largest customer accounted for 18 percent of net sales.",
        "We rely on a single supplier for bearings used in all of our products and more.",
        "Item 8. Financial Statements and Supplementary Data\nNote 1. Summary of Significant Accounting Policies\n"
        "Revenue is recognized when control passes.\nNote 2. Income Taxes\nThe effective tax rate was 22 percent.",
        "Deferred tax assets consisted of accrued warranty costs and inventory reserves of the Company.\n"
        "Note 3. Segment Information\nWe have two reportable segments, each with its own management.",
        "The segments are managed separately because each sells different products to customers.",
    ])
    labels = [{label for label, _, origin in p.sections} for p in pages]
    assert "risk_factors" in labels[1]  # carried from page 1
    assert pages[1].section == "risk_factors" and pages[1].context == "Item 1A. Risk Factors"
    assert {"accounting_policies", "income_taxes"} <= labels[2]
    assert pages[3].section == "income_taxes"  # the note in force at the top of the page
    assert ("income_taxes", "Note 2. Income Taxes", "carried") in pages[3].sections
    assert ("segment_information", "Note 3. Segment Information", "title") in pages[3].sections
    assert pages[4].section == "segment_information"
    assert "income_taxes" not in labels[4]
    assert pages[2].heading.startswith("Item 8. Financial Statements and Supplementary Data | Note 1.")


def test_a_one_word_heading_over_a_sentence_with_a_date_and_a_count():
    """'EMPLOYEES' then 'As of December 2, 2016, we employed 15,706 people.': the sentence holds
    three numbers and is still running text, so the word above it is a heading; a one-word
    caption over rows of figures is not."""
    pages = analyse([
        "Item 1. Business\nWe make widgets for industrial customers around the world.\nEMPLOYEES\n"
        "As of December 2, 2016, we employed 15,706 people. We have not experienced work stoppages.",
        "Item 7. Management's Discussion and Analysis\nBacklog\n2024 2023 2022 2021\n1,204 1,100 987 860",
    ])
    labels = [{label for label, _, origin in p.sections} for p in pages]
    assert "human_capital" in labels[0]
    assert "backlog" not in labels[1]


def test_table_of_contents_moves_nothing():
    toc = "\n".join(f"Item {n}. {t} {p}" for n, t, p in [
        ("1", "Business", 3), ("1A", "Risk Factors", 9), ("3", "Legal Proceedings", 20), ("7", "Management's Discussion and Analysis", 22)])
    pages = analyse(["Item 1. Business\nWe make widgets for industrial customers everywhere.", toc, "More about widgets and markets."])
    assert ("table_of_contents", "Table of contents", "title") in pages[1].sections
    assert pages[2].section == "business"


@pytest.mark.parametrize(
    "line, label",
    [
        ("Item 1A. Risk Factors", "risk_factors"),
        ("ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION", "mdna"),
        ("Item 3. Legal Proceedings", "legal_proceedings"),
        ("Item 15. Exhibits and Financial Statement Schedules", "exhibits"),
        ("Item 8. Financial Statements and Supplementary Data", "financial_statements"),
    ],
)
def test_item_headings(line, label):
    assert item_heading(line)[0] == label


def test_cross_references_are_not_headings():
    assert item_heading("Item 1A of this report describes the risks we face in our business") is None
    assert note_heading("Note 3 describes the acquisitions") is None


@pytest.mark.parametrize(
    "line, label",
    [
        ("Note 9 - Income Taxes", "income_taxes"),
        ("NOTE 12 - LEASES", "leases"),
        ("Note 5. Acquisitions and Divestitures", "acquisitions"),
        ("Note 4 - Something Unusual", "note"),
    ],
)
def test_note_headings(line, label):
    assert note_heading(line)[0] == label
