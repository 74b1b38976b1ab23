"""Rank fusion: pure functions over ranked lists of page ids.

Reciprocal Rank Fusion (Cormack, Clarke and Buettcher, "Reciprocal Rank Fusion outperforms
Condorcet and individual Rank Learning Methods", SIGIR 2009): a page's fused score is the sum,
over the lists it appears in, of ``weight / (k + rank)`` with ranks counted from 1.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace

RRF_K = 60


def rrf(
    lists: Sequence[Sequence[Hashable]],
    weights: Sequence[float] | None = None,
    k: int = RRF_K,
) -> list[tuple[Hashable, float]]:
    """Fuse ranked lists into one: (item, score), best first; each item appears once.

    Ties keep the order in which items were first met, lists taken in the order given, so
    the first list decides between pages the fusion cannot tell apart.
    """
    if weights is None:
        weights = [1.0] * len(lists)
    if len(weights) != len(lists):
        raise ValueError("one weight per list")
    scores: dict[Hashable, float] = {}
    for ranked, weight in zip(lists, weights):
        seen = set()
        for rank, item in enumerate(ranked, start=1):
            if item in seen:
                continue  # a list that repeats an item counts it once, at its best rank
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    order = {item: i for i, item in enumerate(scores)}
    return sorted(scores.items(), key=lambda pair: (-pair[1], order[pair[0]]))


@dataclass(frozen=True)
class Method:
    """The ranking policy: which levers are on and how the ranked lists are weighted.

    A query fuses up to three ranked lists: the lexical list (FTS5 bm25 over the page text,
    its headings and the headings of the sections it continues), the primary statements the
    question names or implies, and the pages of the sections its topics point to. The levers
    can be switched off one at a time to measure what each adds (`evfind eval --ablate`);
    ``PLAIN`` is the design's method read plainly.
    """

    statements: bool = True  # recognised primary statements of the main block, by intent
    carried: bool = True  # sections carried forward: indexed as context, and routed to
    metrics: bool = True  # metrics expanded to the line items that hold their inputs
    meta: bool = True  # the meta words of instruction-laden questions dropped
    lexical_weight: float = 1.0
    statement_weight: float = 1.0  # statements the question names, or implies by a metric
    topical_statement_weight: float = 0.1  # implied statements, when the question has a topic
    section_weight: float = 0.3  # pages of the sections the question's topics point to
    k: int = 20  # RRF constant: small, so that a route list reorders close lexical ranks only
    bm25_weights: tuple[float, float, float] = (1.0, 3.0, 3.0)  # text, heading, context
    first_lines_only: bool = False  # route by headings in a page's first lines only (plain)
    # A page whose bm25 is this many times the next page's stays first unless the question
    # names a statement: routing reorders close lexical ranks, it does not overturn a clear
    # winner. 0 switches this off.
    dominance: float = 2.0

    def without(self, lever: str) -> "Method":
        if lever not in LEVERS:
            raise ValueError(f"unknown lever {lever!r}; levers: {', '.join(LEVERS)}")
        changed = replace(self, **{lever: 0.0 if lever == "dominance" else False})
        if lever == "carried":
            changed = replace(changed, bm25_weights=(*self.bm25_weights[:2], 0.0))
        return changed


LEVERS = ("statements", "carried", "metrics", "meta", "dominance")
DEFAULT = Method()
# The design's method read plainly: bm25 over text and headings (headings weighted), the
# content words and the synonym table, routing by the headings in a page's first lines,
# RRF with k = 60 and the route list weighted below the lexical one.
PLAIN = Method(
    statements=False,
    carried=False,
    metrics=False,
    meta=False,
    statement_weight=0.8,
    topical_statement_weight=0.8,
    section_weight=0.8,
    k=RRF_K,
    bm25_weights=(1.0, 3.0, 0.0),
    first_lines_only=True,
    dominance=0.0,
)
