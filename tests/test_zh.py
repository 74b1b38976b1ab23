"""Chinese questions about English filings: segmentation against the glossary, mixed questions,
and the Chinese output through the CLI on the test filing (tests/filing.py)."""

from __future__ import annotations

import json
import re
import string

import pytest

from evfind import render, store, writes, zh
from evfind.question import parse
from evfind.text import language

CASH_FLOW_ZH = "Acme 2024 年的经营活动现金流是哪一页？"
CAPEX_ZH = "2024财年的资本支出是多少？请根据现金流量表，告诉我出自哪一页。"


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
    assert reading.english == "2022; income statement; restructuring"
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
    english = parse("cash flow statement; capital expenditure")  # two terms: two phrases
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
        "adobe", "geographic", "region", "americas", "emea", "asia", "pacific", "revenue",
    )


def test_english_questions_are_not_touched():
    assert parse("What were capital expenditures in 2024?").reading is None
    assert language("What were capital expenditures?") == "en"
    assert language("资本支出") == "zh"
    assert language("资本支出", "en") == "en"


def test_the_chinese_labels_are_the_english_labels_translated():
    def fields(label: str) -> list:
        return [name for _, name, _, _ in string.Formatter().parse(label) if name is not None]

    assert zh.LABELS.keys() == render.LABELS.keys()
    for key, english in render.LABELS.items():
        chinese = zh.LABELS[key]
        assert type(chinese) is type(english)
        if isinstance(english, tuple):  # a header: one label a column
            assert len(chinese) == len(english)
        else:  # the same placeholders
            assert fields(chinese) == fields(english)


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
    reading = parse("资本支出和经营活动现金流").reading
    # zh.read reads the question alone; the parser adds what each match searches (its phrases)
    alone = zh.read("资本支出和经营活动现金流")
    assert (alone.english, alone.unknown) == (reading.english, reading.unknown)
    assert [(m.chinese, m.english) for m in alone.matches] == [(m.chinese, m.english) for m in reading.matches]
    assert not any(m.phrases for m in alone.matches) and all(m.phrases for m in reading.matches)
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


# --- Through the CLI, on the test filing ---------------------------------------------------------


def top_pages(cli, db, question, *extra):
    result, data = cli.json("query", db, question, *extra)
    assert result.exit_code == 0, result.output
    return [hit["page_number"] for hit in data["results"]]


@pytest.mark.parametrize(
    "question, page",
    [
        (CASH_FLOW_ZH, 10),
        (CAPEX_ZH, 10),
        ("有效所得税率调节表在哪一页？", 11),
        ("专利诉讼或法律诉讼在第几页？", 5),
        ("客户集中度风险披露在哪里？", 4),
        ("资产负债表上2024年末的流动资产合计是多少？", 9),
        ("利润表中2023年的销售成本是多少？", 8),
        ("按地区划分的净销售额在哪一页？", 12),
        ("这份 10-K 里，分部收入数据的原始表格在哪？", 12),
        ("單一供應商", 4),
    ],
)
def test_chinese_question_finds_the_evidence_page(cli, filing_db, question, page):
    assert top_pages(cli, filing_db, question)[0] == page


def test_chinese_table(cli, filing_db):
    result = cli("query", filing_db, CASH_FLOW_ZH, "--top", "2")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"问题：{CASH_FLOW_ZH}"
    assert lines[1].startswith("文档：ACME_2024_10K  sha256 ") and lines[1].endswith("（共 12 页）")
    assert lines[3].split() == ["排名", "页码（物理页）", "置信度", "文档", "SHA-256", "命中说明"]
    assert lines[4].split()[:3] == ["1", "10（印刷页码", "8）"]
    assert "Consolidated Statements of Cash Flows；命中：经营活动现金流 → " in lines[4]
    assert "net cash provided by operating activities" in lines[4]
    # a Chinese character takes two columns on a terminal: the columns line up as displayed
    assert lines[3].startswith("排名  页码（物理页）    置信度  文档           SHA-256")
    assert re.match(r"   1  10（印刷页码 8）    [01]\.\d\d  ACME_2024_10K  ", lines[4])
    assert columns(lines[3], "文档") == columns(lines[4], "ACME_2024_10K")


