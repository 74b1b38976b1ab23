"""Issue 22, item 2 (the vocabulary and the lookup): a question's line items meet the standard
concepts of the facts an HTML filing tags, by the concept's name split into words, the row
labels filers print beside it (evfind/data/concepts.tsv) and the row label the filing itself
prints. A pure function over a parsed question and fact rows; scores small enough to check by
hand (evfind/concepts.py: F1 of content words, +0.5 for the year, +0.25 without dimensions)."""

from __future__ import annotations

import re

import pytest

from evfind import factstore, store
from evfind._data import rows
from evfind.concepts import (
    EXPANSION_WEIGHT, PLAIN_BONUS, YEAR_BONUS, FactHit, asked_concepts, concept_words, label_key, lookup,
    phrase_score,
)
from evfind.ingest import ingest
from evfind.question import parse

from .html_filing import TEXTS, filing_html, write_filing


@pytest.mark.parametrize(
    "concept, words",
    [
        ("us-gaap:PaymentsToAcquirePropertyPlantAndEquipment", "payments to acquire property plant and equipment"),
        ("us-gaap:EarningsPerShareDiluted", "earnings per share diluted"),
        ("us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest",
         "income loss from continuing operations before income taxes extraordinary items noncontrolling interest"),
        ("dei:EntityCommonStockSharesOutstanding", "entity common stock shares outstanding"),
        ("mrw:EBITDAAdjusted", "ebitda adjusted"),
        ("us-gaap:Revenues", "revenues"),
    ],
)
def test_a_concepts_name_split_into_words(concept, words):
    assert concept_words(concept) == words


@pytest.mark.parametrize(
    "label, key",
    [
        ("Net cash provided by (used in) operating activities(1)", "net cash provided by used in operating activities"),
        ("Additions to property, plant and equipment", "additions to property plant and equipment"),
        ("Less: Accumulated depreciation*", "less accumulated depreciation"),
        ("Shareholders\u2019 equity (a)", "shareholders' equity"),
    ],
)
def test_a_row_label_as_the_vocabulary_keeps_it(label, key):
    assert label_key(label) == key


def test_phrase_scores_by_hand():
    assert phrase_score("capital expenditures", "capital expenditure") == 1.0  # singular forms: the same words
    # {purchase, property, equipment} and {payment, acquire, property, plant, equipment}: 2 common
    assert phrase_score("purchases of property and equipment", "payments to acquire property plant and equipment") == 2 * 2 / (3 + 5)
    assert phrase_score("net sales", "net income") == 0.5
    assert phrase_score("net sales", "cost of sales") == 0.5
    assert phrase_score("goodwill", "total revenues") == 0.0


def test_the_mined_vocabulary_has_a_source_per_row_and_no_company():
    table = rows("concepts.tsv", 2, source=True)
    assert len(table) > 80
    concepts = {concept for concept, _, _ in table}
    assert len(concepts) == len(table)
    for concept, labels, source in table:
        assert re.fullmatch(r"[a-z][a-z-]*:[A-Za-z0-9]+", concept)
        assert labels and all(label == label_key(label) for label in labels.split("|"))
        assert not re.search(r"\b(?:19|20)\d\d\b", labels)  # no "balance as of December 31, 2024"
        assert "/work/shared/edgar" in source and re.search(r"in the filings of \d", source)
        assert all(int(n) >= 2 for n in re.findall(r"\d+", source.rpartition("filings of")[2]))
    by_concept = {concept: labels.split("|") for concept, labels, _ in table}
    assert "capital expenditures" not in by_concept.get("us-gaap:PaymentsToAcquirePropertyPlantAndEquipment", [])
    assert "purchases of property and equipment" in by_concept["us-gaap:PaymentsToAcquirePropertyPlantAndEquipment"]
    # a table's generic rows name many concepts: none is kept
    assert not any(label in ("total", "other", "thereafter") for labels in by_concept.values() for label in labels)


def fact(page: int, concept: str, value: str, end: str, start: str | None = None, row_label: str | None = None,
         dimensions: str | None = None, instant: bool = False) -> factstore.FactRow:
    return factstore.FactRow(
        page_id=100 + page, page_number=page, concept=concept, kind="numeric", context="c",
        period_start=None if instant else (start if start is not None else f"{end[:4]}-01-01"),
        period_end=None if instant else end, instant=end if instant else None, dimensions=dimensions,
        unit="iso4217:USD", scale=6, sign=None, decimals="-6", format=None, value=value, row_label=row_label,
        fact_id=None,
    )


