"""The learned line chooser (linechoice.py, data/evidence_lines.txt): the evidence line shown
first is the one a weighted sum of generic line signals puts first, within the rules' tiers. On a
filing written here, through the CLI, the exact line shown."""

from __future__ import annotations

import pytest

from evfind import linechoice

from .pdfgen import make_pdf

COMPANY = "Tarnwell Instruments Inc."
PAGES = [
    "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nFor the fiscal year ended June 30, 2024",
    "Item 1. Business\nWe make laboratory instruments for hospitals and universities.",
    "Item 1A. Risk Factors\nDemand for our instruments depends on research budgets.",
    "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations\n"
    "Results of Operations\n"
    "(In millions) Fiscal 2024 2023\n"
    "Net sales $ 2,480 $ 2,210\n"
    "Gross profit 1,020 905\n"
    "Net sales increased $270 million, or 12%, primarily due to higher volumes of mass spectrometers in Europe.\n"
    "Gross profit rose with the higher volumes and a richer mix of service contracts.",
    "Item 8. Financial Statements and Supplementary Data\n"
    "Consolidated Statements of Operations\n"
    "(In millions) Fiscal 2024 2023\n"
    "Net sales $ 2,480 $ 2,210\n"
    "Cost of sales 1,460 1,305\n"
    "Net income 310 275",
]


@pytest.fixture(scope="module")
def ten_k(tmp_path_factory):
    from evfind.ingest import ingest

    path = make_pdf(tmp_path_factory.mktemp("tenk") / "TARNWELL_2024_10K.pdf", [f"{COMPANY}\n{p}" for p in PAGES])
    return ingest(path).db_path


def test_the_shipped_chooser_weighs_every_signal():
    weights = linechoice.shipped()
    assert weights is not None and len(weights) == len(linechoice.SIGNALS)


def test_the_rules_tiers_come_before_the_weights():
    """A critical audit matter's title (the first tier) stays first whatever the weights say."""
    signals = [(0.0, 5.0), (1.0, 0.0)]
    assert linechoice.order(signals, weights=(0.0, 1.0)) == [0, 1]
    assert linechoice.order(signals, weights=(0.0, 1.0), tiers=[(False,), (True,)]) == [1, 0]


def test_what_drove_a_figure_shows_the_sentence_that_explains_it(cli, ten_k):
    """Asked what drove net sales, the MD&A's sentence saying why is shown first, not the row of
    the figure (which the rules alone put first: a line item beside a figure)."""
    result, data = cli.json("query", ten_k, "What drove the increase in net sales in fiscal 2024?", "--top", "3")
    assert result.exit_code == 0, result.output
    hit = data["results"][0]
    assert hit["page_number"] == 4
    assert hit["evidence"][0]["text"].startswith("Net sales increased $270 million, or 12%, primarily due to")


def test_how_much_a_figure_was_shows_its_row(cli, ten_k):
    result, data = cli.json("query", ten_k, "What were net sales in fiscal 2024?", "--top", "3")
    assert result.exit_code == 0, result.output
    first = data["results"][0]["evidence"][0]
    assert first["text"] == "Net sales $ 2,480 $ 2,210"


@pytest.fixture(scope="module")
def two_years(tmp_path_factory):
    from evfind.ingest import ingest

    pages = PAGES[:2] + [
        "Item 7. Management's Discussion and Analysis\n"
        "Critical Accounting Estimates\n"
        "In 2023 the adoption of the lease standard added $12 million to retained earnings.\n"
        "In 2024 the adoption of the lease standard added $40 million to retained earnings.\n"
        "Net sales rose 12%.",
    ]
    path = make_pdf(tmp_path_factory.mktemp("years") / "TARNWELL_2024_10K.pdf", [f"{COMPANY}\n{p}" for p in pages])
    return ingest(path).db_path


def test_a_sentence_of_another_year_gives_way_to_the_year_asked(cli, two_years):
    """Two sentences say the same concepts; the first (which the rules' order puts first) is of
    2023. Asked of 2024, the sentence naming 2024 is shown first (the ``period`` and
    ``other_year`` signals: it names the year asked, the other names only another year)."""
    result, data = cli.json("query", two_years, "How much did adopting the lease standard in fiscal 2024 add to retained earnings?")
    assert result.exit_code == 0, result.output
    first = data["results"][0]
    assert first["page_number"] == 3
    assert first["evidence"][0]["text"] == "In 2024 the adoption of the lease standard added $40 million to retained earnings."


@pytest.fixture(scope="module")
def two_spans(tmp_path_factory):
    from evfind.ingest import ingest

    pages = PAGES[:2] + [
        "Item 7. Management's Discussion and Analysis\n"
        "Results of Operations\n"
        "Gross margin decreased from 40% to 38% in the six months ended June 30, 2024, due to lower prices.\n"
        "Gross margin decreased from 41% to 37% in the three months ended June 30, 2024, due to lower prices.\n"
        "Net sales rose 12%.",
    ]
    path = make_pdf(tmp_path_factory.mktemp("spans") / "TARNWELL_2024_10Q.pdf", [f"{COMPANY}\n{p}" for p in pages])
    return ingest(path).db_path


def test_a_sentence_of_another_span_gives_way_to_the_quarter_asked(cli, two_spans):
    """The six months' sentence comes first on the page and says as much; asked of the quarter,
    the three months' sentence is shown first (``other_span``: the other covers only a span the
    question does not ask)."""
    result, data = cli.json("query", two_spans, "Why did gross margin fall in the quarter ended June 30, 2024?")
    assert result.exit_code == 0, result.output
    first = data["results"][0]
    assert first["page_number"] == 3
    assert first["evidence"][0]["text"].startswith("Gross margin decreased from 41% to 37% in the three months ended")
