"""Chinese questions read whole: 本次 is a function word, 人工智能 a term, and 部门 is read as the
segments US filings report, so the filing's segment pages answer it. Through the CLI, on the
test filing (its segments: Industrial Widgets and Consumer Widgets)."""

from __future__ import annotations

import pytest

from evfind import zh

from .conftest import besides_doubt


@pytest.mark.parametrize(
    "question, english",
    [
        ("本次财报中的营业收入是多少？", "financial statements; revenue"),
        ("公司在人工智能方面有哪些风险？", "artificial intelligence / AI; risk"),
    ],
)
def test_read_without_leftover_characters(question, english):
    reading = zh.read(question)
    assert reading.unknown == ()
    assert reading.english.startswith(english.split(";")[0])


def test_departments_are_read_as_the_segments_filings_report(cli, filing_db):
    question = "各部门的净销售额是多少？"
    assert "segment" in zh.read(question).english
    result, data = cli.json("query", filing_db, question)
    assert result.exit_code == 0
    assert data["results"][0]["page_number"] == 12  # Note 3. Segment Information
    assert data["message"] is None  # not "文档中未出现：部门"


def test_this_reports_revenue_has_no_unread_message(cli, filing_db):
    result, data = cli.json("query", filing_db, "本次财报中的净销售额是多少？")
    assert result.exit_code == 0
    assert besides_doubt(data["message"]) is None  # not "未识别：次"


@pytest.mark.parametrize("question", ["哪一页把存货拆分为原材料、在产品和产成品？", "按地区拆分的净销售额表在哪一页？"])
def test_broken_down_is_a_function_word_and_no_spin_off(question):
    """拆分 of a question says how a figure is broken down (按...拆分, 拆分为), as 划分 does; the
    spin-off of ASC 505-60 is 分拆 or 分立."""
    reading = zh.read(question)
    assert "spin off" not in reading.english and reading.unknown == ()
    assert "spin off" in zh.read("公司分拆业务的会计处理在哪一页？").english
