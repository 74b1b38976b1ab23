"""Which of a page's inline-XBRL facts a hit lists: those that match the question, precisely.

The ranking reads the pages tagging the asked concepts (``concepts.lookup``: recall matters
there); a hit lists the facts of its own page that a reader would call the ones asked for
(precision matters here), each as the page shows it (concept, period, value). A fact is named
on its page by several phrases, all from the filing itself or the standard taxonomy:

- the row label printed beside it (``row_label``), where that label names the figure: a label of
  several of the page's concepts (printed beside them, as a table whose columns are measures
  prints "Bitcoin" beside its units, cost and fair value, or known of them, as "Diluted" of
  earnings per share and of the share count) names the row, not the figure, and is read only
  together with the concept's words;
- its concept's vocabulary (``concepts.vocabulary``: the name's words, the labels filers print);
- the members of its dimensions, split into words (``ibm:AllowanceForCreditLossesCurrentMember``
  -> "allowance for credit losses current"), together with the concept's words.

A phrase is scored against the question's line-item ideas (their own words, and their
expansions at ``concepts.EXPANSION_WEIGHT``) as the F1 of two shares, each word counted by its
rarity among the filing's (concept, row label) pairs (``rarity``): how much of the phrase the
question says, and how much of the best-covered idea the phrase says. Words are compared as
the index stems them (Porter), so "award" meets "awarded". A fact is listed when its best
phrase scores ``LEAST`` or more, then:

- a member of a line item (a fact with dimensions) only where its concept's own vocabulary
  meets the question (the row label of a member is often the member's name), and only where the
  question names that member or the page tags no matching fact of the concept without dimensions;
- where the question names years (and months, and a length: "three months", "Q2", "first
  half"), only the facts whose period fits, if any does.

Pure: plain fact rows in (``factstore.FactRow``), ``concepts.FactHit`` out; no SQLite.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import NamedTuple

from .concepts import EXPANSION_WEIGHT, FUNCTION_WORDS, FactHit, concept_words, label_key, period_of, vocabulary
from .porter import stem_token
from .text import tokens

LEAST = 0.5  # the F1 of said and covered shares a fact's best phrase needs to be listed (LOCO: benchmarks/facts.py)
NEAR = 1.0  # and that share of the best score of the page's facts (LOCO: benchmarks/facts.py)
NAMED = 0.6  # the share of a member's words (by their rarity on the page) a question names it by
SHOWN = 5  # the facts a hit lists at most, best first
TO_DATE = -1  # Asked.length of a year-to-date question: a duration longer than a quarter
_MEMBER = re.compile(r"(?:Member|Domain)$")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
# A period's length in months, as questions name it (calendar words, English and Chinese).
_LENGTHS = (
    (re.compile(r"\b(?:nine months|three quarters|9m)\b|九个月|前三季度", re.I), 9),
    (re.compile(r"\b(?:six months|first half|half[- ]year|h1)\b|六个月|上半年|半年", re.I), 6),
    (re.compile(r"\b(?:three months|quarter|q[1-4]|[1-4]q)\b|三个月|季度", re.I), 3),
)


_AT = re.compile(r"\b(?:at|as of)\s+(?:the\s+end\s+of\s+)?(?:(?:fiscal|fy)\s*)?(?:\d{4}|q[1-4]|[a-z]+\s+\d)|"
                 r"\b(?:at|as of) the end of\b|\byear[- ]end\b|截至|年末|年底|季末|期末", re.I)
# A balance at a period's end ("at the end of the third quarter", 季度末): an instant, though it names a quarter.
_END_OF = re.compile(r"\b(?:at|as of) the end of\b|\bend of (?:the )?(?:(?:first|second|third|fourth) )?(?:fiscal )?"
                     r"(?:year|quarter|period|q[1-4])\b|季度末|季末|年末|年底|期末", re.I)
# Year to date: as long as the quarters so far (6 months in a second quarter's report, 9 in a third's, 12 in a
# year's): no one length, but longer than a quarter (``TO_DATE``).
_TO_DATE = re.compile(r"\b(?:year[- ]to[- ]date|ytd)\b|年初至今", re.I)
_FISCAL = re.compile(r"\b(?:fiscal|fy)(?:\b|(?=\d))|财年|财政年度|会计年度", re.I)
_ENDED = re.compile(r"\b(?:ended|ending|for the (?:year|quarter|period|fiscal))\b|止|期间", re.I)


@lru_cache(maxsize=8192)
def stems_of(phrase: str) -> frozenset[str]:
    """A phrase's content words as the index stems them (function words of captions left out)."""
    return frozenset(stem_token(w) for w in tokens(phrase) if w not in FUNCTION_WORDS)


