"""question.py and rank.py: pure functions, checked on inputs worked out by hand."""

from __future__ import annotations

import pytest

from evfind.question import asks_where, content_words, parse
from evfind.rank import DEFAULT, PLAIN, rrf
from evfind.text import tokens


def test_meta_words_of_instruction_laden_questions_are_dropped():
    question = (
        "Assume that you are a public equities analyst. Answer the following question by primarily "
        "using information that is shown in the balance sheet: what is the year end FY2018 net PPNE "
        "for 3M? Answer in USD billions."
    )
    assert content_words(question) == ["balance", "sheet", "2018", "net", "ppe", "3m"]


def test_years_numbers_and_compounds():
    assert content_words("FY2022 vs FY2021 revenue, 12 months, 1,234 units") == ["2022", "2021", "revenue", "months", "234"]
    assert tokens("Free cashflow and P&L of PP&E") == ["free", "cash", "flow", "and", "p&l", "of", "pp&e"]


def test_statements_named_implied_and_sections():
    named = parse("What is capex? Use the statement of cash flows.")
    assert named.named == ("cash_flow_statement",)
    assert "purchases of property plant and equipment" in [t.phrase for t in named.terms]
    implied = parse("What is the FY2019 days payable outstanding (DPO)?")
    assert implied.named == ()
    assert set(implied.statements) == {"balance_sheet", "income_statement"}
    assert {"accounts payable", "cost of sales", "inventories"} <= {t.phrase for t in implied.terms}
    topical = parse("Where is revenue broken down by geographic region?")
    assert topical.statements == ("income_statement",)
    assert topical.sections == ("segment_information",)
    tax = parse("How did the effective tax rate change?")
    # the rate reconciliation is in the tax note; its change is explained in MD&A
    assert tax.statements == ("income_statement",) and tax.sections == ("income_taxes", "mdna")


def test_levers_switch_vocabulary_off():
    assert "accounts payable" not in [t.phrase for t in parse("What is DPO?", metrics=False).terms]
    plain = parse("Round your answer to two decimal places: what is revenue?", meta=False)
    assert "decimal" in plain.words and "round" not in plain.words


def test_every_term_is_a_quoted_phrase():
    parsed = parse('revenue" OR NEAR(cash -flow) *')
    assert {"revenue", "near", "cash", "flow"} <= {t.phrase for t in parsed.terms}  # operators are words
    assert parsed.match_expression() == " OR ".join(f'"{t.phrase}"' for t in parsed.terms)
    assert all('"' not in t.phrase for t in parsed.terms)


def test_rrf_by_hand():
    # k = 60: a at ranks 1 and 2 -> 1/61 + 1/62; b at 2 and 1 -> the same; c at 3 -> 1/63.
    fused = rrf([["a", "b", "c"], ["b", "a"]], k=60)
    assert [item for item, _ in fused] == ["a", "b", "c"]  # tie: the first list decides
    assert fused[0][1] == pytest.approx(1 / 61 + 1 / 62)
    assert fused[2][1] == pytest.approx(1 / 63)
    weighted = rrf([["a", "b"], ["b"]], [1.0, 0.5], k=1)
    assert dict(weighted) == pytest.approx({"a": 1 / 2, "b": 1 / 3 + 0.5 / 2})
    assert rrf([["a", "a", "b"]], k=1) == [("a", 0.5), ("b", 0.25)]  # a repeat counts once


def test_methods():
    assert DEFAULT.without("carried").bm25_weights[2] == 0.0
    assert DEFAULT.without("dominance").dominance == 0.0
    assert DEFAULT.section_order == "page" and DEFAULT.without("section_order").section_order == "bm25"
    assert PLAIN.k == 60 and not PLAIN.statements
    with pytest.raises(ValueError):
        DEFAULT.without("magic")


def test_a_statement_named_as_where_an_item_sits_is_not_a_source():
    from evfind.question import parse

    assert parse("Answer using the balance sheet: what were total assets?").named == ("balance_sheet",)
    assert parse("How much of the accrual was still on the balance sheet in April?").named == ()
    assert parse("How much of the accrual was still on the balance sheet in April?").statements == ("balance_sheet",)
    assert parse("What off-balance sheet arrangements does the company have?").named == ()
    # "rely on", "based on" the statement: the source to answer from (FinanceBench's instructions)
    assert parse("Quick ratio? Round to two decimal places and rely on the balance sheet.").named == ("balance_sheet",)
    assert parse("What was capex? Answer based on the cash flow statement.").named == ("cash_flow_statement",)


