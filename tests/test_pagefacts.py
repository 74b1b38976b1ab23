"""Issue 22, item 2 (the facts a hit lists): of a page's inline-XBRL facts, those that match the
question, precisely: the row label, concept or member that says the line item best, the member the
question names, the period it names (evfind/pagefacts.py). Pure: fact rows made here."""

from __future__ import annotations

import json

import pytest

from evfind import factstore, pagefacts
from evfind.pagefacts import asked, listed, member_stems, members, phrase_score, stems_of
from evfind.question import parse


def fact(concept: str, value: str, end: str, start: str | None = None, row_label: str | None = None,
         member: str | None = None, instant: bool = False, page: int = 3) -> factstore.FactRow:
    dimensions = json.dumps({"us-gaap:StatementBusinessSegmentsAxis": member}) if member else None
    return factstore.FactRow(
        page_id=100 + page, page_number=page, concept=concept, kind="numeric", context="c",
        period_start=None if instant else (start or f"{end[:4]}-01-01"), period_end=None if instant else end,
        instant=end if instant else None, dimensions=dimensions, unit="iso4217:USD", scale=6, sign=None,
        decimals="-6", format=None, value=value, row_label=row_label, fact_id=None,
    )


def values(question: str, facts, rarity=None, **options) -> list[str]:
    return [hit.value for hit in listed(asked(parse(question)), facts, rarity or {}, **options)]


CASH_FLOWS = [
    fact("us-gaap:PaymentsToAcquirePropertyPlantAndEquipment", "(52)", "2025-12-31", row_label="Purchases of property and equipment"),
    fact("us-gaap:PaymentsToAcquirePropertyPlantAndEquipment", "(48)", "2024-12-31", row_label="Purchases of property and equipment"),
    fact("us-gaap:PaymentsToAcquireInvestments", "(20)", "2025-12-31", row_label="Purchases of investments"),
    fact("us-gaap:ProceedsFromSaleOfPropertyPlantAndEquipment", "4", "2025-12-31", row_label="Proceeds from sales of property and equipment"),
]


def test_the_row_that_says_the_line_item_of_the_year_asked():
    """The asked row of the asked year only: not last year's, not the row that says half of it."""
    assert values("How much did Korvel spend on purchases of property and equipment in 2025?", CASH_FLOWS) == ["(52)"]
    assert values("What were capital expenditures in 2025?", CASH_FLOWS) == ["(52)"]  # the lexicon's expansion
    assert values("purchases of property and equipment", CASH_FLOWS) == ["(52)", "(48)"]  # no year: both
    assert values("What were capital expenditures in 2023?", CASH_FLOWS) == []  # another year's figure is not it


def test_phrase_scores_by_hand():
    question = asked(parse("purchases of property and equipment"))
    assert phrase_score(stems_of("purchases of property and equipment"), question, {}) == 1.0
    # the question reads "purchases" as an idea of its own: "purchases of investments" says all of
    # it (covered 1) and the question says half of the phrase: F1 = 2 * 1/2 * 1 / (1/2 + 1)
    assert phrase_score(stems_of("purchases of investments"), question, {}) == pytest.approx(2 / 3)
    # a rare word counts more: "investments" twice as rare as "purchases", the question says 1/3
    assert phrase_score(stems_of("purchases of investments"), question, {"invest": 2.0}) == pytest.approx(0.5)
    assert stems_of("awarded") == stems_of("award")  # compared as the index stems them


SEGMENTS = [
    fact("us-gaap:OperatingIncomeLoss", "640", "2025-12-31", row_label="Operating income"),
    fact("us-gaap:OperatingIncomeLoss", "410", "2025-12-31", row_label="Operating income", member="mrw:HandToolsSegmentMember"),
    fact("us-gaap:OperatingIncomeLoss", "230", "2025-12-31", row_label="Operating income", member="mrw:PowerEquipmentSegmentMember"),
]


def test_a_member_is_listed_where_the_question_names_it():
    assert members(SEGMENTS[1].dimensions) == ("hand tools segment",)
    assert values("What was operating income in 2025?", SEGMENTS) == ["640"]  # the whole, not its members
    assert values("What was the Hand Tools segment's operating income in 2025?", SEGMENTS) == ["410"]
    assert values("What was PE segment operating income in 2025?", SEGMENTS) == ["230"]  # by its initials
    assert "pe" in member_stems("power equipment segment") and "handtool" in member_stems("hand tools segment")


