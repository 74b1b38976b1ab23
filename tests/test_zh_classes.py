"""How a Chinese question is read, by the classes of misreading found comparing the Chinese and
English wordings of the development questions (docs/chinese.md): a word cut in two because its
first character is a one-character stopword, a term read as another English concept than filings
use, a standard term the glossary lacked, a function word missing from the stopwords. Each is
checked through the CLI on a filing written here, whose pages tell the readings apart."""

from __future__ import annotations

import pytest

from evfind import zh

from .conftest import besides_doubt, write_jsonl

PAGES = [
    # 1: cover
    """UNITED STATES SECURITIES AND EXCHANGE COMMISSION
FORM 10-K ANNUAL REPORT
For the fiscal year ended December 31, 2025
Tallis Resources Inc.""",
    # 2: Item 1, the upstream business and its production
    """Item 1. Business
Upstream. Our upstream segment explores for and produces crude oil and natural gas in three basins.
Net production averaged 412 thousand oil-equivalent barrels per day in 2025, up from 398 in 2024.""",
    # 3: the executive officers with their ages
    """Information About Our Executive Officers
Name Age Position Officer since
Jane Roe 58 Chief Executive Officer 2015
Ravi Patel 51 Chief Financial Officer 2019""",
    # 4: executive compensation (the executive officers, no ages)
    """Item 11. Executive Compensation
The compensation committee sets the pay of our executive officers. Our executive officers receive a base
salary, an annual bonus and equity awards; the executive officers' targets are set each February.""",
    # 5: MD&A, critical accounting estimates
    """Critical Accounting Estimates
Our critical accounting policies require estimates of proved reserves, which drive depletion, and of the
fair value of assets acquired; these estimates involve judgement about future prices.""",
    # 6: Note 1, significant accounting policies
    """Note 1. Summary of Significant Accounting Policies
Principles of consolidation. The accounting policies below are applied consistently. Significant accounting
policies include revenue recognition, inventories and leases.""",
    # 7: the going-concern note
    """Note 2. Going Concern
Our term loan matures in June 2026. These conditions raise substantial doubt about our ability to continue
as a going concern; management's plans to refinance the loan are subject to uncertainty.""",
    # 8: discontinued operations (continuing operations)
    """Note 3. Discontinued Operations
We sold the refining business in 2025. Income from continuing operations was $84.1 million; the results of
continuing operations exclude the refining business, which is presented as discontinued operations.""",
    # 9: income taxes: taxable income, the federal return
    """Note 9. Income Taxes
Taxable income reported on our 2025 federal return was $61.0 million, against a book net loss of $12.4 million,
mainly because of intangible drilling costs deducted when incurred.""",
    # 10: MD&A, results: upstream earnings, lower prices offset by volumes
    """Results of Operations
Upstream earnings were $1,120 million, down $310 million: lower realized prices cut earnings by $450 million,
partly offset by higher volumes of $140 million.""",
    # 11: the auditor's report, its opinion
    """Report of Independent Registered Public Accounting Firm
To the Board of Directors of Tallis Resources Inc. Opinion on the Financial Statements. We have audited the
balance sheets of the Company. We are a public accounting firm registered with the PCAOB and independent of
the Company. Ward & Ledger LLP, independent registered public accounting firm, has served since 2011.""",
    # 12: the auditor's report, its critical audit matter
    """Critical Audit Matters
The critical audit matter communicated below is a matter arising from the current period audit. Proved
reserves used in depletion: we tested the reserve engineers' estimates.""",
    # 13: Item 9A, disclosure controls and procedures
    """Item 9A. Controls and Procedures
Evaluation of Disclosure Controls and Procedures. Management, with our chief executive officer and chief
financial officer, evaluated our disclosure controls and procedures; management concluded that these controls and
procedures are effective. Management's report on internal control over financial reporting follows.""",
    # 14: management's report on internal control over financial reporting
    """Management's Report on Internal Control over Financial Reporting
Management is responsible for establishing adequate internal control over financial reporting. Based on the
COSO framework, management concluded that internal control over financial reporting was effective.""",
]