FACTS = [
    fact(3, "us-gaap:Revenues", "1,234", "2025-12-31", row_label="Net sales"),
    fact(3, "us-gaap:Revenues", "1,100", "2024-12-31", row_label="Net sales"),
    fact(3, "us-gaap:NetIncomeLoss", "350", "2025-12-31", row_label="Net income"),
    fact(5, "us-gaap:Revenues", "300", "2025-12-31", row_label="Saws",
         dimensions='{"us-gaap:StatementBusinessSegmentsAxis": "mrw:SawsMember"}'),
    fact(7, "us-gaap:PaymentsToAcquirePropertyPlantAndEquipment", "(52)", "2025-12-31",
         row_label="Purchases of property and equipment"),
    fact(8, "mrw:ToolingSpend", "9", "2025-12-31", row_label="Capital expenditures"),
]


def test_the_facts_a_question_asks_for_ranked_by_hand():
    result = lookup(parse("What were net sales in 2025?"), FACTS)
    ranked = [(hit.page_number, hit.value, hit.score) for hit in result.facts]
    # "net sales": the row label's words exactly (1.0); the segment's row "Saws" names nothing,
    # but its concept's name "revenues" is the lexicon's expansion "revenue" (EXPANSION_WEIGHT);
    # net income meets "net sales" at 0.5 only, under MIN_SCORE
    assert ranked == [
        (3, "1,234", 1.0 + YEAR_BONUS + PLAIN_BONUS),
        (5, "300", pytest.approx(EXPANSION_WEIGHT + YEAR_BONUS)),  # a member of the line item: no PLAIN_BONUS
        (3, "1,100", 1.0 + PLAIN_BONUS),
    ]
    assert result.facts[0].to_dict() == {"concept": "us-gaap:Revenues", "period": "2025-01-01/2025-12-31", "value": "1,234",
                                         "unit": "iso4217:USD", "row_label": "Net sales", "dimensions": None, "tagged_on": 3, "line": None, "tagged": True, "scale": None}
    assert result.facts[1].to_dict()["dimensions"] == {"us-gaap:StatementBusinessSegmentsAxis": "mrw:SawsMember"}
    assert [(page_id, number) for page_id, number, _ in result.pages] == [(103, 3), (105, 5)]
    assert [hit.value for hit in result.on_page(103)] == ["1,234", "1,100"]


def test_capital_expenditures_meet_the_payments_for_property_plant_and_equipment():
    result = lookup(parse("What were capital expenditures in 2025?"), FACTS)
    best = result.facts[0]
    assert (best.page_number, best.concept, best.ideas) == (8, "mrw:ToolingSpend", ("capital expenditures",))
    assert best.score == 1.0 + YEAR_BONUS + PLAIN_BONUS  # the filing's own row label, word for word
    second = result.facts[1]
    assert second.concept == "us-gaap:PaymentsToAcquirePropertyPlantAndEquipment"
    # the lexicon's expansion "purchases of property and equipment" is the row label exactly
    assert second.score == pytest.approx(1.0 * EXPANSION_WEIGHT + YEAR_BONUS + PLAIN_BONUS)
    assert [number for _, number, _ in result.pages] == [8, 7]


def test_an_instant_and_a_chinese_question():
    facts = [fact(4, "us-gaap:CashAndCashEquivalentsAtCarryingValue", "96", "2025-12-31", instant=True)]
    result = lookup(parse("现金及现金等价物 2025"), facts)
    assert [(hit.period, hit.value) for hit in result.facts] == [("2025-12-31", "96")]


def test_no_line_item_no_fact():
    assert lookup(parse("Who audits the company?"), FACTS).facts == ()
    assert lookup(parse("2025"), FACTS) == ((), ())
    assert lookup(parse("net sales"), []) == ((), ())


