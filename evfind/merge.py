"""Several documents of one database asked as one: how well each fits the question, and the merge
of their ranked lists. Pure functions, which ``multi.MultiFinder`` calls.

Each document's pages are ranked by ``rank.order`` as when the document is alone; the lists are then
merged. The fused scores cannot tell documents apart: RRF gives every list's first page about
the same score, however well or badly that page matches, so a merge by score is a merge by rank
(measured: the same as round-robin). What tells documents apart is how well each fits the
question as a whole, measured on 145 labelled questions of the development set asked of 22
databases holding two or three filings each, mostly one company's years, where a hit is the
right page of the right filing (hit@1 / hit@3 / hit@5 / MRR@10; the right filing first):

    each question asked of its own filing alone      0.759 / 0.897 / 0.945 / 0.833  (1.000)
    merged by fused score                            0.303 / 0.779 / 0.855 / 0.554  (0.414)
    round-robin, best first page first               0.303 / 0.807 / 0.834 / 0.558  (0.414)
    by fused score x document_fit                    0.621 / 0.779 / 0.862 / 0.714  (0.793)
    round-robin, documents by coverage x years       0.586 / 0.814 / 0.834 / 0.709  (0.772)
    round-robin, documents by document_fit           0.628 / 0.814 / 0.834 / 0.729  (0.821)

(benchmarks/multidoc.py, whose output benchmarks/multidoc.txt also gives each set.) By set:
round-robin by document_fit has the best MRR@10 on the 63 FinanceBench questions (0.756
against 0.730 for score x fit) and the 56 form questions (0.658 against 0.636); on the 26
seed-style ones the merge by score x fit does better (0.845 against 0.816). A fit, whichever
merge, is what counts: without one, MRR@10 is 0.51 to 0.72.
"""

from collections.abc import Hashable, Sequence


def document_fit(ideas: Sequence[tuple[bool, int]], pages: int, bm25: float | None, strongest: float | None) -> float:
    """How well one document fits a question, from 0 to 1, to order the documents of a merge.

    ``ideas`` holds, for each idea of the question, whether it is a year and how many of the
    document's ``pages`` hold it; ``bm25`` is the best bm25 of its lexical list (negative; None
    when no page matched) and ``strongest`` the best among the documents merged. The product of:

    - coverage: the share of the question's ideas the document holds at all;
    - years: for the years the question names, the mean share of the document's pages holding
      each (a filing speaks of its own fiscal year on most pages, and of other years in
      comparatives and maturity tables only); 1 when it names none;
    - lexical strength: its best bm25 over the strongest document's. Scores of one database
      are comparable across its documents: FTS5 takes bm25's statistics from the whole table.
    """
    if not ideas:
        coverage = 1.0
    else:
        coverage = sum(1 for _, held in ideas if held) / len(ideas)
    years = [held / pages if pages else 0.0 for year, held in ideas if year]
    in_years = sum(years) / len(years) if years else 1.0
    if bm25 is None or not strongest:
        lexical = 0.0 if bm25 is None else 1.0
    else:
        lexical = bm25 / strongest  # both negative
    return coverage * in_years * lexical


def merge(
    lists: Sequence[Sequence[tuple[Hashable, float]]], fits: Sequence[float] | None = None
) -> list[tuple[int, Hashable, float]]:
    """Several documents' ranked lists, (item, score) best first each, merged into one:
    (list index, item, score) best first. The documents take turns, round-robin by rank: each
    one's first item, then each one's second, ...; within a turn the best-fitting document
    (``fits``, e.g. ``document_fit``) goes first, ties by the first item's score, then the order
    of the lists. Each list keeps its own order, and a list runs out without stopping the
    others.

    Round-robin rather than a merge by score or by score times fit: the fused scores of two
    documents do not compare (see above), and weighing them by fit lets a document that fits a
    little better push every page of the others down, so that a wrong choice of document
    costs the right pages; taking turns keeps the others' best pages near the top (hit@3 0.814
    against 0.779, MRR@10 0.729 against 0.714; at hit@5, 0.834 against 0.862, the weighted
    merge's second and third pages of the right document count more)."""
    if fits is None:
        fits = [0.0] * len(lists)
    if len(fits) != len(lists):
        raise ValueError("one fit per list")
    first = [ranked[0][1] if ranked else 0.0 for ranked in lists]
    turns = sorted(range(len(lists)), key=lambda i: (-fits[i], -first[i], i))
    merged = []
    for position in range(max((len(ranked) for ranked in lists), default=0)):
        for index in turns:
            if position < len(lists[index]):
                item, score = lists[index][position]
                merged.append((index, item, score))
    return merged
