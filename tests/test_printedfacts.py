"""Issue 22 (facts shown on hits): a page that prints a fact another page tags lists it, where it
prints the same figure (number, scale, sign) beside words naming the fact and the question
(evfind/printedfacts.py). Pure: fact rows and page texts made here."""

from __future__ import annotations

from evfind import factstore, pagefacts, printedfacts
from evfind.question import parse


def fact(concept: str, value: str, row_label: str, scale: int = 6, sign: str | None = None) -> factstore.FactRow:
    return factstore.FactRow(
        page_id=157, page_number=57, concept=concept, kind="numeric", context="c", period_start="2025-01-01",
        period_end="2025-12-31", instant=None, dimensions=None, unit="iso4217:USD", scale=scale, sign=sign,
        decimals="-6", format=None, value=value, row_label=row_label, fact_id=None,
    )


CAPEX = fact("us-gaap:SegmentExpenditureAdditionToLongLivedAssets", "23,783", "Capital expenditures")
PAYMENTS = fact("us-gaap:PaymentsToAcquirePropertyPlantAndEquipment", "23,783", "Payments for property and equipment")
RATE = fact("us-gaap:EffectiveIncomeTaxRateContinuingOperations", "3.1", "Income tax expense", scale=-2)


def shown(question: str, text: str, facts, tagged: str) -> list[tuple[str, int]]:
    asked = pagefacts.asked(parse(question))
    candidates = [printedfacts.Candidate(pagefacts.listed(asked, [row], {})[0], row, tagged) for row in facts]
    return [(hit.concept, hit.line) for hit in printedfacts.shown(text, candidates, asked, {})]


def test_the_same_figure_beside_the_facts_words():
    page = "(Amounts in millions) 2025 2024\nTotal capital expenditures $ 23,783 $ 20,606"
    assert shown("What were capital expenditures in 2025?", page, [CAPEX], "Capital expenditures 23,783") == [
        (CAPEX.concept, 2)]


def test_another_scale_is_another_figure():
    page = "(Amounts in thousands) 2025 2024\nTotal capital expenditures $ 23,783 $ 20,606"
    assert shown("What were capital expenditures in 2025?", page, [CAPEX], "Capital expenditures 23,783") == []
    assert shown("What were capital expenditures in 2025?", "Capital expenditures were $23,783 billion.", [CAPEX],
                 "Capital expenditures 23,783") == []


def test_the_sign_as_the_tagging_page_prints_it():
    """A cash flow statement prints the payments "(23,783)"; a table printing 23,783 is not that row."""
    page = "Payments for property and equipment 23,783"
    assert shown("payments for property and equipment in 2025", page, [PAYMENTS],
                 "Payments for property and equipment (23,783) (20,606)") == []
    assert shown("payments for property and equipment in 2025", "Payments for property and equipment (23,783)",
                 [PAYMENTS], "Payments for property and equipment (23,783) (20,606)") == [(PAYMENTS.concept, 1)]


def test_a_percent_only_for_a_rate():
    question = "What was the effective income tax rate in 2025?"
    assert shown(question, "Effective income tax rate 3.1 % (11.8) %", [RATE], "Income tax expense ($381) 3.1 %") == [
        (RATE.concept, 1)]
    assert shown(question, "Effective income tax rate 3.1 days", [RATE], "Income tax expense ($381) 3.1 %") == []


def test_a_part_of_a_larger_number_is_not_the_figure():
    page = "Total capital expenditures $ 123,783 and 23,783.5"
    assert shown("What were capital expenditures in 2025?", page, [CAPEX], "Capital expenditures 23,783") == []


def test_words_that_name_the_fact_but_not_the_question():
    """"Provision for income taxes" names a fact the lexicon relates to the tax rate, not the rate."""
    taxes = fact("us-gaap:IncomeTaxExpenseBenefit", "1,837", "Provision for income taxes")
    page = "(Dollars in millions) 2024\nProvision for income taxes $ 1,837"
    asked = pagefacts.asked(parse("What was the effective tax rate in 2025?"))
    candidate = printedfacts.Candidate(pagefacts.listed(asked, [taxes], {}, least=0.0)[0], taxes, page)
    assert printedfacts.shown(page, [candidate], asked, {}) == ()
