"""What a query returns: the answer records, their JSON, and the messages in both languages.

``Answer`` (the ranked pages for one question, or why there are none), ``Hit`` (one cited
page), ``Document`` (the revision read), ``Page`` (one stored page, for `evfind show`) and
``Plan`` (how a question was ranked, for --explain) are plain records: the CLI, Datasette, the
MCP server and batch mode all render them, and ``to_dict`` is their one JSON form. The messages
(no page found, candidates to check, what of the question was not read) are built here, in
English, or in Chinese by zh.py. Nothing here runs SQL or ranks.
"""

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from . import rank
from .errors import EvfindError, NoContentWordsError, NoPagesError
from .evidence import Passage
from .question import ParsedQuestion
from .text import language

NO_CONTENT_WORDS = (
    "the question has no searchable content words; ask with the words of the filing "
    "(e.g. capital expenditures, legal proceedings)"
)
NO_MATCH = "No relevant page found in this document"
NO_MATCH_SEVERAL = "No relevant page found in these documents"
NO_MATCH_HINT = "try other words: a line item, a section title, or a term as the filing spells it"
WEAK_MATCH = (
    "No page holds all of the question's words; these candidates hold some of them. Check them"
)
# The answer's first page is unlikely to hold the evidence: its confidence is under the doubt
# threshold (learned.DOUBT, chosen by leave-one-company-out: docs/ranking.md#confidence).
DOUBTFUL = "No page is likely to hold the evidence (the first has confidence {confidence}); these are the candidates. Check them"
# What of a question was not read, after the outcome in ``message`` (the table prints it above
# the results): Chinese text the glossary lacks, and the question's words no page holds.
NOT_READ = "Not read: {parts} (not in the glossary, so not searched)"
ABSENT = "Not in this filing: {parts}"
ABSENT_SEVERAL = "Not in these filings: {parts}"

# What a question can meet that is an outcome of the question rather than a fault of the
# request: ``Finder.answer`` answers with it (no results and the message) instead of raising.
REFUSALS = (NoContentWordsError, NoPagesError)


class Document(NamedTuple):
    """The revision a query read."""

    document_id: str
    document_sha256: str
    page_count: int
    source_name: str = ""
    revision_id: int = 0


class Hit(NamedTuple):
    """One cited page."""

    rank: int
    page_number: int
    document_id: str
    document_sha256: str
    score: float
    heading: str  # heading text seen on the page ("" when none)
    matched_terms: tuple[str, ...]  # question terms as they occur on the page
    note: str  # what on this page matched, built only from the page
    page_label: str | None = None  # printed folio, where the PDF has page labels
    section: str | None = None  # section label the page belongs to
    statement: str | None = None  # primary statement the page is, if any
    # The lines of the page where the question's concepts meet, best first: (line, text), line
    # counted from 1 in the page's text as `evfind show --format json` gives it (split on
    # newlines), text that line exactly.
    evidence: tuple[tuple[int, str], ...] = ()
    # Where the question's terms are on each evidence line, as the evidence counted them: the
    # (start, end) character offsets in that line's text of each stretch FTS5 marked there that
    # expresses a concept of the question, the most telling first (the rarest concept in the
    # filing), then along the line.
    evidence_marks: tuple[tuple[tuple[int, int], ...], ...] = ()
    # The calibrated probability that the page holds the evidence, 0 to 1 (the learned last
    # stage's: docs/ranking.md#confidence); None where the rules ranked (rank.RULES).
    confidence: float | None = None
    # For each evidence line, the column headings of its table that say which figure is which
    # period: (line, text) of the header lines above it, numbered as the evidence lines are.
    evidence_columns: tuple[tuple[tuple[int, str], ...], ...] = ()
    # The inline-XBRL facts on the page that match the question's line items, member and
    # period, best first (pagefacts.listed; concepts.FactHit: concept, period, value as shown,
    # unit, row label, dimensions); empty for a page without facts (every PDF's).
    facts: tuple = ()