def test_figure_questions_and_the_others():
    from evfind.question import parse

    assert parse("How much did capital expenditures increase in 2023?").fact
    assert parse("What was the effective tax rate?").fact
    assert not parse("What are the geographies the company operates in?").fact
    assert not parse("Where is the income tax note?").fact
    assert parse("What were capital expenditures in 2024?").fact  # a line item of a statement
    assert parse("2023年的资本支出是多少？出自哪一页？").fact and not parse("资本支出在哪一页？").fact


def test_a_cue_met_twice_is_one_idea_and_its_words_make_no_pair():
    from evfind.question import parse

    ideas = [idea.label for idea in parse("Reconcile segment net income to consolidated net income").ideas]
    assert ideas == ["reconcile", "reconcile segment", "segment", "net income", "consolidated", "consolidated net"]
    # two words side by side that no cue reads as one are a pair; a cue's own words are not
    labels = [idea.label for idea in parse("Which senior notes mature in 2027?").ideas]
    assert "senior notes" in labels and labels.count("senior notes") == 1
    assert [idea.label for idea in parse("What was the average price paid per share?").ideas] == [
        "average price paid", "share"
    ]


def test_a_pair_never_spans_punctuation_or_a_possessive():
    from evfind.question import parse
    from evfind.text import phrases

    assert phrases("Which product / service lines matter, by segment? Acme's revenue") == [
        ["which", "product"], ["service", "lines", "matter"], ["by", "segment"], ["acme"], ["revenue"]]
    labels = [idea.label for idea in parse("Which product categories / service categories exceed 10% of Acme's revenue?").ideas]
    assert "product categories" in labels and "service categories" in labels
    assert "categories service" not in labels and "acme revenue" not in labels
    # a hyphen, an ampersand or an inner apostrophe keeps the words of one phrase together
    assert phrases("long-term debt and PP&E, don't") == [["long", "term", "debt", "and", "pp&e"], ["dont"]]


def test_a_statement_named_as_the_source_is_where_to_look_not_what_to_find():
    from evfind.question import parse

    ideas = {i.label: i for i in parse("Using the income statement, what is Acme's net income?").ideas}
    assert ideas["income statement"].source and not ideas["net income"].source
    # written as where an item sits, the statement is not the source
    ideas = {i.label: i for i in parse("Is the lease liability still on the balance sheet?").ideas}
    assert not any(i.source for i in ideas.values())


def test_group_is_a_content_word():
    """A shareholder group, a disposal group, a product group: 'group' says what is asked. The
    filer's own 'Group' is on most of its pages, and such words are left out of the MATCH
    (``lists.lexical_terms``), not dropped here."""
    assert "group" in content_words("How much stock must a shareholder group hold to use proxy access?")
    assert "inc" not in content_words("What was Acme Group Inc.'s revenue?")


def test_versus_is_a_connective_not_a_content_word():
    assert "vs" not in content_words("Operating profit by division, reported vs core")
    assert "versus" not in content_words("Operating profit by division, reported versus core")


@pytest.mark.parametrize(
    "question, span_word",
    [
        ("Where's the full-year operating profit by division?", "full"),
        ("Where is the full year bridge to adjusted EBITDA?", "full"),
        ("Operating cash flow year-to-date by quarter", "date"),
        ("全年按分部的营业利润在哪一页？", "full"),  # read as "full year"
    ],
)
def test_a_span_named_is_a_period_like_a_year(question, span_word):
    """"Full-year", "year-to-date": they pick a table's columns, as a year does, and weigh
    nothing in a passage."""
    ideas = {i.label: i for i in parse(question).ideas}
    assert ideas[span_word].year
    assert not any(i.year for i in ideas.values() if i.label in ("operating profit", "operating income", "division"))


def test_a_span_word_outside_a_span_keeps_its_weight():
    ideas = {i.label: i for i in parse("Did the full board approve the merger?").ideas}
    assert not ideas["full"].year


