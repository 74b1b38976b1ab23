"""The fusion's primitive and the rules that reordered its pages by hand: pure functions.

``rrf`` is Reciprocal Rank Fusion (Cormack, Clarke and Buettcher, "Reciprocal Rank Fusion
outperforms Condorcet and individual Rank Learning Methods", SIGIR 2009), the first stage.

The rules after it ranked every question before the learned last stage (issue 21), and rank.py
still ranks by them when asked to (``rank.RULES``: ``Method.learned`` off); the learned stage
reads each rule's verdict as a signal instead of a move (features.py):

- ``clear_winner``: the dominance rule, a lexical winner whose bm25 is at least twice the next
  page's stays first unless the question names a statement;
- ``aside_reasons``, ``set_aside``: pages that restate rather than disclose (definitions, an
  attached instrument, contents, the exhibits a question naming one does not name) scored down,
  unless the question asks for them;
- ``evidence_list``, ``asked_tables``, ``rerank``, ``off_period``: the leading pages fused once
  more with the same pages ordered by their best passage, the statements asked for as such
  first, the pages whose tables cover only spans the question does not ask for after the others.

Nothing here knows SQLite, text or the question parser; ``method`` is a ``rank.Method``.
"""

from collections.abc import Collection, Hashable, Mapping, Sequence

from .signals import Candidates, Intent, Ranked

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
    first_met = {item: i for i, item in enumerate(scores)}
    return sorted(scores.items(), key=lambda pair: (-pair[1], first_met[pair[0]]))


def clear_winner(lexical: Ranked, intent: Intent, method: "Method") -> Hashable | None:
    """The page that stays first whatever the routes say, or None: the lexical list's first
    page when its bm25 is at least ``method.dominance`` times the second's and the question
    names no statement (routing reorders close lexical ranks; it does not overturn a clear
    winner, but a named statement does)."""
    if not method.dominance or intent.named or len(lexical) < 2:
        return None
    (first, best), (_, second) = lexical[0], lexical[1]
    return first if best <= method.dominance * second else None  # bm25 is negative


def aside_reasons(
    definitions: Collection[Hashable],
    instruments: Collection[Hashable],
    intent: Intent,
    unnamed: Collection[Hashable] = (),
    contents: Collection[Hashable] = (),
) -> dict[Hashable, tuple[str, ...]]:
    """The pages ``set_aside`` scores down, each with why: "definitions" unless the question asks
    what a term means, "instrument" unless it is about one, "contents" unless it asks for them,
    and "unnamed" (an exhibit other than the one it names) always.

    >>> aside_reasons({1, 2}, {2, 3}, Intent(instrument=True), unnamed={3})
    {3: ('unnamed',), 1: ('definitions',), 2: ('definitions',)}
    """
    found: dict[Hashable, list[str]] = {page: ["unnamed"] for page in unnamed}
    for reason, pages, asked in (("definitions", definitions, intent.definition),
                                 ("instrument", instruments, intent.instrument),
                                 ("contents", contents, intent.contents)):
        if not asked:
            for page in pages:
                found.setdefault(page, []).append(reason)
    return {page: tuple(reasons) for page, reasons in found.items()}


def set_aside(
    fused: Sequence[tuple[Hashable, float]],
    definitions: Collection[Hashable],
    instruments: Collection[Hashable],
    intent: Intent,
    method: "Method",
    unnamed: Collection[Hashable] = (),
    contents: Collection[Hashable] = (),
) -> list[tuple[Hashable, float]]:
    """The fused list with pages that restate rather than disclose scored down to
    ``method.aside`` of their score: pages of definitions (an agreement's Article I, a glossary)
    unless the question asks what a term means, pages of an attached instrument (a credit
    agreement, an indenture, the bylaws) unless the question is about one, and pages of
    ``contents`` (a table of contents, an index to the statements: titles and page numbers)
    unless the question asks for one. Such pages repeat the words of every question about the
    filing; the filing's own disclosure comes first.
    ``unnamed``: the pages of the exhibits other than the one a question names ("the five-year
    credit agreement" and its 364-day twin, whose articles read alike), set aside too."""
    if method.aside >= 1:
        return list(fused)
    aside = set(unnamed)  # (as ``aside_reasons`` says why, which ``candidates`` shows)
    if not intent.definition:
        aside.update(definitions)
    if not intent.instrument:
        aside.update(instruments)
    if not intent.contents:
        aside.update(contents)
    if not aside or not fused:
        return list(fused)
    scored = [(page, score * method.aside if page in aside else score) for page, score in fused]
    first_met = {page: i for i, (page, _) in enumerate(fused)}
    # A first page kept first whatever its score (``clear_winner``) stays first unless set aside.
    pinned = scored[:1] if fused[0][0] not in aside and len(fused) > 1 and fused[0][1] < fused[1][1] else []
    rest = sorted(scored[len(pinned):], key=lambda pair: (-pair[1], first_met[pair[0]]))
    return pinned + rest


