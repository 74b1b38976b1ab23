"""The learned line chooser: which of a page's candidate lines a user reads first.

A candidate line (``evidence.line_candidates``) comes with generic signals: where the rules put
it, which of the question's concepts it says and how directly (the question's own words, a
synonym, a measure's input), whether a figure sits beside them, whether it reads as a title, a
table's row, a sentence, a footnote or a period's column headings, whether the filing tags a
fact asked on it, and where it stands on the page. The chooser scores a line by a weighted sum
of its signals and shows the highest first, the rules' order breaking ties.

The weights are data (``data/evidence_lines.txt``, one ``signal weight`` a line, its provenance
in its header): a conditional logit
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

from functools import lru_cache
from operator import mul

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
    "neighbours",  # the weighted share of the question's concepts it and the lines beside it say
    "period",  # says a year or period the question names
    "figures",  # its figures, up to 6, over 6
    "rarest",  # says the question's rarest concept
    "percent",  # prints a percentage
    "fact_sentence",  # ends with a full stop, and the question asks a figure
    "fact_row",  # a table's row, and the question asks a figure
    "lead_in",  # ends with a colon: a table's or a list's lead-in ("... consisted of the following:")
    "total",  # a total's row or sentence ("Total debt", "total revenues")
    "why_sentence",  # a sentence, and the question asks why (what drove, what caused)
    "why_row",  # a table's row, and the question asks why
    "explains",  # says a change and its cause ("increased ... due to", "driven by")
    "why_explains",  # ... and the question asks why
    "item_start",  # the asked line item's words open it (a row's label), in the question's words or a synonym
    "own_start",  # ... in the question's own words
    "extra_words",  # its label's words the question does not say, up to 8, over 8
    "filer",  # says the filer's name ("Net income attributable to Acme")
    "total_asked",  # a total's row or sentence, and the question asks a total
    "period_column",  # a table's row whose column headings name a year the question asks
    "other_period",  # a table's row whose column headings name years, none of them asked
    "caption_distance",  # lines below the nearest line saying the question's concepts without a figure, up to 40, over 40
    "where_total",  # a total's row or sentence, and the question asks only where
    "fact_total",  # a total's row or sentence, and the question asks a figure
    "where_lead_in",  # a table's or a list's lead-in, and the question asks only where
    "other_row",  # opens with "Other" (a residual line: "Other financing activities"), which the question does not say
    "other_year",  # names years, none of them one the question names (a sentence's or a row's own dates)
    "other_span",  # covers only spans of time the question does not ask ("six months ended" for a quarter), or its table's headings do
)
MODEL = "evidence_lines.txt"


@lru_cache(maxsize=1)
def shipped() -> tuple[float, ...] | None:
    """The shipped weights by ``SIGNALS``, or None where no chooser is shipped (or it was
    trained on other signals: the rules' order then stands)."""
    from ._data import DATA, words

    if not (DATA / MODEL).is_file():
        return None
    pairs = [line.split() for line in words(MODEL)]
    try:
        if tuple(name for name, _ in pairs) != SIGNALS:
            return None
        return tuple(float(weight) for _, weight in pairs)
    except ValueError:  # a row that is not a signal's name and its weight: the file is damaged
        raise RuntimeError(f"evfind/data/{MODEL}: each row must be a signal's name and its weight") from None


def order(candidates: list[tuple[float, ...]], weights: tuple[float, ...] | None | bool = True,
          tiers: list[tuple[bool, ...]] | None = None) -> list[int]:
    """The candidates (their signals, given in the rules' order) by index, best first: by their
    ``tiers`` (the rules the chooser orders within), then by the weighted sum of their signals
    (``weights``; True: the shipped ones), the rules' order breaking ties; the rules' order
    where there are no weights."""
    if weights is True:
        weights = shipped()
    if not weights:
        return list(range(len(candidates)))
    scores = [-round(sum(map(mul, weights, signals)), 9) for signals in candidates]
    if tiers is None:
        return sorted(range(len(candidates)), key=lambda k: (scores[k], k))
    return sorted(range(len(candidates)), key=lambda k: (tuple(not t for t in tiers[k]), scores[k], k))
