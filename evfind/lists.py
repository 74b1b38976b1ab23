"""A question's ranked lists, from the rows their SQL returns: the policy before the fusion.

Pure functions over plain values (signals.py's records): nothing here knows SQLite or text. Two
kinds:

- what the finder asks the store for: the terms of the MATCH (``lexical_terms``: the filing's
  common words and the filer's trading symbols left out), the question's own words apart from
  the lexicon's expansions (``own_terms``), the statements and sections targeted
  (``statement_kinds``, ``targets``, ``section_origins``);
- the lists made of the rows (``lists``, the first step of ``rank.order``): the lexical list,
  the statement list (``statement_list``), the section list (``section_list``) led by the
  exhibits the question names (``exhibits_named``, ``named_first``), and the pages it names
  outright (``item_openings``, an exhibit's first page).
"""

from collections.abc import Hashable, Mapping, Sequence
from typing import NamedTuple

from .signals import Candidates, Signals, TermSignal

CANDIDATES = 100  # pages the lexical and section lists each contribute to the fusion
# A filing this short (an 8-K, a short release) keeps its common words in the MATCH: "more than
# half the pages" is then two or three pages, a word such as "dividend" that the page asked for
# shares with the exhibit; left out, the page that holds the answer may match nothing at all.
# Scoring every page of so short a filing costs nothing.
FEW_PAGES = 10
# The words a question names an Item with, besides its title ("Part II, Item 1A of the 10-Q"),
# as text.normal reads them.
ITEM_WORDS = frozenset({"item", "part", "i", "ii", "iii", "iv", "form", "filing", "section"})


# ---------------------------------------------------------------------------------------------
# What to ask the store for


def lexical_terms(terms: Sequence[TermSignal], pages: int) -> tuple[tuple[int, ...], ...]:
    """The MATCH expressions of the lexical list, each as the indices of the ``terms`` it ORs,
    to be run in turn: the first that matches any page gives the list.

    The terms on more than half the pages (the company's name, the fiscal year) are left out:
    their bm25 weight is nil (FTS5 floors a negative IDF), and matching them would only make
    FTS5 score nearly every page; so are the filer's trading symbols the question writes ("How
    much capex does ATVI expect?"): they name the filer, as its name does, and would pull up
    the one page that prints them (the cover). A filing of fewer than ``FEW_PAGES`` pages keeps
    its common words. When only what was left out matches, every term is run.

    >>> lexical_terms([TermSignal(), TermSignal(common=True)], pages=40)
    ((0,), (0, 1))
    >>> lexical_terms([TermSignal(), TermSignal(common=True)], pages=3)
    ((0, 1),)
    >>> lexical_terms([TermSignal(symbol=True), TermSignal()], pages=3)
    ((1,), (0, 1))
    """
    every = tuple(range(len(terms)))
    few = pages < FEW_PAGES
    if few and not any(term.symbol for term in terms):
        return (every,)
    kept = tuple(i for i, term in enumerate(terms) if not term.symbol and (few or not term.common))
    if not kept or len(kept) == len(terms):
        return (every,)
    return (kept, every)


def own_terms(terms: Sequence[TermSignal], kept: Sequence[int], method) -> tuple[int, ...] | None:
    """The terms of the question's own words (its words and pairs, not the lexicon's expansions)
    among those ``kept`` in the MATCH, when the method ranks the expansions apart
    (``Method.expansion_weight``) and there are both; else None. Their rows make the lexical
    list, and the rows with the expansions the expanded list (``lists``)."""
    if not method.expansion_weight:
        return None
    own = tuple(i for i in kept if terms[i].source != "lexicon")
    return own if own and len(own) < len(kept) else None


def statement_kinds(statements: Sequence[str], method) -> tuple[str, ...]:
    """The primary statements whose pages make the statement list: those the question names or
    implies, named first, when the method recognises statements."""
    return tuple(statements) if method.statements else ()


def targets(sections: Sequence[str], routes: Sequence[str], items: Sequence[str], method) -> tuple[str, ...]:
    """The section labels whose pages make the section list: the Items the question names
    (``items``, read by the numbering of the filing's form), then the sections its topics point
    to; without statement recognition, statements are routed to by their titles like any other
    heading (``routes``: statements and sections)."""
    return tuple(dict.fromkeys([*items, *(sections if method.statements else routes)]))


def section_origins(method) -> tuple[str, ...]:
    """How a page may belong to a targeted section for the section list: a heading or a
    statement title on it always; a section started on it unless the method routes by the
    headings in a page's first lines only; a section carried onto it from an earlier heading
    when the method reads carried sections."""
    origins = ("title", "statement") + (() if method.first_lines_only else ("started",))
    return origins + (("carried",) if method.carried else ())


# ---------------------------------------------------------------------------------------------
# The lists, from the rows


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


