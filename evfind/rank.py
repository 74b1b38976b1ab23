"""The ranking policy: the pipeline that orders a question's pages, as pure functions.

``Finder`` gathers a question's signals (signals.py: the bm25 rows, the statement and section
rows, the Items and exhibits named, the pages the filing may set aside, what the candidates'
text says) and hands the record to ``order``, which is the whole ranking: nothing here knows
SQLite, text or the question parser, and what ``order`` returns is what a query lists. The
policy before the fusion (which terms the MATCH holds, what the lists are made of) is in
lists.py. A question's pages are ordered in three steps:

1. **Lists** (``lists.lists``): the lexical list, the primary statements the question targets
   and the pages of the sections it points to, a named exhibit's pages first.
2. **Fusion** (``fuse``): the lists fused by Reciprocal Rank Fusion (Cormack, Clarke and
   Buettcher, "Reciprocal Rank Fusion outperforms Condorcet and individual Rank Learning
   Methods", SIGIR 2009): a page's fused score is the sum, over the lists it appears in, of
   ``weight / (k + rank)`` with ranks counted from 1. The weights follow the question's
   ``Intent``. The fusion is the first stage, and a signal of the last.
3. **The learned last stage** (``learned_order``): the fusion's leading ``Method.pool`` pages
   (``pool``) scored by a model trained on the labelled development questions and chosen by
   leave-one-company-out (learned.py evaluates evfind/data/ranker.json) from every signal of
   each page (features.py: its place in each list, what its text holds of the question, what
   kind of page it is), each with a calibrated confidence; the pages past them keep the
   fusion's order below them; the pages the question names outright first (``lead``: a hard
   fact, not a score).

The hand-set rules that reordered pages after the fusion before the learned stage are kept,
measurable (``RULES``, ``Method.learned`` off), and each is a signal of the learned stage now:

- the dominance rule (``clear_winner``): a lexical winner whose bm25 is twice the next page's
  stayed first;
- set aside (``set_aside``): pages that restate rather than disclose (definitions, an attached
  instrument, contents, the exhibits a question naming one does not name) scored down, unless
  the question asks for them, or a leading page of definitions defines a term it names
  (``to_define``: the pages whose defined terms the finder reads);
- the evidence rerank (``rerank``): the leading pages fused once more with the same pages
  ordered by what each one's best passage holds (``evidence_list``; the statements asked for as
  such first, pages whose tables cover only spans the question does not ask for,
  ``off_period``, after the others).

``features.candidates`` gives the rules' ranking page by page, with every signal they read;
``features.vectors`` the learned stage's input. Every function returns a new value and leaves
its inputs as they were.
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
from .rules import (  # noqa: F401  (the rules after the fusion, re-exported: they were rank's)
    RRF_K,
    aside_reasons,
    asked_tables,
    clear_winner,
    evidence_list,
    off_period,
    rerank,
    rrf,
    set_aside,
)
from . import features, learned
from .signals import (  # noqa: F401
    Candidates, ConceptSignal, Filing, Intent, PageSignal, Ranked, Ranking, Reads, Signals, TermSignal,
)

TOP_DEFAULT = 5  # pages an answer lists unless asked for more
TOP_MAX = 20  # the most pages an answer lists


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
    # The learned last stage (issue 21): the fusion's leading ``pool`` pages (and the pages the
    # question names outright) scored by the trained model (evfind/data/ranker.json, evaluated
    # by learned.py) from every signal the rules above read (features.py), instead of the rules'
    # reorders (the clear winner, the set asides, the evidence rerank, the statements asked for,
    # the pages off-period): those are its signals now. False: the rules, kept measurable
    # (``RULES``). A page the question names outright still comes first (``lead``).
    learned: bool = True
    pool: int = 0  # how many of the fusion's leading pages are candidates; 0: the model's own (ranker.json "pool")
    # The pages tagging the concepts the question asks for (inline XBRL: ``Signals.facts``) as a
    # list of the fusion, weighted this much (0: not fused), for questions that ask for a
    # figure ("fact") or for all ("all"). Chosen by leave-one-company-out on the EDGAR
    # questions (benchmarks/facts.txt: 0.3 for all, on every company at once and without 12 of
    # the 13); a PDF has no facts, and its ranking is unchanged.
    facts_weight: float = 0.3
    facts_for: str = "all"

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
    """Every setting of ``GRID`` over ``base`` (RULES: the grid's parameters are the rules'), by name ("evidence_weight=0.5,
    rerank_depth=10, window=3"); DEFAULT's own setting is among them."""
    import itertools

    base = base or RULES
    keys = list(GRID)
    settings = {}
    for values in itertools.product(*(GRID[key] for key in keys)):
        name = ", ".join(f"{key}={value}" for key, value in zip(keys, values))
        settings[name] = base._replace(**dict(zip(keys, values)))
    return settings


def setting_name(method: "Method") -> str:
    """The name ``grid`` gives a method's setting."""
    return ", ".join(f"{key}={getattr(method, key)}" for key in GRID)


LEVERS = ("statements", "carried", "metrics", "meta", "pairs", "dominance", "evidence_weight", "section_order",
          "learned")
DEFAULT = Method()
# The hand-set rules after the fusion, as they ranked before the learned last stage (issue 21):
# measured beside it (benchmarks/train_ranker.py), never the default.
RULES = Method(learned=False)
# The last stages by name (`evfind query --method`, `evfind eval --method`).
METHODS = {"learned": DEFAULT, "rules": RULES}
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
    learned=False,
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


def fuse(candidates: Candidates, intent: Intent, method: Method) -> list[tuple[Hashable, float]]:
    """The fused list, (page id, RRF score) best first: the ranked lists fused with
    ``list_weights`` (lexical first, so it decides ties), then (by the rules) the
    ``clear_winner`` moved to the front with its own score."""
    ranked_lists = (candidates.lexical, candidates.statements, candidates.sections, candidates.expanded)
    lists = [[page for page, _ in ranked] for ranked in ranked_lists]
    weights = list(list_weights(intent, method))
    if candidates.facts:  # (made only when the method weighs them: lists.facts_fused)
        lists.append([page for page, _ in candidates.facts])
        weights.append(method.facts_weight)
    fused = rrf(lists, weights, k=method.k)
    if method.learned:  # the clear winner is one of the learned stage's signals, not a move
        return fused
    winner = clear_winner(candidates.lexical, intent, method)
    if winner is None or fused[0][0] == winner:
        return fused
    return [pair for pair in fused if pair[0] == winner] + [pair for pair in fused if pair[0] != winner]


# ---------------------------------------------------------------------------------------------
# What the question asks of the ranking

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


# ---------------------------------------------------------------------------------------------
# Pages named outright; a weak match


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
           signals.title_words, signals.items, signals.item_words, signals.filing, signals.intent, signals.facts, method)
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
        leading = {page for page, _ in fused[: depth(method)]}
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
    return tuple(page for page, _ in fused[: depth(method)] if page in definitions)


