"""rank.py, the ranking policy: pure functions checked on lists worked out by hand.

Pages are letters (or small numbers); bm25 is negative, lower is better, as FTS5 gives it. The
default method fuses with k = 20 and weights 1 (lexical), 1 (statements; 0.1 when the question
has a topic and names no statement) and 0.3 (sections).
"""

from __future__ import annotations

import copy

import pytest

from evfind import features, lists, rank
from evfind.rank import DEFAULT, PLAIN, RULES, Candidates, Filing, Intent, Reads, Signals, TermSignal

NAMED = Intent(named=True)
TOPICAL = Intent(topical=True)
NEITHER = Intent()

# Three pages: c is the statement the question targets, b is in the targeted section.
LISTS = Candidates(
    lexical=(("a", -10.0), ("b", -9.0), ("c", -8.0)),
    statements=(("c", -8.0),),
    sections=(("b", -9.0),),
)


def pages(fused) -> list:
    return [page for page, _ in fused]


def same(fused, expected) -> bool:
    """The same pages in the same order, with the same scores (to float precision)."""
    return pages(fused) == pages(expected) and [s for _, s in fused] == pytest.approx([s for _, s in expected])


def test_a_named_statement_counts_as_much_as_the_lexical_list():
    # a: 1/(20+1)                     = 0.047619
    # b: 1/(20+2) + 0.3/(20+1)        = 0.045455 + 0.014286 = 0.059740
    # c: 1/(20+3) + 1/(20+1)          = 0.043478 + 0.047619 = 0.091097
    fused = rank.fuse(LISTS, NAMED, RULES)
    assert pages(fused) == ["c", "b", "a"]
    assert dict(fused) == pytest.approx({"a": 1 / 21, "b": 1 / 22 + 0.3 / 21, "c": 1 / 23 + 1 / 21})


def test_an_implied_statement_yields_to_the_questions_topic():
    # Topical, no statement named: the statement list weighs 0.1.
    # b: 1/22 + 0.3/21 = 0.059740;  c: 1/23 + 0.1/21 = 0.043478 + 0.004762 = 0.048240;  a: 1/21 = 0.047619
    # (no clear winner: a's -10 is not at most 2 x b's -9 = -18)
    fused = rank.fuse(LISTS, TOPICAL, RULES)
    assert pages(fused) == ["b", "c", "a"]
    assert dict(fused)["c"] == pytest.approx(1 / 23 + 0.1 / 21)
    # A statement the question names keeps its full weight, topic or not: c, b, a as above.
    assert pages(rank.fuse(LISTS, Intent(named=True, topical=True), RULES)) == ["c", "b", "a"]
    assert rank.list_weights(TOPICAL, RULES) == (1.0, 0.1, 0.3, RULES.expansion_weight)
    assert rank.list_weights(NEITHER, RULES) == (1.0, 1.0, 0.3, RULES.expansion_weight)


def test_ties_go_to_the_lexical_order():
    # a: 1/21 + 1/22 and b: 1/22 + 1/21, the same sum: the lexical list (first) decides.
    tied = Candidates(lexical=(("a", -10.0), ("b", -9.0)), statements=(("b", -9.0), ("a", -10.0)))
    fused = rank.fuse(tied, NAMED, RULES)
    assert fused[0][1] == fused[1][1]
    assert pages(fused) == ["a", "b"]


# a's bm25 is more than twice b's; b is also the statement the question implies.
CLEAR = Candidates(lexical=(("a", -20.0), ("b", -9.0)), statements=(("b", -9.0),))


def test_a_clear_lexical_winner_stays_first():
    # By RRF alone b leads: b: 1/22 + 1/21 = 0.093074;  a: 1/21 = 0.047619.
    # -20 <= 2 x -9 = -18: a is the clear winner and moves to the front, each keeping its score.
    fused = rank.fuse(CLEAR, NEITHER, RULES)
    assert same(fused, [("a", 1 / 21), ("b", 1 / 22 + 1 / 21)])
    assert rank.clear_winner(CLEAR.lexical, NEITHER, RULES) == "a"


def test_no_clear_winner_when_a_statement_is_named_or_the_rule_is_off():
    # Then RRF decides: b (0.093074), a (0.047619).
    assert pages(rank.fuse(CLEAR, NAMED, RULES)) == ["b", "a"]
    assert pages(rank.fuse(CLEAR, NEITHER, RULES.without("dominance"))) == ["b", "a"]


@pytest.mark.parametrize(
    "first, winner",
    [
        (-18.0, "a"),  # exactly twice b's -9: still a clear winner
        (-17.9, None),  # just under twice
    ],
)
def test_the_dominance_threshold(first, winner):
    lexical = (("a", first), ("b", -9.0))
    assert rank.clear_winner(lexical, NEITHER, RULES) == winner
    expected = ["a", "b"] if winner else ["b", "a"]  # b: 1/22 + 1/21 against a: 1/21
    assert pages(rank.fuse(Candidates(lexical, statements=(("b", -9.0),)), NEITHER, RULES)) == expected