def evidence_list(
    leading: Sequence[Hashable],
    passages: Mapping[Hashable, object],
    intent: Intent,
    tables: Sequence[Hashable] = (),
    figure_bonus: float = 0.0,
    off_period: Collection[Hashable] = (),
) -> list[Hashable]:
    """The leading pages ordered by the evidence each holds.

    First the pages that are the table the question asks for (``tables``: the primary
    statements it names, or implies by a metric when it names no other topic), in their own
    order: the statement is the evidence, whatever a sentence elsewhere says about the metric.
    Then the best passage's score (the weighted share of the question's concepts in a few
    consecutive lines), then for a fact question a line item beside a figure, then the share
    of concepts anywhere on the page, then the fused order. A page without a passage (routed
    to, but no word of the question on it) goes last. Pages ``off_period`` (whose tables cover
    only spans the question does not ask for: the quarter's when it asks for the full year,
    ``evidence.off_period``) go after the other pages with a passage."""
    position = {page: i for i, page in enumerate(leading)}
    table = {page: i for i, page in enumerate(tables)}

    def key(page):
        if page in table:
            return (0, table[page], 0.0, False, 0.0, position[page])
        passage = passages.get(page)
        if passage is None:
            return (2, 0, 0.0, False, 0.0, position[page])
        score = passage.score + (figure_bonus if passage.figure else 0.0)
        return (1, page in off_period, -round(score, 9), not (intent.fact and passage.figure),
                -round(passage.coverage, 9), position[page])

    return sorted(leading, key=key)


def asked_tables(candidates: Candidates, intent: Intent) -> list[Hashable]:
    """The statement pages the question asks for as such: those it names, or those holding
    the line items of a ratio it asks for (DPO, a quick ratio, a margin) when it names no
    topic of its own. A line item alone ("revenue") does not ask for the statement: the
    figure may sit in a segment table, a note or MD&A."""
    if intent.named or (intent.ratio and not intent.topical):
        return [page for page, _ in candidates.statements]
    return []


def rerank(
    fused: Sequence[tuple[Hashable, float]],
    passages: Mapping[Hashable, object] | None,
    intent: Intent,
    method: "Method",
    tables: Sequence[Hashable] = (),
    off_period: Collection[Hashable] = (),
) -> list[tuple[Hashable, float]]:
    """The fused list with its leading ``method.rerank_depth`` pages reordered by evidence:
    those pages' fused order and their ``evidence_list`` fused again by RRF, the evidence list
    weighted ``method.evidence_weight`` (below 1: it reorders close ranks, it does not overturn
    what the structure signals decided; the design notes measured that a plain reorder
    displaces the statement a question names). The pages below keep their order and scores,
    below the leading ones. ``passages`` maps page ids to ``evidence.Passage``; without it, or
    with the weight 0, the fused list is returned as it is. ``tables`` are the pages that are
    the table the question asks for (``asked_tables``): they lead the evidence list; pages
    ``off_period`` follow the others there (``evidence_list``)."""
    if not passages or not method.evidence_weight or len(fused) < 2:
        return list(fused)
    depth = method.rerank_depth
    leading = [page for page, _ in fused[:depth]]
    evidence = evidence_list(leading, passages, intent, tables, method.figure_bonus, off_period)
    again = rrf([leading, evidence], [1.0, method.evidence_weight], k=method.k)
    floor = fused[depth - 1][1] if len(fused) >= depth else 0.0
    # scores of the leading pages stay above those of the pages below them
    return [(page, floor + score) for page, score in again] + list(fused[depth:])


def off_period(asked: frozenset[str], shown: Mapping[Hashable, frozenset[str]], pages: Sequence[Hashable]) -> frozenset:
    """Of ``pages``, those whose tables cover only spans of time the question does not ask for
    (``shown``: the spans each page's tables and sentences say "ended" of, evidence.py): the
    quarter's table when it asks for the full year or the year to date. A page that names no
    span is not off. A quarter asked alone mostly names the filing ("in the Q3 release", "the
    10-Q for the quarter ended June 2"), whose every page is of that quarter and its year to
    date: then no page is.

    >>> shown = {"q": frozenset({"quarter"}), "y": frozenset({"year"}), "b": frozenset()}
    >>> sorted(off_period(frozenset({"year"}), shown, ["q", "y", "b", "unread"]))
    ['q']
    >>> off_period(frozenset({"quarter"}), shown, ["q", "y", "b"])
    frozenset()
    """
    if asked <= {"quarter"}:
        return frozenset()
    return frozenset(page for page in pages if shown.get(page) and not shown[page] & asked)
