"""The ranking policy: the pipeline that orders a question's pages, as pure functions.

``Finder`` gathers a question's signals (signals.py: the bm25 rows, the statement and section
rows, the Items and exhibits named, the pages the filing may set aside, what the leading pages'
text says) and hands the record to ``order``, which is the whole ranking: nothing here knows
SQLite, text or the question parser, and what ``order`` returns is what a query lists. The
policy before the fusion (which terms the MATCH holds, what the lists are made of) is in
lists.py. A question's pages are ordered in four steps:

1. **Lists** (``lists.lists``): the lexical list, the primary statements the question targets
   and the pages of the sections it points to, a named exhibit's pages first.
2. **Fusion** (``fuse``): the lists fused by Reciprocal Rank Fusion (Cormack, Clarke and
   Buettcher, "Reciprocal Rank Fusion outperforms Condorcet and individual Rank Learning
   Methods", SIGIR 2009): a page's fused score is the sum, over the lists it appears in, of
   ``weight / (k + rank)`` with ranks counted from 1. The weights follow the question's
   ``Intent``; a clear lexical winner keeps first place (the dominance rule).
3. **Set aside** (``set_aside``): pages that restate rather than disclose (definitions, an
   attached instrument, contents, the exhibits a question naming one does not name) scored
   down, unless the question asks for them, or a leading page of definitions defines a term it
   names (``to_define``: the pages whose defined terms the finder reads).
4. **Evidence** (``rerank``): the leading pages fused once more with the same pages ordered by
   what each one's best passage holds (``evidence_list``; the passages are measured from the
   pages' text by evidence.py, for the pages ``to_read`` names), pages whose tables cover only
   spans the question does not ask for (``off_period``) after the others; then the pages the
   question names outright first (``lead``).

``features.candidates`` gives the same ranking page by page, with every signal the rules read:
the inputs of a learned last stage. Every function returns a new value and leaves its inputs as
they were.
"""

from collections.abc import Collection, Hashable, Mapping, Sequence
from typing import NamedTuple

from .lists import (  # noqa: F401  (the list builders, re-exported: they were rank's)
    CANDIDATES,
    FEW_PAGES,
    Lists,
    lists,
    named_by_title,
    named_first,
    section_list,
    section_origins,
    statement_list,
)
from .signals import Candidates, Filing, Intent, Ranked, Ranking, Reads, Signals, TermSignal  # noqa: F401

RRF_K = 60
TOP_DEFAULT = 5  # pages an answer lists unless asked for more
TOP_MAX = 20  # the most pages an answer lists


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


class Method(NamedTuple):
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
    pairs: bool = True  # two question words side by side searched as a phrase too
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
    # The lexicon's expansions ranked apart (issue 10: expansions cannot outvote the question):
    # the lexical list matches the question's own words and pairs, and a list of its own
    # matches them with the expansions, weighted this much. 0: one list of both (expansions
    # then weigh as much as the question's words).
    expansion_weight: float = 0.0
    # The evidence rerank (``rerank``): the leading ``rerank_depth`` pages of the fused list
    # are fused once more with the same pages ordered by their best passage (evidence.py,
    # passages of ``window`` lines), that list weighted ``evidence_weight`` (0 switches it off).
    # Chosen by leave-one-company-out over rank.GRID (benchmarks/retrieval.txt): 0.5, depth 10,
    # on every development company at once and without most of them. Windows of 3 and 5 lines
    # score within a question of each other (the choice has flipped with small changes
    # elsewhere); the window follows the benchmark's choice on all companies at once.
    evidence_weight: float = 0.5
    rerank_depth: int = 10
    window: int = 3
    # How much a passage gains when one of the question's line items sits beside a figure
    # there (a table's row rather than a sentence about it), on its 0-1 score.
    figure_bonus: float = 0.0
    # Pages set aside (``set_aside``): a page of definitions, or a page of an attached instrument
    # when the question is not about one, keeps this share of its fused score. 1 switches it off.
    aside: float = 0.5
    # The order of the section list when the question does not ask for a figure: "page", the
    # targeted section's pages from its opening (a description is read from where its section
    # starts, and the lexical list already ranks by bm25); "bm25", by bm25 as for a figure.
    section_order: str = "page"

    def without(self, lever: str) -> "Method":
        if lever not in LEVERS:
            raise ValueError(f"unknown lever {lever!r}; levers: {', '.join(LEVERS)}")
        off = {"dominance": 0.0, "evidence_weight": 0.0, "section_order": "bm25"}
        changed = self._replace(**{lever: off.get(lever, False)})
        if lever == "carried":
            changed = changed._replace(bm25_weights=(*self.bm25_weights[:2], 0.0))
        return changed