def test_a_consolidation_member_names_nothing():
    """srt:ConsolidationItemsAxis says how a figure is consolidated ("operating segments"), not
    what it is: its member is no phrase of the fact (a question about operating income met every
    segment's assets by it)."""
    dimensions = json.dumps({"srt:ConsolidationItemsAxis": "us-gaap:OperatingSegmentsMember",
                             "us-gaap:StatementBusinessSegmentsAxis": "mrw:HandToolsSegmentMember"})
    assert members(dimensions) == ("hand tools segment",)


def test_a_member_alone_does_not_meet_the_question():
    """The question names the segment and asks its operating income: the segment's assets, in a
    row labelled with the segment's name, say the segment only, nothing of the line item."""
    assets = fact("us-gaap:Assets", "155", "2025-12-31", instant=True, row_label="HT",
                  member="mrw:HandToolsSegmentMember")
    income = fact("us-gaap:OperatingIncomeLoss", "410", "2025-12-31", row_label="Operating income",
                  member="mrw:HandToolsSegmentMember")
    assert values("What was HT segment operating income in 2025?", [assets]) == []
    assert values("What was HT segment operating income in 2025?", [assets, income]) == ["410"]


def test_a_member_of_a_line_item_the_page_does_not_tag_whole():
    facts = SEGMENTS[1:]
    assert values("What was operating income in 2025?", facts) == ["410", "230"]


def test_a_row_label_beside_several_concepts_is_read_with_the_concept():
    """A table whose columns are measures prints "Bitcoin" beside its units, cost and fair value:
    the row label says the row, the concept which figure of it."""
    member = "mrw:BitcoinMember"
    facts = [fact("us-gaap:CryptoAssetCost", "386", "2025-12-31", row_label="Bitcoin", member=member, instant=True),
             fact("us-gaap:CryptoAssetFairValue", "1,074", "2025-12-31", row_label="Bitcoin", member=member, instant=True)]
    assert values("What was the fair value of bitcoin at December 31, 2025?", facts) == ["1,074"]


def test_a_known_label_of_several_of_the_pages_concepts_is_read_with_the_concept():
    """Filers print "Diluted" beside earnings per share and beside the diluted share count
    (evfind/data/concepts.tsv knows it of both): it does not tell them apart, the concept does."""
    facts = [fact("us-gaap:EarningsPerShareDiluted", "2.16", "2025-05-31", start="2024-06-01", row_label="Diluted"),
             fact("us-gaap:WeightedAverageNumberOfDilutedSharesOutstanding", "1,487.6", "2025-05-31", start="2024-06-01",
                  row_label="Diluted weighted average common shares outstanding")]
    rarity = {"dilut": 4.7, "earn": 4.2, "share": 1.9, "weight": 3.0, "averag": 3.0, "outstand": 3.1, "common": 2.8}
    assert values("diluted EPS fiscal 2025", facts, rarity) == ["2.16"]  # (a 10-K's rarities, nearly)


QUARTERS = [
    fact("us-gaap:EffectiveIncomeTaxRateContinuingOperations", "23", "2025-06-30", start="2025-04-01"),
    fact("us-gaap:EffectiveIncomeTaxRateContinuingOperations", "25", "2025-06-30", start="2025-01-01"),
    fact("us-gaap:EffectiveIncomeTaxRateContinuingOperations", "21", "2024-06-30", start="2024-04-01"),
]


@pytest.mark.parametrize("question, shown", [
    ("What was the effective tax rate for the three months ended June 30, 2025?", ["23"]),
    ("What was the effective tax rate in Q2 2025?", ["23"]),
    ("What was the effective tax rate for the first half of 2025?", ["25"]),
    ("What was the effective tax rate in 2025?", ["23", "25"]),
    ("2025年第二季度的实际税率是多少？", ["23"]),
    ("2025年上半年的实际税率是多少？", ["25"]),
    ("截至2025年6月30日的三个月实际税率是多少？", ["23"]),  # 截至 with a length: the quarter, not a balance
])
def test_the_period_the_question_names(question, shown):
    assert values(question, QUARTERS) == shown


def test_a_balance_at_a_date_is_an_instant():
    facts = [fact("us-gaap:IncomeTaxesPaid", "31", "2025-06-30", start="2025-01-01", row_label="Income taxes"),
             fact("us-gaap:AccruedIncomeTaxesCurrent", "12", "2025-06-30", instant=True, row_label="Income taxes")]
    assert values("What were income taxes at June 30, 2025?", facts) == ["12"]
    assert values("What were income taxes for the six months ended June 30, 2025?", facts) == ["31"]


def test_nothing_asked_nothing_listed():
    assert values("Who audits the company?", CASH_FLOWS) == []
    assert values("purchases of property and equipment", []) == []
    assert pagefacts.by_page(asked(parse("net sales")), [], {}) == {}