_GENERIC_MEMBER = frozenset({"segment", "member", "domain"}) | FUNCTION_WORDS


@lru_cache(maxsize=4096)
def member_stems(member: str) -> frozenset[str]:
    """A member's words as stems, and its initials where it has two words or more (a filer
    calls "Amazon Web Services" AWS): "amazon web services segment" -> aw, amazon, web, servic."""
    words = [w for w in tokens(member) if w not in _GENERIC_MEMBER]
    found = set(stems_of(member)) | {stem_token("".join(words))}  # "hashi corp": HashiCorp
    if len(words) >= 2:
        found.add(stem_token("".join(w[0] for w in words)))
    return frozenset(found)


# Axes whose members say how a figure is consolidated, not what it is (the SRT taxonomy's
# ConsolidationItemsAxis: OperatingSegmentsMember, CorporateNonSegmentMember, eliminations...).
_STRUCTURAL_AXES = frozenset({"srt:ConsolidationItemsAxis"})
# Axes whose members say when a figure became known, not what it is (ASC 855's subsequent events:
# us-gaap:SubsequentEventTypeAxis): a fact of these only is the line item itself, as its period says.
_WHEN_AXES = frozenset({"us-gaap:SubsequentEventTypeAxis"})


@lru_cache(maxsize=4096)
def members(dimensions: str | None) -> tuple[str, ...]:
    """The members of a fact's dimensions, each as words: '{"srt:ProductOrServiceAxis":
    "tsla:AutomotiveRegulatoryCreditsMember"}' -> ("automotive regulatory credits",); none of
    an axis of how the figure is consolidated (``_STRUCTURAL_AXES``)."""
    if not dimensions:
        return ()
    try:
        import json  # (not at import: a query's path loads no json)

        found = json.loads(dimensions)
    except ValueError:
        return ()
    named = []
    for axis, member in found.items() if isinstance(found, dict) else ():
        if isinstance(member, str) and ":" in member and axis not in _STRUCTURAL_AXES | _WHEN_AXES:
            prefix, _, local = member.partition(":")
            named.append(concept_words(prefix + ":" + _MEMBER.sub("", local)))
    return tuple(n for n in named if n)


@lru_cache(maxsize=4096)
def whole(dimensions: str | None) -> bool:
    """Is a fact of these dimensions the line item itself: none, or only axes of when
    (``_WHEN_AXES``)?"""
    if not dimensions:
        return True
    import json

    try:
        found = json.loads(dimensions)
    except ValueError:
        return False
    return isinstance(found, dict) and bool(found) and set(found) <= _WHEN_AXES


def rarity(labels: Iterable[tuple[str, str | None]]) -> dict[str, float]:
    """How much each stemmed word tells a filing's (concept, row label) pairs apart: its inverse
    document frequency over the pairs' phrases (the concept's vocabulary and the row label),
    ln((N + 1) / (n + 0.5)), at least 0.1."""
    counts: dict[str, int] = {}
    total = 0
    for concept, row_label in dict.fromkeys(labels):
        total += 1
        words = set().union(*(stems_of(p) for p in vocabulary(concept)))
        if row_label:
            words |= stems_of(label_key(row_label))
        for word in words:
            counts[word] = counts.get(word, 0) + 1
    return {word: max(math.log((total + 1) / (n + 0.5)), 0.1) for word, n in counts.items()}


class Asked(NamedTuple):
    """What a question asks of a page's facts: its line-item ideas (each its phrases' stems with
    their factor: 1 for its own wording, EXPANSION_WEIGHT for the others), every word they say
    (with the best factor), and the period it names."""

    ideas: tuple[tuple[tuple[frozenset[str], float], ...], ...]
    said: dict[str, float]
    years: frozenset[str]
    months: frozenset[int]
    length: int | None  # months: 3, 6, 9 or 12; 0 for a balance at a date; None when the question names none
    fiscal: bool = False  # the question names a fiscal year ("fiscal 2026", "FY2025", 财年)
    year_ends: tuple[str, ...] = ()  # the filing's fiscal years' ends (``factstore.annual_ends``), to read ``fiscal`` by


