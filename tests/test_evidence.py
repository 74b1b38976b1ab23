"""evidence.py and porter.py: a page's evidence lines, on pages written here, and the Porter
stems compared with SQLite's own."""

from __future__ import annotations

import re
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evfind.evidence import (
    NO_PASSAGE,
    Concept,
    best_passage,
    has_figure,
    mark,
    off_period,
    periods_asked,
    periods_shown,
    read_lines,
    stems,
)
from evfind.porter import stem, stem_token

from .conftest import REPO


def sqlite_stems(words: list[str]) -> dict[str, str]:
    """What FTS5's porter tokenizer stores for each word (one word a row)."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')")
    conn.executemany("INSERT INTO t (rowid, x) VALUES (?, ?)", list(enumerate(words, 1)))
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    return {words[doc - 1]: term for term, doc in conn.execute("SELECT term, doc FROM v")}


def test_porter_agrees_with_sqlite_on_the_sample_filing_vocabulary():
    text = (REPO / "sample" / "halden_2025_10k.txt").read_text(encoding="utf-8").lower()
    words = sorted(set(re.findall(r"[^\W_]+", text)))
    words += ["generalization", "hopefulness", "conditional", "relational", "feudalism", "electrical",
              "agreed", "plastered", "sized", "hopping", "filing", "failing", "ies", "caresses", "ponies",
              "allowance", "dependent", "adjustable", "controlling", "rolling", "société", "méxico"]
    assert len(words) > 2000
    expected = sqlite_stems(words)
    assert {w: stem_token(w) for w in words} == expected


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=14))
def test_porter_agrees_with_sqlite_on_any_word(word):
    assert stem(word) == sqlite_stems([word])[word]


def test_stems_read_text_as_the_index_does():
    assert stems("Purchases of property, plant and equipment") == ("purchas", "of", "properti", "plant", "and", "equip")
    assert stems("P&L, FY2023") == ("p", "l", "fy2023")


@pytest.mark.parametrize(
    "line, figure",
    [
        ("Purchases of property and equipment (1,234) (987)", True),
        ("Effective tax rate 21.4 % 19.8 %", True),
        ("Total revenue $ 5 $ 7", True),
        ("Net sales 812 790", True),
        ("Years ended December 31, 2025 2024 2023", False),
        ("See Note 7", False),
        ("Item 7. Management's Discussion", False),
        ("42", True),
    ],
)
def test_a_figure_is_an_amount_or_a_rate_not_a_year_or_a_note_number(line, figure):
    assert has_figure(line) is figure


def concept(label, *phrases, weight=1.0, line_item=True):
    return Concept(label, tuple(stems(p) for p in (phrases or (label,))), weight, line_item)


def test_mark_agrees_with_fts5_highlight():
    text = (
        "Cash flows from operating activities\n"
        "Purchases of property, plant and\nequipment (96.4) (88.7)\n"
        "Capital expenditures were higher. Net cash used in investing activities rose."
    )
    phrases = [
        ("capex", "capital expenditures", "purchases of property plant and equipment"),
        ("cash", "cash"),
        ("cash flow", "cash flows"),
        ("investing", "investing activities"),
    ]
    concepts = tuple(concept(*words) for words in phrases)
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')")
    conn.execute("INSERT INTO t (rowid, x) VALUES (1, ?)", (text,))
    expression = " OR ".join(f'"{p}"' for _, *alternatives in phrases for p in alternatives)
    (highlighted,) = conn.execute("SELECT highlight(t, 0, char(2), char(3)) FROM t WHERE t MATCH ?", (expression,)).fetchone()
    assert mark(text, concepts) == highlighted
    assert "\x02Purchases of property, plant and\nequipment\x03" in highlighted  # over the line break


PAGE = "\n".join(
    [
        "Note 9. Debt",  # 0
        "Our long-term debt consists of senior notes.",  # 1
        "The aggregate maturities of long-term debt are as follows:",  # 2
        "2026 $ 500",  # 3
        "2027 750",  # 4
        "Thereafter 1,250",  # 5
        "Total long-term debt 2,500",  # 6
        "Interest expense on long-term debt was $ 95 in 2025.",  # 7
    ]
)
DEBT = concept("long-term debt", "long term debt", "senior notes")
MATURITIES = concept("maturities", "maturities", "thereafter")
YEAR = concept("2025", weight=0.0, line_item=False)


def test_the_best_passage_holds_the_most_concepts_close_together():
    concepts = (DEBT, MATURITIES, YEAR)
    lines, held = read_lines(mark(PAGE, concepts), concepts)
    assert lines == PAGE.split("\n")
    assert held == {1: {0}, 2: {0, 1}, 5: {1}, 6: {0}, 7: {0, 2}}
    passage = best_passage(lines, held, concepts, window=3)
    assert passage.score == 1.0 and passage.coverage == 1.0
    # the window from line 1 (debt; debt and maturities; nothing) wins over later ones by
    # being first among the full ones; its lines in page order
    assert [i for i, _ in passage.lines] == [1, 2]
    assert passage.lines[1] == (2, "The aggregate maturities of long-term debt are as follows:")


def test_a_fact_question_gets_the_line_item_beside_its_figure_first():
    concepts = (DEBT, MATURITIES, YEAR)
    lines, held = read_lines(mark(PAGE, concepts), concepts)
    passage = best_passage(lines, held, concepts, window=3, fact=True)
    # every full window ties on score; a fact question prefers one with a figure line (5 or 6)
    assert passage.figure is True
    # the window of lines 5 to 7: its figure lines first, ties in page order (the year on line
    # 7 weighs nothing, so it does not put that line first)
    assert [i for i, _ in passage.lines] == [5, 6, 7]
    assert passage.lines[0] == (5, "Thereafter 1,250")


def test_a_wide_window_scores_the_page_and_the_tightest_three_lines_are_shown():
    """A window of five lines scores the page (do its concepts meet near each other?); the
    lines a user reads are those of the best window of three (MAX_LINES), not five lines'."""
    concepts = (DEBT, MATURITIES)
    page = "\n".join([
        "Long-term debt",  # 0: debt
        "x", "x",
        "The maturities are listed.",  # 3: maturities (a five-line window 0-4 holds both)
        "x", "x", "x", "x",
        "Maturities of long-term debt:",  # 8: debt and maturities
        "2026 500",  # 9
    ])
    lines, held = read_lines(mark(page, concepts), concepts)
    wide = best_passage(lines, held, concepts, window=5)
    assert wide.score == 1.0  # scored on five lines: lines 0 and 3 already hold both
    assert [i for i, _ in wide.lines] == [8]  # shown: the best three-line window, line 8's
    assert best_passage(lines, held, concepts, window=3).lines == wide.lines


