"""A question's line items meet the standard concepts of inline XBRL: the vocabulary and the lookup.

An HTML filing tags each figure with its concept (``us-gaap:PaymentsToAcquirePropertyPlantAndEquipment``);
a question names the line item in words ("capital expenditures", "purchases of property and
equipment"). They meet through the concept's vocabulary:

- its own name split into words (``concept_words``): "payments to acquire property plant and
  equipment";
- the row labels beside which filers tag it, mined from the EDGAR development filings into
  evfind/data/concepts.tsv (scripts/mine_concepts.py: only labels the filings of two companies or
  more put beside the concept, so no row is keyed to one company);
- and, for each fact, the row label the filing itself prints beside it (the facts table's
  ``row_label``): the document's own wording.

``lookup(parsed, facts)`` takes a question as question.parse reads it and fact rows (the facts
table's rows: anything with the attributes of ``factstore.FactRow``) and returns the facts that
match the question's ideas, best first, and the pages that tag the asked concepts, best first: a
ranked list of its own, for the ranking to fuse (it is not fused here). It never computes a
figure: the values are as the pages show them.

Scoring (``phrase_score``): a phrase is its set of content words (text.tokens, text.normal;
the function words of captions left out); two phrases score the F1 of their word sets (1 when
they are the same), and a question's idea meets a concept by the best score of any of its
phrases against any of the concept's (an expansion's score weighed by EXPANSION_WEIGHT against
the question's own wording). A fact's score is the sum over the question's ideas that
meet it at MIN_SCORE or more, plus YEAR_BONUS where its period ends in a year the question
names and PLAIN_BONUS where it has no dimensions (the line item, not a member of it). Pure:
no SQLite, no printing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple

from ._data import rows
from .text import normal, tokens

MIN_SCORE = 0.6  # an idea meets a concept's phrase at an F1 of its words of at least this
YEAR_BONUS = 0.5  # the fact's period ends in a year the question names
PLAIN_BONUS = 0.25  # the fact has no dimensions: the line item itself
EXPANSION_WEIGHT = 0.8  # an idea's other phrases (the lexicon's expansions) against its own wording
# The function words of line-item captions ("Payments to Acquire ...", "Less: accumulated ...").
FUNCTION_WORDS = frozenset({"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "less", "of", "on",
                            "or", "per", "the", "to", "with"})

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_FOOTNOTES = re.compile(r"\(\d{1,2}\)|\([a-z]\)|\*+")
_PUNCTUATION = re.compile(r"[^a-z0-9&'\- ]+")


class FactHit(NamedTuple):
    """A fact that matches the question: its page, what it is, its value as shown, its score and
    the question's ideas it meets."""

    page_id: int
    page_number: int
    concept: str | None  # None for a printed figure no page tags (``tagged`` False)
    period: str  # "2025-01-01/2025-12-31" (a duration) or "2025-12-31" (an instant)
    value: str
    score: float
    ideas: tuple[str, ...]
    row_label: str | None = None
    dimensions: str | None = None
    unit: str | None = None
    # Where a hit's page prints the fact but another page tags it (``printedfacts.shown``): the
    # line of the hit's page that prints the figure, counted from 1 as its evidence lines are;
    # None for a fact tagged on the hit's own page. ``page_number`` is always the page tagging it.
    line: int | None = None
    # False for a figure the hit's page prints and no page tags (``pagefigures``): its concept,
    # dimensions and tagging page are None, its period and row label as the page prints them,
    # ``scale`` the scale the page states for its table ("in millions"; None where it states none).
    tagged: bool = True
    scale: str | None = None

    def to_dict(self) -> dict:
        """What a hit's JSON lists of it (``facts``): concept, period, value as shown, unit, the
        row label beside it and its dimensions (axis to member; null for the line item itself),
        the page that tags it (``tagged_on``: the hit's own page, or the page where the filing
        tags a figure the hit's page prints untagged) and the line of the hit's page printing
        it (``line``: null for a fact tagged on the hit's page); ``tagged`` (false for a figure
        the page prints and no page tags: concept, dimensions and tagged_on null) and its ``scale``."""
        import json

        return {"concept": self.concept, "period": self.period, "value": self.value, "unit": self.unit,
                "row_label": self.row_label, "dimensions": json.loads(self.dimensions) if self.dimensions else None,
                "tagged_on": self.page_number if self.tagged else None, "line": self.line, "tagged": self.tagged,
                "scale": self.scale}


