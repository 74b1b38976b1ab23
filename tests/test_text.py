"""The folds of evfind/text.py keep the promises their docstrings make about one another."""

from __future__ import annotations

import pytest

from evfind import text
from evfind.text import chinese_key, normal, normalise, phrases, squash, stems, tokens, words_key, words_on

LINES = [
    "Management's Discussion and Analysis of Financial Condition",
    "CONSOLIDATED BALANCE SHEE T",
    "Item 7A. Quantitative and Qualitative Disclosures",
    "Note 12 \u2014 Income Taxes (continued)",
    "",
]


@pytest.mark.parametrize("line", LINES)
def test_squash_is_words_key_without_its_spaces(line):
    assert squash(line) == words_key(line).replace(" ", "")


def test_heading_keys():
    assert words_key("Management's Discussion") == "management s discussion"
    assert squash("Balance Shee t") == "balancesheet"


def test_a_question_is_folded_as_its_words_are_indexed():
    # every character the question fold maps, the index fold maps the same way
    for code, folded in {**text._QUESTION_FOLD, **text._LIGATURES}.items():
        assert normalise(f"a{chr(code)}b") == f"a{folded or ''}b".replace("  ", " ")
    assert tokens("Acme\u2019s cash\u00a0flow") == tokens(normalise("Acme\u2019s cash\u00a0flow")) == ["acme", "cash", "flow"]


def test_match_keys():
    assert tokens("Free cashflow and P&L of PP&E in FY2024") == ["free", "cash", "flow", "and", "p&l", "of", "pp&e", "in", "fy2024"]
    assert [normal(w) for w in ("liabilities", "sales", "loss", "bonus", "basis")] == ["liability", "sale", "loss", "bonus", "basis"]
    # an acronym's plural (its s in lower case) is the acronym: "maus" would keep its s, as "bonus" does
    assert tokens("MAUs, KPIs and ETFs; EPS, SGX, US GAAP") == ["mau", "kpi", "and", "etf", "eps", "sgx", "u s", "gaap"]
    # "U.S." as the index holds it ("u", "s"), one word of the question: a phrase with its neighbour
    assert tokens("the U.S. government told us") == ["the", "u s", "government", "told", "us"]
    assert phrases("Sales in the U.S. grew; U.S.A. exports") == [["sales", "in", "the", "u s", "grew"], ["u s", "exports"]]
    # a page's words keep the compounds the filing wrote, in normal form, possessives dropped
    assert words_on("Acme's cashflow statements") == {"acme", "cashflow", "statement"}


def test_a_pages_words_are_its_tokens_in_normal_form():
    # words_on cuts the text into runs of token characters and reads each run once: the words
    # are still those of the token pattern, each in normal form
    page = ("AT&T's Liabilities\u00a0and\tcaf\u00e9s' 10-K; P&L ''quoted'' don't &amp x'y's "
            "Sales SALES sales\nfi\u0130nance \u212aelvin & ' 3M's")
    expected = {"at&t", "liability", "and", "caf", "10", "k", "p&l", "quoted", "dont", "amp", "x'y", "sale",
                "s", "fii", "nance", "kelvin", "3m"}
    assert words_on(page) == expected
    assert words_on(page) == expected  # (the runs are known now: read from what was learnt)
    assert words_on("") == set() and words_on("&' -- \u00e9") == set()


def test_the_note_key_is_rougher_than_the_match_key():
    assert stems("restructuring") == stems("restructure") == ("restructur",)
    assert normal("restructuring") != normal("restructure")
    assert stems("bonus") == ("bonu",) and normal("bonus") == "bonus"


def test_chinese_key():
    assert chinese_key("ＦＹ２０２２ 應收帳款") == "fy2022 应收账款"  # full-width made plain, simplified
    assert chinese_key("物业、厂房及设备") == "物业厂房及设备"  # one term
    assert chinese_key("2021、2022") == "2021 2022"  # two years


def test_a_question_pasted_from_a_pdf_reads_as_typed():
    """Ligature characters (ﬁ, ﬂ) and a soft hyphen, as a PDF viewer copies them, fold to the
    letters the index holds: "ﬁnancial" is financial, not "nancial"."""
    from evfind.question import parse
    from evfind.text import tokens

    pasted = "What is the \ufb01nancial cash \ufb02ow of Acme\u2019s re\u00adstructuring?"
    assert tokens(pasted) == tokens("What is the financial cash flow of Acme's restructuring?")
    assert parse(pasted).match_expression() == parse("What is the financial cash flow of Acme's restructuring?").match_expression()