def test_one_page_or_none_is_never_a_clear_winner():
    assert rank.clear_winner((("a", -20.0),), NEITHER, RULES) is None
    assert rank.fuse(Candidates(), NEITHER, RULES) == []
    # Only routed pages (no term matched): the statement list alone, 1/21 then 1/22.
    only = Candidates(statements=(("s1", None), ("s2", None)))
    assert same(rank.fuse(only, NAMED, RULES), [("s1", 1 / 21), ("s2", 1 / 22)])


def test_the_plain_method():
    # k = 60, the route lists weigh 0.8, no dominance rule:
    # a: 1/61 = 0.016393;  b: 1/62 + 0.8/61 = 0.016129 + 0.013115 = 0.029244.
    # a's -20 would be a clear winner under the default method; not here.
    plain = Candidates(lexical=(("a", -20.0), ("b", -9.0)), sections=(("b", -9.0),))
    fused = rank.fuse(plain, TOPICAL, PLAIN)
    assert same(fused, [("b", 1 / 62 + 0.8 / 61), ("a", 1 / 61)])
    assert pages(rank.fuse(plain, TOPICAL, RULES)) == ["a", "b"]
    assert rank.list_weights(TOPICAL, PLAIN) == (1.0, 0.8, 0.8, 0.0)


def record(lexical=(), statements=(), kinds=(), sections=(), intent=NEITHER, **fields) -> Signals:
    """A question's signals written by hand: its lexical rows, its statement rows ((page, kind,
    page number)) and the pages of its targeted sections."""
    return Signals(intent=intent, lexical=lexical, statements=statements, kinds=kinds, sections=sections, **fields)


# LISTS as rows: c is the balance sheet the question targets, b the page of a targeted section.
ROWS = record(
    lexical=(("a", -10.0), ("b", -9.0), ("c", -8.0)), statements=(("c", "balance_sheet", 3),),
    kinds=("balance_sheet",), sections=("b",),
)


def test_the_lists_are_made_of_the_rows():
    assert lists.lists(ROWS, RULES).candidates == Candidates(
        lexical=(("a", -10.0), ("b", -9.0), ("c", -8.0)), statements=(("c", -8.0),), sections=(("b", -9.0),)
    )
    assert rank.order(ROWS._replace(intent=NAMED), RULES).fused == tuple(rank.fuse(LISTS, NAMED, RULES))


def test_inputs_are_never_edited():
    signals = record(
        lexical=[["a", -20.0], ["b", -9.0], ["c", -8.0]], statements=[["c", "balance_sheet", 3]],
        kinds=["balance_sheet"], sections=["b"],
    )
    lists_ = lists.lists(signals, RULES).candidates
    before = copy.deepcopy(signals)
    fused = rank.fuse(lists_, NEITHER, RULES)  # the dominance rule moves a to the front
    assert pages(fused) == ["a", "c", "b"]  # c: 1/23 + 1/21 = 0.091097 > b: 1/22 + 0.3/21 = 0.059740
    ordered = rank.order(signals, RULES)
    assert ordered.fused == tuple(fused)
    rank.candidates(signals, RULES)
    assert signals == before
    off = RULES._replace(evidence_weight=0.0)
    again = rank.rerank(fused, {"a": _passage(0.5)}, NEITHER, off)
    assert again == fused and again is not fused
    passages = {"a": _passage(0.1), "b": _passage(0.9), "c": _passage(0.5)}
    kept = copy.deepcopy(passages)
    rank.rerank(fused, passages, NEITHER, RULES)
    assert passages == kept


def test_order_is_fusion_when_the_evidence_rerank_is_off():
    off = RULES._replace(evidence_weight=0.0)
    passages = {"a": _passage(0.1), "b": _passage(0.9), "c": _passage(0.5)}
    for intent in (NAMED, TOPICAL):
        fused = tuple(rank.fuse(LISTS, intent, off))
        assert rank.order(ROWS._replace(intent=intent), off).fused == fused
        assert rank.order(ROWS._replace(intent=intent, passages=passages), off).fused == fused
    assert rank.order(ROWS._replace(passages=passages), RULES).fused != tuple(rank.fuse(LISTS, NEITHER, RULES))


def _passage(score, coverage=None, figure=False):
    from evfind.evidence import Passage

    return Passage(score, score if coverage is None else coverage, (), figure)


