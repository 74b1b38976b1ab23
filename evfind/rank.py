"""The ranking policy: pure functions over ranked lists of page ids and their bm25 scores.

``Finder`` runs the SQL (one bm25 pass over the pages, the statement and section routes) and
hands the rows to these functions; nothing here knows SQLite, text or the question parser. A
query's pages are ordered in two stages:

1. **Fusion** (``fuse``): the lexical list, the primary statements the question targets and
   the pages of the sections it points to, fused by Reciprocal Rank Fusion (Cormack, Clarke and
   Buettcher, "Reciprocal Rank Fusion outperforms Condorcet and individual Rank Learning
   Methods", SIGIR 2009): a page's fused score is the sum, over the lists it appears in, of
   ``weight / (k + rank)`` with ranks counted from 1. The weights follow the question's
   ``Intent``; a clear lexical winner keeps first place (the dominance rule).
2. **Evidence** (``rerank``): the leading pages of the fused list fused once more with the
   same pages ordered by what each one's best passage holds (``evidence_list``; the passages
   are measured from the pages' text by evidence.py), so that of the pages the structure and
   bm25 put near the top, the one where the question's concepts meet comes first.

``order`` runs both and is what ``Finder`` calls. Every function returns a new list and leaves
its inputs as they were.
"""

from collections.abc import Collection, Hashable, Mapping, Sequence
from typing import NamedTuple

RRF_K = 60
TOP_DEFAULT = 5  # pages an answer lists unless asked for more
TOP_MAX = 20  # the most pages an answer lists
CANDIDATES = 100  # pages the lexical and section lists each contribute to the fusion

Ranked = Sequence[tuple[Hashable, float | None]]  # (page id, bm25) best first; bm25 is negative


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
# What the policy reads


class Intent(NamedTuple):
    """The facts of a parsed question that the fusion reads (``Finder`` takes them from its
    ``ParsedQuestion``; nothing else of the question reaches the policy)."""

    named: bool = False  # the question names a primary statement ("use the cash flow statement")
    topical: bool = False  # its topics point to sections ("revenue by geography", "legal proceedings")
    fact: bool = False  # it asks for a figure or a fact, not where something is
    instrument: bool = False  # it is about an agreement, an indenture, the bylaws or their terms
    definition: bool = False  # it asks what a term means (a glossary, defined terms)
    contents: bool = False  # it asks for the table of contents or an index
    ratio: bool = False  # it asks for a ratio of statement line items (its evidence: the statements)


class Candidates(NamedTuple):
    """The ranked lists of one question, each as (page id, bm25) best first, bm25 as FTS5 gives
    it (negative: lower is better)."""

    lexical: Ranked = ()  # the pages the question's terms match
    statements: Ranked = ()  # primary statements targeted; bm25 None where no term matches
    sections: Ranked = ()  # matching pages of the targeted sections
    # The pages the question's terms and the lexicon's expansions of them match, when those are
    # ranked apart from the question's own words (Method.expansion_weight > 0); else empty and
    # the lexical list holds both.
    expanded: Ranked = ()


# ---------------------------------------------------------------------------------------------
# The route lists, from the rows their SQL returns


def statement_list(
    rows: Sequence[tuple[Hashable, str, int]], kinds: Sequence[str], bm25: Mapping[Hashable, float]
) -> list[tuple[Hashable, float | None]]:
    """The statement list: ``rows`` (page id, statement kind, page number) ordered by the kinds
    targeted (``kinds``, named first), then within a kind best bm25 first, the pages no term
    of the question matches last, then page order. Each page comes with its bm25 or None."""
    ranked = sorted(
        rows,
        key=lambda row: (kinds.index(row[1]), row[0] not in bm25, bm25.get(row[0], 0.0), row[2]),
    )
    return [(page, bm25.get(page)) for page, _, _ in ranked]


def section_list(
    pages: Sequence[Hashable], bm25: Mapping[Hashable, float], limit: int = CANDIDATES, *, in_order: bool = False
) -> list[tuple[Hashable, float]]:
    """The section list: the ``pages`` of the targeted sections that the question's terms
    match, best bm25 first (ties by page id), at most ``limit``; ``in_order``: in the order of
    the pages (their ids), the section's opening first (``Method.section_order``).

    >>> section_list([7, 8, 9, 12], {8: -3.0, 9: -7.5, 12: -1.0, 40: -9.0})
    [(9, -7.5), (8, -3.0), (12, -1.0)]
    >>> section_list([7, 8, 9, 12], {8: -3.0, 9: -7.5, 12: -1.0, 40: -9.0}, in_order=True)
    [(8, -3.0), (9, -7.5), (12, -1.0)]
    """
    if in_order:
        return [(page, bm25[page]) for page in sorted(p for p in pages if p in bm25)[:limit]]
    matching = sorted((bm25[page], page) for page in pages if page in bm25)
    return [(page, score) for score, page in matching[:limit]]


