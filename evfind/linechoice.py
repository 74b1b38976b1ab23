"""The learned line chooser: which of a page's candidate lines a user reads first.

A candidate line (``evidence.line_candidates``) comes with generic signals: where the rules put
it, which of the question's concepts it says and how directly (the question's own words, a
synonym, a measure's input), whether a figure sits beside them, whether it reads as a title, a
table's row, a sentence, a footnote or a period's column headings, whether the filing tags a
fact asked on it, and where it stands on the page. The chooser scores a line by a weighted sum
of its signals and shows the highest first, the rules' order breaking ties.

The weights are data (``data/evidence_lines.json``, with its provenance): a conditional logit
(softmax over a page's candidates) trained by ``benchmarks/train_lines.py`` on the hand-labelled
answer lines of the development questions (``benchmarks/answer_lines.jsonl``, the EDGAR
questions' ``answer_text``), its regularisation chosen by leave-one-company-out. Pure Python:
a dot product per candidate. Without the file the rules' order stands.

    >>> order([(1.0, 0.0), (0.0, 1.0)], weights=(0.0, 2.0))
    [1, 0]
    >>> order([(1.0, 0.0), (0.0, 1.0)], weights=None)
    [0, 1]
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

# The signals of a candidate line, in the order line_candidates gives them.
SIGNALS = (
    "rule_first",  # the rules put it first
    "rule_rank",  # 1 / (1 + its place in the rules' order)
    "rule_score",  # its count of the concepts it says (a figure's row counting double), of the page's best
    "rule_share",  # the share of candidates the rules put after it
    "named",  # names the thing asked as a report prints it (a critical audit matter's title)
    "title",  # reads as a title (evidence.is_title)
    "title_where",  # a title, and the question asks only where
    "tagged",  # shows a figure the filing tags with a concept asked (inline XBRL)
    "month",  # the row of the month a figure question asks for
    "footnote",  # a table's footnote ("(1) Net debt is ...")
    "row_item",  # a table's row whose label is mostly the asked line item's words
    "figure",  # a line item asked beside a figure, for a figure question
    "has_figure",  # carries a figure at all
    "fact_figure",  # carries a figure, and the question asks one
    "table_row",  # reads as a table's row (evidence.is_table_row)
    "where_row",  # a table's row, and the question asks only where
    "column_heading",  # reads as a table's column headings for periods
    "prose",  # as long as running text
    "sentence_end",  # ends with a full stop
    "length",  # its words, up to 40, over 40
    "concepts",  # the weighted share of the question's concepts it says (tiers weighed)
    "caption",  # the weighted share its table's caption above adds
    "own",  # the weighted share it says in the question's own words
    "synonym",  # ... in a synonym
    "input",  # ... only by a measure's inputs
    "row_precision",  # of a figure's row: the share of its label's words the question says
    "label_share",  # of any line: the share of its words (before a figure) the question says
    "position",  # where it stands on the page, 0 (top) to 1
)
MODEL = "evidence_lines.json"


@lru_cache(maxsize=1)
def shipped() -> tuple[float, ...] | None:
    """The shipped weights by ``SIGNALS``, or None where no chooser is shipped (or it was
    trained on other signals: the rules' order then stands)."""
    try:
        model = json.loads(resources.files("evfind").joinpath("data", MODEL).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    if tuple(model["signals"]) != SIGNALS:
        return None
    return tuple(float(w) for w in model["weights"])


def order(candidates: list[tuple[float, ...]], weights: tuple[float, ...] | None | bool = True) -> list[int]:
    """The candidates (their signals, given in the rules' order) by index, best first: by the
    weighted sum of their signals (``weights``; True: the shipped ones), the rules' order
    breaking ties; the rules' order where there are no weights."""
    if weights is True:
        weights = shipped()
    if not weights:
        return list(range(len(candidates)))
    scores = [sum(w * x for w, x in zip(weights, signals)) for signals in candidates]
    return sorted(range(len(candidates)), key=lambda k: (-round(scores[k], 9), k))
