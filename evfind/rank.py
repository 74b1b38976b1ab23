"""Rank fusion: pure functions over ranked lists of page ids.

Reciprocal Rank Fusion (Cormack, Clarke and Buettcher, "Reciprocal Rank Fusion outperforms
Condorcet and individual Rank Learning Methods", SIGIR 2009): a page's fused score is the sum,
over the lists it appears in, of ``weight / (k + rank)`` with ranks counted from 1.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

RRF_K = 60
# The design's order: the lexical list first, routing second.
LEXICAL_WEIGHT = 1.0
ROUTE_WEIGHT = 0.8


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