class Lookup(NamedTuple):
    """The facts matching a question, best first, and the pages tagging the asked concepts,
    best first: (page id, page number, score)."""

    facts: tuple[FactHit, ...]
    pages: tuple[tuple[int, int, float], ...]

    def on_page(self, page_id: int) -> tuple[FactHit, ...]:
        """The matching facts of one page, best first: what a hit on that page lists."""
        return tuple(hit for hit in self.facts if hit.page_id == page_id)


# --------------------------------------------------------------------------------------------
# Vocabulary


@lru_cache(maxsize=16384)
def concept_words(concept: str) -> str:
    """A concept's name split into its words: "us-gaap:PaymentsToAcquirePropertyPlantAndEquipment"
    -> "payments to acquire property plant and equipment"."""
    return " ".join(word.lower() for word in _CAMEL.findall(concept.rpartition(":")[2]))


@lru_cache(maxsize=16384)
def label_key(label: str) -> str:
    """A row label as the vocabulary keeps it: "Net cash provided by (used in) operating
    activities(1)" -> "net cash provided by used in operating activities"."""
    text = _FOOTNOTES.sub(" ", label.lower().replace("\u2019", "'"))
    return " ".join(_PUNCTUATION.sub(" ", text).split()).strip(" -")


@lru_cache(maxsize=1)
def labels() -> dict[str, tuple[str, ...]]:
    """{concept: the row labels filers print beside it} from evfind/data/concepts.tsv."""
    table = {}
    for concept, joined in rows("concepts.tsv", 2):  # (the loader checks every row's source)
        table[concept] = tuple(label for label in joined.split("|") if label)
    return table


@lru_cache(maxsize=16384)
def vocabulary(concept: str) -> tuple[str, ...]:
    """Every phrase a concept is known by: its name's words, then its mined row labels."""
    return (concept_words(concept), *labels().get(concept, ()))


@lru_cache(maxsize=8192)
def words_of(phrase: str) -> frozenset[str]:
    """A phrase's content words, as its phrases are compared."""
    return frozenset(normal(word) for word in tokens(phrase) if word not in FUNCTION_WORDS)


def phrase_score(asked: str, known: str, weights: Mapping[str, float] | None = None) -> float:
    """How well a question's phrase names a concept's phrase: the F1 of their content words
    (1 when they are the same words), each word counted by its ``weights`` (1 where none is
    given: ``label_weights`` makes a word that many rows print, "total", count little, and a
    word on most of the filing's pages nothing); 0 when the words they share count nothing.

    >>> phrase_score("total backlog", "total"), phrase_score("total backlog", "total", {"total": 0.0})
    (0.6666666666666666, 0.0)
    """
    a, b = words_of(asked), words_of(known)
    shared = a & b
    if not shared:
        return 0.0
    if weights is None:
        return 2 * len(shared) / (len(a) + len(b))
    weight = lambda words: sum(weights.get(w, 1.0) for w in words)  # noqa: E731
    common = weight(shared)
    return 2 * common / (weight(a) + weight(b)) if common > 0 else 0.0


def label_weights(labels: Iterable[tuple[str, str | None]], common: frozenset[str] = frozenset()) -> dict[str, float]:
    """How much each word tells one of a revision's (concept, row label) pairs from another:
    its inverse document frequency over the pairs' vocabularies (the concept's phrases and the
    row label), ln((N + 1) / (n + 0.5)), at least 0.1; a word on most of the filing's pages
    (``common``) nothing. For ``phrase_score`` (``Index`` works them out as it is made)."""
    return Index(labels, common=common).weights


# --------------------------------------------------------------------------------------------
# The lookup


def _ideas(parsed) -> tuple[list[tuple[str, tuple[str, ...]]], frozenset[str]]:
    """(the line-item ideas: (label, phrases)), the years the question names)."""
    items, years = [], set()
    for idea in getattr(parsed, "ideas", ()):
        if idea.year:
            found = re.search(r"(?:19|20)\d\d", idea.label)
            if found:
                years.add(found.group(0))
        elif not idea.source:
            items.append((idea.label, tuple(idea.phrases)))
    return items, frozenset(years)


