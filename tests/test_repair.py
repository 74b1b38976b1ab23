"""U+FFFE from pdfium: a hyphen stays a hyphen, a ligature glyph without a Unicode mapping
becomes its letters again ("\\ufffenancial" -> financial), in the indexed text only."""

from __future__ import annotations

import pytest

from evfind.repair import GLYPH, HYPHEN, UNKNOWN, english_words, repair_pages, vocabulary

M = "\ufffe"


def one(text: str, kinds: str | None, *others: str) -> str:
    """The repaired first page of a filing whose other pages are ``others`` (intact text)."""
    return repair_pages([text, *others], [kinds]).get(0, text)


# --- the pure repair ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "broken, repaired",
    [
        (f"{M}nancial statements", "financial statements"),
        (f"cash {M}ow", "cash flow"),
        (f"the e{M}ects of", "the effects of"),  # ff
        (f"our a{M}liates", "our affiliates"),  # ffi
        (f"an a{M}uent market", "an affluent market"),  # ffl
        (f"a write-o{M}", "a write-off"),  # a word ending in the ligature, after a real hyphen
        (f"{M}NANCIAL", "FINANCIAL"),  # a word in capitals gets capitals
        (f"{M}u{M}", "fluff"),  # two in one word
    ],
)
def test_a_glyph_without_mapping_becomes_the_ligature_that_forms_a_word(broken, repaired):
    assert one(broken, GLYPH * broken.count(M)) == repaired


def test_a_hyphen_pdfium_names_stays_a_hyphen_even_where_a_ligature_would_form_a_word():
    # pro-t could be "profit", but pdfium says the PDF has a hyphen there
    assert one(f"pro{M}t and forward{M}looking", HYPHEN + HYPHEN) == f"pro{M}t and forward{M}looking"
    assert repair_pages([f"forward{M}looking"], [HYPHEN]) == {}  # normalising writes the hyphen
    assert one(f"a pro{M}t on forward{M}looking", GLYPH + HYPHEN) == "a profit on forward-looking"


def test_the_filings_own_words_decide_between_two_english_words():
    assert {"fiat", "flat"} <= english_words()
    assert one(f"a {M}at fee", GLYPH) == "a fiat fee"  # a tie, and nothing restored: fi first
    assert one(f"a {M}at fee", GLYPH, "a flat rate", "flat sales") == "a flat fee"
    assert one(f"a {M}at fee", GLYPH, "a flat rate", "by fiat", "fiat money") == "a fiat fee"


def test_an_unknown_word_gets_the_ligature_the_filing_restores_most():
    assert one(f"the {M}zzq", GLYPH) == "the fizzq"  # nothing restored: fi
    flows = f"cash {M}ow, in{M}ation, con{M}ict and the {M}zzq"
    assert one(flows, GLYPH * 4) == "cash flow, inflation, conflict and the flzzq"
    # a tie between two English words goes the same way
    assert one(f"cash {M}ow, in{M}ation; a {M}at fee", GLYPH * 3) == "cash flow, inflation; a flat fee"


def test_a_hyphen_for_a_glyph_only_where_the_filing_writes_the_hyphenated_word():
    assert one(f"non{M}GAAP measures", GLYPH, "Non-GAAP reconciliation") == "non-GAAP measures"
    assert one(f"non{M}GAAP measures", GLYPH) == "nonfiGAAP measures"


def test_without_pdfium_a_ligature_where_it_forms_a_known_word_else_a_hyphen():
    text = f"{M}nancial and forward{M}looking, e{M}ective 2023{M}24"
    assert one(text, None) == "financial and forward-looking, effective 2023-24"
    assert one(text, "gg") == one(text, None)  # facts that do not fit the text are not used
    assert one(f"{M}zzq", UNKNOWN) == "-zzq"


def test_a_mark_without_letters_stays_a_hyphen():
    assert one(f"2022{M}23 and {M} alone", GLYPH * 2) == "2022-23 and - alone"


def test_the_vocabulary_holds_only_intact_words():
    words = vocabulary([f"{M}nancial cash-flow office, e{M}ects", "Office Year-On-Year"])
    assert words == {"cash-flow": 1, "office": 2, "year-on-year": 1}
