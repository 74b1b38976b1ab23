"""structure.py's walk in its two parts, on pages written here: classify_page (what one page is,
from its lines and a read-only Place) and Carry (what the pages before leave in force)."""

from __future__ import annotations

import pytest

from evfind.structure import (
    DEFINITION_LINES,
    GLOSSARY_LINES,
    TOC_FEW,
    TOC_ITEMS,
    Carry,
    Form,
    Heading,
    PageKind,
    PageStructure,
    Place,
    analyse,
    classify_page,
)

ITEM_8 = ("financial_statements", "Item 8. Financial Statements and Supplementary Data")

CASH_LINES = [
    "Net cash provided by operating activities 210.0 190.0 170.0",
    "Purchases of property, plant and equipment (80.0) (70.0) (60.0)",
    "Net cash used in investing activities (80.0) (70.0) (60.0)",
    "Dividends paid (30.0) (25.0) (20.0)",
    "Net cash used in financing activities (40.0) (35.0) (30.0)",
    "Cash and cash equivalents at end of year $ 50.0 $ 40.0 $ 30.0",
]

# Eight lines of a note's running text: a heading after them is below the page's top.
NOTE_TEXT = [
    "Deferred tax assets consisted of accrued warranty costs and inventory reserves.",
    "The valuation allowance relates to losses carried forward in two countries.",
    "We believe it is more likely than not that the other assets will be realized.",
    "Unrecognized tax benefits were unchanged during the year and are not material.",
    "Interest and penalties are recorded within the provision for income taxes.",
    "The Company files returns in the United States and in several other countries.",
    "Returns for the three most recent years remain open to examination by authorities.",
    "We do not expect the outcome of those examinations to change our results much.",
]


def test_an_item_heading_at_the_top_of_a_page():
    lines = [
        "Table of Contents",
        "Item 1A. Risk Factors",
        "Our largest customer accounted for 18 percent of net sales in the year.",
    ]
    item = Heading("item", "risk_factors", "Item 1A. Risk Factors", 1)
    kind = classify_page(lines)
    assert kind == PageKind(headings=(item,), opening=item, sections=((item, "title"),))

    carry = Carry(item=("business", "Item 1. Business"))
    page = carry.read(kind, 4)
    # The Item opens the page: nothing of Item 1 is carried onto it.
    assert page == PageStructure(
        heading="Item 1A. Risk Factors",
        section="risk_factors",
        section_heading="Item 1A. Risk Factors",
        sections=[("risk_factors", "Item 1A. Risk Factors", "title")],
    )
    assert carry == Carry(item=("risk_factors", "Item 1A. Risk Factors"))


def test_a_note_starting_mid_page():
    lines = [*NOTE_TEXT, "Note 3. Segment Information", "We have two reportable segments, each managed on its own."]
    note = Heading("note", "segment_information", "Note 3. Segment Information", 8)
    kind = classify_page(lines, Place(in_notes=True))
    assert kind == PageKind(headings=(note,), sections=((note, "started"),))

    carry = Carry(item=ITEM_8, note=("income_taxes", "Note 2. Income Taxes"), in_notes=True)
    page = carry.read(kind, 60)
    # The page's top belongs to the note before; the new note starts below it.
    assert page == PageStructure(
        heading="Note 3. Segment Information",
        context="Note 2. Income Taxes",
        section="income_taxes",
        section_heading="Note 2. Income Taxes",
        sections=[
            (*ITEM_8, "carried"),
            ("income_taxes", "Note 2. Income Taxes", "carried"),
            ("segment_information", "Note 3. Segment Information", "started"),
        ],
    )
    assert carry == Carry(item=ITEM_8, note=("segment_information", "Note 3. Segment Information"), in_notes=True,
                          note_number=3)