def test_rare_concepts_weigh_more_than_common_ones():
    rare, common = concept("maturities", weight=3.0), concept("debt", weight=0.5)
    page = "Debt\nDebt was refinanced.\nx\nx\nx\nThe maturities are shown below."
    lines, held = read_lines(mark(page, (rare, common)), (rare, common))
    passage = best_passage(lines, held, (rare, common), window=2)
    assert round(passage.score, 6) == round(3.0 / 3.5, 6)
    assert passage.lines == ((5, "The maturities are shown below."),)


def test_a_page_without_matches_has_no_passage():
    concepts = (DEBT,)
    lines, held = read_lines(mark("Nothing here\nat all", concepts), concepts)
    assert held == {} and best_passage(lines, held, concepts) == NO_PASSAGE


def test_a_tables_row_joins_its_caption():
    """The measure is in the table's title, the line item in its row, rows apart: the row
    and its caption make one passage, the row (the item beside its figure) shown first."""
    profit, europe = concept("operating profit", weight=1.0), concept("europe", weight=1.0)
    page = "\n".join([
        "Operating Profit by Division",  # 0: the caption
        "12 Weeks Ended 24 Weeks Ended",
        "Frito-Lay North America 1,647 1,448",
        "Latin America 592 420",
        "Europe 476 (797)",  # 4: the row
        "Total 3,659 2,077",
    ])
    concepts = (profit, europe)
    lines, held = read_lines(mark(page, concepts), concepts)
    passage = best_passage(lines, held, concepts, window=3, fact=True)
    assert passage.score == 1.0 and passage.figure is True
    assert [i for i, _ in passage.lines] == [4, 0]
    # a paragraph between them ends the table: the row has no caption
    prose = page.replace("12 Weeks Ended 24 Weeks Ended", "The divisions below are reported in millions of dollars for each period")
    lines, held = read_lines(mark(prose, concepts), concepts)
    assert best_passage(lines, held, concepts, window=3, fact=True).score == 0.5


# --- Periods: the span a question asks for and the spans a page's tables cover ---------------


