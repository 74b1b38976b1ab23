"""End to end over the real filings (opt-in: --financebench DIR). Slow: every PDF is ingested."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.financebench


@pytest.fixture(scope="session")
def financebench_dbs(financebench, tmp_path_factory):
    from evfind.ingest import ingest

    folder = tmp_path_factory.mktemp("financebench")
    results = {}
    for pdf in sorted((financebench / "pdfs").glob("*.pdf")):
        results[pdf.stem] = ingest(pdf, folder / f"{pdf.stem}.db", pdf.stem)
    return folder, results


def test_every_pdf_ingests_with_all_its_pages(financebench, financebench_dbs):
    import pypdfium2

    _, results = financebench_dbs
    assert results
    for name, result in results.items():
        pdf = pypdfium2.PdfDocument(str(financebench / "pdfs" / f"{name}.pdf"))
        assert result.page_count == len(pdf), name
        pdf.close()


def _report(financebench, financebench_dbs, labels, field="question"):
    from evfind.evaluate import evaluate, load_labels

    folder, _ = financebench_dbs
    return evaluate(load_labels(financebench / labels, field), dbs=folder, question_field=field)


def test_financebench_questions(financebench, financebench_dbs):
    report = _report(financebench, financebench_dbs, "questions.jsonl")
    metrics = report.table()["all"]
    print(json.dumps(metrics))
    assert report.fabricated == 0
    assert metrics["recall@5"] >= 0.90
    assert metrics["hit@5"] >= 0.92
    assert metrics["hit@1"] >= 0.70


def test_seedstyle_questions(financebench, financebench_dbs):
    report = _report(financebench, financebench_dbs, "questions_seedstyle.jsonl")
    metrics = report.table()["all"]
    print(json.dumps(metrics))
    assert report.fabricated == 0
    assert metrics["hit@5"] >= 0.92
    assert metrics["hit@1"] >= 0.70


@pytest.mark.parametrize(
    "labels, chinese, english",
    [("questions_zh.jsonl", "question", "question_en"), ("questions_seedstyle.jsonl", "question_zh", "question")],
)
def test_chinese_questions_find_what_the_english_ones_do(financebench, financebench_dbs, labels, chinese, english):
    zh = _report(financebench, financebench_dbs, labels, chinese)
    en = _report(financebench, financebench_dbs, labels, english)
    print(labels, json.dumps({"zh": zh.table()["all"], "en": en.table()["all"]}))
    assert zh.fabricated == 0
    assert zh.table()["all"]["recall@5"] >= en.table()["all"]["recall@5"] - 0.05
