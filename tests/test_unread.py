"""What of a question was not read: Chinese text the glossary lacks, and words no page of the
filing uses. The answer's `message` names them after the outcome, in the question's language;
the table and Markdown print them above the results. Through the CLI, on the test filing."""

from __future__ import annotations

import pytest

from evfind import zh
from evfind.finder import NO_MATCH, NO_MATCH_HINT, WEAK_MATCH

from .conftest import besides_doubt, write_jsonl


def above_results(stdout: str) -> list[str]:
    """The lines between the header (question, document) and the results' table."""
    lines = stdout.splitlines()
    end = next(i for i, line in enumerate(lines) if line.split()[:2] in (["Rank", "Page"], ["排名", "页码（物理页）"]))
    return lines[2:end]


# --- English: the question's words no page holds ------------------------------------------------


def test_words_no_page_holds_are_named(cli, filing_db):
    question = "What were the foobarium capital expenditures in 2019?"
    result, data = cli.json("query", filing_db, question)
    assert (result.exit_code, result.stderr) == (0, "")
    assert data["results"][0]["page_number"] == 10
    assert data["message"] == "Not in this filing: foobarium, 2019"
    table = cli("query", filing_db, question)
    assert table.exit_code == 0
    assert above_results(table.stdout) == ["", "Not in this filing: foobarium, 2019", ""]
    assert not table.stdout.rstrip().endswith("2019")  # said once, above the results
    markdown = cli("query", filing_db, question, "--format", "markdown").stdout.splitlines()
    assert markdown[:3] == ["Not in this filing: foobarium, 2019", "", "| Rank | Physical page | Confidence | Document | What matched | Evidence |"]


@pytest.mark.parametrize(
    "question",
    [
        "What were capital expenditures in 2024?",
        "capex 2024",  # no page says capex: the lexicon reads it as "purchases of property, plant and equipment"
        "Acme net sales 2023",  # words on most pages are left out of the MATCH, but they are in the filing
    ],
)
def test_a_question_read_whole_has_no_message(cli, filing_db, question):
    result, data = cli.json("query", filing_db, question)
    assert result.exit_code == 0
    # nothing about its reading (the first page's confidence may say it is doubtful: "capex
    # 2024" on this 12-page filing, its first page right)
    assert besides_doubt(data["message"]) is None
    assert "Not in this filing" not in cli("query", filing_db, question).stdout


def test_the_outcome_comes_first_in_the_message(cli, filing_db):
    weak = "zebra giraffe hippopotamus widgets"
    result, data = cli.json("query", filing_db, weak)
    assert result.exit_code == 0
    assert data["message"] == f"{WEAK_MATCH}. Not in this filing: zebra, giraffe, hippopotamus"
    table = cli("query", filing_db, weak).stdout
    assert above_results(table) == ["", "Not in this filing: zebra, giraffe, hippopotamus", ""]
    assert table.endswith(f"\n\n{WEAK_MATCH}\n")  # the outcome stays below the results

    nothing = "zebra giraffe"
    result, data = cli.json("query", filing_db, nothing)
    assert result.exit_code == 1
    assert data["message"] == f"{NO_MATCH}; {NO_MATCH_HINT}. Not in this filing: zebra, giraffe"
    table = cli("query", filing_db, nothing)
    assert table.exit_code == 1
    assert table.stdout.splitlines()[2:] == ["", "Not in this filing: zebra, giraffe", "", f"{NO_MATCH}; {NO_MATCH_HINT}"]


def test_batch_lines_carry_the_same_message(cli, filing_db):
    result = cli("query", filing_db, "--questions", "-", input="foobarium capital expenditures\n")
    assert result.exit_code == 0
    assert '"message": "Not in this filing: foobarium"' in result.stdout


# --- Chinese: text the glossary lacks, and terms the filing never uses ----------------------------


def test_chinese_text_the_glossary_lacks_is_named(cli, filing_db):
    question = "百事公司2024财年的资本支出是多少？"
    result, data = cli.json("query", filing_db, question)
    assert result.exit_code == 0
    assert data["results"][0]["page_number"] == 10
    assert data["message"] == "未识别：百事（未检索）"
    table = cli("query", filing_db, question).stdout
    assert above_results(table) == ["", "未识别：百事（未检索）", ""]


def test_a_glossary_term_the_filing_never_uses_is_named_as_asked(cli, filing_db):
    question = "百事公司的养老金和资本支出"
    result, data = cli.json("query", filing_db, question)
    assert result.exit_code == 0
    assert data["message"] == "未识别：百事（未检索）；文档中未出现：养老金（pension）"
    result, data = cli.json("query", filing_db, question, "--lang", "en")
    assert data["message"] == "Not read: 百事 (not in the glossary, so not searched). Not in this filing: 养老金 (pension)"
    result, data = cli.json("query", filing_db, "Acme 的 foobarium 和资本支出")  # English written in a Chinese question
    assert data["message"] == "文档中未出现：foobarium"


def test_a_chinese_no_match_says_both(cli, filing_db):
    result, data = cli.json("query", filing_db, "百事公司的养老金计划")  # the glossary reads 养老金计划 as pension
    assert result.exit_code == 1
    assert data["message"] == f"{zh.MESSAGES['no_match']}。未识别：百事（未检索）；文档中未出现：养老金计划（pension）"


@pytest.mark.parametrize(
    "question, unknown",
    [
        ("百事公司主要在哪些地区经营？", ("百事",)),  # 在哪 is read first: 些 is a function word too
        ("波音的业务是否具有周期性？", ("波音",)),
        ("微软资产负债表上的债务比上年增加了吗？", ("微软",)),
        ("安姆科做了哪些重大收购？", ("安姆科",)),
        ("票据的赎回条款", ()),
    ],
)
def test_function_words_are_not_reported_as_unread(question, unknown):
    assert zh.read(question).unknown == unknown