def asked(parsed, ideas: Mapping[str, float] | None = None) -> Asked:
    """The question (as question.parse reads it) as ``listed`` reads it. ``ideas``: the line-item
    ideas to keep, by label (the filer's name left out); all when None. Ideas that share a word
    of their own wording ("automotive regulatory", "regulatory credits") are one line item: a
    phrase covers the line item, not one of its words."""
    groups: list[tuple[set[str], list]] = []  # (own words, phrases) of each line item
    said, years, months = {}, set(), set()
    left_out = {w for idea in getattr(parsed, "ideas", ()) if not idea.year and not idea.source
                and ideas is not None and idea.label not in ideas for w in stems_of(idea.label)}
    for idea in getattr(parsed, "ideas", ()):
        if idea.year:
            years.update(re.findall(r"(?:19|20)\d\d", idea.label))
            months.update(_MONTHS.index(w) + 1 for w in idea.label.split() if w in _MONTHS)
            continue
        if idea.source or (ideas is not None and idea.label not in ideas):
            continue
        phrases = []
        for number, phrase in enumerate(idea.phrases):
            factor = 1.0 if number == 0 else EXPANSION_WEIGHT
            words = stems_of(phrase) - left_out  # the filer's name is no part of a line item
            if words:
                phrases.append((words, factor))
                for word in words:
                    said[word] = max(said.get(word, 0.0), factor)
        if not phrases:
            continue
        own = set(phrases[0][0]) if phrases[0][1] == 1.0 else set()
        joined = [g for g in groups if own and (g[0] <= own or own <= g[0])]
        for group in joined:
            groups.remove(group)
            own |= group[0]
        merged = [p for g in joined for p in g[1]]
        groups.append((own, merged + phrases[1:]))  # the line item's own words, and its expansions
    items = []
    for own, phrases in groups:
        whole = [(frozenset(own), 1.0)] if own else []
        items.append(tuple(dict.fromkeys(whole + phrases)))
    reading = getattr(parsed, "reading", None)
    text = " ".join(t for t in (getattr(parsed, "text", ""), getattr(reading, "english", "") if reading else "") if t)
    at_end = _END_OF.search(text) and not _ENDED.search(text)
    if at_end or _TO_DATE.search(text):
        length = 0 if at_end else TO_DATE
    else:
        length = next((months for pattern, months in _LENGTHS if pattern.search(text)), None)
    if length is None and not _TO_DATE.search(text) and re.search(r"\b(?:fiscal|fy|annual|full[- ]year)\b|财年|年度|全年", text, re.I):
        length = 12
    if length is None and not _TO_DATE.search(text) and _AT.search(text) and not _ENDED.search(text):
        length = 0  # a balance at a date: an instant
    fiscal = bool(_FISCAL.search(text))
    return Asked(tuple(items), said, frozenset(years), frozenset(months), length, fiscal)


def phrase_score(words: frozenset[str], question: Asked, rarity: Mapping[str, float]) -> float:
    """The F1 of how much of a phrase the question says and how much of the question's
    best-covered idea the phrase says, each word counted by its rarity (1 where unknown)."""
    return scored_phrase(words, question, rarity)[0]


def scored_phrase(words: frozenset[str], question: Asked, rarity: Mapping[str, float]) -> tuple[float, int]:
    """``phrase_score``, and the line item (its place in ``question.ideas``) the phrase covers best."""
    weight = lambda w: rarity.get(w, 1.0)  # noqa: E731
    whole = sum(weight(w) for w in words)
    if not whole:
        return 0.0, -1
    said = sum(weight(w) * question.said[w] for w in words if w in question.said) / whole
    if not said:
        return 0.0, -1
    covered, place = 0.0, -1
    for number, phrases in enumerate(question.ideas):
        for idea_words, factor in phrases:
            common = idea_words & words
            if common:
                share = factor * sum(weight(w) for w in common) / sum(weight(w) for w in idea_words)
                if share > covered:
                    covered, place = share, number
    return (2 * said * covered / (said + covered), place) if covered else (0.0, -1)