@lru_cache(maxsize=256)
def _by_word(items: tuple) -> dict[str, tuple[tuple[int, str, float], ...]]:
    """The question's phrases by their words: word -> (idea's place, phrase, its factor: 1 for
    the question's own wording, EXPANSION_WEIGHT for the others)."""
    found: dict[str, list] = {}
    for place, (_, asked) in enumerate(items):
        for number, phrase in enumerate(asked):
            for word in words_of(phrase):
                found.setdefault(word, []).append((place, phrase, 1.0 if number == 0 else EXPANSION_WEIGHT))
    return {word: tuple(entries) for word, entries in found.items()}


def _meets(items, phrases: Sequence[str], weights: Mapping[str, float] | None = None,
           ideas: Mapping[str, float] | None = None, scored: dict | None = None) -> tuple[float, tuple[str, ...]]:
    """The score of a concept (its phrases) for the question's line-item ideas, and the ideas
    it meets: the sum of its scores for the ideas it meets, or, given the ideas' weights
    (``ideas``: label -> rarity), the weighted share of the question's ideas it meets.
    ``scored``: the phrase scores worked out so far, (asked, known) -> score (one question's).
    Only the question's phrases that share a word with one of ``phrases`` are scored."""
    scored = {} if scored is None else scored
    by_word = _by_word(tuple((label, tuple(asked)) for label, asked in items))
    best = [0.0] * len(items)
    for known in phrases:
        seen = set()
        for word in words_of(known):
            for place, asked, factor in by_word.get(word, ()):
                if (place, asked) in seen:
                    continue
                seen.add((place, asked))
                value = scored.get((asked, known))
                if value is None:
                    value = scored[asked, known] = phrase_score(asked, known, weights)
                if value * factor > best[place]:
                    best[place] = value * factor
    total, met = 0.0, []
    for (label, _), score in zip(items, best):
        if score >= MIN_SCORE:
            total += score * (ideas.get(label, 0.0) if ideas is not None else 1.0)
            met.append(label)
    if ideas is not None:
        whole = sum(ideas.get(label, 0.0) for label, _ in items) or 1.0
        total /= whole
    return total, tuple(met)


def asked_concepts(parsed, concepts: Iterable[str]) -> list[tuple[str, float]]:
    """The concepts (of a revision) the question asks for by their vocabulary, best first: to
    fetch only their facts (the row labels a filing prints are read by ``lookup``)."""
    items, _ = _ideas(parsed)
    scored = [(concept, _meets(items, vocabulary(concept))[0]) for concept in concepts]
    return sorted(((c, s) for c, s in scored if s > 0), key=lambda item: (-item[1], item[0]))


def period_of(fact) -> str:
    if fact.instant:
        return fact.instant
    if fact.period_start or fact.period_end:
        return f"{fact.period_start or ''}/{fact.period_end or ''}"
    return ""


@lru_cache(maxsize=16384)
def _label_words(concept: str, row_label: str | None) -> frozenset[str]:
    words = set().union(*(words_of(p) for p in vocabulary(concept)))
    if row_label:
        words |= words_of(label_key(row_label))
    return frozenset(words)


