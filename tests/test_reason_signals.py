"""A signal of the learned stage read from a filing written here: for a question about the reasons
of a change, the lines that state a change and its cause (readings.explaining) and the share of
the question's ideas they hold."""

from __future__ import annotations

import pytest

from evfind import Finder, features, rank
from evfind.ingest import ingest

from .conftest import write_jsonl

# An MD&A of two pages: the table of gross margin, and the sentence that explains its change.
MDNA = [
    "Item 7. Management's Discussion and Analysis\nResults of Operations\n"
    "(in millions) 2025 2024\nTotal revenues $ 9,120 $ 9,540\nGross margin 17.2 % 18.5 %\n"
    "Operating income $ 610 $ 742",
    "Gross margin decreased from 18.5% to 17.2% in 2025, primarily due to lower average selling prices.\n"
    "Operating expenses were flat at $ 1,120 million.",
    "Item 8. Financial Statements\nConsolidated Statements of Operations\nTotal revenues 9,120 9,540\n"
    "Cost of revenues 7,551 7,775\nGross profit 1,569 1,765",
]


def columns(signals, names):
    """Each candidate page's numbers of ``names``, by page number."""
    pages, rows = rank.vectors(signals, rank.DEFAULT)
    index = [features.NAMES.index(name) for name in names]
    return {signals.pages[page].number: tuple(row[i] for i in index) for page, row in zip(pages, rows)}


@pytest.fixture(scope="module")
def mdna_db(tmp_path_factory):
    return ingest(write_jsonl(tmp_path_factory.mktemp("reasons") / "ACME_2025_10K.jsonl", MDNA)).db_path


@pytest.mark.parametrize("question", ["Why did gross margin decline in 2025?", "2025年毛利率为何下降？"])
def test_a_reason_question_reads_the_line_that_states_the_change_and_its_cause(mdna_db, question):
    with Finder(mdna_db) as finder:
        signals = finder.signals(question)
    assert signals.reason
    by_number = {info.number: info for info in signals.pages.values()}
    assert by_number[2].explained == frozenset({0}) and not by_number[1].explained
    read = columns(signals, ("q_reason", "explained_best", "explained_gap", "explained_lines"))
    assert read[2][0] == 1.0 and read[2][1] > 0 and read[2][2] == 0.0 and read[2][3] > 0
    assert read[1][1] == 0.0 and read[1][2] == read[2][1] and read[1][3] == 0.0


def test_a_question_for_the_figure_reads_no_explanation(mdna_db):
    with Finder(mdna_db) as finder:
        signals = finder.signals("What was gross margin in 2025?")
    assert not signals.reason and not any(info.explained for info in signals.pages.values())
    read = columns(signals, features.GROUPS["reasons"])
    assert read and all(values == (0.0,) * len(values) for values in read.values())