# The parameters chosen by leave-one-company-out (`evfind eval --loco`, benchmarks/retrieval.py):
# each combination is a setting, and DEFAULT is the one chosen on every development company at
# once. Values are few and far apart on purpose: a fine grid over ~300 questions fits noise.
GRID = {
    "evidence_weight": (0.0, 0.5, 1.0),
    "rerank_depth": (10, 20),
    "window": (3, 5),
    "figure_bonus": (0.0, 0.25),
    "aside": (0.5, 1.0),
    "expansion_weight": (0.0, 0.5),
}


def grid(base: "Method | None" = None) -> dict[str, "Method"]:
    """Every setting of ``GRID`` over ``base`` (DEFAULT), by name ("evidence_weight=0.5,
    rerank_depth=10, window=3"); DEFAULT's own setting is among them."""
    import itertools

    base = base or DEFAULT
    keys = list(GRID)
    settings = {}
    for values in itertools.product(*(GRID[key] for key in keys)):
        name = ", ".join(f"{key}={value}" for key, value in zip(keys, values))
        settings[name] = base._replace(**dict(zip(keys, values)))
    return settings


def setting_name(method: "Method") -> str:
    """The name ``grid`` gives a method's setting."""
    return ", ".join(f"{key}={getattr(method, key)}" for key in GRID)


LEVERS = ("statements", "carried", "metrics", "meta", "pairs", "dominance", "evidence_weight", "section_order")
DEFAULT = Method()
# The design's method read plainly: bm25 over text and headings (headings weighted), the
# content words and the synonym table, routing by the headings in a page's first lines,
# RRF with k = 60 and the route list weighted below the lexical one.
PLAIN = Method(
    statements=False,
    carried=False,
    metrics=False,
    meta=False,
    pairs=False,
    statement_weight=0.8,
    topical_statement_weight=0.8,
    section_weight=0.8,
    k=RRF_K,
    bm25_weights=(1.0, 3.0, 0.0),
    first_lines_only=True,
    dominance=0.0,
)


# ---------------------------------------------------------------------------------------------
# Fusion


def list_weights(intent: Intent, method: Method) -> tuple[float, float, float, float]:
    """The RRF weights of the lexical, statement, section and expanded lists. A metric word that
    implies a statement ("revenue") yields to a topic the question also names ("revenue by
    geography"): the evidence is then a note or a table, so the statement list counts less."""
    statement = method.statement_weight
    if intent.topical and not intent.named:
        statement = method.topical_statement_weight
    return (method.lexical_weight, statement, method.section_weight, method.expansion_weight)


def clear_winner(lexical: Ranked, intent: Intent, method: Method) -> Hashable | None:
    """The page that stays first whatever the routes say, or None: the lexical list's first
    page when its bm25 is at least ``method.dominance`` times the second's and the question
    names no statement (routing reorders close lexical ranks; it does not overturn a clear
    winner, but a named statement does)."""
    if not method.dominance or intent.named or len(lexical) < 2:
        return None
    (first, best), (_, second) = lexical[0], lexical[1]
    return first if best <= method.dominance * second else None  # bm25 is negative


def fuse(candidates: Candidates, intent: Intent, method: Method) -> list[tuple[Hashable, float]]:
    """The fused list, (page id, RRF score) best first: the ranked lists fused with
    ``list_weights`` (lexical first, so it decides ties), then the ``clear_winner`` moved to
    the front with its own score."""
    ranked_lists = (candidates.lexical, candidates.statements, candidates.sections, candidates.expanded)
    lists = [[page for page, _ in ranked] for ranked in ranked_lists]
    fused = rrf(lists, list_weights(intent, method), k=method.k)
    winner = clear_winner(candidates.lexical, intent, method)
    if winner is None or fused[0][0] == winner:
        return fused
    return [pair for pair in fused if pair[0] == winner] + [pair for pair in fused if pair[0] != winner]


# ---------------------------------------------------------------------------------------------
# Set aside: pages that restate rather than disclose