def _fits(fact, question: Asked) -> bool:
    """Does the fact's period fit the period the question names (its year, month, length)?"""
    end = fact.instant or fact.period_end or ""
    if question.years and year_of(end, question) not in question.years:
        return False
    if question.months and end[5:7].isdigit() and int(end[5:7]) not in question.months:
        return False
    if question.length == 0:
        return bool(fact.instant)
    if question.length and fact.instant:
        return False
    months = _months(fact) if question.length else None
    if months is None:
        return True
    return months > 4.5 if question.length == TO_DATE else abs(months - question.length) < 1.5


def year_of(end: str, question: Asked) -> str:
    """The year a period ending at ``end`` is of, as the question counts years: the calendar
    year; for a question naming a fiscal year of a filing whose fiscal years' ends are known
    (``question.year_ends``), the fiscal year, named, as filers name it, by the year it ends in:
    a date up to a fiscal year's end is of that year, a date after the last known end of the
    years after it (Walmart's fiscal years end on January 31: a dividend declared on
    2025-02-20 is of fiscal 2026)."""
    if not (question.fiscal and question.year_ends and len(end) >= 10):
        return end[:4]
    from datetime import date

    try:
        when = date.fromisoformat(end[:10])
        ends = sorted(date.fromisoformat(e) for e in question.year_ends)
    except ValueError:
        return end[:4]
    later = [e for e in ends if e >= when]
    if later:
        return str(later[0].year) if (later[0] - when).days < 380 else end[:4]
    last = ends[-1]
    return str(last.year + math.ceil((when - last).days / 365.25))


def _months(fact) -> float | None:
    """A duration fact's length in months (None for an instant or a date that does not read)."""
    if not (fact.period_start and fact.period_end):
        return None
    from datetime import date

    try:
        return (date.fromisoformat(fact.period_end) - date.fromisoformat(fact.period_start)).days / 30.44
    except ValueError:
        return None


def _member_weights(facts) -> dict[str, float]:
    """Each member word's rarity among the page's members: "segment" beside every segment of a
    table tells none apart."""
    named = {m for fact in facts for m in members(fact.dimensions)}
    counts: dict[str, int] = {}
    for member in named:
        for word in member_stems(member):
            counts[word] = counts.get(word, 0) + 1
    return {word: math.log((len(named) + 1) / (n + 0.5)) for word, n in counts.items()}


def names_member(question: Asked, member: str, weights: Mapping[str, float]) -> bool:
    """Does the question name this member: most of its words, counted by their rarity on the page?"""
    words, initials = stems_of(member), member_stems(member) - stems_of(member)  # its initials, its name as one word
    if any(question.said.get(w, 0.0) >= 1.0 for w in initials):
        return True
    whole = sum(weights.get(w, 1.0) for w in words)
    said = sum(weights.get(w, 1.0) for w in words if question.said.get(w, 0.0) >= 1.0)
    return whole > 0 and said >= NAMED * whole


