"""U+FFFE from pdfium: a hyphen stays a hyphen, a ligature glyph without a Unicode mapping
becomes its letters again ("\\ufffenancial" -> financial), in the indexed text only."""

from __future__ import annotations

import sqlite3

import pytest

from evfind import store
from evfind.extract import extract
from evfind.repair import GLYPH, HYPHEN, UNKNOWN, english_words, repair_pages, vocabulary

from .pdfgen import make_pdf

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


def test_a_mark_without_letters_or_touching_digits_stays_a_hyphen():
    assert one(f"2022{M}23 and {M} alone", GLYPH * 2) == "2022-23 and - alone"
    # "eff" and "toff" are English words, but not before a number
    assert one(f"Exhibit e{M}3, online-to{M}33, Q{M}2", UNKNOWN * 3) == "Exhibit e-3, online-to-33, Q-2"


def test_the_vocabulary_holds_only_intact_words():
    words = vocabulary([f"{M}nancial cash-flow office, e{M}ects, pro{M}t-taking", "Office Year-On-Year"])
    assert words == {"cash-flow": 1, "office": 2, "year-on-year": 1}


# --- through pdfium and ingest ---------------------------------------------------------------

PAGES = [
    "Results for the \ufb01rst quarter of \ufb01scal 2024\n"
    "Net cash \ufb02ow from operating activities and the e\ufb00ects of\n"
    "exchange rates on our \ufb01nancial position; forward-\n"
    "looking statements follow. Ze\ufb01ra brand sales rose.",
    "Merchandise costs and membership fees\n"
    "Total revenue rose in every region.",
]


@pytest.fixture
def ligature_pdf(tmp_path):
    return make_pdf(tmp_path / "LIGATURE_2024_EARNINGS.pdf", PAGES, unmapped=True)


def test_pdfium_returns_u_fffe_for_glyphs_and_hyphens_and_says_which(ligature_pdf):
    extraction = extract(ligature_pdf)
    first = extraction.texts[0]
    assert f"the {M}rst quarter of {M}scal 2024" in first
    assert f"cash {M}ow" in first and f"e{M}ects" in first and f"our {M}nancial" in first
    assert f"forward{M}looking" in first  # the hyphen that ended the line, joined by pdfium
    assert "financial" not in first and "flow" not in first
    assert f"Ze{M}ra brand" in first
    assert extraction.marks == [GLYPH * 5 + HYPHEN + GLYPH, None]


def test_ingest_indexes_the_ligatures_and_keeps_the_raw_text(cli, ligature_pdf):
    db = ligature_pdf.with_suffix(".db")
    assert cli("ingest", ligature_pdf).exit_code == 0
    for question in ("financial position", "cash flow", "fiscal 2024 first quarter", "effects", "Zefira"):
        result, data = cli.json("query", db, question)
        assert result.exit_code == 0, (question, result.output)
        assert data["results"][0]["page_number"] == 1, question
    text = cli("show", db, 1).stdout
    assert "first quarter of fiscal 2024\nNet cash flow" in text
    # lines as printed: pdfium joins the hyphenated word, which stays on the line it starts
    assert "the effects of\nexchange rates on our financial position; forward-looking\nstatements" in text
    # a word in no vocabulary: pdfium says glyph, so the ligature the filing restores most
    assert "statements follow. Zefira brand" in text
    raw = cli("show", db, 1, "--raw").stdout
    assert f"cash {M}ow" in raw and f"forward{M}looking" in raw and "financial" not in raw


def test_upgrade_repairs_from_the_stored_text_without_pdfium(cli, ligature_pdf):
    db = ligature_pdf.with_suffix(".db")
    assert cli("ingest", ligature_pdf).exit_code == 0
    before = cli("show", db, 1).stdout
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {store.SCHEMA_VERSION - 1}")
    assert cli("upgrade", db).exit_code == 0
    # a PDF's lines as printed came from pdfium's character boxes, which the database does not
    # keep: the upgrade re-indexes the stored text, repaired at ingest with pdfium's facts
    assert cli("show", db, 1).stdout == before
    assert M in cli("show", db, 1, "--raw").stdout
