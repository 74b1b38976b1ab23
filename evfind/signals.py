"""What a question's ranking reads: plain records, gathered by the finder, ordered by rank.py.

``Finder`` gathers one ``Signals`` per question: SQL through store.py (the bm25 rows, the
statement and section rows, the Items named) and readings of the leading pages' text (their
best passages, the spans of time their tables cover, the terms their definitions define).
``rank.order(signals, method)`` orders it, and nothing else is read: the whole ranking can be
run, and tested, on a record written by hand, without a database.

- ``Filing``: what the ranking reads about the revision, read once per ``Finder``: its pages,
  its common words and trading symbols (stored at ingest), the pages it may set aside (of
  definitions, of attached instruments, of contents) and its exhibits.
- ``Signals``: one question's: its ``Intent``, its terms, the rows of its lists, the Items and
  exhibits it names, and what the leading pages' text says.
- ``Ranking``: what ``rank.order`` returns: the ranked lists fused, the pages in order, the
  pages named outright and the exhibits named.
- ``PageSignal``, ``ConceptSignal``: what the learned last stage reads besides, of each
  candidate page's text and place and of each of the question's concepts (features.py turns
  them into numbers).
(``rank.Candidate`` is one page's signals as the rules read them.)

Page ids are whatever the rows hold (the store's ``pages.id``; letters in tests). Nothing here
computes; every record is a NamedTuple of tuples, frozensets and read-only mappings.
"""

from collections.abc import Hashable, Mapping, Sequence
from typing import NamedTuple

Ranked = Sequence[tuple[Hashable, float | None]]  # (page id, bm25) best first; bm25 is negative


class _Nothing(Mapping):
    """The empty mapping of a record's defaults: read-only, and, unlike MappingProxyType({}),
    it can be pickled and copied as the rest of a record can."""

    def __getitem__(self, key):
        raise KeyError(key)

    def __iter__(self):
        return iter(())

    def __len__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "{}"


NOTHING: Mapping = _Nothing()


class Intent(NamedTuple):
    """The facts of a parsed question that the policy reads (``rank.intent_of`` makes them from
    a ``ParsedQuestion``; nothing else of the question's reading reaches the fusion)."""

    named: bool = False  # the question names a primary statement ("use the cash flow statement")
    topical: bool = False  # its topics point to sections ("revenue by geography", "legal proceedings")
    fact: bool = False  # it asks for a figure or a fact, not where something is
    instrument: bool = False  # it is about an agreement, an indenture, the bylaws or their terms
    definition: bool = False  # it asks what a term means (a glossary, defined terms)
    contents: bool = False  # it asks for the table of contents or an index
    ratio: bool = False  # it asks for a ratio of statement line items (its evidence: the statements)
    opening: bool = False  # it asks where something begins ("where does Exhibit 10.2 start?")


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
    # The pages tagging the concepts the question asks for (inline XBRL facts: ``Signals.facts``),
    # when the method fuses them (``Method.facts_weight``); else empty.
    facts: Ranked = ()


class TermSignal(NamedTuple):
    """One phrase of the question's lexical query (``ParsedQuestion.terms``, in order), as the
    choice of the MATCH and the weak-match test read it."""

    source: str = "question"  # question | year | pair | lexicon (question.Term.source)
    common: bool = False  # on more than half the filing's pages (each word a common word; a phrase counted)
    symbol: bool = False  # holds a trading symbol of the filer that the question writes in capitals


class PageSignal(NamedTuple):
    """What a learned last stage reads of one candidate page's text and place (the finder reads
    it for the pages ``rank.to_read`` names; ``features.vectors`` turns it into numbers)."""

    number: int = 0  # physical page number
    lines: int = 0  # lines in its text
    characters: int = 0  # characters in its text
    digits: int = 0  # of those, digits: a table of figures has many, prose few
    rows: int = 0  # lines where one of the question's line items sits beside a figure
    # the question's concepts (``Signals.concepts``, by index) on each line of its text that
    # holds any: (line index, concepts), in page order
    on_lines: tuple[tuple[int, frozenset[int]], ...] = ()
    heading: frozenset[int] = frozenset()  # the concepts in its headings
    printed: frozenset[int] = frozenset()  # the question's years and periods its text prints (matched or not)
    origin: str | None = None  # how it belongs to a targeted section: title, started, statement, carried (None: not)
    statement: str | None = None  # the primary statement it is, targeted or not
    # the lines (by index) that state a change and its cause (readings.explaining), read where
    # the question asks the reasons of a change (``Signals.reason``)
    explained: frozenset[int] = frozenset()