FUSED = [("a", 0.30), ("b", 0.20), ("c", 0.10), ("d", 0.05)]
PASSAGES = {"a": _passage(0.3), "b": _passage(0.9), "c": _passage(0.5)}


def test_evidence_list_orders_by_passage_then_figure_then_coverage_then_fused_order():
    fact = rank.Intent(fact=True)
    assert rank.evidence_list(["a", "b", "c"], PASSAGES, fact) == ["b", "c", "a"]
    # equal passages: a fact question prefers the figure line; then coverage; then fused order
    tied = {"a": _passage(0.5), "b": _passage(0.5, figure=True), "c": _passage(0.5, coverage=0.9), "d": None}
    assert rank.evidence_list(["a", "b", "c", "d"], tied, fact) == ["b", "c", "a", "d"]
    assert rank.evidence_list(["a", "b", "c", "d"], tied, rank.Intent()) == ["c", "a", "b", "d"]


def test_rerank_fuses_the_leading_pages_with_their_evidence_order():
    # depth 3, k 20; evidence list [b, c, a]. With weight 0.5:
    #   a = 1/21 + 0.5/23 = 0.069358;  b = 1/22 + 0.5/21 = 0.069264;  c = 1/23 + 0.5/22 = 0.066206
    # a keeps first place by a hair: the evidence reorders close ranks only.
    half = RULES._replace(evidence_weight=0.5, rerank_depth=3, k=20)
    assert [p for p, _ in rank.rerank(FUSED, PASSAGES, rank.Intent(), half)] == ["a", "b", "c", "d"]
    # With weight 1: a = 1/21 + 1/23 = 0.091097; b = 1/22 + 1/21 = 0.093074; c = 1/23 + 1/22 = 0.088933
    full = half._replace(evidence_weight=1.0)
    reordered = rank.rerank(FUSED, PASSAGES, rank.Intent(), full)
    assert [p for p, _ in reordered] == ["b", "a", "c", "d"]
    # the page below the depth keeps its score, below every leading page
    assert reordered[-1] == ("d", 0.05) and min(s for _, s in reordered[:3]) > 0.05
    assert FUSED == [("a", 0.30), ("b", 0.20), ("c", 0.10), ("d", 0.05)]  # inputs untouched


def test_statement_list_by_kind_then_bm25_then_page():
    # Rows as the statement SQL returns them: (page id, kind, page number).
    rows = [(1, "balance_sheet", 50), (2, "cash_flow_statement", 52), (3, "cash_flow_statement", 53),
            (4, "cash_flow_statement", 51), (5, "cash_flow_statement", 49)]
    bm25 = {1: -7.0, 2: -3.0, 3: -5.0}
    # Cash flows first (the first kind targeted): 3 (-5) before 2 (-3), then the unmatched 5
    # (page 49) and 4 (page 51); then the balance sheet, 1, though its bm25 is the best.
    before = list(rows)
    assert rank.statement_list(rows, ["cash_flow_statement", "balance_sheet"], bm25) == [
        (3, -5.0), (2, -3.0), (5, None), (4, None), (1, -7.0)
    ]
    assert rows == before
    assert rank.statement_list(rows, ["balance_sheet", "cash_flow_statement"], bm25)[0] == (1, -7.0)


def test_section_list_keeps_matching_pages_best_first():
    bm25 = {3: -2.0, 5: -4.0, 9: -4.0}
    # 7 matches no term: left out; 9 and 5 tie at -4: the lower id first.
    assert rank.section_list([9, 3, 5, 7], bm25) == [(5, -4.0), (9, -4.0), (3, -2.0)]
    assert rank.section_list([9, 3, 5, 7], bm25, limit=2) == [(5, -4.0), (9, -4.0)]


def test_section_origins():
    assert rank.section_origins(RULES) == ("title", "statement", "started", "carried")
    assert rank.section_origins(RULES.without("carried")) == ("title", "statement", "started")
    assert rank.section_origins(PLAIN) == ("title", "statement")


def test_the_statements_asked_for_lead_the_evidence_list():
    candidates = Candidates(lexical=[("a", -9.0), ("s", -2.0)], statements=[("s", -2.0), ("t", None)])
    # named, or a ratio with no topic of its own: the statements are the table asked for
    assert rank.asked_tables(candidates, Intent(named=True)) == ["s", "t"]
    assert rank.asked_tables(candidates, Intent(ratio=True)) == ["s", "t"]
    # a ratio beside a topic ("DSO by segment"), or a line item alone: no table is asked for
    assert rank.asked_tables(candidates, Intent(ratio=True, topical=True)) == []
    assert rank.asked_tables(candidates, Intent(fact=True)) == []
    # "a" holds the better passage, but "s" is the statement asked for: it leads the list
    passages = {"a": _passage(0.9), "s": _passage(0.2)}
    assert rank.evidence_list(["a", "s"], passages, Intent(named=True), ["s", "t"]) == ["s", "a"]
    assert rank.evidence_list(["a", "s"], passages, Intent(), []) == ["a", "s"]


