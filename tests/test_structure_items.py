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