def test_a_question_about_reasons_asks_md_and_a_not_the_statements():
    """The statements give a margin's figures; MD&A gives the reasons for its change (Reg S-K
    Item 303(b)(2)). A metric asked for keeps its statement; FinanceBench's instruction "If
    gross margin is not a useful metric ..., state that and explain why" asks for no reasons."""
    reason = parse("What drove the drop in gross margin in FY2023?")
    assert reason.statements == () and "mdna" in reason.sections and not reason.ratio
    assert "mdna" in parse("耐克2023财年毛利率下降的原因是什么？").sections
    # a topic's note gives a segment's figures too; MD&A why they changed
    segment = parse("Why did Amazon's International segment operating loss widen in 2017?")
    assert {"segment_information", "mdna"} <= set(segment.sections)
    # a release has no MD&A: its highlights give the reasons, its reconciliations the figures
    release = parse("Why did the Rigid Packaging segment's adjusted EBIT decline in fiscal 2023?")
    assert "highlights" in release.sections and "non_gaap" not in release.sections
    # ... unless no change is asked about: why the measure is useful is the reconciliation's own
    assert "non_gaap" in parse("Why does management use adjusted EBITDA?").sections
    figure = parse("What was gross margin in FY2023?")
    assert figure.statements == ("income_statement",) and figure.ratio
    hedged = parse("Does the company have an improving gross margin profile as of FY2022? If gross margin is "
                   "not a useful metric for a company like this, then state that and explain why.")
    assert hedged.statements == ("income_statement",)


def test_the_first_half_is_a_span_like_the_full_year():
    ideas = {i.label: i for i in parse("Why did operating cash flow drop in the first half of 2023?").ideas}
    assert ideas["first"].year and ideas["half"].year and ideas["first half"].year
    assert not {i.label: i for i in parse("Who was first to file?").ideas}["first"].year


@pytest.mark.parametrize(
    "question",
    [
        "If we exclude the impact of M&A, which segment dragged down growth in 2022?",
        "Excluding currency and acquisitions, which division grew revenue fastest?",
        "What were comparable sales ex-FX?",
        "剔除汇率和并购影响后，哪个业务部门收入增长最快？",
    ],
)
def test_growth_excluding_acquisitions_or_currency_is_organic_growth(question):
    """Non-GAAP disclosures call it organic growth (Reg G): the question finds their tables."""
    parsed = parse(question)
    assert "organic" in {i.label for i in parsed.ideas} and "non_gaap" in parsed.sections


def test_excluding_something_else_is_not_organic_growth():
    assert "organic" not in {i.label for i in parse("Revenue excluding the impact of the 53rd week").ideas}


def test_a_verb_is_searched_with_its_noun_and_routed_as_it():
    """data/derivations.tsv, one fold for every question word: the forms a filing writes for a
    verb that the index's Porter stemmer keeps apart (deliv / deliveri), searched as expansions of
    the verb's idea, and the verb routed as its noun ("acquire" as "acquisition")."""
    parsed = parse("How many aircraft did Acme deliver in 2024?")
    assert {"delivery", "deliveries"} <= {t.phrase for t in parsed.terms if t.source == "lexicon"}
    assert ("deliver", "delivery", "deliveries") in [i.phrases for i in parsed.ideas]
    assert "deliver" not in parsed.cues  # a fold, not a cue of the vocabulary
    assert parse("Which companies did it acquire in 2023?").sections == ("acquisitions",)
    assert parse("Who does the company compete with?").sections == ("competition",)
    assert parse("Who does the company compete with?").cues == ("competition",)


def test_every_derivational_family_is_one_the_stemmer_splits():
    """A row of data/derivations.tsv is there because Porter stems the word and its forms apart
    (else the index already finds them); it is no cue of the lexicon or the routes (a verb and its
    noun are one word's forms, not vocabulary)."""
    from evfind.porter import stem
    from evfind.question import cue_key, lexicon, route_table
    from evfind.text import derivations

    assert derivations()
    for word, forms in derivations().items():
        for form in forms:
            assert stem(word) != stem(form.split()[-1]), (word, form)
        assert cue_key(word) not in lexicon() and cue_key(word) not in route_table(), word


@pytest.mark.parametrize(
    "question, where",
    [
        ("资本支出在哪一页？", True),
        ("应收账款在哪些页？", True),  # 在哪些 + a page: which pages
        ("在哪个章节讨论风险因素？", True),
        ("风险因素在哪里？", True),
        ("公司主要在哪些地区经营？", False),  # which regions: a list asked for, not a place in the filing
        ("公司存在哪些重大缺陷？", False),  # 存在哪些: which ones exist
        ("公司在哪个部门报告商誉？", False),
    ],
)
def test_chinese_which_ones_is_not_where(question, where):
    """在哪 asks where; 在哪些/在哪个 before a noun other than a page or part of the filing asks which
    ones, as "which regions" does in English (no "where"), so the answer is not a title line."""
    assert asks_where(question) is where