def test_a_note_at_the_top_of_a_page_ends_the_note_before():
    lines = ["Note 3. Segment Information", "We have two reportable segments, each managed on its own."]
    note = Heading("note", "segment_information", "Note 3. Segment Information", 0)
    kind = classify_page(lines, Place(in_notes=True))
    assert kind == PageKind(headings=(note,), opening=note, sections=((note, "title"),))

    carry = Carry(item=ITEM_8, note=("income_taxes", "Note 2. Income Taxes"), in_notes=True)
    page = carry.read(kind, 61)
    assert page == PageStructure(
        heading="Note 3. Segment Information",  # no context: Item 8 runs over every note
        section="segment_information",
        section_heading="Note 3. Segment Information",
        sections=[(*ITEM_8, "carried"), ("segment_information", "Note 3. Segment Information", "title")],
    )


def test_a_subsection_found_by_its_title_runs_two_more_pages():
    liquidity = ("liquidity", "Liquidity and Capital Resources", 30)
    carry = Carry(item=("mdna", "Item 7. Management's Discussion and Analysis"), topic=liquidity)
    pages = [carry.read(PageKind(), index) for index in (31, 32, 33)]  # untitled pages
    assert [page.section for page in pages] == ["liquidity", "liquidity", "mdna"]
    assert carry.topic is None


def test_a_page_naming_the_notes_starts_the_notes_on_the_next_page():
    kind = classify_page(["The accompanying notes to the financial statements are an integral part of them."])
    assert kind == PageKind(notes_follow=True)
    carry = Carry()
    carry.read(kind, 40)
    assert carry.place() == Place(in_notes=True, next_note=1)  # the first note is Note 1


def test_a_statements_second_page():
    kind = classify_page(CASH_LINES, Place(in_notes=True, statement="cash_flow_statement"))
    assert kind == PageKind(statement="cash_flow_statement")  # untitled: no title of its own
    # The same page after a page that was no statement: a table of figures, nothing more.
    assert classify_page(CASH_LINES, Place(in_notes=True)) == PageKind()

    title = "Consolidated Statements of Cash Flows"
    liquidity = ("liquidity", "Liquidity and Capital Resources", 49)
    carry = Carry(item=ITEM_8, topic=liquidity, in_notes=True, statement="cash_flow_statement", title=title)
    page = carry.read(kind, 50)
    # The title comes from the page before; a statement page inherits only the Item.
    assert page == PageStructure(
        heading=title,
        section="cash_flow_statement",
        section_heading=title,
        statement="cash_flow_statement",
        sections=[(*ITEM_8, "carried"), ("cash_flow_statement", title, "statement")],
    )
    assert carry == Carry(item=ITEM_8, topic=liquidity, in_notes=True, statement="cash_flow_statement", title=title)


def test_a_continued_statement_needs_enough_of_its_line_items():
    # Two of the cash flow statement's line items: too few to continue it without a title.
    lines = [
        "Net cash provided by operating activities 210.0 190.0 170.0 160.0",
        "Net cash used in investing activities (80.0) (70.0) (60.0) (50.0)",
        "Other 1.0 2.0 3.0 4.0",
    ]
    assert classify_page(lines, Place(statement="cash_flow_statement")).statement is None
    lines.append("Net cash used in financing activities (40.0) (35.0) (30.0) (20.0)")
    assert classify_page(lines, Place(statement="cash_flow_statement")).statement == "cash_flow_statement"


def test_a_table_of_contents():
    lines = [
        "Table of Contents",
        "Item 1. Business 3",
        "Item 1A. Risk Factors 9",
        "Item 3. Legal Proceedings 20",
        "Item 7. Management's Discussion and Analysis 22",
    ]
    kind = classify_page(lines)
    assert kind == PageKind(toc=True, index=True)  # names the Items, starts none of them

    carry = Carry(item=("business", "Item 1. Business"))
    page = carry.read(kind, 1)
    assert page == PageStructure(
        context="Item 1. Business",
        section="business",
        section_heading="Item 1. Business",
        toc=True,
        sections=[("table_of_contents", "Table of contents", "title"), ("business", "Item 1. Business", "carried")],
    )
    assert carry == Carry(item=("business", "Item 1. Business"))  # the reader has not moved