def test_pages_that_restate_are_set_aside_unless_asked_for():
    fused = [("def", 0.30), ("loan", 0.20), ("note", 0.15), ("item", 0.10)]
    half = RULES._replace(aside=0.5)
    # definitions 0.30 -> 0.15 and the agreement's page 0.20 -> 0.10: the disclosure moves up;
    # equal scores keep the fused order (def before note, loan before item)
    assert rank.set_aside(fused, ["def"], ["loan"], rank.Intent(), half) == [
        ("def", 0.15), ("note", 0.15), ("loan", 0.10), ("item", 0.10)
    ]
    # a question about an instrument keeps the agreement's page: only the definitions go down
    assert rank.set_aside(fused, ["def"], ["loan"], rank.Intent(instrument=True), half) == [
        ("loan", 0.20), ("def", 0.15), ("note", 0.15), ("item", 0.10)
    ]
    assert rank.set_aside(fused, ["def"], ["loan"], rank.Intent(definition=True, instrument=True), half) == fused
    assert rank.set_aside(fused, ["def"], ["loan"], rank.Intent(), RULES._replace(aside=1.0)) == fused
    # a table of contents lists titles and page numbers: set aside unless asked for
    assert rank.set_aside(fused, [], [], rank.Intent(), half, contents=["def"])[0] == ("loan", 0.20)
    assert rank.set_aside(fused, [], [], rank.Intent(contents=True), half, contents=["def"]) == fused


def test_the_table_of_contents_answers_only_when_asked_for(cli, filing_db):
    """Page 2 of the test filing lists the Items and statements with their page numbers: it
    holds every title a question names, and none of the evidence."""
    def pages(question: str) -> list[int]:
        result, data = cli.json("query", filing_db, question)
        assert result.exit_code == 0, result.stderr
        return [hit["page_number"] for hit in data["results"]]

    assert pages("Where is the table of contents?")[0] == 2
    assert pages("目录在哪一页？")[0] == 2
    found = pages("Where is Item 8, financial statements and supplementary data?")
    assert found[0] in (8, 9, 10, 11) and 2 not in found[:3]


def test_a_clear_winner_stays_first_when_others_are_set_aside():
    fused = [("winner", 0.04), ("def", 0.09), ("other", 0.05)]  # the winner was put first by fuse
    assert rank.set_aside(fused, ["def"], [], rank.Intent(), RULES._replace(aside=0.5)) == [
        ("winner", 0.04), ("other", 0.05), ("def", 0.045)
    ]


def test_the_section_list_opens_at_the_section_for_a_description_and_by_bm25_for_a_figure(tmp_path):
    """A question that asks for no figure reads the targeted section from where it opens (the
    overview); a figure's question ranks the section's pages by bm25, as the lexical list does."""
    from evfind import Finder
    from evfind.ingest import ingest

    from .conftest import write_jsonl

    boilerplate = " ".join(["Forward-looking statements involve risks and uncertainties that may cause results to differ."] * 12)
    business = f"{boilerplate}\nItem 1. Business\nOverview\nWe operate in three geographic regions and sell in 40 countries."
    detail = ("Our Operations\nThe regions we operate in: North America, Europe and Asia Pacific. Each of the regions "
              "has its own management; the regions report their revenue and operating profit.")
    more = "Competition\nWe compete in every region with global and local companies; regions differ in pricing."
    risk = "Item 1A. Risk Factors\nOur results depend on economic conditions."
    source = write_jsonl(tmp_path / "ACME_2024_10K.jsonl", ["ACME Corp Form 10-K 2024", business, detail, more, risk])
    db = ingest(source, tmp_path / "acme.db").db_path
    with Finder(db) as finder:
        where = finder.explain("What are the geographic regions the company operates in?")
        assert not where.parsed.fact and "business" in where.parsed.sections
        assert [page for page, _ in where.sections][:2] == [2, 3]
        with_bm25 = Finder(db, method=rank.RULES._replace(section_order="bm25"))
        with with_bm25:
            plain = with_bm25.explain("What are the geographic regions the company operates in?")
        assert [page for page, _ in plain.sections][0] == 3  # the page that says "regions" most
        figure = finder.explain("How many geographic regions does the company operate in?")
        assert figure.parsed.fact and [page for page, _ in figure.sections][0] == 3