def columns(line: str, text: str) -> int:
    """The display column where text starts (wide characters counted as two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line[: line.index(text)])


def test_chinese_markdown_and_json(cli, filing_db):
    markdown = cli("query", filing_db, CAPEX_ZH, "--top", "2", "--format", "markdown")
    lines = markdown.stdout.splitlines()
    assert lines[0] == "| 排名 | 页码（物理页） | 置信度 | 文档 | 命中说明 | 证据 |"
    assert re.match(r"\| 1 \| 10（印刷页码 8） \| [01]\.\d\d \| ACME_2024_10K \(sha256 ", lines[2])
    assert "命中：资本支出 → purchases of property, plant and equipment" in lines[2]
    result, data = cli.json("query", filing_db, CAPEX_ZH)
    assert set(data) == {"question", "document", "results", "message"}  # keys stay English
    assert data["question"] == CAPEX_ZH
    first = data["results"][0]
    assert first["page_number"] == 10
    assert "purchases of property, plant and equipment" in first["matched_terms"]
    assert first["note"].startswith("Consolidated Statements of Cash Flows；命中：资本支出 → ")
    for hit in data["results"]:  # every English term in a note is on that page
        shown = " ".join(cli("show", filing_db, hit["page_number"]).stdout.lower().split())
        for term in hit["matched_terms"]:
            assert " ".join(term.split()) in shown, (hit["page_number"], term)


def test_lang_overrides_the_question_language(cli, filing_db):
    english = cli("query", filing_db, CAPEX_ZH, "--top", "1", "--lang", "en")
    assert english.exit_code == 0
    lines = english.stdout.splitlines()
    assert lines[0] == f"Question: {CAPEX_ZH}"
    assert lines[3].split() == ["Rank", "Page", "Conf", "Document", "SHA-256", "What", "matched"]
    assert "Consolidated Statements of Cash Flows; matched: " in lines[4]
    assert "命中" not in english.stdout
    chinese = cli("query", filing_db, "What were capital expenditures in 2024?", "--top", "1", "--lang", "zh")
    assert chinese.exit_code == 0
    assert chinese.stdout.splitlines()[3].split()[0] == "排名"
    assert "Consolidated Statements of Cash Flows；命中：" in chinese.stdout
    assert "→" not in chinese.stdout  # an English question has no glossary terms to show
    bad = cli("query", filing_db, CAPEX_ZH, "--lang", "fr")
    assert bad.exit_code == 2
    assert "--lang" in bad.stderr


def test_chinese_messages(cli, filing_db, tmp_path):
    no_words = cli("query", filing_db, "在哪一页？")
    assert no_words.exit_code == 2
    assert no_words.stdout == ""
    assert no_words.stderr.startswith("Error: 问题缺少可检索的内容词；")
    assert len(no_words.stderr.splitlines()) == 1
    in_english = cli("query", filing_db, "在哪一页？", "--lang", "en")
    assert in_english.stderr.startswith("Error: the question has no searchable content words")

    nothing = cli("query", filing_db, "养老金计划")
    assert nothing.exit_code == 1
    assert "未在该文档中定位到相关页面" in nothing.stdout
    result, data = cli.json("query", filing_db, "养老金计划")
    assert result.exit_code == 1
    assert data["results"] == [] and data["message"].startswith("未在该文档中定位到相关页面")

    result, data = cli.json("query", filing_db, "衍生工具、套期、养老金和保修")
    assert result.exit_code == 0
    assert data["results"][0]["page_number"] == 12  # accrued warranty costs
    assert data["message"].startswith("没有页面包含问题的全部内容词")

    missing = tmp_path / "missing.db"
    result = cli("query", missing, CAPEX_ZH)
    assert result.exit_code == 3
    assert result.stderr == f"Error: {missing}：数据库不存在（请先运行 `evfind ingest REPORT.pdf --db {missing}`）\n"
    assert not missing.exists()

    empty = tmp_path / "empty.db"
    writes.create_empty(empty)
    result = cli("query", empty, CAPEX_ZH)
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: 尚未载入任何页面，无法检索：{empty}；请先运行 `evfind ingest REPORT.pdf --db {empty}`\n"
    )


def test_explain_shows_how_the_question_was_read(cli, filing_db):
    result = cli("query", filing_db, CAPEX_ZH, "--explain")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "glossary: 资本支出 → capital expenditure; 现金流量表 → cash flow statement"
    assert lines[2] == "read as: 2024; capital expenditure; cash flow statement"
    assert "statements: cash_flow_statement (named: cash_flow_statement)" in lines


def test_chinese_json_outcomes_speak_the_questions_language(cli, filing_db, tmp_path):
    """With --format json a question evfind cannot ask prints the answer object, exit 2,
    its message in the question's language (or --lang's); nothing on stderr."""
    sha = store.select_revision(store.connect_read(filing_db)).sha256
    document = {"document_id": "ACME_2024_10K", "document_sha256": sha, "page_count": 12}
    no_words = "问题缺少可检索的内容词；请用财报中的说法提问（例如 资本支出、法律诉讼、现金流量表）"
    for explain in ([], ["--explain"]):
        result = cli("query", filing_db, "在哪一页？", *explain, "--format", "json")
        assert (result.exit_code, result.stderr) == (2, "")
        assert json.loads(result.stdout) == {"question": "在哪一页？", "document": document, "results": [], "message": no_words}
    result = cli("query", filing_db, "在哪一页？", "--lang", "en", "--format", "json")
    assert (result.exit_code, result.stderr) == (2, "")
    assert json.loads(result.stdout)["message"].startswith("the question has no searchable content words; ")
    english = cli("query", filing_db, "what is the", "--lang", "zh", "--format", "json")
    assert json.loads(english.stdout)["message"] == no_words

    empty = tmp_path / "empty.db"
    writes.create_empty(empty)
    result = cli("query", empty, CAPEX_ZH, "--format", "json")
    assert (result.exit_code, result.stderr) == (2, "")
    assert json.loads(result.stdout) == {
        "question": CAPEX_ZH,
        "document": None,
        "results": [],
        "message": f"尚未载入任何页面，无法检索：{empty}；请先运行 `evfind ingest REPORT.pdf --db {empty}`",
    }


def test_explain_as_json_shows_how_the_question_was_read(cli, filing_db):
    result, plan = cli.json("query", filing_db, CAPEX_ZH, "--explain")
    assert result.exit_code == 0, result.output
    assert plan["question"] == CAPEX_ZH
    assert plan["reading"] == {
        "english": "2024; capital expenditure; cash flow statement",
        "glossary": [
            {"chinese": "资本支出", "english": ["capital expenditure"]},
            {"chinese": "现金流量表", "english": ["cash flow statement"]},
        ],
        "not_in_glossary": [],
    }
    assert plan["named_statements"] == ["cash_flow_statement"]
    assert plan["fused"][0]["page_number"] == 10


def test_eval_reads_chinese_questions(cli, filing_db, tmp_path):
    labels = tmp_path / "labels.jsonl"
    records = [
        {"doc_name": "ACME_2024_10K", "question": "Where is the legal proceedings section?",
         "question_zh": "法律诉讼在第几页？", "gold_pages": [5]},
        {"doc_name": "ACME_2024_10K", "question": "Capital expenditures?", "question_zh": CAPEX_ZH,
         "gold_pages": [10]},
    ]
    labels.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    result, data = cli.json("eval", labels, "--dbs", filing_db.parent, "--question-field", "question_zh")
    assert result.exit_code == 0, result.output
    assert data["metrics"]["all"]["hit@1"] == 1.0
    assert data["metrics"]["all"]["n"] == 2


def test_a_terms_alternative_wordings_are_not_read_as_one_phrase():
    """经营 reads as "operate" or "operations": alternatives, so no pair "operate operations"."""
    from evfind.question import parse

    reading = zh.read("公司主要在哪些地区经营？")
    assert reading.english == "geographic / region; operate / operations"
    ideas = {idea.label: idea.phrases for idea in parse("公司主要在哪些地区经营？").ideas}
    assert "operate operations" not in ideas and "geographic operate" not in ideas
    # one idea: a page that says either wording holds what 经营 asks about
    assert ideas["operate"][:2] == ("operate", "operations") and "operations" not in ideas


def test_neighbouring_terms_make_no_phrase_but_a_cue_still_spans_them():
    """Chinese word order is not English phrase order: 第二季度 + 营业利润 is no "quarter
    operating"; the lexicon's cues still read across terms (营业 + 收入 is operating revenue)."""
    labels = [idea.label for idea in parse("欧洲分部第二季度营业利润是多少？").ideas]
    assert "quarter operating" not in labels and "second quarter" in labels
    assert parse("欧洲分部第二季度营业利润是多少？").reading.english.count(";") >= 2