class ConceptSignal(NamedTuple):
    """One of the question's concepts as the evidence weighs it (finder: ``evidence.Concept``)."""

    weight: float = 1.0  # its rarity in the filing (BM25 IDF); 0 for a year or a statement named as the place
    pages: int = 0  # the filing's pages that hold it (0: none: the filing never says it)
    year: bool = False  # a year: it picks a column, not a line


class Filing(NamedTuple):
    """What the ranking reads about the revision asked, read once per ``Finder``."""

    pages: int = 0  # physical pages of the revision
    common: frozenset[str] = frozenset()  # words on more than half its pages (text.normal), stored at ingest
    tickers: tuple[str, ...] = ()  # its trading symbols, as its cover prints them (stored at ingest)
    definitions: frozenset = frozenset()  # pages of definitions: a glossary, an agreement's Article I
    instruments: frozenset = frozenset()  # pages of attached instruments: credit agreements, indentures, bylaws
    contents: frozenset = frozenset()  # pages of contents: a table of contents, an index to the statements
    exhibits: tuple[tuple[Hashable, str, bool], ...] = ()  # every exhibit page: (page, number, the exhibit starts there)
    titles: tuple[tuple[str, frozenset[str]], ...] = ()  # each exhibit's number and the words of its title
    cover: frozenset[str] = frozenset()  # the words of the cover page (the filer's name): no exhibit's title


class Signals(NamedTuple):
    """Everything the ranking of one question reads (``rank.order``)."""

    intent: Intent = Intent()
    filing: Filing = Filing()
    terms: tuple[TermSignal, ...] = ()  # the question's terms, as ``lists.lexical_terms`` chose its MATCH from
    # The lexical rows: every page the MATCH matches, (page, bm25) best first; and when the
    # expansions are ranked apart (``lists.own_terms``), those of the question's own words
    # (None: not asked; empty: asked, and nothing matched).
    lexical: Ranked = ()
    own: Ranked | None = None
    kinds: tuple[str, ...] = ()  # the primary statements targeted, named first (``lists.statement_kinds``)
    statements: tuple[tuple[Hashable, str, int], ...] = ()  # their pages: (page, kind, page number)
    sections: tuple[Hashable, ...] = ()  # the pages of the targeted sections (``lists.targets``)
    exhibits: tuple[str, ...] = ()  # the exhibits the question names by number ("Exhibit 10.2")
    title_words: frozenset[str] = frozenset()  # the question's words, read as exhibit titles are
    items: tuple[tuple[Hashable, str, frozenset[str]], ...] = ()  # the Items named: (page, label, heading words) in page order
    item_words: frozenset[str] = frozenset()  # the question's words but numbers (text.normal), read as Item headings are
    defining: frozenset = frozenset()  # of the pages read (``rank.to_define``), those defining a term of several words the question names
    periods: frozenset[str] = frozenset()  # the spans of time the question asks for (evidence.periods_asked)
    shown: Mapping[Hashable, frozenset[str]] = NOTHING  # of the pages read (``rank.to_read``), the spans each covers
    passages: Mapping[Hashable, object] = NOTHING  # of the pages read, each one's best passage (evidence.Passage)
    # What the learned last stage reads besides (empty in a record written for the rules):
    concepts: tuple[ConceptSignal, ...] = ()  # the question's concepts, in evidence.py's order
    pages: Mapping[Hashable, PageSignal] = NOTHING  # of the pages read, what their text and place say
    chinese: bool = False  # the question was asked in Chinese (read into English through the glossary)
    # The pages whose inline-XBRL facts match the question's line items (concepts.lookup), best
    # first: (page, the best matching fact's score); empty for a filing without facts.
    facts: Ranked = ()
    reason: bool = False  # the question asks the reasons of a change ("What drove ...", 为何: question.asks_reason)


class Ranking(NamedTuple):
    """A question's pages as ``rank.order`` ranks them."""

    candidates: Candidates  # the ranked lists that were fused
    fused: tuple[tuple[Hashable, float], ...]  # (page, score) best first: every page of the lists
    named: tuple[Hashable, ...] = ()  # the pages named outright, first: where a named Item or exhibit begins
    exhibits: tuple[str, ...] = ()  # the exhibits the question names, by number or by title
    # The calibrated probability that each page of the learned last stage's candidates holds
    # the evidence (``learned.confidence``); empty when the rules ranked.
    confidence: Mapping[Hashable, float] = NOTHING


class Reads(NamedTuple):
    """The pages whose text the last stage reads (``rank.to_read``)."""

    pages: tuple[Hashable, ...]  # their best passages (the shown pages' evidence lines too)
    periods: tuple[Hashable, ...] = ()  # the spans of time their tables cover