def named_by_title(asked: set[str], titles: Sequence[tuple[str, set[str]]]) -> tuple[str, ...]:
    """The numbers of the exhibits a question names by title: of ``titles`` ((number, the title's
    words), one an exhibit), those whose words the question's (``asked``) hold at least half
    of, and the most of the words that tell the title from the others' (any of its words, when
    the filing attaches one exhibit).

    >>> titles = [("99.1", {"364", "day", "credit"}), ("99.2", {"five", "year", "credit"})]
    >>> named_by_title({"event", "default", "five", "year", "credit", "agreement"}, titles)
    ('99.2',)
    >>> named_by_title({"credit", "agreement"}, titles)  # both alike: neither named
    ()
    """
    scores = {}
    for number, words in titles:
        others = set().union(*(w for n, w in titles if n != number))
        held = words & asked
        if words and 2 * len(held) >= len(words) and held - others:
            scores[number] = len(held - others)
    best = max(scores.values(), default=0)
    return tuple(number for number, score in scores.items() if score == best)


def named_first(named: list[tuple[Hashable, float]], others: list[tuple[Hashable, float]],
                limit: int = CANDIDATES) -> list[tuple[Hashable, float]]:
    """A section list led by the pages of what the question names by number (an exhibit),
    then the other targeted pages, each once, at most ``limit``.

    >>> named_first([(124, -9.0), (130, -2.0)], [(3, -8.0), (124, -9.0)])
    [(124, -9.0), (130, -2.0), (3, -8.0)]
    """
    seen = {page for page, _ in named}
    return (named + [(page, score) for page, score in others if page not in seen])[:limit]


def section_origins(method: Method) -> tuple[str, ...]:
    """How a page may belong to a targeted section for the section list: a heading or a
    statement title on it always; a section started on it unless the method routes by the
    headings in a page's first lines only; a section carried onto it from an earlier heading
    when the method reads carried sections."""
    origins = ("title", "statement") + (() if method.first_lines_only else ("started",))
    return origins + (("carried",) if method.carried else ())


# ---------------------------------------------------------------------------------------------
# Stage 1: fusion


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
# Between the stages: pages that restate rather than disclose

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
    aside = set(unnamed)
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
# Stage 2: evidence


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


def order(
    candidates: Candidates,
    intent: Intent,
    method: Method,
    passages: Mapping[Hashable, object] | None = None,
    contents: Collection[Hashable] = (),
) -> list[tuple[Hashable, float]]:
    """A question's pages, (page id, score) best first: ``fuse``, the pages of ``contents`` set
    aside (``set_aside``), then ``rerank``."""
    fused = set_aside(fuse(candidates, intent, method), (), (), intent, method, contents=contents)
    return rerank(fused, passages, intent, method, asked_tables(candidates, intent))


# ---------------------------------------------------------------------------------------------
# Several documents in one database
#
# Each document's pages are ranked by ``order`` as when the document is alone; the lists are then
# merged. The fused scores cannot tell documents apart: RRF gives every list's first page about
# the same score, however well or badly that page matches, so a merge by score is a merge by rank
# (measured: the same as round-robin). What tells documents apart is how well each fits the
# question as a whole, measured on 145 labelled questions of the development set asked of 22
# databases holding two or three filings each, mostly one company's years, where a hit is the
# right page of the right filing (hit@1 / hit@3 / hit@5 / MRR@10; the right filing first):
#
#     each question asked of its own filing alone      0.759 / 0.897 / 0.945 / 0.833  (1.000)
#     merged by fused score                            0.303 / 0.779 / 0.855 / 0.554  (0.414)
#     round-robin, best first page first               0.303 / 0.807 / 0.834 / 0.558  (0.414)
#     by fused score x document_fit                    0.621 / 0.779 / 0.862 / 0.714  (0.793)
#     round-robin, documents by coverage x years       0.586 / 0.814 / 0.834 / 0.709  (0.772)
#     round-robin, documents by document_fit           0.628 / 0.814 / 0.834 / 0.729  (0.821)
#
# (benchmarks/multidoc.py, whose output benchmarks/multidoc.txt also gives each set.) By set:
# round-robin by document_fit has the best MRR@10 on the 63 FinanceBench questions (0.756
# against 0.730 for score x fit) and the 56 form questions (0.658 against 0.636); on the 26
# seed-style ones the merge by score x fit does better (0.845 against 0.816). A fit, whichever
# merge, is what counts: without one, MRR@10 is 0.51 to 0.72.


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