def test_a_tenor_reads_as_filings_write_it():
    assert zh.read("五年期信贷协议").english.startswith("five-year")
    assert zh.read("3年期票据").english.startswith("three-year")
    assert zh.read("30年期票据").english.startswith("30-year")


def test_numbered_items_parts_and_articles_read_as_filings_write_them():
    """第7项 is Item 7, 第二部分 Part II, 第七条 Article VII (agreements and bylaws number their
    articles in Roman numerals); 第三季度 stays the third quarter."""
    assert zh.read("第二部分第1A项").english == "part ii item 1a"
    assert zh.read("8-K第5.07项在哪一页？").english.startswith("8-k item 5.07")
    assert zh.read("违约事件条款(第七条)").english.endswith("article vii")
    assert zh.read("章程第十二条").english.endswith("article xii")
    assert zh.read("第三季度").english == "third quarter"
    assert parse("第二部分第2项在哪一页？").items == (("II", "2"),)


def test_which_pages_is_not_a_figure():
    """几 asks how many, but 哪几页 and 第几页 ask which pages: where, not a figure."""
    assert not parse("三年期信贷协议中的违约事件条款在哪几页？").fact
    assert not parse("附件10.2从第几页开始？").fact
    assert parse("公司有几家门店？").fact


def test_the_glossary_is_kept_between_processes_and_rebuilt_when_its_sources_change(tmp_path, monkeypatch):
    """A first Chinese question in a process reads the glossary back from the user's cache
    (``_data.compiled``) rather than folding every form again; a changed glossary file is read
    anew."""
    import shutil

    from evfind import _data

    data = tmp_path / "data"
    data.mkdir()
    for source in _data.DATA.iterdir():  # (the folding of Chinese reads its own tables)
        shutil.copy(source, data / source.name)
    monkeypatch.setattr(_data, "DATA", data)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("EVFIND_NO_CACHE", raising=False)
    zh.vocabulary.cache_clear()
    try:
        table, longest = zh.vocabulary()
        assert list((tmp_path / "cache" / "evfind").glob("zh-*.marshal"))  # kept
        assert table["资本支出"] == zh.Entry("资本支出", ("capital expenditure",))
        zh.vocabulary.cache_clear()
        assert zh.vocabulary() == (table, longest)  # read back: the same entries
        assert all(type(e) is zh.Entry for e in zh.vocabulary()[0].values() if e is not None)
        with (data / "glossary_zh.tsv").open("a", encoding="utf-8") as glossary:
            glossary.write("测试术语词\ttest term\tthis test\n")
        zh.vocabulary.cache_clear()
        assert zh.vocabulary()[0]["测试术语词"] == zh.Entry("测试术语词", ("test term",))  # rebuilt
    finally:
        zh.vocabulary.cache_clear()