def test_fewer_item_lines_than_a_table_of_contents_are_headings():
    lines = ["Item 2. Properties", "Item 3. Legal Proceedings", "Item 4. Mine Safety Disclosures"]
    assert len(lines) == TOC_FEW - 1
    kind = classify_page(lines)
    assert not kind.toc
    assert [(h.label, origin) for h, origin in kind.sections] == [
        ("properties", "title"), ("legal_proceedings", "title"), ("mine_safety", "title")
    ]


def test_the_form_reads_the_items():
    # A form whose Items look different (none, here): the same page has no Item heading.
    lines = ["Item 1A. Risk Factors", "Our largest customer accounted for 18 percent of net sales in the year."]
    no_items = Form("none", lambda line, following, part: None)
    assert classify_page(lines, Place(), no_items) == PageKind()
    assert [p.section for p in analyse(["\n".join(lines)], no_items)] == [None]
    assert [p.section for p in analyse(["\n".join(lines)])] == ["risk_factors"]


@pytest.mark.parametrize("in_notes, label", [(True, "income_taxes"), (False, None)])
def test_bare_numbered_note_headings_only_once_the_notes_have_begun(in_notes, label):
    kind = classify_page(["9. Income Taxes", *NOTE_TEXT[:2]], Place(in_notes=in_notes))
    assert [h.label for h in kind.headings] == ([label] if label else [])


SHORT_ITEMS = [
    ("Item 1B. Unresolved Staff Comments", "None."),
    ("Item 1C. Cybersecurity", "We maintain a program to assess and manage risks from cybersecurity threats."),
    ("Item 2. Properties", "Our headquarters and two plants are owned; our offices are leased."),
    ("Item 3. Legal Proceedings", "See Note 12 for a description of our legal proceedings."),
    ("Item 4. Mine Safety Disclosures", "Not applicable."),
    ("Item 5. Market for Registrant's Common Equity", "Our common stock trades on the exchange."),
    ("Item 6. [Reserved]", ""),
]


def test_a_body_page_gathering_the_short_items_starts_them():
    # seven Item lines, each followed by its text and none ending in a page number: not a
    # table of contents, whatever their number (below TOC_ITEMS)
    lines = [line for pair in SHORT_ITEMS for line in pair if line]
    assert TOC_FEW <= len(SHORT_ITEMS) < TOC_ITEMS
    kind = classify_page(lines)
    assert not kind.toc
    assert [h.label for h, _ in kind.sections][:5] == [
        "unresolved_staff_comments", "cybersecurity", "properties", "legal_proceedings", "mine_safety"
    ]
    # the same Items listed with page numbers are a table of contents
    assert classify_page([f"{item} {page}" for page, (item, _) in enumerate(SHORT_ITEMS, 20)]).toc
    # and TOC_ITEMS Item lines are one even without page numbers
    many = [f"Item {n}. Legal Proceedings" for n in range(1, TOC_ITEMS + 1)]
    assert classify_page(many).toc


def test_pages_of_definitions():
    agreement = [
        "ARTICLE I",
        "DEFINITIONS",
        '"Affiliate" means, with respect to a specified Person, another Person that controls it.',
        '"Applicable Margin" means the rate per annum set forth in the pricing grid.',
        '"Borrower" has the meaning assigned to such term in the preamble.',
        "The Lenders have agreed to extend credit on the terms set out below.",
    ]
    assert sum('" means' in line or "has the meaning" in line for line in agreement) == DEFINITION_LINES
    assert classify_page(agreement).definitions
    assert not classify_page(agreement[:4] + agreement[5:]).definitions  # two definitions: a mention
    glossary = ["Glossary of Terms"] + [f"{a} {b}" for a, b in [
        ("AOCI", "Accumulated other comprehensive income"), ("EPS", "Earnings per share"),
        ("FASB", "Financial Accounting Standards Board"), ("GAAP", "Generally accepted accounting principles"),
        ("ROU", "Right-of-use"), ("SEC", "Securities and Exchange Commission"),
    ]]
    assert len(glossary) - 1 == GLOSSARY_LINES
    assert classify_page(glossary).definitions
    assert not classify_page(glossary[1:]).definitions  # abbreviations without the heading
    page = Carry().read(classify_page(agreement), 0)
    assert ("definitions", "Definitions", "title") in page.sections