@pytest.mark.parametrize(
    "question, spans",
    [
        ("Where's the full-year operating profit by division, reported vs core?", {"year"}),
        ("Europe's core operating profit for the first 24 weeks of 2023", {"to_date"}),
        ("Operating cash flow year-to-date", {"to_date"}),
        ("Revenue for the nine months ended September 30", {"to_date"}),
        ("Net revenue by division for the fourth quarter and full year 2022", {"quarter", "year"}),
        ("Q4 revenue", {"quarter"}),
        ("Adjusted EBITDA for the twelve months ended June 30, 2023", {"year"}),
        ("What was 3M's FY2022 capital expenditure?", set()),  # a year alone names no span
        ("Where is the quarterly report's legal proceedings section?", set()),
        ("six months; revenue", {"to_date"}),  # a Chinese question's reading (上半年的收入)
        ("2023; 24; weeks; europe", {"to_date"}),  # 前24周
    ],
)
def test_the_span_a_question_asks_for(question, spans):
    assert periods_asked(question) == spans


@pytest.mark.parametrize(
    "text, spans",
    [
        ("Operating Profit by Division\n12 Weeks Ended June 17, 2023 and June 11, 2022", {"quarter"}),
        ("Operating Profit by Division\n24 Weeks Ended June 17, 2023", {"to_date"}),
        ("Three Months Ended Six Months Ended\nJune 30, 2023", {"quarter", "to_date"}),
        ("Twelve Months Ended June 30, 2023", {"year"}),
        ("Quarter Ended Year Ended\n12/31/2022 12/25/2021", {"quarter", "year"}),
        ("Consolidated Statements of Income\nYears ended December 31, 2024, 2023 and 2022", {"year"}),
        ("Fifty-Two Weeks Ended September 3, 2023", {"year"}),
        ("Discussion of Full-Year 2022 Reported Division Results", {"year"}),
        ("Consolidated Balance Sheets\nAs of December 31, 2024", set()),  # a point in time
    ],
)
def test_the_spans_a_page_covers(text, spans):
    assert periods_shown(text) == spans


def test_a_page_is_off_period_only_when_it_covers_spans_and_none_asked():
    quarter = "Operating Profit by Division\n\x02Quarter\x03 Ended 12/31/2022"  # marks as FTS5 leaves them
    assert off_period(frozenset({"year"}), quarter)
    assert not off_period(frozenset({"quarter", "year"}), quarter)
    assert not off_period(frozenset({"year"}), "Consolidated Balance Sheets\nAs of December 31, 2024")
    assert not off_period(frozenset(), quarter)


# ---------------------------------------------------------------------------------------------
# The lines shown (shown_lines) and their column headings


def _shown(page: str, concepts: tuple[Concept, ...], fact: bool = True, where: bool = False) -> list[str]:
    from evfind.evidence import Asked, shown_lines

    lines, held = read_lines(mark(page, concepts), concepts)
    return [lines[i] for i in shown_lines(lines, held, concepts, Asked(fact, where))]


ETR = Concept("effective tax rate", (stems("effective tax rate"), stems("provision for income taxes")), 2.0,
              tiers=(0, 2))
FY = Concept("2023", (stems("2023"),), 0.0, line_item=False)
RESULTS = ("Fiscal Year 2023 2022\nIncome before income taxes $ 664 $ 500\nProvision for income taxes $ (452) $ (30)\n"
           "Effective tax rate 68 % 6 %\nNet income $ 212 $ 470")


def test_a_line_in_the_questions_own_words_comes_before_a_line_of_the_measures_input():
    assert _shown(RESULTS, (ETR, FY)) == ["Effective tax rate 68 % 6 %", "Provision for income taxes $ (452) $ (30)"]
    # Were both the question's own wording, the earlier would come first.
    plain = ETR._replace(tiers=(0, 0))
    assert _shown(RESULTS, (plain, FY))[0] == "Provision for income taxes $ (452) $ (30)"


def test_a_rows_label_that_is_the_asked_item_comes_before_a_sibling_row():
    income = Concept("net income attributable", (stems("net income attributable"),), 1.0)
    acme = Concept("acme", (stems("acme"),), 0.05, filer=True)
    page = ("Net income attributable to noncontrolling interests 15 12\n"
            "Net income attributable to Acme Corp. $ 197 $ 458")
    assert _shown(page, (income, acme))[0] == "Net income attributable to Acme Corp. $ 197 $ 458"


def test_a_title_comes_after_the_sentence_under_it_unless_the_question_asks_where():
    backlog = Concept("backlog", (stems("backlog"),), 2.0)
    page = "BACKLOG\nOur backlog is not material, as orders are filled within a few days of receipt."
    assert _shown(page, (backlog,), fact=False)[0].startswith("Our backlog")
    assert _shown(page, (backlog,), fact=False, where=True)[0] == "BACKLOG"


