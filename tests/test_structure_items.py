"""Where a form's Items begin, on pages written here: headings as PDFs extract them (a word split
by the text layer, one word a line, "[Reserved]"), and the lines that only look like one (a
sentence that wraps onto "Part II - Item 3", an 8-K Item quoted in a 10-K, the running head of
every page of an Item)."""

from __future__ import annotations

from evfind.forms import analyse
from evfind.lines import rejoin

TEXT = "The Company designs, manufactures and sells industrial equipment in forty countries worldwide."
CASH = "\n".join([
    "Consolidated Statements of Cash Flows",
    "Net cash provided by operating activities 210.0 190.0 170.0",
    "Purchases of property, plant and equipment (80.0) (70.0) (60.0)",
    "Net cash used in investing activities (80.0) (70.0) (60.0)",
    "Dividends paid (30.0) (25.0) (20.0)",
    "Net cash used in financing activities (40.0) (35.0) (30.0)",
    "Cash and cash equivalents at end of year $ 50.0 $ 40.0 $ 30.0",
])


def starts(page) -> list[tuple[str, str]]:
    return [(label, heading) for label, heading, origin in page.sections if origin in ("title", "started")]


def test_a_word_the_text_layer_split_is_read_whole():
    assert rejoin("Item 9B. Other Informatio n.") == "Item 9B. Other Information."
    assert rejoin("Selected Financial Dat a") == "Selected Financial Data"
    assert rejoin("Exhibit A to Part I") == "Exhibit A to Part I"  # words of their own stay apart
    pages = analyse([f"Item 1. Busines s.\n{TEXT}\nItem 2. Propertie s.\n{TEXT}\nItem 3. Legal Proceeding s.\n{TEXT}"],
                    form="10-K").pages
    assert starts(pages[0]) == [
        ("business", "Item 1. Business."),
        ("properties", "Item 2. Properties."),
        ("legal_proceedings", "Item 3. Legal Proceedings."),
    ]


def test_reserved_items_are_the_items_their_numbers_name():
    pages = analyse([f"Item 6. [Reserved]\n{TEXT}", f"ITEM 4. RESERVED\nNot applicable.\n{TEXT}"], form="10-K").pages
    assert starts(pages[0]) == [("selected_financial_data", "Item 6. [Reserved]")]
    assert starts(pages[1]) == [("mine_safety", "ITEM 4. RESERVED")]


def test_an_item_of_another_form_or_a_wrapped_sentence_is_no_heading():
    page = "\n".join([
        "Item 9B. Other Information.",
        "Item 8.01. Other Events.",  # an 8-K's Item, quoted in the 10-K's Item 9B
        "On January 22 we issued a press release announcing updated financial targets.",
        "Corning is required to make judgments about future events that are inherently uncertain. See",
        "Part II - Item 3. Legal Proceedings for a discussion of material litigation matters.",
    ])
    pages = analyse([page], form="10-K").pages
    assert starts(pages[0]) == [("other_information", "Item 9B. Other Information.")]


def test_the_running_head_of_an_items_pages_starts_nothing():
    pages = analyse([
        f"PART II\nItem 8\nFINANCIAL STATEMENTS AND SUPPLEMENTARY DATA\n{TEXT}",
        CASH,
        f"PART II\nItem 8\nNOTES TO FINANCIAL STATEMENTS\nNOTE 1 - ACCOUNTING POLICIES\n{TEXT}",
        f"PART II\nItem 8\nNOTES TO FINANCIAL STATEMENTS\n{TEXT}\n{TEXT}",
    ], form="10-K").pages
    assert starts(pages[0]) == [("financial_statements", "Item 8 FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA")]
    assert starts(pages[2]) == [("accounting_policies", "NOTE 1 - ACCOUNTING POLICIES")]
    # Item 8 printed again above the note's second page: Note 1 goes on.
    assert starts(pages[3]) == []
    assert pages[3].section == "accounting_policies"


def test_headings_extracted_one_word_a_line():
    item = "PART\nI\nItem\n1.\nBUSINESS\nOur\nBusiness\n" + TEXT
    note = "NOTE\n2\n-\nFAIR\nVALUE\nOF\nFINANCIAL\nINSTRUMENTS\n" + TEXT
    pages = analyse([item, CASH, f"NOTE 1 - REVENUE\n{TEXT}", note], form="10-K").pages
    assert starts(pages[0]) == [("business", "PART I Item 1. BUSINESS")]
    assert starts(pages[3]) == [("fair_value", "NOTE 2 - FAIR VALUE OF FINANCIAL INSTRUMENTS")]


EXECUTIVE_OFFICERS = "\n".join([
    "Information About Our Executive Officers",
    "The executive officers of the Company, their ages and their positions are listed below.",
    "Jane Roe, 58, has served as Chief Executive Officer since 2019 and as a director since 2018.",
])
CERTIFICATION = "\n".join([
    "CERTIFICATION",
    "I, Jane Roe, certify that:",
    "1. I have reviewed this annual report on Form 10-K of Acme Corporation;",
    "2. Based on my knowledge, this report does not contain any untrue statement of a material fact;",
])