# The section label of a page of contents (a table of contents, an index to the statements:
# titles and page numbers), which structure.py reads from the page's shape.
from .labels import CONTENTS  # noqa: E402 (evfind/labels.py: a label both ingest and the query name)
# The section labels of questions about an instrument's terms (data/routes.tsv: the capital-
# markets terms of underwriting agreements, indentures and credit agreements; Form 8-K Item 1.01
# and 5.03; the exhibit list): for them, the instrument's own pages are the evidence.
INSTRUMENT_SECTIONS = frozenset(
    {"material_agreements", "underwriting", "indenture", "redemption", "covenants", "events_of_default",
     "conversion", "charter_bylaws", "exhibits", "change_of_control"}
)


def intent_of(named: Collection[str], sections: Collection[str], fact: bool, ratio: bool = False,
              opening: bool = False) -> Intent:
    """The ``Intent`` of a question that names the statements ``named`` and whose topics point
    to ``sections`` (a ``ParsedQuestion``'s fields of those names): about an instrument when a
    section is one of ``INSTRUMENT_SECTIONS``; asking what a term means when one is
    "definitions"; asking for the contents when one is ``CONTENTS``.

    >>> intent_of((), ("indenture", "redemption"), fact=False)
    Intent(named=False, topical=True, fact=False, instrument=True, definition=False, contents=False, ratio=False, opening=False)
    """
    sections = set(sections)
    return Intent(
        named=bool(named), topical=bool(sections), fact=fact, instrument=bool(sections & INSTRUMENT_SECTIONS),
        definition="definitions" in sections, contents=CONTENTS in sections, ratio=ratio, opening=opening,
    )


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
    method: Method,
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


# ---------------------------------------------------------------------------------------------
# Evidence


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
    method: Method,
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


def lead(ranked: Sequence[tuple[Hashable, float]], pages: Sequence[Hashable]) -> list[tuple[Hashable, float]]:
    """The ranked list with ``pages`` first, in their order: the pages a question names
    outright (where a named exhibit begins), whose place no score should decide. Each scores
    above the list's best; the rest keep their order.

    >>> lead([(9, 0.3), (5, 0.2), (3, 0.1)], [5])
    [(5, 0.33), (9, 0.3), (3, 0.1)]
    >>> lead([(9, 0.3)], [124, 130])
    [(124, 0.36), (130, 0.33), (9, 0.3)]
    """
    if not pages:
        return list(ranked)
    top = ranked[0][1] if ranked else 0.0
    step = 0.1 * (abs(top) or 1.0)
    first = [(page, round(top + step * (len(pages) - i), 6)) for i, page in enumerate(pages)]
    named = set(pages)
    return first + [(page, score) for page, score in ranked if page not in named]


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


def covers(terms: Sequence[TermSignal], on_page: Sequence[bool]) -> bool:
    """Does a page answer to the question (else the answer is a weak match: "these candidates
    hold some of the question's words")? It holds (``on_page``, one flag per term; a word on
    most pages of the filing counts as on it) at least half of the question's own words, or a
    phrase the lexicon reads them as (capex: "purchases of property, plant and equipment").

    >>> words = [TermSignal("question"), TermSignal("question"), TermSignal("lexicon")]
    >>> covers(words, [True, False, False]), covers(words[:2] + [TermSignal("question")], [True, False, False])
    (True, False)
    >>> covers(words + [TermSignal("question")], [False, False, True, False])
    True
    """
    held = [term.common or on for term, on in zip(terms, on_page)]
    words = [i for i, term in enumerate(terms) if term.source not in ("lexicon", "pair")]
    if not words:
        return True
    if 2 * sum(held[i] for i in words) >= len(words):
        return True
    return any(held[i] for i, term in enumerate(terms) if term.source == "lexicon")


# ---------------------------------------------------------------------------------------------
# The pipeline


class Stages(NamedTuple):
    """What ``order`` computes before it reads the leading pages' evidence (``stages``)."""

    made: Lists
    fused: list  # the fusion, before anything is set aside
    definitions: frozenset  # the pages of definitions set aside (those that define a term asked about kept)
    kept: list  # the fusion with the pages that restate scored down