def test_a_tables_row_counts_the_concepts_of_its_caption():
    profit = Concept("operating profit", (stems("operating profit"),), 1.0)
    europe = Concept("europe", (stems("europe"),), 1.0)
    page = ("Net Revenue by Division\nEurope 3,210 2,990\nLatin America 1,100 1,000\n"
            "Operating Profit by Division\nLatin America 120 110\nEurope 476 521")
    assert _shown(page, (profit, europe))[0] == "Europe 476 521"


def test_column_headings_are_the_header_lines_above_the_row():
    from evfind.evidence import column_headings

    lines = ["Results of Operations", "Three Months Ended Six Months Ended", "June 30, 2023 2022 2023 2022",
             "(In millions)", "Net sales $ 1,234 $ 1,100 $ 2,400 $ 2,150", "Cost of sales 700 650 1,380 1,250",
             "Net sales grew on higher volumes and prices across all of our segments this quarter.",
             "Net sales rose 12% to $1,234 million."]
    assert column_headings(lines, 5) == (1, 2)  # across the other rows and the caption
    assert column_headings(lines, 7) == ()  # a sentence, not a table's row
    assert column_headings(["Segment results", "Europe 476 521"], 1) == ()  # no headings on the page
    assert column_headings(["2023 2022", "Net sales grew on higher volumes and prices across all of our segments.",
                            "Net sales 1,234 1,100"], 2) == ()  # a paragraph between: another table


def test_phrase_tiers_say_how_directly_each_phrase_says_the_idea():
    from evfind.evidence import INPUT, OWN, SYNONYM
    from evfind.present import tiers
    from evfind.question import parse

    ideas = {idea.label: idea for idea in parse("What was free cash flow and the effective tax rate?").ideas}
    fcf, etr = ideas["free cash flow"], ideas["effective tax rate"]
    assert dict(zip(fcf.phrases, tiers(fcf)))["free cash flow"] == OWN
    assert dict(zip(fcf.phrases, tiers(fcf)))["net cash provided by operating activities"] == INPUT
    assert dict(zip(etr.phrases, tiers(etr)))["effective income tax rate"] == SYNONYM
    assert dict(zip(etr.phrases, tiers(etr)))["provision for income taxes"] == INPUT
    capex = parse("What were capital expenditures?").ideas[0]
    assert set(tiers(capex)[1:]) == {SYNONYM}


# ---------------------------------------------------------------------------------------------
# The candidate lines' signals (line_candidates, linechoice.SIGNALS)


def _signals(page: str, concepts: tuple[Concept, ...], fact: bool = True, **asked) -> dict[str, dict[str, float]]:
    """Each candidate line's signals by name, by the line's text."""
    from evfind import linechoice
    from evfind.evidence import Asked, line_candidates

    lines, held = read_lines(mark(page, concepts), concepts)
    return {lines[c.index]: dict(zip(linechoice.SIGNALS, c.signals))
            for c in line_candidates(lines, held, concepts, Asked(fact, **asked))}


def test_a_line_explains_a_change_with_a_change_word_and_a_cause_both():
    sales = Concept("net sales", (stems("net sales"),), 1.0)
    page = ("Net sales increased 5%, primarily due to higher prices.\nNet sales due from customers were collected.\n"
            "Net sales 1,234 1,100")
    explains = {line: s["explains"] for line, s in _signals(page, (sales,), fact=False).items()}
    # "due" alone says no cause of a change (the cause and change lists of data/question_words.tsv)
    assert explains == {"Net sales increased 5%, primarily due to higher prices.": 1.0,
                        "Net sales due from customers were collected.": 0.0, "Net sales 1,234 1,100": 0.0}


def test_the_asked_items_words_opening_a_row_and_the_asked_years_column_are_signals():
    fcf = Concept("free cash flow", (stems("free cash flow"),), 2.0)
    fy = Concept("2023", (stems("2023"),), 0.0, line_item=False)
    page = ("Fiscal Year 2023 2022\nFree cash flow $ 1,339 $ 1,100\nConversion of free cash flow 95 % 90 %\n"
            "Five-year summary\n2021 2020\nFree cash flow 900 800")
    signals = _signals(page, (fcf, fy))
    assert {line: (s["item_start"], s["period_column"], s["other_period"]) for line, s in signals.items()} == {
        "Free cash flow $ 1,339 $ 1,100": (1.0, 1.0, 0.0),
        "Conversion of free cash flow 95 % 90 %": (0.0, 1.0, 0.0),
        "Free cash flow 900 800": (1.0, 0.0, 1.0)}
    assert signals["Conversion of free cash flow 95 % 90 %"]["extra_words"] > signals["Free cash flow $ 1,339 $ 1,100"]["extra_words"]