def test_asked_concepts_by_their_vocabulary():
    concepts = ["us-gaap:Revenues", "us-gaap:NetIncomeLoss", "us-gaap:PaymentsToAcquirePropertyPlantAndEquipment"]
    assert [c for c, _ in asked_concepts(parse("What were capital expenditures?"), concepts)] == [
        "us-gaap:PaymentsToAcquirePropertyPlantAndEquipment"]
    assert {c for c, _ in asked_concepts(parse("total revenues and net income"), concepts)} == {
        "us-gaap:NetIncomeLoss", "us-gaap:Revenues"}


def test_the_lookup_over_an_ingested_filings_facts(tmp_path):
    db = ingest(write_filing(tmp_path / "mrw-20251231.htm")).db_path
    conn = store.connect_read(db)
    try:
        facts = factstore.facts_of_revision(conn, 1)
        result = lookup(parse("What were net sales in 2025?"), facts)
        assert result.facts[0] == FactHit(
            page_id=3, page_number=3, concept="us-gaap:Revenues", period="2025-01-01/2025-12-31", value="1,234",
            score=1.75, ideas=("net sales",), row_label="Net sales", dimensions=None, unit="iso4217:USD")
        page_ids = [page_id for page_id, _, _ in result.pages]
        assert [f.value for f in factstore.facts_on_pages(conn, page_ids[:1]) if f.concept == "us-gaap:Revenues"] == [
            "1,234", "1,100"]
        deferred = lookup(parse("deferred tax assets at year end 2025"), facts)
        assert [(hit.page_number, hit.period, hit.value) for hit in deferred.facts[:1]] == [(5, "2025-12-31", "45")]
    finally:
        conn.close()


def test_words_many_rows_print_count_little_and_common_words_nothing():
    """label_weights: a word of many labels ("total") tells less than a rare one ("backlog");
    a word on most pages tells nothing, so a label of such words matches no idea."""
    from evfind.concepts import candidates, label_weights

    labels = [("us-gaap:Assets", "Total"), ("us-gaap:Liabilities", "Total"), ("us-gaap:Revenues", "Total"),
              ("us-gaap:RevenueRemainingPerformanceObligation", "Total backlog"), ("mrw:Widgets", "Widgets sold")]
    weights = label_weights(labels, common=frozenset({"widget"}))
    assert weights["total"] < weights["backlog"] and weights["widget"] == 0.0
    asked = parse("What was the total backlog?")
    assert phrase_score("total backlog", "total", weights) < phrase_score("total backlog", "total backlog", weights) == 1.0
    assert candidates(parse("widgets"), labels, weights) == []  # "widget" is on most pages: it counts nothing
    assert ("us-gaap:RevenueRemainingPerformanceObligation", "Total backlog") in candidates(asked, labels, weights)


def test_weighted_ideas_score_the_share_of_the_question_a_fact_says():
    facts = [fact(3, "us-gaap:Revenues", "1,234", "2025-12-31", row_label="Net sales"),
             fact(4, "mrw:Widgets", "7", "2025-12-31", row_label="Europe")]
    asked = parse("What were Europe net sales in 2025?")
    ideas = {idea.label: 1.0 for idea in asked.ideas if not idea.year}
    result = lookup(asked, facts, ideas=ideas)
    shares = {hit.row_label: hit.score for hit in result.facts}
    whole = sum(ideas.values())
    assert shares["Net sales"] == pytest.approx(1.0 / whole * (1 + YEAR_BONUS) * (1 + PLAIN_BONUS))
    strict = lookup(asked, facts, ideas=ideas, least=2.0)  # none scores that much: no page ranked
    assert (len(strict.facts), strict.pages) == (2, ())


def test_a_row_label_the_question_says_in_ideas_of_its_own_meets_each_of_them():
    """The question reads 'purchases', 'property' and 'equipment' as ideas of their own; the row
    label 'Purchases of property and equipment' holds each of them and nothing the question does
    not say, so it meets all three, and ranks above 'Property and equipment, net'."""
    facts = [fact(4, "us-gaap:PropertyPlantAndEquipmentNet", "2,900", "2025-12-31", row_label="Property and equipment, net"),
             fact(6, "us-gaap:PaymentsToAcquireProductiveAssets", "412", "2025-12-31", start="2025-01-01",
                  row_label="Purchases of property and equipment")]
    asked = parse("How much did Korvel spend on purchases of property and equipment in 2025?")
    result = lookup(asked, facts)
    assert [hit.page_number for hit in result.facts][:1] == [6]
    assert set(result.facts[0].ideas) >= {"purchases", "property", "equipment"}