def test_the_executive_officers_after_item_4_end_it():
    pages = analyse([
        f"Item 4. Mine Safety Disclosures\nNot applicable.\n{EXECUTIVE_OFFICERS}",
        f"John Doe, 61, has served as Chief Financial Officer since 2020.\n{TEXT}",
        f"Mary Major, 49, has served as General Counsel since 2021.\n{TEXT}",
        f"PART II\nItem 5. Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities\n{TEXT}",
    ], form="10-K").pages
    assert [page.section for page in pages] == ["mine_safety", "executive_officers", "executive_officers", "market_equity"]
    # Item 4 is the one page it takes, not three.
    assert [n for n, page in enumerate(pages, 1) if any(s[0] == "mine_safety" for s in page.sections)] == [1]


def test_executive_officers_inside_item_10_or_an_exhibit_list_are_a_subsection():
    pages = analyse([
        f"Item 10. Directors, Executive Officers and Corporate Governance\n{TEXT}\n{EXECUTIVE_OFFICERS}",
        f"{TEXT}\n{TEXT}",
    ], form="10-K").pages
    item_10 = "Item 10. Directors, Executive Officers and Corporate Governance"
    # Item 10's subject: a subsection of it, which runs on under it.
    assert pages[0].sections == [("directors_officers", item_10, "title"),
                                 ("executive_officers", "Information About Our Executive Officers", "title")]
    assert pages[1].sections[0] == ("directors_officers", item_10, "carried")


def test_a_risk_factor_that_names_the_executive_officers_is_no_section_of_its_own():
    pages = analyse([
        f"Item 1A. Risk Factors\n{TEXT}\nLoss of Key Executive Officers Could Harm Us\n{TEXT}",
        f"{TEXT}\n{TEXT}",
    ], form="10-K").pages
    # A subsection of Item 1A: Item 1A goes on under it and onto the next page.
    assert [label for label, _, _ in pages[0].sections] == ["risk_factors", "executive_officers"]
    assert pages[1].sections[0] == ("risk_factors", "Item 1A. Risk Factors", "carried")


def test_a_certification_page_carries_nothing_of_the_10k():
    pages = analyse([
        f"Item 15. Exhibits and Financial Statement Schedules\n{TEXT}\n{EXECUTIVE_OFFICERS}",
        f"{TEXT}\n{TEXT}",
        CERTIFICATION,
        CERTIFICATION.replace("CERTIFICATION\n", "").replace("Jane Roe", "John Doe"),  # untitled
    ], form="10-K").pages
    # The exhibit list's executive officers run on to the page after, not to the certifications.
    assert pages[1].sections[-1][0] == "executive_officers"
    assert pages[2].sections == [("certifications", "CERTIFICATION", "title")]
    assert pages[3].sections == [("certifications", "CERTIFICATION", "carried")]  # the certifications go on


ITEM_5 = "ITEM 5. MARKET FOR REGISTRANT'S COMMON EQUITY, RELATED STOCKHOLDER MATTERS AND ISSUER PURCHASES OF EQUITY SECURITIES"


def test_an_item_below_the_page_header_ends_the_item_before():
    pages = analyse([
        f"PART I\nItem 4. Mine Safety Disclosures\nNot applicable.\n{TEXT}",
        f"Item 5, 6\nPART II\n{ITEM_5}\n{TEXT}",  # the page header names the Items the page holds
        f"Index to Financial Statements\nPART II\nItem 6. [Reserved]\n{TEXT}",
        f"{TEXT}\n{ITEM_5.replace('ITEM 5', 'ITEM 7')}",
    ], form="10-K").pages
    assert [label for label, _, origin in pages[1].sections if origin == "carried"] == []
    assert [n for n, page in enumerate(pages, 1) if any(s[0] == "mine_safety" for s in page.sections)] == [1]
    assert pages[2].section == "selected_financial_data"
    # Below running text the Item before goes on at the page's top.
    assert ("selected_financial_data", "Item 6. [Reserved]", "carried") in pages[3].sections


def test_executive_officers_numbered_as_an_item_of_their_own():
    pages = analyse([
        f"Item 4. Mine Safety Disclosures\nNot applicable.\n{TEXT}",
        f"ITEM X. INFORMATION ABOUT OUR EXECUTIVE OFFICERS\n{EXECUTIVE_OFFICERS.split(chr(10), 1)[1]}",
        f"Mary Major, 49, has served as General Counsel since 2021.\n{TEXT}",
    ], form="10-K").pages
    assert [page.section for page in pages] == ["mine_safety", "executive_officers", "executive_officers"]
    assert all(s[0] != "mine_safety" for page in pages[1:] for s in page.sections)