def test_the_table_of_the_span_asked_for_comes_first(tmp_path, cli):
    """An earnings release prints the same table for the quarter and for the full year (or the
    year to date) on neighbouring pages: the question's "full-year" or "year-to-date" picks the
    page whose columns cover it, through the CLI, in English and in Chinese; without a span
    asked, the words decide and the quarter's table, the first, leads."""
    from .conftest import ranked_pages

    def table(span: str, figures: str) -> str:
        return (
            "ACME Corp and Subsidiaries\nReconciliation of GAAP and Non-GAAP Information\n"
            f"Operating Profit by Division\n{span} Ended December 31, 2024 and December 31, 2023\n"
            "(in millions, unaudited)\nReported Operating Profit Restructuring Core Operating Profit\n"
            f"North America {figures}\nEurope {figures}\nTotal {figures}"
        )

    others = [
        "Condensed Consolidated Balance Sheet\nCash and cash equivalents $ 812\nInventories 1,020\nTotal assets 9,480",
        "Condensed Consolidated Statement of Cash Flows\nNet cash provided by operating activities 1,544\nCapital spending (610)",
        "Dividends\nThe board declared a quarterly dividend of $0.45 per share, payable March 3, 2025.",
        "Conference Call\nManagement will host a webcast at 8:00 a.m. Eastern Time to discuss the results.",
        "Forward-Looking Statements\nThis release contains statements about plans, expectations and risks.",
        "Net Revenue by Region\nNorth America grew 3% and Europe grew 6%, driven by pricing and volume.",
    ]

    def ranked(name: str, second: str, question: str, *options: str) -> list[int]:
        pages = [
            "ACME Corp Reports 2024 Results\nRevenue grew 4% in the fourth quarter.",
            table("Quarter", "$ 1,210 $ 35 $ 1,245"),
            table(second, "$ 4,870 $ 120 $ 4,990"),
            *others,
        ]
        return ranked_pages(cli, tmp_path, name, pages, question, *options)

    def first(name: str, second: str, question: str, *options: str) -> int:
        return ranked(name, second, question, *options)[0]

    annual = ("ACME_2024Q4_EARNINGS", "Year")
    # the full year asked: the rules' off-period step puts the year's table first; the learned
    # stage retrained in session 4 (off_period a signal it weighs) keeps it in the top 2 on this
    # filing, behind the quarter's: a known miss, left to the training data, not a rule
    question = "Where is operating profit by division, reported and core, for the full year?"
    assert first(*annual, question, "--method", "rules") == 3
    assert 3 in ranked(*annual, question)[:2]
    assert first(*annual, "全年按分部的营业利润调节表在哪一页？") == 3
    # no span asked: the rules keep the fusion's order (the quarter's table first); the learned
    # stage puts the year's table first on this filing (a known difference, not tuned away)
    assert first(*annual, "Where is operating profit by division, reported and core?", "--method", "rules") == 2
    assert first(*annual, "Where is operating profit by division, reported and core?") in (2, 3)
    interim = ("ACME_2024Q2_EARNINGS", "24 Weeks")
    question = "Where is year-to-date operating profit by division, reported and core?"
    assert first(*interim, question, "--method", "rules") == 3
    assert 3 in ranked(*interim, question)[:2]
    assert first(*interim, "Where is operating profit by division, reported and core?", "--method", "rules") == 2
    assert first(*interim, "Where is operating profit by division, reported and core?") in (2, 3)


def test_why_a_margin_changed_is_answered_by_md_and_a(tmp_path, cli):
    """The income statement holds the gross margin, MD&A says what drove it: asked why, MD&A's
    page comes first; asked for the figure, the statement does."""
    from .conftest import ranked_pages

    pages = [
        "ACME Corp Annual Report on Form 10-K for fiscal 2024",
        "Item 1. Business\nWe make industrial pumps and sell them through distributors worldwide.",
        "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations\n"
        "Results of Operations\nGross margin fell to 41.2% from 44.0%: higher freight and raw material costs and "
        "unfavourable product mix drove the decline, partly offset by price increases.",
        "Liquidity and Capital Resources\nCash from operations was $210 million; we repaid $50 million of notes.",
        "Item 8. Financial Statements and Supplementary Data\nConsolidated Statements of Income\n"
        "Years ended December 31, 2024 2023\nNet sales $ 1,200 $ 1,150\nCost of sales 706 644\n"
        "Gross margin 494 506\nSelling and administrative expenses 300 290\nOperating income 194 216",
        "Consolidated Balance Sheets\nDecember 31, 2024 2023\nCash $ 90 $ 80\nTotal assets 1,400 1,350",
        "Notes to Consolidated Financial Statements\nNote 1. Summary of Significant Accounting Policies\n"
        "Revenue is recognised when control of a pump passes to the customer.",
    ]
    def first(question: str, *options: str) -> int:
        return ranked_pages(cli, tmp_path, "ACME_2024_10K", pages, question, *options)[0]

    assert first("What drove the drop in ACME's gross margin in 2024?") == 3
    assert first("What was ACME's gross margin in 2024?") == 5
    # in Chinese the rules find MD&A first; the learned stage puts the statement first and MD&A in
    # its top 3 (a known miss on this seven-page filing, not tuned away)
    assert first("ACME 2024年毛利率下降的原因是什么？", "--method", "rules") == 3
    assert 3 in ranked_pages(cli, tmp_path, "ACME_2024_10K", pages, "ACME 2024年毛利率下降的原因是什么？")[:3]