def depth(method: Method) -> int:
    """How many of the fusion's leading pages the last stage reads: the learned stage's
    candidates (``Method.pool``), or the rules' rerank depth."""
    return candidates_of(method) if method.learned else method.rerank_depth


def candidates_of(method: Method) -> int:
    """How many of the fusion's leading pages the learned stage scores: ``Method.pool``, or the
    shipped model's own depth (chosen with it by leave-one-company-out)."""
    return method.pool or learned.shipped().pool


def pool(signals: Signals, method: Method) -> tuple[Hashable, ...]:
    """The pages the learned last stage scores: the fusion's leading ``method.pool`` (no page
    moved, none set aside: those are its signals) and the pages the question names outright."""
    made, fused = _fused(signals, method)
    return tuple(dict.fromkeys([page for page, _ in fused[: candidates_of(method)]] + list(made.named)))


def to_read(signals: Signals, method: Method, top: int = TOP_DEFAULT) -> Reads:
    """The pages whose text the last stage reads, once the pages of definitions that define a
    term are known (``to_define``): the leading ``max(top, rerank_depth)`` pages after the set
    aside, and the pages named outright, for their best passages (the rerank reads the first
    ``rerank_depth``; the others are read for their evidence lines only: the ranking never
    depends on ``top``); and the first ``rerank_depth`` for the spans of time their tables
    cover, when the question asks for a span that can make a page off-period."""
    if method.learned:  # every candidate, for its signals; the shown pages are among them
        pages = pool(signals, method)
        return Reads(pages, () if signals.periods <= {"quarter"} else pages)
    staged = stages(signals, method)
    shown = max(top, method.rerank_depth)
    pages = tuple(dict.fromkeys([page for page, _ in staged.kept[:shown]] + list(staged.made.named)))
    periods = () if signals.periods <= {"quarter"} else tuple(page for page, _ in staged.kept[: method.rerank_depth])
    return Reads(pages, periods)