def _document_dict(document: Document | None) -> dict | None:
    if document is None:
        return None
    return {
        "document_id": document.document_id,
        "document_sha256": document.document_sha256,
        "page_count": document.page_count,
    }


class Answer(NamedTuple):
    """The ranked pages for one question, or why there are none.

    ``to_dict`` is the one JSON object of an answer: the CLI's --format json, each line of
    --questions and Datasette's ``evfind_query()`` all print it."""

    question: str
    document: Document | None  # None when the store holds no document (or it could not be read)
    results: tuple[Hit, ...]
    message: str | None = None
    parsed: ParsedQuestion | None = None
    lang: str = "en"  # the language of the notes, the message and the rendered labels
    # Set when the question could not be asked (see ``refused``): its exit code is the CLI's.
    error: EvfindError | None = None
    # The question's ideas no page holds, as the question says them (``Finder.absent``).
    absent: tuple[str, ...] = ()
    # Why the results are not a plain answer: "no_match", "weak_match", "doubtful" (the first
    # page's confidence is under the doubt threshold) or None.
    outcome: str | None = None
    # The documents read, when several were asked as one (``document`` is then None).
    documents: tuple[Document, ...] = ()
    plan: "Plan | None" = None  # how the pages were ranked (Plan is defined below)

    @property
    def unread_note(self) -> str | None:
        """What of the question was not read, in the answer's language: the Chinese text the
        glossary lacks and the question's words no page holds (None when all was read)."""
        unknown = self.parsed.reading.unknown if self.parsed and self.parsed.reading else ()
        return unread_note(unknown, self.absent, self.lang, several=len(self.documents) > 1)

    @property
    def outcome_note(self) -> str | None:
        """The outcome part of the message: no page found, or only candidates to check."""
        confidence = self.results[0].confidence if self.results else None
        return outcome_note(self.outcome, self.lang, several=len(self.documents) > 1, confidence=confidence)

    def to_dict(self) -> dict:
        """The --format json object (its schema is documented in the README)."""
        several = {"documents": [_document_dict(d) for d in self.documents]} if self.documents else {}
        return {
            "question": self.question,
            "document": _document_dict(self.document),
            **several,
            "results": [
                {
                    "rank": hit.rank,
                    "page_number": hit.page_number,
                    "page_label": hit.page_label,
                    "document_id": hit.document_id,
                    "document_sha256": hit.document_sha256,
                    "score": round(hit.score, 6),
                    **({} if hit.confidence is None else {"confidence": round(hit.confidence, 3)}),
                    "heading": hit.heading,
                    "section": hit.section,
                    "statement": hit.statement,
                    "matched_terms": list(hit.matched_terms),
                    "note": hit.note,
                    "evidence": [
                        {"line": line, "text": text, "marks": [list(span) for span in sorted(marks)],
                         "columns": [{"line": number, "text": heading} for number, heading in columns]}
                        for (line, text), marks, columns in zip(
                            hit.evidence, _padded(hit.evidence_marks, len(hit.evidence)),
                            _padded(hit.evidence_columns, len(hit.evidence)))
                    ],
                    "facts": [fact.to_dict() for fact in hit.facts],
                }
                for hit in self.results
            ],
            "message": self.message,
        }


class Page(NamedTuple):
    """One stored physical page, for `evfind show`."""

    document: Document
    page_number: int
    page_label: str | None
    text: str
    raw_text: str
    heading: str
    section: str | None
    section_heading: str | None
    statement: str | None

    def to_dict(self) -> dict:
        data = self._asdict()
        data["document"] = self.document._asdict()
        return data


class NoFacts(tuple):
    """What ``concepts.asked_facts`` finds of a revision that tags no fact (a filing ingested
    from PDF): ``concepts.Lookup((), ())``, the same tuple, made without importing concepts.py."""

    facts = pages = ()

    def on_page(self, page_id: int) -> tuple:
        return ()


