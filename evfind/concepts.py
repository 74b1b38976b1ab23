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
from collections.abc import Iterable, Sequence
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
    concept: str
    period: str  # "2025-01-01/2025-12-31" (a duration) or "2025-12-31" (an instant)
    value: str
    score: float
    ideas: tuple[str, ...]
    row_label: str | None = None
    dimensions: str | None = None

    def to_dict(self) -> dict:
        """What a hit's JSON lists of it (``facts``): concept, period, value as shown."""
        return {"concept": self.concept, "period": self.period, "value": self.value}


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


def concept_words(concept: str) -> str:
    """A concept's name split into its words: "us-gaap:PaymentsToAcquirePropertyPlantAndEquipment"
    -> "payments to acquire property plant and equipment"."""
    return " ".join(word.lower() for word in _CAMEL.findall(concept.rpartition(":")[2]))


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


def vocabulary(concept: str) -> tuple[str, ...]:
    """Every phrase a concept is known by: its name's words, then its mined row labels."""
    return (concept_words(concept), *labels().get(concept, ()))


@lru_cache(maxsize=8192)
def words_of(phrase: str) -> frozenset[str]:
    """A phrase's content words, as its phrases are compared."""
    return frozenset(normal(word) for word in tokens(phrase) if word not in FUNCTION_WORDS)


def phrase_score(asked: str, known: str) -> float:
    """How well a question's phrase names a concept's phrase: the F1 of their content words
    (1 when they are the same words)."""
    a, b = words_of(asked), words_of(known)
    common = len(a & b)
    if not common:
        return 0.0
    return 2 * common / (len(a) + len(b))


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


def _meets(items, phrases: Sequence[str]) -> tuple[float, tuple[str, ...]]:
    """The score of a concept (its phrases) for the question's line-item ideas, and the ideas
    it meets."""
    total, met = 0.0, []
    for label, asked in items:
        best = max((phrase_score(a, k) * (1.0 if i == 0 else EXPANSION_WEIGHT)
                    for i, a in enumerate(asked) for k in phrases), default=0.0)
        if best >= MIN_SCORE:
            total += best
            met.append(label)
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


def lookup(parsed, facts: Iterable) -> Lookup:
    """The facts matching the question's line items, best first (score, then page, then the
    order given), and the pages tagging them, best first (the best fact's score, then the
    number of matching facts without dimensions, then the page)."""
    items, years = _ideas(parsed)
    if not items:
        return Lookup((), ())
    by_concept: dict[str, tuple[float, tuple[str, ...]]] = {}
    hits = []
    for order, fact in enumerate(facts):
        concept = fact.concept
        if concept not in by_concept:
            by_concept[concept] = _meets(items, vocabulary(concept))
        score, met = by_concept[concept]
        if fact.row_label:
            own, own_met = _meets(items, (label_key(fact.row_label),))
            if own > score:
                score, met = own, own_met
        if score <= 0:
            continue
        end = (fact.instant or fact.period_end or "")[:4]
        if years and end in years:
            score += YEAR_BONUS
        if not fact.dimensions:
            score += PLAIN_BONUS
        hits.append((-score, fact.page_number, order, FactHit(
            fact.page_id, fact.page_number, concept, period_of(fact), fact.value, round(score, 6), met,
            fact.row_label, fact.dimensions,
        )))
    hits.sort(key=lambda item: item[:3])
    ranked = tuple(hit for *_, hit in hits)
    pages: dict[int, list] = {}
    for hit in ranked:
        entry = pages.setdefault(hit.page_id, [hit.page_number, hit.score, 0])
        entry[2] += not hit.dimensions
    order = sorted(pages.items(), key=lambda item: (-item[1][1], -item[1][2], item[1][0]))
    return Lookup(ranked, tuple((page_id, number, score) for page_id, (number, score, _) in order))