# --- The decisions the finder used to make, on plain values ----------------------------------------


def test_the_match_leaves_out_common_words_and_the_filers_symbols():
    q, common, symbol = TermSignal("question"), TermSignal("question", common=True), TermSignal("question", symbol=True)
    assert lists.lexical_terms([q, common, q], pages=40) == ((0, 2), (0, 1, 2))  # then all, if nothing matches
    assert lists.lexical_terms([q, symbol], pages=40) == ((0,), (0, 1))
    assert lists.lexical_terms([common, common], pages=40) == ((0, 1),)  # nothing else left: all kept
    assert lists.lexical_terms([q, q], pages=40) == ((0, 1),)
    # a filing of fewer than FEW_PAGES (10) pages keeps its common words, not the symbols
    assert lists.lexical_terms([q, common], pages=9) == ((0, 1),)
    assert lists.lexical_terms([q, common], pages=10) == ((0,), (0, 1))
    assert lists.lexical_terms([common, symbol], pages=9) == ((0,), (0, 1))


def test_the_questions_own_words_are_ranked_apart_only_when_asked_and_different():
    q, lexicon = TermSignal("question"), TermSignal("lexicon")
    apart = RULES._replace(expansion_weight=0.5)
    assert lists.own_terms([q, lexicon, q], (0, 1, 2), apart) == (0, 2)
    assert lists.own_terms([q, lexicon, q], (0, 1, 2), RULES) is None  # weight 0: one list
    assert lists.own_terms([q, lexicon], (0,), apart) is None  # no expansion kept: the same list
    assert lists.own_terms([lexicon], (0,), apart) is None  # no word of its own


def test_the_statements_and_sections_targeted():
    assert lists.statement_kinds(("cash_flow_statement",), RULES) == ("cash_flow_statement",)
    assert lists.statement_kinds(("cash_flow_statement",), PLAIN) == ()
    # the Items named first, then the topics' sections; routed by titles without statement recognition
    assert lists.targets(("liquidity",), ("cash_flow_statement", "liquidity"), ("item_7",), RULES) == ("item_7", "liquidity")
    assert lists.targets(("liquidity",), ("cash_flow_statement", "liquidity"), ("liquidity",), PLAIN) == (
        "liquidity", "cash_flow_statement")


def test_an_item_is_named_outright_when_the_question_asks_for_the_item_itself():
    from evfind.text import normal

    assert lists.ITEM_WORDS == {normal(w) for w in "item items part i ii iii iv form filing section".split()}
    items = [(30, "item_7", frozenset({"item", "7", "management", "discussion"})),
             (31, "item_7", frozenset({"item", "7", "results"})),  # the Item's heading again: its first page counts
             (50, "item_8", frozenset({"item", "8", "financial", "statement"}))]
    assert lists.item_openings(items, frozenset({"item", "management", "acme"}), frozenset({"acme"})) == [30]
    assert lists.item_openings(items, frozenset({"item", "results"}), frozenset()) == []
    assert lists.item_openings(items, frozenset({"part", "item"}), frozenset()) == [30, 50]  # "Where are Items 7 and 8?"
    # named outright, the opening leads whatever its score
    signals = record(lexical=(("x", -9.0), (31, -5.0), (30, -1.0)), items=tuple(items), item_words=frozenset({"item"}))
    assert [page for page, _ in rank.order(signals, RULES).fused] == [30, 50, "x", 31]
    assert rank.order(signals, RULES).named == (30, 50)


EXHIBITS = Filing(
    pages=30, cover=frozenset({"acme", "company"}), common=frozenset({"credit"}),
    exhibits=((10, "10.1", True), (11, "10.1", False), (20, "21", True)),
    titles=(("10.1", frozenset({"credit", "agreement"})), ("21", frozenset({"acme", "company", "subsidiaries"}))),
)


