"""Chinese questions about English filings: segmentation against the glossary, mixed questions."""

from __future__ import annotations

import pytest

from evfind import zh
from evfind.question import parse


def terms(question: str) -> list[tuple[str, str]]:
    return [(s.text, s.english[0]) for s in zh.segment(question) if s.kind == "term"]


# --- Segmentation -----------------------------------------------------------------------------


def test_longest_match_first():
    assert terms("经营活动现金流") == [("经营活动现金流", "operating cash flow")]
    assert terms("经营租赁负债") == [("经营租赁负债", "operating lease liabilities")]
    # a glossary term wins over a stopword it contains (在, 的 are stopwords)
    assert terms("在建工程") == [("在建工程", "construction in progress")]
    assert terms("经营租赁和融资租赁负债") == [
        ("经营租赁", "operating lease"),
        ("融资租赁负债", "finance lease liabilities"),
    ]


@pytest.mark.parametrize(
    "question, years",
    [
        ("2022年的资本支出", ["2022"]),
        ("2022财年的资本支出", ["2022"]),
        ("FY2022 的资本支出", ["2022"]),
        ("22财年的资本支出", ["2022"]),
        ("２０２２年的资本支出", ["2022"]),  # full-width digits
        ("2016到2017财年的收入", ["2016", "2017"]),
        ("2021、2022和2023财年的收购", ["2021", "2022", "2023"]),
    ],
)
def test_years(question, years):
    assert [w for w in parse(question).words if w.isdigit()] == years


def test_months_become_their_english_names():
    assert parse("截至2023年6月30日的现金及现金等价物").words == ("2023", "june", "cash", "equivalents")


@pytest.mark.parametrize(
    "question",
    ["哪一页？", "出自哪页", "在第几页？", "原始表格在哪？", "在哪里", "是多少？", "请告诉我", "这份文件的原始表格在哪一页？"],
)
def test_trigger_phrases_are_not_content_words(question):
    assert parse(question).empty


def test_company_names_are_not_content_words():
    reading = zh.read("百事公司2022财年利润表中列示的重组费用是多少？")
    assert reading.english == "2022 income statement restructuring"
    assert reading.unknown == ("百事",)  # not in the glossary: not searched
    assert "公司" not in reading.unknown  # a stopword, dropped silently
    assert parse("波音的实际税率").words == parse("effective tax rate").words


def test_enumeration_comma_and_traditional_characters():
    assert terms("物业、厂房及设备") == [("物业厂房及设备", "property plant and equipment")]
    assert terms("這份年報的資本支出在哪一頁？") == [("年报", "annual report"), ("资本支出", "capital expenditure")]
    assert terms("應收帳款") == terms("应收账款") == [("应收账款", "accounts receivable")]


# --- The same English reading as an English question -------------------------------------------


def test_chinese_feeds_the_english_routes_and_lexicon():
    chinese = parse("请根据现金流量表，告诉我资本支出在哪一页")
    english = parse("cash flow statement capital expenditure")
    assert chinese.routes == english.routes == ("cash_flow_statement",)
    assert chinese.terms == english.terms
    assert "purchases of property plant and equipment" in [t.phrase for t in chinese.terms]
    assert chinese.text == "请根据现金流量表，告诉我资本支出在哪一页"  # the question as asked
    assert [str(m) for m in chinese.reading.matches] == [
        "现金流量表 → cash flow statement",
        "资本支出 → capital expenditure",
    ]


def test_mixed_questions_keep_english_words_tickers_and_numbers():
    parsed = parse("MMM 2022 年的 capex 和订单储备（backlog）在 10-K 哪一页？")
    assert parsed.words[:3] == ("mmm", "2022", "capex")
    assert "backlog" in parsed.words
    assert "cash_flow_statement" in parsed.routes  # capex, read by the English lexicon
    assert parse("Adobe 按地区（美洲、EMEA、亚太）的收入").words == (
        "adobe", "geographic", "americas", "emea", "asia", "pacific", "revenue",
    )


def test_english_questions_are_not_touched():
    assert parse("What were capital expenditures in 2024?").reading is None
    assert zh.language("What were capital expenditures?") == "en"
    assert zh.language("资本支出") == "zh"
    assert zh.language("资本支出", "en") == "en"


def test_the_glossary_covers_the_standard_terminology():
    glossary = zh.glossary()
    assert len({id(entry) for entry in glossary.values()}) >= 400  # entries, each with variants
    for term in [
        "营业收入", "销售成本", "净利润", "每股收益", "应收账款", "存货", "商誉", "长期债务",  # statements
        "股东权益", "经营活动现金流", "投资活动现金流", "筹资活动现金流",
        "所得税", "分部", "租赁", "衍生工具", "养老金", "股票回购", "股利", "股息", "或有事项",  # notes
        "业务", "风险因素", "法律诉讼", "管理层讨论与分析", "关键审计事项", "高管",  # 10-K items
        "毛利率", "营运资本", "速动比率", "存货周转", "资本支出", "自由现金流", "实际税率",  # metrics
        "利润表", "损益表", "资产负债表", "财务状况表",  # variants
    ]:
        assert term in glossary, term
        assert not parse(term).empty, term
    assert glossary["股利"] is glossary["股息"]
    assert glossary["利润表"] is glossary["损益表"]
    assert glossary["资产负债表"] is glossary["财务状况表"]


def test_note_groups_the_matched_terms_under_the_chinese_term():
    reading = zh.read("资本支出和经营活动现金流")
    parsed = parse("资本支出和经营活动现金流")
    assert parsed.reading == reading
    note = zh.note(
        "Consolidated Statements of Cash Flows",
        None,
        ("net cash provided by operating activities", "purchases of property, plant and equipment", "2024"),
        reading,
    )
    assert note == (
        "Consolidated Statements of Cash Flows；命中：资本支出 → purchases of property, plant and equipment；"
        "经营活动现金流 → net cash provided by operating activities；2024"
    )
    assert zh.note("", "Notes to Financial Statements", (), reading) == "续：Notes to Financial Statements"