# --- The glossary's capital-markets and governance terms, through the CLI --------------------------

EIGHT_K = [
    """UNITED STATES SECURITIES AND EXCHANGE COMMISSION
FORM 8-K CURRENT REPORT
Kestrel Tools Inc.""",
    """Item 5.07 Submission of Matters to a Vote of Security Holders
At the annual meeting of shareholders the following nominees were elected to the board. The final results:
Election of directors: votes for 9,100,000; votes against 210,000; abstentions 12,000; broker non-votes 400,000.""",
    """Item 5.02 Departure of Directors or Certain Officers; Appointment of Certain Officers
The board appointed Dana Reyes as chief financial officer. Her employment agreement provides a base salary
and severance on a termination without cause.""",
    """Item 8.01 Other Events
Kestrel priced an offering of 4.250% senior notes due 2031. The underwriters have an over-allotment option.
Use of proceeds: to repay the term loan. The notes are unsecured and subject to optional redemption
at a make-whole price before the maturity date. The indenture contains covenants limiting liens.""",
    """Item 9.01 Financial Statements and Exhibits
Exhibit 99.1 Press release. The audit committee and the compensation committee met in March.""",
]


@pytest.mark.parametrize(
    "question, page",
    [
        ("年度股东大会的表决结果和董事选举在哪一页？", 2),
        ("高管任命与遣散费", 3),
        ("承销商的超额配售选择权", 4),
        ("募集资金用途和定期贷款", 4),
        ("无担保优先票据的赎回条款和到期日", 4),
        ("限制性条款", 4),
        ("审计委员会和薪酬委员会", 5),
    ],
)
def test_capital_markets_and_governance_terms_are_read(cli, tmp_path, question, page):
    db = tmp_path / "k.db"
    assert cli("ingest", write_jsonl(tmp_path / "k.jsonl", EIGHT_K), "--db", db, "--document-id", "KESTREL_8K").exit_code == 0
    result, data = cli.json("query", db, question)
    assert result.exit_code == 0, result.output
    assert data["results"][0]["page_number"] == page
    assert besides_doubt(data["message"]) is None  # every part of the question was read, and found


def test_a_pair_of_the_questions_words_is_not_reported_for_itself():
    from evfind.finder import units
    from evfind.question import Idea

    ideas = (
        Idea("foobarium", ("foobarium",)),
        Idea("capital expenditures", ("capital expenditures", "purchases of property plant and equipment")),
        Idea("foobarium capital", ("foobarium capital",)),  # two words side by side, searched as a phrase
        Idea("net sales", ("net sales",)),  # a phrase of the question whose words are no other idea's
        Idea("2024", ("2024",), year=True),
    )
    assert units(ideas) == (True, True, False, True, True)


def test_what_the_revision_read_lacks_is_named_though_an_older_revision_holds_it(cli, tmp_path):
    """The pages holding an idea are counted in the revision read, not in every revision of the
    file: "capital expenditures" on the older revision's pages only is still absent from the new
    one, whichever count (ranking's, over the index; the note's, over the revision) came first."""
    db = tmp_path / "acme.db"
    revisions = {"v1": ["Revenue was 10.", "Capital expenditures were 5."], "v2": ["Revenue was 12.", "Revenue grew."]}
    for folder, pages in revisions.items():  # two revisions of one document, the newer read
        (tmp_path / folder).mkdir()
        source = write_jsonl(tmp_path / folder / "ACME_2024_10K.jsonl", pages)
        assert cli("ingest", source, "--db", db, "--quiet").exit_code == 0
    result, data = cli.json("query", db, "What were capital expenditures and revenue?")
    assert data["results"] and "capital expenditures" in data["message"]


# --- An ordinary word of the question's asking is not "not in this filing" -----------------------


@pytest.mark.parametrize(
    "question, message",
    [
        ("How are net sales split between the Industrial and Consumer segments?", None),  # answered by Note 3
        ("What is the split of net sales by segment?", None),
        ("Was the widget split?", "Not in this filing: split"),  # the split itself is asked
        ("What were the foobarium net sales of the Industrial segment?", "Not in this filing: foobarium"),
    ],
)
def test_an_ordinary_word_framing_an_answered_question_is_not_named(cli, filing_db, question, message):
    result, data = cli.json("query", filing_db, question)
    assert result.exit_code == 0
    assert data["message"] == message


def test_the_ordinary_english_words_are_the_files_words_line_by_line(tmp_path, monkeypatch):
    """The word list ``specific`` reads (answer._english) holds a word exactly where the file
    has it on a line of its own: no part of a word, no two words, no other case; it is the
    same read from the user's cache as built from the file."""
    import gzip

    from evfind import _data, answer

    with gzip.open(_data.DATA / answer.ENGLISH_WORDS, "rt", encoding="utf-8") as handle:
        listed = [line.strip() for line in handle if line.strip() and not line.startswith("#")]
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("EVFIND_NO_CACHE", raising=False)
    answer._english.cache_clear()
    try:
        words = answer._english()
        assert all(word in words for word in listed[::97]) and "split" in words
        assert "splitz" not in words and "foobarium" not in words
        assert "plit" not in words and "spli" not in words  # parts of a listed word
        assert "split\nsale" not in words and "" not in words and "Split" not in words and 3 not in words
        assert list((tmp_path / "evfind").glob("english-*.marshal"))  # kept between processes
        answer._english.cache_clear()
        assert answer._english().lines == words.lines == answer._english_lines()  # read back
    finally:
        answer._english.cache_clear()