class Index:
    """A revision's (concept, row label) pairs, their phrases (each concept's vocabulary, each
    row label) and those phrases by their words, made once per revision: a question's phrases
    are scored against every phrase at once through the words they share (``scores``), so that
    only the pairs that match are looked at. ``weights`` as ``phrase_score`` reads them."""

    def __init__(self, labels: Iterable[tuple[str, str | None]], weights: Mapping[str, float] | None = None,
                 common: frozenset[str] | None = None):
        """``common``: work the weights out of the pairs themselves (``label_weights``), the
        filing's ``common`` words weighing nothing."""
        self.labels = list(dict.fromkeys(labels))
        if common is not None:
            import math

            counts: dict[str, int] = {}
            for concept, row_label in self.labels:
                for word in _label_words(concept, row_label):
                    counts[word] = counts.get(word, 0) + 1
            total = len(self.labels)
            weights = {word: max(math.log((total + 1) / (n + 0.5)), 0.1) for word, n in counts.items()}
            weights.update(dict.fromkeys(common, 0.0))
        self.weights = weights
        self._ids: dict[str, int] = {}
        self.weight_of: list[float] = []  # each phrase's words' weight
        self.by_word: dict[str, list[int]] = {}  # word -> the phrases holding it
        self.of_concept: dict[str, tuple[int, ...]] = {}
        self.of_label: dict[str, int] = {}
        self.pairs_of: dict[int, list[int]] = {}  # phrase -> the pairs it is a phrase of
        for number, (concept, row_label) in enumerate(self.labels):
            if concept not in self.of_concept:
                self.of_concept[concept] = tuple(dict.fromkeys(self._phrase(p) for p in vocabulary(concept)))
            ids = list(self.of_concept[concept])
            if row_label:
                if row_label not in self.of_label:
                    self.of_label[row_label] = self._phrase(label_key(row_label))
                ids.append(self.of_label[row_label])
            for phrase in dict.fromkeys(ids):
                self.pairs_of.setdefault(phrase, []).append(number)

    def _weight(self, word: str) -> float:
        return 1.0 if self.weights is None else self.weights.get(word, 1.0)

    def _phrase(self, phrase: str) -> int:
        if phrase not in self._ids:
            self._ids[phrase] = len(self.weight_of)
            words = words_of(phrase)
            self.weight_of.append(sum(self._weight(w) for w in words))
            for word in words:
                self.by_word.setdefault(word, []).append(self._ids[phrase])
        return self._ids[phrase]

    def __bool__(self) -> bool:
        return bool(self.labels)

    def scores(self, items) -> list[dict[int, float]]:
        """For each of the question's line-item ideas, its best score against each phrase it
        shares a word with (phrase_score, an expansion's times EXPANSION_WEIGHT); where the
        phrase holds all of the idea, at least the share of the phrase the whole question says."""
        found: list[dict[int, float]] = [{} for _ in items]
        # How much of each phrase the question says, all its ideas together: a row label
        # ("Purchases of property and equipment") that the question says word for word in ideas
        # of its own ("purchases", "property", "equipment") meets each of them.
        said: dict[int, float] = {}
        for word in {w for _, asked in items for phrase in asked for w in words_of(phrase)}:
            weight = self._weight(word)
            if weight > 0:
                for known in self.by_word.get(word, ()):
                    said[known] = said.get(known, 0.0) + weight
        for place, (_, asked) in enumerate(items):
            best = found[place]
            for number, phrase in enumerate(asked):
                factor = 1.0 if number == 0 else EXPANSION_WEIGHT
                words = words_of(phrase)
                whole = sum(self._weight(w) for w in words)
                shared: dict[int, float] = {}
                for word in words:
                    weight = self._weight(word)
                    if weight > 0:
                        for known in self.by_word.get(word, ()):
                            shared[known] = shared.get(known, 0.0) + weight
                for known, common in shared.items():
                    value = factor * 2 * common / (whole + self.weight_of[known])
                    if common >= whole - 1e-9 and self.weight_of[known] > 0:  # all of the idea is in it
                        value = max(value, factor * min(said[known] / self.weight_of[known], 1.0))
                    if value > best.get(known, 0.0):
                        best[known] = value
        return found

    def meets(self, items, scores, phrases, ideas: Mapping[str, float] | None = None) -> tuple[float, tuple[str, ...]]:
        """What ``_meets`` gives for these phrases (by id), from ``scores``."""
        total, met = 0.0, []
        for (label, _), best in zip(items, scores):
            score = max((best.get(p, 0.0) for p in phrases), default=0.0)
            if score >= MIN_SCORE:
                total += score * (ideas.get(label, 0.0) if ideas is not None else 1.0)
                met.append(label)
        if ideas is not None:
            total /= sum(ideas.get(label, 0.0) for label, _ in items) or 1.0
        return total, tuple(met)

    def pair_scores(self, items, ideas: Mapping[str, float] | None = None) -> dict[tuple[str, str | None], tuple]:
        """The pairs that match the question, each with (score, ideas met): the better of its
        concept's vocabulary and its row label, as ``lookup`` scores a fact."""
        scores = self.scores(items)
        strong = {p for best in scores for p, v in best.items() if v >= MIN_SCORE}
        numbers = sorted({n for p in strong for n in self.pairs_of.get(p, ())})
        found = {}
        by_concept: dict[str, tuple] = {}
        for number in numbers:
            concept, row_label = self.labels[number]
            if concept not in by_concept:
                by_concept[concept] = self.meets(items, scores, self.of_concept[concept], ideas)
            score, met = by_concept[concept]
            if row_label:
                own, own_met = self.meets(items, scores, (self.of_label[row_label],), ideas)
                if own > score:
                    score, met = own, own_met
            if score > 0:
                found[concept, row_label] = (score, met)
        return found