def test_an_exhibit_is_named_by_number_or_by_title_the_filers_name_aside():
    by_title = record(filing=EXHIBITS, title_words=frozenset({"acme", "company", "agreement", "term"}))
    # 10.1: {agreement} (credit: a word on most pages) holds 1 of 1; 21: {subsidiaries} (acme,
    # company: the cover's) holds none
    assert lists.exhibits_named(by_title) == ("10.1",)
    # with the cover's words, "acme company" would name the subsidiaries: 2 of 3 words, 2 its own
    bare = EXHIBITS._replace(cover=frozenset())
    assert lists.exhibits_named(by_title._replace(filing=bare)) == ("21",)
    # a short filing's common words are its topic: kept in the titles
    short = by_title._replace(title_words=frozenset({"credit", "term"}))
    assert lists.exhibits_named(short) == ()
    assert lists.exhibits_named(short._replace(filing=EXHIBITS._replace(pages=9))) == ("10.1",)
    assert lists.exhibits_named(by_title._replace(exhibits=("21",))) == ("21",)  # by number: no title read
    assert lists.exhibits_named(record(title_words=frozenset({"agreement"}))) == ()  # no exhibit attached


def test_a_named_exhibit_leads_the_section_list_and_its_twins_are_set_aside():
    rows = (("p3", -12.0), (11, -10.0), (20, -9.0), (10, -2.0))
    by_number = record(filing=EXHIBITS, lexical=rows, sections=("p3",), exhibits=("10.1",), intent=Intent(opening=True))
    made = lists.lists(by_number, RULES)
    assert made.candidates.sections == ((11, -10.0), (10, -2.0), ("p3", -12.0))  # the exhibit's pages first, by bm25
    assert made.unnamed == (20,) and made.named == (10,) and made.exhibit_of == {10: "10.1", 11: "10.1"}
    # named by title, its pages join the section list, by bm25; not asked where it begins: none named outright
    by_title = by_number._replace(exhibits=(), title_words=frozenset({"agreement"}), intent=Intent())
    made = lists.lists(by_title, RULES)
    assert made.candidates.sections == (("p3", -12.0), (11, -10.0), (10, -2.0)) and made.named == ()
    # page 20 (the other exhibit) keeps half its score: 1/23 + 0.3 x 0 -> 1/23 / 2
    ranked = dict(rank.order(by_title._replace(passages={}), RULES).fused)
    assert ranked[20] == pytest.approx(0.5 / 23)


DEFINED = record(
    lexical=(("def1", -10.0), ("note", -9.0), ("def2", -8.0)),
    filing=Filing(definitions=frozenset({"def1", "def2"})),
)


def test_a_leading_page_of_definitions_that_defines_the_term_asked_about_is_not_set_aside():
    # fused: def1 1/21 = 0.047619, note 1/22 = 0.045455, def2 1/23 = 0.043478; definitions halved
    assert pages(rank.order(DEFINED, RULES).fused) == ["note", "def1", "def2"]
    assert rank.to_define(DEFINED, RULES) == ("def1", "def2")
    defining = DEFINED._replace(defining=frozenset({"def1"}))
    assert pages(rank.order(defining, RULES).fused) == ["def1", "note", "def2"]
    # only among the leading rerank_depth pages: def2 is third
    shallow = RULES._replace(rerank_depth=2)
    assert rank.to_define(DEFINED, shallow) == ("def1",)
    assert pages(rank.order(DEFINED._replace(defining=frozenset({"def2"})), shallow).fused) == ["note", "def1", "def2"]
    # a question asking what a term means sets no page of definitions aside, and reads none
    asks = DEFINED._replace(intent=Intent(definition=True))
    assert rank.to_define(asks, RULES) == () and pages(rank.order(asks, RULES).fused) == ["def1", "note", "def2"]


# Three leading pages with the same passage; a and b cover the quarter only, c the year.
SPANS = record(
    lexical=(("a", -10.0), ("b", -9.0), ("c", -8.0)),
    passages={page: _passage(0.5) for page in "abc"},
    shown={"a": frozenset({"quarter"}), "b": frozenset({"quarter"}), "c": frozenset({"year", "quarter"})},
)


def test_a_page_of_another_span_goes_after_the_others_in_the_evidence():
    full = RULES._replace(evidence_weight=1.0)
    # no span asked: evidence [a, b, c], as fused: a, b, c
    assert pages(rank.order(SPANS, full).fused) == ["a", "b", "c"]
    # the full year asked: a and b off-period, evidence [c, a, b]:
    #   a = 1/21 + 1/22 = 0.092641, c = 1/23 + 1/21 = 0.091097, b = 1/22 + 1/23 = 0.088933
    year = SPANS._replace(periods=frozenset({"year"}))
    assert pages(rank.order(year, full).fused) == ["a", "c", "b"]
    assert rank.off_period(year.periods, year.shown, ["a", "b", "c"]) == {"a", "b"}
    # a quarter asked alone names the filing: no page is off, not even the year's table (a)
    quarter = SPANS._replace(periods=frozenset({"quarter"}), shown={**SPANS.shown, "a": frozenset({"year"})})
    assert rank.off_period(quarter.periods, quarter.shown, ["a", "b", "c"]) == frozenset()
    assert pages(rank.order(quarter, full).fused) == ["a", "b", "c"]