NO_FACTS = NoFacts(((), ()))
# The source kinds whose hits list the figures their pages print where no fact is tagged
# (``pagefigures``): the HTML filings (24/30 of those listed on the EDGAR questions' right first
# pages match: benchmarks/facts.txt). On FinanceBench's PDFs about half did, read by eye (a PDF's
# text often lacks a table's column headings above its rows, so no period is known and every
# year's figure is listed): off until a PDF reading is as precise. Kept here, where a PDF's query
# reads it without importing the facts modules.
PRINTED_FOR = frozenset({"html"})


class Plan(NamedTuple):
    """How a question is run: the SQL, each ranked list before fusion and the fused list.

    ``Finder`` ranks with the lists keyed by page id (the rows' ids); ``Finder.explain``
    returns the same plan keyed by physical page number, for --explain and for tests."""

    parsed: ParsedQuestion
    match: str  # the FTS5 MATCH expression run
    lexical_sql: str
    statement_sql: str | None
    section_sql: str | None
    lexical: tuple[tuple[int, float], ...]  # (page, bm25) best first
    statements: tuple[tuple[int, float | None], ...]  # primary statement pages the question targets
    sections: tuple[tuple[int, float], ...]  # pages of the sections it targets
    fused: tuple[tuple[int, float], ...]  # (page, score) best first, after the evidence rerank
    document: Document | None = None  # the revision read (set by Finder.explain)
    passages: Mapping[int, Passage] = MappingProxyType({})  # leading pages' best passages
    expanded: tuple[tuple[int, float], ...] = ()  # with the expansions, when ranked apart (bm25)
    # The leading pages' (text, heading) with the matches marked (FTS5 highlight): the evidence
    # lines and the notes are read from them. Keyed by page id.
    marks: Mapping[int, tuple[str, str]] = MappingProxyType({})
    # Pages the question names outright, first in the fused list: where a named Item or
    # exhibit begins (``rank.lead``).
    named: tuple[int, ...] = ()
    # Everything the ranking read (``rank.order``'s input), keyed by page id as the store's
    # rows are, also in the plan --explain gives (``Finder.signals``).
    signals: "rank.Signals | None" = None
    # The calibrated confidence of each page the learned stage scored (``rank.Ranking.confidence``).
    confidence: Mapping[int, float] = MappingProxyType({})
    # The inline-XBRL facts matching the question's line items and the pages tagging them
    # (concepts.Lookup; ``NO_FACTS`` for a filing without facts), keyed by page id.
    facts: object = None
    # The pages tagging the asked concepts as fused (page, score), best first: empty when the
    # method does not fuse them for this question (lists.facts_fused).
    facts_list: tuple[tuple[int, float], ...] = ()

    @property
    def candidates(self) -> rank.Candidates:
        """The ranked lists, as the ranking policy (rank.py) takes them."""
        return rank.Candidates(self.lexical, self.statements, self.sections, self.expanded, self.facts_list)

    @property
    def intent(self) -> rank.Intent:
        """The facts of the question that the ranking policy reads."""
        parsed = self.parsed
        return rank.intent_of(parsed.named, parsed.sections, parsed.fact, parsed.ratio, parsed.opening)

    def to_dict(self) -> dict:
        """The --explain --format json object (its schema is documented in the README)."""
        parsed, reading = self.parsed, self.parsed.reading

        def listed(ranked, name: str) -> list[dict]:
            return [{"page_number": page, name: None if s is None else round(s, 6)} for page, s in ranked]

        return {
            "question": parsed.text,
            "document": _document_dict(self.document),
            "reading": None
            if reading is None
            else {
                "english": reading.english,
                "glossary": [{"chinese": m.chinese, "english": list(m.english)} for m in reading.matches],
                "not_in_glossary": list(reading.unknown),
            },
            "content_words": list(parsed.words),
            "cues": list(parsed.cues),
            "statements": list(parsed.statements),
            "named_statements": list(parsed.named),
            "sections": list(parsed.sections),
            "named_items": [{"part": part, "item": number} for part, number in parsed.items],
            "named_exhibits": list(parsed.exhibits),
            "named_pages": list(self.named),
            "match": self.match,
            "sql": {"lexical": self.lexical_sql, "statements": self.statement_sql, "sections": self.section_sql},
            "lists": {
                "lexical": listed(self.lexical, "bm25"),
                "statements": listed(self.statements, "bm25"),
                "sections": listed(self.sections, "bm25"),
                "facts": listed(self.facts_list, "score"),
            },
            "facts": [{"page_number": fact.page_number, **fact.to_dict(), "score": round(fact.score, 6)}
                      for fact in (self.facts.facts[:EXPLAIN_FACTS] if self.facts is not None else ())],
            "fused": [{**item, "confidence": self.confidence[item["page_number"]]} if item["page_number"] in self.confidence
                      else item for item in listed(self.fused, "score")],
            "passages": [
                {
                    "page_number": page,
                    "score": round(self.passages[page].score, 6),
                    "coverage": round(self.passages[page].coverage, 6),
                    "figure": self.passages[page].figure,
                    "lines": [index + 1 for index, _ in self.passages[page].lines],
                }
                for page, _ in self.fused
                if page in self.passages and self.passages[page].lines
            ],
        }

