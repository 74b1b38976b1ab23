"""A question's ranking page by page, with every signal the rules read: the inputs of a learned
last stage (issue 21: a model weighing these where rules reorder pages today).

``candidates(signals, method)`` runs ``rank.order``'s stages over a ``Signals`` record and
describes each page of the result: its place in each ranked list and its bm25, its place in
the fusion, why it was set aside, whether it defines a term the question names, is
off-period, is a statement asked for as such or is named outright, the exhibit named it
belongs to, and its best passage's score, coverage and figure. Pure, like rank.py; not on a
query's path (imported by what trains or explains).

    >>> from evfind.features import candidates
    >>> from evfind.rank import DEFAULT, Signals
    >>> [(c.page, c.rank, c.lexical_rank) for c in candidates(Signals(lexical=(("p9", -8.0), ("p4", -2.0))), DEFAULT)]
    [('p9', 1, 1), ('p4', 2, 2)]
"""

from collections.abc import Hashable
from typing import NamedTuple

from .rank import Method, stages, aside_reasons, asked_tables, off_period, order
from .signals import Signals


class Candidate(NamedTuple):
    """One page of a question's ranking with every signal the rules read (``candidates``).
    Ranks count from 1; None: not in that list (or not read)."""

    page: Hashable
    rank: int  # its place in the final order
    score: float
    fused_rank: int | None  # its place in the fusion (RRF, the clear winner first), before anything is set aside
    fused_score: float | None
    lexical_rank: int | None
    bm25: float | None
    statement_rank: int | None
    statement: str | None  # the kind of primary statement it is, when targeted
    section_rank: int | None
    expanded_rank: int | None
    aside: tuple[str, ...]  # why it was scored down: definitions, instrument, contents, unnamed (empty: kept)
    defining: bool  # a page of definitions that defines a term the question names (and so not set aside)
    off_period: bool  # its tables cover only spans of time the question does not ask for
    table: bool  # a statement the question asks for as such (``rank.asked_tables``)
    named: bool  # named outright: where a named Item or exhibit begins
    exhibit: str | None  # the number of the named exhibit it is a page of
    passage: float | None  # its best passage's score, 0 to 1 (None: not read)
    coverage: float | None  # the share of the question's concepts anywhere on it
    figure: bool  # one of the question's line items sits beside a figure in its passage
    periods: frozenset[str]  # the spans of time its tables cover (read only where they can count)


def candidates(signals: Signals, method: Method) -> tuple[Candidate, ...]:
    """Every page of a question's ranking in ``order``'s order, each with the signals the rules
    read (``Candidate``): the inputs a learned last stage weighs."""
    staged = stages(signals, method)
    made, intent = staged.made, signals.intent
    ranking = order(signals, method)
    lists_ = made.candidates

    def places(ranked) -> dict:
        found: dict = {}
        for place, (page, score) in enumerate(ranked, start=1):
            found.setdefault(page, (place, score))
        return found

    fused, lexical, statements = places(staged.fused), places(lists_.lexical), places(lists_.statements)
    sections, expanded = places(lists_.sections), places(lists_.expanded)
    kinds = {page: kind for page, kind, _ in signals.statements}
    leading = [page for page, _ in staged.kept[: method.rerank_depth]]
    off = off_period(signals.periods, signals.shown, leading)
    tables = set(asked_tables(lists_, intent))
    named = set(made.named)
    exhibit_of = made.exhibit_of or {}
    filing = signals.filing
    aside = aside_reasons(staged.definitions, filing.instruments, intent, made.unnamed, filing.contents)
    found = []
    for place, (page, score) in enumerate(ranking.fused, start=1):
        passage = signals.passages.get(page)
        found.append(Candidate(
            page=page, rank=place, score=score,
            fused_rank=fused.get(page, (None,))[0], fused_score=fused.get(page, (None, None))[1],
            lexical_rank=lexical.get(page, (None,))[0], bm25=lexical.get(page, (None, None))[1],
            statement_rank=statements.get(page, (None,))[0], statement=kinds.get(page),
            section_rank=sections.get(page, (None,))[0], expanded_rank=expanded.get(page, (None,))[0],
            aside=aside.get(page, ()) if method.aside < 1 else (),
            defining=page in signals.defining, off_period=page in off, table=page in tables, named=page in named,
            exhibit=exhibit_of.get(page),
            passage=None if passage is None else passage.score,
            coverage=None if passage is None else passage.coverage,
            figure=bool(passage is not None and passage.figure),
            periods=signals.shown.get(page, frozenset()),
        ))
    return tuple(found)