# ---------------------------------------------------------------------------------------------
# Facts as evidence: the ranked list, the hit's facts, --explain (through the CLI)


@pytest.fixture(scope="module")
def html_db(tmp_path_factory):
    return ingest(write_filing(tmp_path_factory.mktemp("facts") / "mrw-20251231.htm")).db_path


NET_SALES_2025 = {"concept": "us-gaap:Revenues", "period": "2025-01-01/2025-12-31", "value": "1,234",
                  "unit": "iso4217:USD", "row_label": "Net sales", "dimensions": None, "tagged_on": 3, "line": None, "tagged": True, "scale": None}


def test_a_hit_lists_the_facts_of_its_page_that_match_the_question(cli, html_db):
    result, data = cli.json("query", html_db, "What were net sales in 2025?", "--top", "3")
    assert result.exit_code == 0, result.output
    first = data["results"][0]
    assert first["page_number"] == 3
    assert first["facts"] == [NET_SALES_2025]  # the year asked, not the year before (pagefacts)
    assert all(hit["facts"] == [] for hit in data["results"] if hit["page_number"] not in (2, 3))
    table = cli("query", html_db, "What were net sales in 2025?", "--top", "1").stdout.splitlines()
    assert table[5:8] == ["      line 5: Net sales $ 1,234 $ 1,100",
                          "      columns, line 4: (In millions, except per share data) 2025 2024",
                          "      fact: 1,234, us-gaap:Revenues, 2025-01-01/2025-12-31"]
    markdown = cli("query", html_db, "What were net sales in 2025?", "--top", "1", "--format", "markdown").stdout
    assert "<br>fact: 1,234, us-gaap:Revenues, 2025-01-01/2025-12-31 |" in markdown


def test_a_page_that_prints_a_fact_another_page_tags_lists_it_with_that_page(cli, html_db):
    """Page 2 (MD&A) tags nothing but prints "Net sales rose to $1,234 million": the fact page 3
    tags, listed with the page that tags it and the line of page 2 that prints it."""
    result, data = cli.json("query", html_db, "What were net sales in 2025?", "--top", "3")
    assert result.exit_code == 0, result.output
    mdna = next(hit for hit in data["results"] if hit["page_number"] == 2)
    assert mdna["facts"] == [{**NET_SALES_2025, "tagged_on": 3, "line": 2}]
    assert TEXTS[1].split("\n")[1] == "Net sales rose to $1,234 million, as tooling orders grew & prices held."
    table = cli("query", html_db, "What were net sales in 2025?", "--top", "3").stdout
    assert "      fact: 1,234, us-gaap:Revenues, 2025-01-01/2025-12-31, tagged on page 3\n" in table


def test_a_figure_printed_beside_other_words_lists_nothing(cli, tmp_path):
    """The same figure beside words that do not name the fact (orders on hand, not net sales) is
    not the fact: the page lists nothing, though it speaks of net sales."""
    html = filing_html().replace(
        "<p>Net sales rose to $1,234 million, as tool&#173;ing orders grew &amp; prices held.</p>",
        "<p>Net sales rose, as tool&#173;ing orders grew &amp; prices held.</p><p>Orders on hand were $1,234 million.</p>")
    assert "Orders on hand" in html
    path = tmp_path / "mrw-20251231.htm"
    path.write_text(html, encoding="ascii", errors="xmlcharrefreplace")
    db = ingest(path).db_path
    _, data = cli.json("query", db, "What were net sales in 2025?", "--top", "3")
    mdna = next(hit for hit in data["results"] if hit["page_number"] == 2)
    assert mdna["facts"] == []
    assert data["results"][0]["page_number"] == 3 and data["results"][0]["facts"] == [NET_SALES_2025]


def test_a_chinese_question_lists_the_facts_of_its_english_reading(cli, html_db):
    _, data = cli.json("query", html_db, "2025年的净销售额是多少？", "--top", "1")
    assert data["results"][0]["facts"][0] == NET_SALES_2025
    table = cli("query", html_db, "2025年的净销售额是多少？", "--top", "1").stdout
    assert "      事实：1,234, us-gaap:Revenues, 2025-01-01/2025-12-31\n" in table