EXPLAIN_FACTS = 20  # the matching facts --explain --format json lists at most


def refused(question: str, error: EvfindError, document: Document | None = None, lang: str | None = None) -> Answer:
    """The answer to a question that could not be asked: no results, and the error's message in
    the question's language (or ``lang``). The CLI prints it for --format json, batch mode for
    each question, and Datasette's evfind_query() for every error."""
    lang = language(question, lang)
    message = str(error)
    if lang == "zh":  # (only a Chinese answer imports zh.py)
        from .zh import error_message

        message = error_message(error, lang)
    return Answer(question, document, (), message, lang=lang, error=error)


def units(ideas) -> tuple[bool, ...]:
    """Whether each idea is one of the question's own (a word, or a lexicon cue with its
    expansions), rather than made of them: two words searched side by side as one phrase
    ("foobarium capital"), each of which belongs to another idea. What was not read is said of
    the words and cues; a pair the filing never writes is no word it never uses."""
    from collections import Counter

    labels = [set(idea.label.split()) for idea in ideas]
    counts = Counter(word for words in labels for word in words)  # ideas whose label has the word
    return tuple(
        len(words) < 2 or len(idea.phrases) > 1 or not all(counts[word] > 1 for word in words)
        for idea, words in zip(ideas, labels)
    )



def specific(absent: tuple[str, ...], parsed: ParsedQuestion) -> tuple[str, ...]:
    """The absent ideas worth naming when pages answer the question: all, unless the one absent
    is an ordinary English word that the question writes in lower case with nothing the lexicon
    reads it as, asked beside at least two other ideas the pages hold (FRAMED_BY). "How is
    revenue split between segments?" is answered by the segment table, which need not print
    "split"; "Was there a stock split?" names it, and so are "foobarium", a name, a code, a year
    or a lexicon concept the filing never uses. (Where the answer is weak or there is none,
    every absent idea is named.)"""
    import re

    ideas = {idea.label: idea for idea in parsed.ideas}
    held = [idea for idea, unit in zip(parsed.ideas, units(parsed.ideas)) if unit and not idea.year and idea.label not in absent]
    if len(held) < FRAMED_BY or len(absent) > 1:  # several words missing: a subject of its own ("zebra stripes")
        return absent
    capitalised = {w.lower() for w in re.findall(r"(?<![.?!]\s)(?<!^)\b[A-Z][a-z]+", parsed.text.strip())}
    english = _english()

    def ordinary(label: str) -> bool:
        idea = ideas.get(label)
        return (
            label.isalpha() and label in english and label not in capitalised
            and (idea is None or len(idea.phrases) == 1)
        )

    return tuple(label for label in absent if not ordinary(label))