def order(signals: Signals, method: Method) -> Ranking:
    """A question's pages, best first. Learned (``Method.learned``, the default): the lists
    fused (``fuse``), the leading candidates (``pool``) scored by the trained model from their
    signals (``learned_order``), the pages past them in the fusion's order below, and the pages
    the question names outright first (``lead``). By the rules: the pages that restate set aside
    (``set_aside``), the leading ones reordered by their evidence (``rerank``: the statements
    asked for as such first, pages off-period after the others), then ``lead``. Reads nothing
    but ``signals``; pages whose passages it lacks rank as pages without a passage."""
    if method.learned:
        return learned_order(signals, method)
    staged = stages(signals, method)
    made, intent = staged.made, signals.intent
    leading = [page for page, _ in staged.kept[: method.rerank_depth]]
    off = off_period(signals.periods, signals.shown, leading)
    tables = asked_tables(made.candidates, intent)
    ordered = lead(rerank(staged.kept, signals.passages, intent, method, tables, off), made.named)
    return Ranking(made.candidates, tuple(ordered), made.named, made.exhibits)


def vectors(signals: Signals, method: Method) -> tuple[tuple[Hashable, ...], tuple[tuple[float, ...], ...]]:
    """The learned stage's candidates (``pool``) and each one's vector of signals
    (``features.vectors``, its numbers in the order of ``features.NAMES``): what the model scores."""
    staged = stages(signals, method)
    pages = pool(signals, method)
    return pages, features.vectors(signals, method, staged.made, staged.fused, staged.definitions, pages)


# The pages the learned stage puts after the other candidates whatever their score, as facts
# about the page rather than signals (features.py's flags of the same name): a page of contents
# (titles and page numbers) when the question does not ask for one, and a page of an exhibit
# other than the one the question names. Both are rare among the development questions' first
# pages (3 and 5 of 1,631), too rare for the model to learn; put after the others they cost
# nothing held out by company (benchmarks/train_ranker.txt, docs/ranking.md).
SET_APART = ("contents", "unnamed")
_APART = tuple(features.NAMES.index(name) for name in SET_APART)


def learned_order(signals: Signals, method: Method, model=None) -> Ranking:
    """The learned last stage: the candidates (``pool``) ordered by the model's score of their
    signals (``features.vectors``; ties keep the fusion's order), those ``SET_APART`` after the
    others, the fusion's other pages below them in its order, the pages named outright first;
    each candidate with its calibrated confidence. ``model``: a ``learned.Model`` (by default the
    shipped one, evfind/data/ranker.json)."""
    made, fused = _fused(signals, method)
    model = model or learned.shipped()
    pages, rows = vectors(signals, method)
    scores = model.scores(rows)
    span = max(scores, default=0.0) - min(scores, default=0.0) + 1.0
    # a page set apart scores below every other candidate (its order among its kind kept)
    apart = [any(row[c] for c in _APART) for row in rows]
    scores = [score - span if away else score for score, away in zip(scores, apart)]
    ranked = sorted(range(len(pages)), key=lambda i: (-scores[i], i))
    floor = min(scores, default=0.0) - 1.0
    chosen = set(pages)
    ordered = lead([(pages[i], round(scores[i], 6)) for i in ranked]
                   + [(page, round(floor + score, 6)) for page, score in fused if page not in chosen], made.named)
    place = {page: i for i, page in enumerate(pages)}
    scored = [place[page] for page, _ in ordered if page in place]
    confidence = model.confidence([scores[i] for i in scored], [pages[i] in made.named for i in scored],
                                  [rows[i] for i in scored], [apart[i] for i in scored])
    return Ranking(made.candidates, tuple(ordered), made.named, made.exhibits,
                   dict(zip((pages[i] for i in scored), confidence)))


def doubt_threshold() -> float:
    """The confidence under which an answer is doubtful: the shipped model's (ranker.json's
    ``doubt``, chosen by leave-one-company-out)."""
    from . import learned

    return learned.shipped().doubt


def doubtful(confidence: float | None) -> bool:
    """Is an answer whose first page has this confidence doubtful: under the shipped model's
    doubt threshold (``doubt_threshold``: no page is likely to hold the evidence)? None (the rules
    ranked, no confidence) is never doubtful."""
    if confidence is None:
        return False
    return confidence < doubt_threshold()


# ---------------------------------------------------------------------------------------------
# The rules' ranking page by page


class Candidate(NamedTuple):
    """One page of a question's ranking with every signal the rules read (``candidates``): for
    --explain and for tests; the learned stage reads the same as numbers (``vectors``).
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
    read (``Candidate``), as the rules read them (the learned stage's numbers: ``vectors``)."""
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
