"""Codes found inside longer codes (evfind/codes.py): a question's 777F on the page that writes
B777F, in the ranking and in the page image's boxes, with nothing added to the database."""

from __future__ import annotations

from evfind import codes
from evfind.finder import Finder
from evfind.pageimage import term_spans

from .conftest import snapshot, write_jsonl

FLEET = [
    "ACME AIR FREIGHT\nFORM 10-K\nAnnual report for fiscal 2024",
    "Item 2. Properties\nOur fleet at year end: 62 aircraft owned and 11 leased.\nWe operate wide-body freighters on long-haul routes.",
    "Aircraft purchase commitments\nWe are committed to purchase 14 B777F and 22 B767F aircraft through 2027.\n"
    "Deliveries are scheduled by quarter.",
    "Item 7. Liquidity\nOur 2034 Notes bear interest at 4.25%.\nWe expect capital spending on aircraft to rise.",
    "Item 8. Notes\nDebt: the Notes due 2034 (the 2034Notes) are unsecured.\nAircraft leases are operating leases.",
]
QUESTION = "How many Boeing 777F aircraft is the company committed to purchase?"


def test_a_code_inside_a_token_is_held_at_a_letter_digit_boundary():
    assert codes.holds("b777f", "777f") and codes.holds("a350xwb", "a350") and codes.holds("x7771b", "x7771")
    assert not codes.holds("7770", "777") and not codes.holds("777f", "777f") and not codes.holds("x7771", "777")
    assert codes.fragments(["boeing 777f aircraft", "q4 10 2034 a350 fy2024"]) == ["777f", "a350", "fy2024"]
    assert codes.variants("777f", [("b777f", 1), ("777fx", 1), ("c777f", 3), ("777", 9)]) == ["c777f", "b777f"]
    assert codes.rewritten("777f aircraft", {"777f": ["b777f"]}) == ["b777f aircraft"]


def test_the_page_that_writes_the_code_inside_a_longer_one_is_found_and_boxed(cli, tmp_path):
    source = write_jsonl(tmp_path / "ACME_2024_10K.jsonl", FLEET)
    assert cli("ingest", source).exit_code == 0
    db = source.with_suffix(".db")
    before = snapshot(tmp_path)
    result, data = cli.json("query", db, QUESTION)
    assert result.exit_code == 0
    assert data["results"][0]["page_number"] == 3
    assert "777F" not in (data["message"] or "")  # not "not in this filing"
    evidence = data["results"][0]["evidence"]
    assert any("B777F" in line["text"] for line in evidence)
    with Finder(db) as finder:
        phrases = finder.match_terms(QUESTION)
    assert "b777f" in phrases
    text = FLEET[2].replace("\n", " ")
    boxed = [text[a:b] for a, b in term_spans(text, phrases)]
    assert "B777F" in boxed
    assert snapshot(tmp_path) == before  # the vocabulary is read, nothing is written


def test_a_year_glued_to_a_word_is_found_beside_the_year_alone(cli, tmp_path):
    source = write_jsonl(tmp_path / "ACME_2024_10K.jsonl", FLEET)
    assert cli("ingest", source).exit_code == 0
    result, data = cli.json("query", source.with_suffix(".db"), "What interest do the 2034 Notes bear?", "--top", "5")
    pages = [hit["page_number"] for hit in data["results"]]
    assert pages[0] == 4 and 5 in pages