class _Last:
    """The last value of a stage, kept while the same record is asked again: a Finder asks
    ``to_define``, ``to_read`` and ``order`` of one question's record in turn, and the lists and
    their fusion (a millisecond on a long filing) are the same for all three. Records are
    immutable: the value is kept while the same objects (``is``) are asked, and only for a record
    of tuples and frozensets (one written by hand with lists or sets is computed every time)."""

    def __init__(self) -> None:
        self.key: tuple = ()
        self.value = None

    def get(self, key: tuple):
        last = self.key  # (one read: another thread may replace it meanwhile)
        if len(last) == len(key) and all(a is b for a, b in zip(last, key)):
            return self.value[1] if self.value[0] is last else None
        return None

    def put(self, key: tuple, value) -> None:
        if not any(isinstance(part, (list, set, dict)) for part in key):
            self.value, self.key = (key, value), key


_LAST_FUSED, _LAST_STAGES = _Last(), _Last()


def _fused(signals: Signals, method: Method) -> tuple[Lists, list]:
    """The lists of a record and their fusion: what nothing read from the pages' text changes."""
    key = (signals.lexical, signals.own, signals.kinds, signals.statements, signals.sections, signals.exhibits,
           signals.title_words, signals.items, signals.item_words, signals.filing, signals.intent, method)
    found = _LAST_FUSED.get(key)
    if found is None:
        made = lists(signals, method)
        found = (made, fuse(made.candidates, signals.intent, method))
        _LAST_FUSED.put(key, found)
    return found


def stages(signals: Signals, method: Method) -> Stages:
    """The lists of a record, their fusion and the fusion with the pages that restate set aside:
    the stages before the evidence (``order`` goes on from them; ``features.candidates`` reads
    them)."""
    made, fused = _fused(signals, method)
    key = (made, signals.defining)  # (the same lists, the same fusion: _fused keeps them together)
    found = _LAST_STAGES.get(key)
    if found is not None:
        return found
    filing, intent = signals.filing, signals.intent
    definitions = filing.definitions
    if definitions and not intent.definition and signals.defining:
        # A leading page of definitions that defines a term of several words the question
        # names ("Applicable Rate" means ...: the pricing grid it asks about) is the evidence,
        # not a restatement of it.
        leading = {page for page, _ in fused[: method.rerank_depth]}
        definitions = definitions - (signals.defining & leading)
    kept = set_aside(fused, definitions, filing.instruments, intent, method, made.unnamed, filing.contents)
    found = Stages(made, fused, definitions, kept)
    _LAST_STAGES.put(key, found)
    return found


def to_define(signals: Signals, method: Method) -> tuple[Hashable, ...]:
    """The pages whose defined terms the ranking reads (``Signals.defining``): the pages of
    definitions among the fusion's leading ``rerank_depth``, when the question does not ask what
    a term means (then no page of definitions is set aside)."""
    definitions = signals.filing.definitions
    if not definitions or signals.intent.definition:
        return ()
    _, fused = _fused(signals, method)
    return tuple(page for page, _ in fused[: method.rerank_depth] if page in definitions)


def to_read(signals: Signals, method: Method, top: int = TOP_DEFAULT) -> Reads:
    """The pages whose text the last stage reads, once the pages of definitions that define a
    term are known (``to_define``): the leading ``max(top, rerank_depth)`` pages after the set
    aside, and the pages named outright, for their best passages (the rerank reads the first
    ``rerank_depth``; the others are read for their evidence lines only: the ranking never
    depends on ``top``); and the first ``rerank_depth`` for the spans of time their tables
    cover, when the question asks for a span that can make a page off-period."""
    staged = stages(signals, method)
    shown = max(top, method.rerank_depth)
    pages = tuple(dict.fromkeys([page for page, _ in staged.kept[:shown]] + list(staged.made.named)))
    periods = () if signals.periods <= {"quarter"} else tuple(page for page, _ in staged.kept[: method.rerank_depth])
    return Reads(pages, periods)


def order(signals: Signals, method: Method) -> Ranking:
    """A question's pages, best first: the lists fused (``fuse``), the pages that restate set
    aside (``set_aside``), the leading ones reordered by their evidence (``rerank``: the
    statements asked for as such first, pages off-period after the others), and the pages the
    question names outright first (``lead``). Reads nothing but ``signals``; pages whose
    passages it lacks rank as pages without a passage."""
    staged = stages(signals, method)
    made, intent = staged.made, signals.intent
    leading = [page for page, _ in staged.kept[: method.rerank_depth]]
    off = off_period(signals.periods, signals.shown, leading)
    tables = asked_tables(made.candidates, intent)
    ordered = lead(rerank(staged.kept, signals.passages, intent, method, tables, off), made.named)
    return Ranking(made.candidates, tuple(ordered), made.named, made.exhibits)
