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