@pytest.fixture
def tallis_db(cli, tmp_path):
    db = tmp_path / "tallis.db"
    result = cli("ingest", write_jsonl(tmp_path / "tallis.jsonl", PAGES), "--db", db, "--document-id", "TALLIS_2025_10K")
    assert result.exit_code == 0, result.output
    return db


def first_page(cli, db, question) -> tuple[int, str | None]:
    result, data = cli.json("query", db, question)
    assert result.exit_code == 0, result.output
    return data["results"][0]["page_number"], besides_doubt(data["message"])


# --- A word cut in two: its first character is a one-character stopword (年 of 年龄, 上 of 上游,
#     应 of 应税收入), so the rest was left unread and the word not searched ----------------------


@pytest.mark.parametrize(
    "question, page, english",
    [
        ("高管名单及年龄在哪一页？", 3, "age"),  # 年 + 龄 before
        ("上游业务的油当量产量是多少？", 2, "upstream"),  # 上 + 游 before
        ("2025年联邦申报表上的应税收入是多少？", 9, "taxable income"),  # 应 + 税收 + 入 before
    ],
)
def test_a_word_starting_with_a_stopword_is_read_whole(cli, tallis_db, question, page, english):
    reading = zh.read(question)
    assert reading.unknown == ()
    assert english in reading.english
    assert first_page(cli, tallis_db, question) == (page, None)


# --- A term read as another English concept than the filings use ---------------------------------


@pytest.mark.parametrize(
    "question, page, english, not_english",
    [
        # 持续经营 is the going-concern basis (ASBE Basic Standard Art. 6); continuing operations are 持续经营业务
        ("财务报表附注中关于持续经营的不确定性在哪一页？", 7, "going concern", "continuing operations"),
        # 关键会计政策 are the critical accounting policies of MD&A, not Note 1's significant ones
        ("关键会计政策在哪一页？", 5, "critical accounting", "significant accounting policies"),
        # 审计报告 is the audit report an English question names, not the report's full title, whose
        # words fill its opening page rather than the page a question asks for
        ("审计报告中的关键审计事项在哪一页？", 12, "audit report", "independent registered public accounting firm"),
    ],
)
def test_a_term_is_read_as_the_concept_filings_name(cli, tallis_db, question, page, english, not_english):
    reading = zh.read(question)
    assert english in reading.english and not_english not in reading.english
    assert first_page(cli, tallis_db, question)[0] == page


# --- A narrower or wider English wording than filings and English questions use ------------------


def test_internal_control_over_financial_reporting_is_not_every_control(cli, tallis_db):
    """财务报告内部控制 is internal control over financial reporting (Reg S-K Item 308), which
    management reports on; not all of Item 9A's controls and procedures (Item 307)."""
    question = "管理层关于财务报告内部控制的报告在哪一页？"
    assert "internal control over financial reporting" in zh.read(question).english
    assert first_page(cli, tallis_db, question)[0] == 14


def test_continuing_operations_still_reads_as_continuing_operations(cli, tallis_db):
    assert "continuing operations" in zh.read("持续经营业务的收入是多少？").english
    assert first_page(cli, tallis_db, "持续经营业务的收入是多少？")[0] == 8


# --- Standard terms the glossary lacked, and function words the stopwords lacked -----------------


def test_mdna_words_of_a_results_question_are_read(cli, tallis_db):
    question = "价格下跌使上游业务盈利减少了多少？哪些因素形成了抵消？"  # 下跌, 盈利 (earnings), 抵消 (offset); 使, 形成
    reading = zh.read(question)
    assert reading.unknown == ()
    assert {"earnings", "offset", "upstream"} <= set(reading.english.replace("/", " ").replace(";", " ").split())
    page, message = first_page(cli, tallis_db, question)
    assert page == 10
    assert "未识别" not in (message or "")  # nothing left unread (下跌 and 因素 the page may lack)