def exhibits_named(signals: Signals) -> tuple[str, ...]:
    """The exhibits a question names: by number ("Exhibit 10.2"), or else by title ("the
    five-year credit agreement", "Costco's amended bylaws": ``named_by_title``), the words of
    the cover (the filer's name: "The Boeing Company Subsidiaries" names no exhibit) and, in a
    filing of ``FEW_PAGES`` or more, the words on most of its pages left out of the titles (a
    short filing's common words are its topic)."""
    if signals.exhibits:
        return signals.exhibits
    filing = signals.filing
    if not filing.exhibits:
        return ()
    aside = filing.cover | (filing.common if filing.pages >= FEW_PAGES else frozenset())
    return named_by_title(signals.title_words, [(number, words - aside) for number, words in filing.titles])


def item_openings(
    items: Sequence[tuple[Hashable, str, frozenset[str]]], asked: frozenset[str], common: frozenset[str]
) -> list[Hashable]:
    """The first page of each Item named (``items``: (page, label, heading words) in page
    order) when the question asks for the Item itself: the words it asks about (``asked``) but
    the filing's ``common`` words and the words of Items and Parts (``ITEM_WORDS``) are all
    words of the Item's heading ("Where is Item 7?", "Item 9, changes in and disagreements with
    accountants"). A question that asks for something within the Item ("the repurchase table in
    Part II, Item 2") is left to the ranking, the Item's pages among the targeted sections.

    >>> items = [(30, "item_7", frozenset({"item", "7", "management", "discussion"}))]
    >>> item_openings(items, frozenset({"item", "management", "discussion"}), frozenset())
    [30]
    >>> item_openings(items, frozenset({"repurchase", "table"}), frozenset())
    []
    """
    first: dict[str, tuple[Hashable, frozenset[str]]] = {}
    for page, label, words in items:
        first.setdefault(label, (page, words))
    wanted = asked - common - ITEM_WORDS
    return sorted(page for page, words in first.values() if wanted <= words)


def facts_fused(signals: Signals, method) -> bool:
    """Are the pages tagging the asked concepts (``Signals.facts``) a list of the fusion: when
    the method weighs them (``Method.facts_weight``), for every question or only for one that
    asks for a figure (``Method.facts_for``)."""
    if not signals.facts or not method.facts_weight:
        return False
    return method.facts_for == "all" or signals.intent.fact


class Lists(NamedTuple):
    """The ranked lists of a question and what the question names (``lists``)."""

    candidates: Candidates
    named: tuple[Hashable, ...] = ()  # the pages named outright: where a named Item or exhibit begins
    unnamed: tuple[Hashable, ...] = ()  # the pages of the exhibits other than those the question names
    exhibits: tuple[str, ...] = ()  # the exhibits it names (``exhibits_named``)
    exhibit_of: Mapping[Hashable, str] | None = None  # the pages of those exhibits, with the number of each


def lists(signals: Signals, method) -> Lists:
    """The ranked lists of a question from its rows. bm25 runs once: the statement and section
    lists order their pages by the lexical rows' scores (with the expansions, when those are
    ranked apart). A named exhibit's pages lead the section list when it is named by number,
    and join it when named by title; "Where does Exhibit 10.2 begin?" names its first page
    outright."""
    bm25 = dict(signals.lexical)
    if signals.own is None:
        lexical, expanded = signals.lexical[:CANDIDATES], ()
    else:
        lexical, expanded = (signals.own or signals.lexical)[:CANDIDATES], signals.lexical[:CANDIDATES]
    statements = statement_list(signals.statements, signals.kinds, bm25) if signals.kinds else []
    in_order = method.section_order == "page" and not signals.intent.fact
    sections = section_list(signals.sections, bm25, in_order=in_order)
    named = item_openings(signals.items, signals.item_words, signals.filing.common) if signals.items else []
    exhibits = exhibits_named(signals)
    unnamed: list = []
    exhibit_of = None
    if exhibits:
        pages = signals.filing.exhibits
        exhibit_of = {page: number for page, number, _ in pages if number in exhibits}
        of_named = section_list(list(exhibit_of), bm25)
        if signals.exhibits:
            sections = named_first(of_named, sections)
        else:
            sections = section_list(list(dict.fromkeys(page for page, _ in sections + of_named)), bm25)
        unnamed = [page for page, number, _ in pages if number not in exhibits]
        if signals.intent.opening:
            named += sorted(page for page, number, starts in pages if number in exhibits and starts)
    facts = signals.facts[:CANDIDATES] if facts_fused(signals, method) else ()
    candidates = Candidates(tuple(lexical), tuple(statements), tuple(sections), tuple(expanded), tuple(facts))
    return Lists(candidates, tuple(named), tuple(unnamed), exhibits, exhibit_of)