def test_only_the_ideas_given_are_line_items():
    """The finder gives the ideas that are not the filer's name: a row that says the name is not
    the line item ("Korvel Tools" beside the sales of that subsidiary)."""
    question = parse("What were Korvel net sales in 2025?")
    facts = [fact("us-gaap:Revenues", "1,234", "2025-12-31", row_label="Net sales"),
             fact("us-gaap:Revenues", "80", "2025-12-31", row_label="Korvel", member="mrw:KorvelMember")]
    kept = {idea.label: 1.0 for idea in question.ideas if "korvel" not in idea.label}
    assert [h.value for h in listed(asked(question, kept), facts, {})] == ["1,234"]
    assert [h.value for h in listed(asked(question), facts, {})] == ["80"]


def test_a_balance_at_a_quarters_end_is_an_instant():
    """'At the end of the third quarter' names a quarter but asks a balance (review of the merge:
    the quarter's length was read first, and every instant refused)."""
    for question in ("What were cash and cash equivalents at the end of the third quarter of 2024?",
                     "2024年第三季度末的现金及现金等价物是多少？"):
        assert asked(parse(question)).length == 0, question
    assert asked(parse("What was net cash used in the third quarter of 2024?")).length == 3


def test_year_to_date_is_no_one_length():
    """Year to date is six months in a second quarter's report and nine in a third's: no length
    is assumed (it was read as six months, and a third quarter's nine-month fact refused)."""
    facts = [fact("us-gaap:NetCashProvidedByUsedInOperatingActivities", "900", "2024-09-30", start="2024-01-01",
                  row_label="Net cash provided by operating activities"),
             fact("us-gaap:NetCashProvidedByUsedInOperatingActivities", "350", "2024-09-30", start="2024-07-01",
                  row_label="Net cash provided by operating activities")]
    assert values("What was year-to-date net cash provided by operating activities in 2024?", facts) == ["900"]


def test_a_fiscal_year_is_named_by_the_year_it_ends_in():
    """A filer whose fiscal years end on January 31 declares in February 2025 the dividend of
    fiscal 2026: a question naming a fiscal year reads a date by the filing's own fiscal years'
    ends (``year_ends``); without them, or without "fiscal", by the calendar."""
    facts = [fact("us-gaap:CommonStockDividendsPerShareDeclared", "0.83", "2025-01-31", start="2024-02-01",
                  row_label="Dividends declared per share"),
             fact("us-gaap:CommonStockDividendsPerShareDeclared", "0.94", "2025-02-20", start="2025-02-20",
                  row_label="Dividends declared per share")]
    ends = ("2023-01-31", "2024-01-31", "2025-01-31")
    question = asked(parse("What dividend per share was declared for fiscal 2026?"))
    assert question.fiscal and [h.value for h in listed(question._replace(year_ends=ends), facts, {})] == ["0.94"]
    assert [h.value for h in listed(question, facts, {})] == []  # by the calendar, nothing is of 2026
    fiscal_2025 = asked(parse("What dividend per share was declared for fiscal 2025?"))._replace(year_ends=ends)
    assert [h.value for h in listed(fiscal_2025, facts, {})] == ["0.83"]
    assert pagefacts.year_of("2023-12-01", fiscal_2025._replace(year_ends=("2022-12-02", "2023-12-01", "2024-11-29"))) == "2023"


def test_a_subsequent_event_is_the_line_item_itself():
    """A member of the subsequent-event axis says when the figure became known, not what it is:
    the fact is listed as the line item (it was left out beside the whole of another year)."""
    subsequent = json.dumps({"us-gaap:SubsequentEventTypeAxis": "us-gaap:SubsequentEventMember"})
    facts = [fact("us-gaap:CommonStockDividendsPerShareDeclared", "0.83", "2025-01-31", start="2024-02-01"),
             fact("us-gaap:CommonStockDividendsPerShareDeclared", "0.94", "2025-02-20", start="2025-02-20")._replace(
                 dimensions=subsequent)]
    assert members(subsequent) == () and pagefacts.whole(subsequent) and not pagefacts.whole(json.dumps({"us-gaap:StatementBusinessSegmentsAxis": "mrw:SawsMember"}))
    assert values("What dividends per share were declared?", facts) == ["0.83", "0.94"]


def test_pagefacts_loads_no_json_at_import():
    """A query of an HTML filing imports pagefacts: json stays off the query's path (test_startup)."""
    import subprocess
    import sys

    probe = "import sys, evfind.pagefacts; print('json' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True).stdout.strip() == "False"