def listed(question: Asked, facts: Iterable, rarity: Mapping[str, float], least: float = LEAST,
           near: float = NEAR, most: int = SHOWN) -> tuple[FactHit, ...]:
    """The facts of one page (fact rows, in document order) that match the question, best first
    (at most ``most``): see the module's docstring. Each FactHit's score is its best phrase's;
    a fact is listed at ``least`` or more and at ``near`` times the page's best or more."""
    facts = list(facts)
    if not question.ideas or not facts:
        return ()
    concepts_of: dict[str, set[str]] = {}  # each label (printed here, or a concept's known label) -> its concepts
    for fact in facts:
        for label in (*vocabulary(fact.concept)[1:], *((label_key(fact.row_label),) if fact.row_label else ())):
            concepts_of.setdefault(label, set()).add(fact.concept)
    shared = {label for label, named in concepts_of.items() if len(named) > 1}
    member_weights = _member_weights(facts)
    scored = []
    for order, fact in enumerate(facts):
        own = stems_of(concept_words(fact.concept))
        # a label of several of the page's concepts ("Diluted" beside earnings per share and the
        # share count, "Bitcoin" beside its cost and fair value) says the row, not the figure:
        # read it with the concept's words
        phrases = [own | stems_of(p) if p in shared else stems_of(p) for p in vocabulary(fact.concept)]
        if fact.row_label:
            label = label_key(fact.row_label)
            phrases.append(own | stems_of(label) if label in shared else stems_of(label))
        named = members(fact.dimensions)
        if named and not any(phrase_score(p, question, rarity) for p in phrases[:len(vocabulary(fact.concept))] if p):
            continue  # a member of a concept that says nothing asked ("AWS" beside its segment's assets)
        phrases += [own | member_stems(m) for m in named]
        score, item = max((scored_phrase(p, question, rarity) for p in phrases if p), default=(0.0, -1))
        if score < least:
            continue
        says_member = any(names_member(question, m, member_weights) for m in named)
        scored.append((fact, score, says_member, order, item))
    if not scored:
        return ()
    plain = {fact.concept for fact, *_ in scored if whole(fact.dimensions)}
    named_concepts = {fact.concept for fact, _, says, *_ in scored if says}
    kept = []
    for fact, score, says, order, item in scored:
        if not whole(fact.dimensions) and not says and (fact.concept in plain or fact.concept in named_concepts):
            continue  # a member the question does not name, of a line item the page tags
        if whole(fact.dimensions) and fact.concept in named_concepts:
            continue  # the whole, where the question names one of its members
        kept.append((fact, score, says, order, item))
    best = max((score for _, score, *_ in kept), default=0.0)
    kept = [entry for entry in kept if entry[1] >= near * best - 1e-9]
    if question.years:  # a figure of another year is not the one asked
        kept = [entry for entry in kept if _fits(entry[0], question._replace(months=frozenset(), length=None))]
    if question.months or question.length is not None:
        kept = [entry for entry in kept if _fits(entry[0], question)] or kept
    kept.sort(key=lambda e: (-round(e[1], 6), not e[2], not whole(e[0].dimensions), e[3]))
    return tuple(
        FactHit(fact.page_id, fact.page_number, fact.concept, period_of(fact), fact.value, round(score, 6), (),
                fact.row_label, fact.dimensions, getattr(fact, "unit", None))
        for fact, score, *_ in kept[:most]
    )


def shared_labels(labels: Iterable[tuple[str, str | None]]) -> frozenset[str]:
    """The row labels (as ``label_key`` keeps them) a filing prints beside several concepts ("Total")."""
    concepts_of: dict[str, set[str]] = {}
    for concept, row_label in labels:
        if row_label:
            concepts_of.setdefault(label_key(row_label), set()).add(concept)
    return frozenset(label for label, named in concepts_of.items() if len(named) > 1)


def asked_concepts(question: Asked, labels: Iterable[tuple[str, str | None]], rarity: Mapping[str, float],
                   least: float = LEAST, among: frozenset[str] | None = None,
                   shared: frozenset[str] | None = None) -> list[str]:
    """The concepts of a filing's (concept, row label) pairs whose vocabulary or a row label
    beside them says the question's line item (the best phrase's ``phrase_score``, at ``least``
    or more), best first: the only ones whose facts a page can list. A row label beside several
    concepts ("Total": ``shared``, the pairs' ``shared_labels`` when None) is read with the
    concept's words, as ``listed`` reads it. ``among``: only these concepts are scored (all when None)."""
    labels = [pair for pair in dict.fromkeys(labels) if among is None or pair[0] in among]
    shared = shared_labels(labels) if shared is None else shared
    said = question.said.keys()
    score = lambda words: 0.0 if said.isdisjoint(words) else phrase_score(words, question, rarity)  # noqa: E731
    best: dict[str, float] = {}
    for concept, row_label in labels:
        if concept not in best:
            best[concept] = max((score(stems_of(p)) for p in vocabulary(concept)), default=0.0)
        if row_label:
            label = label_key(row_label)
            words = stems_of(label) | (stems_of(concept_words(concept)) if label in shared else frozenset())
            best[concept] = max(best[concept], score(words))
    return sorted((c for c, score in best.items() if score >= least), key=lambda c: (-best[c], c))


def by_page(question: Asked, facts: Iterable, rarity: Mapping[str, float], least: float = LEAST,
            near: float = NEAR, most: int = SHOWN) -> dict[int, tuple[FactHit, ...]]:
    """``listed`` for each page of these fact rows: page id -> the facts its hit lists."""
    pages: dict[int, list] = {}
    for fact in facts:
        pages.setdefault(fact.page_id, []).append(fact)
    return {page: found for page, rows in pages.items() if (found := listed(question, rows, rarity, least, near, most))}