def test_the_pages_whose_text_the_last_stage_reads():
    signals = record(lexical=tuple((n, -20.0 + n) for n in range(12)), items=((11, "item_7", frozenset({"item"})),),
                     item_words=frozenset({"item"}))
    assert rank.to_read(signals, RULES, top=5) == Reads(tuple(range(10)) + (11,), ())
    assert rank.to_read(signals, RULES, top=20).pages == tuple(range(12))
    year = signals._replace(periods=frozenset({"year", "quarter"}))
    assert rank.to_read(year, RULES, top=5).periods == tuple(range(10))
    assert rank.to_read(year._replace(periods=frozenset({"quarter"})), RULES).periods == ()


def test_a_weak_match_holds_under_half_the_questions_own_words():
    q, year, pair, lexicon = (TermSignal(s) for s in ("question", "year", "pair", "lexicon"))
    assert rank.covers([q, q, year], [True, False, True])  # 2 of 3
    assert not rank.covers([q, q, year], [True, False, False])  # 1 of 3
    assert rank.covers([q, q, q, lexicon], [True, False, False, True])  # an expansion of them is on the page
    assert not rank.covers([q, q, q, pair], [True, False, False, True])  # a pair is not
    assert rank.covers([q._replace(common=True), q], [False, False])  # a word on most pages counts as on this one
    assert rank.covers([lexicon], [False])  # no word of its own: nothing to hold


def test_the_intent_of_a_question():
    assert rank.intent_of(("balance_sheet",), ("definitions",), True, opening=True) == Intent(
        named=True, topical=True, fact=True, definition=True, opening=True)
    assert rank.intent_of((), (rank.CONTENTS, "covenants"), False) == Intent(topical=True, instrument=True, contents=True)


def test_every_candidate_with_the_signals_the_rules_read():
    signals = ROWS._replace(
        filing=Filing(definitions=frozenset({"a"})), passages={"b": _passage(0.9, 0.95, True)},
        shown={"b": frozenset({"year"})},
    )
    found = {c.page: c for c in rank.candidates(signals, RULES)}
    assert [c.page for c in rank.candidates(signals, RULES)] == pages(rank.order(signals, RULES).fused)
    # fused (NEITHER): c 1/23 + 1/21 = 0.091097, b 1/22 + 0.3/21 = 0.059740, a 1/21 = 0.047619
    c, b, a = found["c"], found["b"], found["a"]
    assert (c.fused_rank, c.lexical_rank, c.bm25, c.statement_rank, c.statement, c.section_rank) == (
        1, 3, -8.0, 1, "balance_sheet", None)
    assert c.fused_score == pytest.approx(1 / 23 + 1 / 21)
    assert (b.fused_rank, b.lexical_rank, b.section_rank, b.statement) == (2, 2, 1, None)
    assert (b.passage, b.coverage, b.figure, b.periods) == (0.9, 0.95, True, frozenset({"year"}))
    assert (c.passage, c.figure, c.periods) == (None, False, frozenset())
    assert a.aside == ("definitions",) and b.aside == () and not a.defining
    assert found["a"].rank == 3 and not any(x.named or x.table or x.off_period or x.exhibit for x in found.values())
    # the statement named: it is the table asked for
    assert {x.page for x in rank.candidates(signals._replace(intent=NAMED), RULES) if x.table} == {"c"}


def test_the_reasons_given_for_a_page_set_aside_are_set_asides_own():
    fused = [(page, 1.0 / (20 + n)) for n, page in enumerate("abcdef", start=1)]
    for intent in (Intent(), Intent(definition=True), Intent(instrument=True), Intent(contents=True)):
        reasons = rank.aside_reasons({"a", "b"}, {"b", "c"}, intent, unnamed={"d"}, contents={"e"})
        kept = rank.set_aside(fused, {"a", "b"}, {"b", "c"}, intent, RULES, unnamed={"d"}, contents={"e"})
        halved = {page for page, score in kept if score < dict(fused)[page]}
        assert halved == set(reasons), intent


def test_a_record_asked_again_is_ranked_again_from_what_it_holds():
    """A Finder asks to_define, to_read and order of one record; what they share is computed
    once, and a record that differs in anything is ranked from what it holds."""
    first = rank.order(DEFINED, RULES)
    assert rank.order(DEFINED, RULES) == first
    assert rank.order(DEFINED._replace(lexical=DEFINED.lexical[::-1]), RULES) != first
    assert rank.order(DEFINED, RULES._replace(aside=1.0)) != first
    assert rank.order(DEFINED, RULES) == first