FRAMED_BY = 2  # other ideas held beside which an ordinary word frames the question


class Words:
    """A word list as one string, a word a line: ``word in words`` finds its line. A question
    asks it of one or two labels, so no set is made of its 40,000 words (unzipping them and
    hashing each into a set cost a query some 20 ms)."""

    __slots__ = ("lines",)

    def __init__(self, lines: str):
        self.lines = lines  # "\nword\nword\n...\n"

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and "\n" not in word and f"\n{word}\n" in self.lines


@functools.lru_cache(maxsize=1)
def _english() -> Words:
    """The ordinary English words (data/english_words.txt.gz), read on the first use, from the
    user's cache (``_data.compiled``: one string, read back in well under a millisecond)."""
    from ._data import compiled

    return Words(compiled("english", (ENGLISH_WORDS,), _english_lines))


ENGLISH_WORDS = "english_words.txt.gz"


def _english_lines() -> str:
    """The words of data/english_words.txt.gz, each on its own line between newlines."""
    import gzip

    from ._data import DATA

    with gzip.open(DATA / ENGLISH_WORDS, "rt", encoding="utf-8") as handle:
        found = [line.strip() for line in handle if line.strip() and not line.startswith("#")]
    return "".join(f"\n{word}" for word in found) + "\n"

def outcome_note(outcome: str | None, lang: str, several: bool = False, confidence: float | None = None) -> str | None:
    """The outcome part of an answer's message (``Answer.outcome``) in ``lang``; for several
    documents, "in these documents"; ``confidence``: the first page's, for a doubtful answer."""
    if outcome == "no_match":
        if several:
            return _localise("no_match_several", f"{NO_MATCH_SEVERAL}; {NO_MATCH_HINT}", lang)
        return _localise("no_match", f"{NO_MATCH}; {NO_MATCH_HINT}", lang)
    if outcome == "weak_match":
        return _localise("weak_match", WEAK_MATCH, lang)
    if outcome == "doubtful":
        figure = f"{confidence or 0.0:.2f}"
        return _localise("doubtful", DOUBTFUL.format(confidence=figure), lang, confidence=figure)
    return None


def unread_note(unknown: tuple[str, ...], absent: tuple[str, ...], lang: str, several: bool = False) -> str | None:
    """What of a question was not read, in ``lang``: ``unknown`` Chinese text (not in the
    glossary), then the ideas ``absent`` from the filing (from every one of ``several``)."""
    comma = "、" if lang == "zh" else ", "
    parts = []
    if unknown:
        parts.append(_localise("not_read", NOT_READ.format(parts=comma.join(unknown)), lang, parts=comma.join(unknown)))
    if absent:
        key, english = ("absent_several", ABSENT_SEVERAL) if several else ("absent", ABSENT)
        parts.append(_localise(key, english.format(parts=comma.join(absent)), lang, parts=comma.join(absent)))
    return ("；" if lang == "zh" else ". ").join(parts) or None


def compose_message(answer: Answer) -> str | None:
    """An answer's ``message``: the outcome (no page found, candidates to check), then what of
    the question was not read; None when there is neither."""
    notes = [note for note in (answer.outcome_note, answer.unread_note) if note]
    return ("。" if answer.lang == "zh" else ". ").join(notes) or None


def _padded(items: tuple, size: int) -> tuple:
    return items + ((),) * (size - len(items))


def _localise(key: str | None, english: str, lang: str, **params) -> str:
    """A message in ``lang``: ``zh.localise`` for Chinese (only a Chinese answer imports zh.py),
    else the English."""
    if lang != "zh":
        return english
    from .zh import localise

    return localise(key, english, lang, **params)