def candidates(parsed, labels, weights: Mapping[str, float] | None = None, ideas: Mapping[str, float] | None = None,
               least: float = 0.0) -> list:
    """Of ``labels`` (a revision's distinct (concept, row label) pairs, or their ``Index``),
    those that match the question's line-item ideas (``lookup``'s scoring, ``weights`` and
    ``ideas`` as there, at ``least`` that score): the only ones whose facts need be read."""
    items, _ = _ideas(parsed)
    if not items:
        return []
    index = labels if isinstance(labels, Index) else Index(labels, weights)
    return [pair for pair, (score, _) in index.pair_scores(items, ideas).items() if score >= least]


def lookup(parsed, facts: Iterable, weights: Mapping[str, float] | None = None,
           ideas: Mapping[str, float] | None = None, least: float = 0.0, index: Index | None = None) -> Lookup:
    """The facts matching the question's line items, best first (score, then page, then the
    order given), and the pages tagging them, best first (the best fact's score, then the
    number of matching facts without dimensions, then the page). ``weights``: how much each
    word counts (``label_weights``; ``phrase_score``). ``ideas``: the question's ideas'
    weights (label -> rarity in the filing), to score a fact by the weighted share of the
    question it says, then times (1 + YEAR_BONUS) and (1 + PLAIN_BONUS) where those apply
    (without: the sum of its ideas' scores plus the bonuses). The pages list only the facts
    scoring ``least`` or more (``pages_of``); the facts are all those that match. ``index``:
    the revision's ``Index`` (made with ``weights``), else one of the facts' own pairs."""
    items, years = _ideas(parsed)
    facts = list(facts)
    if not items or not facts:
        return Lookup((), ())
    if index is None:
        index = Index(((fact.concept, fact.row_label) for fact in facts), weights)
    scored = index.pair_scores(items, ideas)
    hits = []
    for order, fact in enumerate(facts):
        score, met = scored.get((fact.concept, fact.row_label), (0.0, ()))
        if score <= 0:
            continue
        end = (fact.instant or fact.period_end or "")[:4]
        dated, plain = bool(years) and end in years, not fact.dimensions
        if ideas is not None:
            score *= (1 + YEAR_BONUS * dated) * (1 + PLAIN_BONUS * plain)
        else:
            score += YEAR_BONUS * dated + PLAIN_BONUS * plain
        hits.append((-score, fact.page_number, order, FactHit(
            fact.page_id, fact.page_number, fact.concept, period_of(fact), fact.value, round(score, 6), met,
            fact.row_label, fact.dimensions, getattr(fact, "unit", None),
        )))
    hits.sort(key=lambda item: item[:3])
    ranked = tuple(hit for *_, hit in hits)
    return Lookup(ranked, pages_of(ranked, least))


def asked_facts(parsed, index: Index, ideas: Mapping[str, float], fetch, least: float = 0.0) -> Lookup:
    """The facts of a revision that match the question and the pages tagging them (``lookup``):
    the question's line-item ideas weighed by ``ideas`` (label -> rarity; an idea not given,
    the filer's name, is left out), the revision's pairs by their ``Index``, and only the facts
    of the pairs that match read, by ``fetch`` ((concept, row label) pairs -> fact rows)."""
    if not index:
        return Lookup((), ())
    asked = parsed._replace(ideas=tuple(i for i in parsed.ideas if i.year or i.source or i.label in ideas))
    pairs = candidates(asked, index, index.weights, ideas)
    return lookup(asked, fetch(pairs) if pairs else [], index.weights, ideas, least=least, index=index)


def pages_of(facts: Sequence[FactHit], least: float = 0.0) -> tuple[tuple[int, int, float], ...]:
    """The pages tagging these facts (scoring ``least`` or more), best first: the best fact's
    score, then the number of matching facts without dimensions, then the page: (page id, page
    number, score)."""
    pages: dict[int, list] = {}
    for hit in facts:
        if hit.score < least:
            continue
        entry = pages.setdefault(hit.page_id, [hit.page_number, hit.score, 0])
        entry[1] = max(entry[1], hit.score)
        entry[2] += not hit.dimensions
    order = sorted(pages.items(), key=lambda item: (-item[1][1], -item[1][2], item[1][0]))
    return tuple((page_id, number, score) for page_id, (number, score, _) in order)