def test_a_pdfs_hits_list_no_facts(cli, filing_db):
    _, data = cli.json("query", filing_db, "What were net sales in 2024?")
    assert data["results"] and all(hit["facts"] == [] for hit in data["results"])
    _, plan = cli.json("query", filing_db, "What were net sales in 2024?", "--explain")
    assert (plan["lists"]["facts"], plan["facts"]) == ([], [])


def test_explain_shows_the_facts_list_and_the_facts(cli, html_db):
    _, plan = cli.json("query", html_db, "What were net sales in 2025?", "--explain")
    assert plan["lists"]["facts"][0]["page_number"] == 3
    assert plan["facts"][0] == {"page_number": 3, **NET_SALES_2025, "score": plan["facts"][0]["score"]}
    text = cli("query", html_db, "What were net sales in 2025?", "--explain").stdout
    assert "\nfacts: 3(" in text and "  p.3 us-gaap:Revenues 2025-01-01/2025-12-31 = 1,234  (Net sales; " in text


def test_the_facts_list_is_a_signal_of_its_own(html_db):
    """Finder.signals gathers the pages tagging the asked concepts (Signals.facts); rank.order
    fuses them (DEFAULT.facts_weight; for a question asking a figure only with facts_for="fact"),
    and a method without the list ranks the same lists without it."""
    from evfind import Finder, rank

    with Finder(html_db) as finder:
        signals = finder.signals("What were net sales in 2025?")
        pages = {page for page, _ in signals.facts}
        ranking = rank.order(signals, rank.DEFAULT)
        assert ranking.candidates.facts == signals.facts[: len(ranking.candidates.facts)] and pages
        off = rank.order(signals, rank.DEFAULT._replace(facts_weight=0.0))
        assert off.candidates.facts == ()
        where = finder.signals("Where are net sales?")
        assert where.facts and not where.intent.fact
        assert rank.order(where, rank.DEFAULT._replace(facts_for="fact")).candidates.facts == ()
        assert rank.order(where, rank.DEFAULT._replace(facts_for="all")).candidates.facts == where.facts


def test_the_facts_list_is_fused_by_rrf_for_a_figure_question_only():
    """By hand (k = 20): lexical [a, b], facts [b]: b scores 1/22 + 0.3/21 > a's 1/21."""
    from evfind import rank
    from evfind.signals import Intent, Signals

    signals = Signals(intent=Intent(fact=True), lexical=(("a", -5.0), ("b", -4.0)), facts=(("b", 1.5),))
    method = rank.RULES._replace(evidence_weight=0.0, dominance=0.0)
    method = method._replace(facts_for="fact")
    assert [page for page, _ in rank.order(signals, method).fused] == ["b", "a"]
    assert [page for page, _ in rank.order(signals._replace(intent=Intent()), method).fused] == ["a", "b"]
    assert [page for page, _ in rank.order(signals, method._replace(facts_for="all", facts_weight=0.0)).fused] == ["a", "b"]


def test_the_facts_pairs_are_stored_at_ingest_and_read_from_the_facts_of_an_older_file(html_db, tmp_path, cli):
    import shutil
    import sqlite3

    question = "What were net sales in 2025?"
    with sqlite3.connect(html_db) as conn:
        stored = conn.execute("SELECT concept, row_label FROM fact_labels ORDER BY rowid").fetchall()
        distinct = conn.execute("SELECT DISTINCT concept, row_label FROM facts ORDER BY concept, row_label").fetchall()
    conn.close()
    assert stored == distinct and ("us-gaap:Revenues", "Net sales") in stored
    expected = cli("query", str(html_db), question, "--format", "json").stdout
    # A file written before the table existed (no rows, or no table): the pairs come from the
    # facts, and the question finds the same pages and facts.
    for change in ("DELETE FROM fact_labels", "DROP TABLE fact_labels"):
        older = tmp_path / f"older{len(change)}.db"
        shutil.copy(html_db, older)
        with sqlite3.connect(older) as conn:
            conn.execute(change)
            assert factstore.fact_labels(conn, 1) == distinct
        conn.close()
        assert cli("query", str(older), question, "--format", "json").stdout.replace(str(older), str(html_db)) == expected
