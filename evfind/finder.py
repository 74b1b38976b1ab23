"""Ask a question of one filing: the Python API that the CLI, Datasette and the tests share.

    from evfind import Finder
    with Finder("3M_2018_10K.db") as finder:
        answer = finder.query("What is the FY2018 capital expenditure?", top=5)
        for hit in answer.results:
            print(hit.page_number, hit.note)

A query reads only: it parses the question, runs one full-text SQL statement (bm25) and the
route SQL (the primary statements and the sections the question targets), fuses the ranked
lists with Reciprocal Rank Fusion, lexical first, and describes each page from its own text.
Every page it returns exists in the store.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import asdict, dataclass, field, replace

from . import limits, packing, store, zh
from .errors import NoContentWordsError, NoPagesError, UsageError
from .question import ParsedQuestion, parse
from .rank import DEFAULT, Method, rrf
from .text import normal

TOP_DEFAULT = 5
TOP_MAX = 20
CANDIDATES = 100  # pages each ranked list contributes to the fusion
NO_MATCH = "No relevant page found in this document"
NO_MATCH_HINT = "try other words: a line item, a section title, or a term as the filing spells it"
WEAK_MATCH = (
    "No page holds all of the question's words; these candidates hold some of them. Check them"
)
_MARK = re.compile("\x02(.*?)\x03", re.S)


@dataclass(frozen=True)
class Document:
    """The revision a query read."""

    document_id: str
    document_sha256: str
    page_count: int
    source_name: str = ""
    revision_id: int = 0


@dataclass(frozen=True)
class Hit:
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


@dataclass(frozen=True)
class Answer:
    """The ranked pages for one question."""

    question: str
    document: Document
    results: tuple[Hit, ...]
    message: str | None = None
    parsed: ParsedQuestion | None = field(default=None, compare=False)
    lang: str = "en"  # the language of the notes, the message and the rendered labels

    def to_dict(self) -> dict:
        """The --format json object (its schema is documented in the README)."""
        return {
            "question": self.question,
            "document": {
                "document_id": self.document.document_id,
                "document_sha256": self.document.document_sha256,
                "page_count": self.document.page_count,
            },
            "results": [
                {
                    "rank": hit.rank,
                    "page_number": hit.page_number,
                    "page_label": hit.page_label,
                    "document_id": hit.document_id,
                    "document_sha256": hit.document_sha256,
                    "score": round(hit.score, 6),
                    "heading": hit.heading,
                    "section": hit.section,
                    "statement": hit.statement,
                    "matched_terms": list(hit.matched_terms),
                    "note": hit.note,
                }
                for hit in self.results
            ],
            "message": self.message,
        }


@dataclass(frozen=True)
class Page:
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
        data = asdict(self)
        data["document"] = asdict(self.document)
        return data


@dataclass(frozen=True)
class Plan:
    """How a question is run: for --explain and for tests of the ranking."""

    parsed: ParsedQuestion
    match: str
    lexical_sql: str
    statement_sql: str | None
    section_sql: str | None
    lexical: tuple[tuple[int, float], ...]  # (page_number, bm25) best first
    statements: tuple[tuple[int, float], ...]  # primary statement pages the question targets
    sections: tuple[tuple[int, float], ...]  # pages of the sections it targets
    fused: tuple[tuple[int, float], ...]


def _reading(function):
    """SQLite errors met while reading (a damaged file) become evfind errors, never a traceback.
    For Finder methods and for functions whose first argument is the database path."""

    @functools.wraps(function)
    def wrapper(first, *args, **kwargs):
        with store.reading(getattr(first, "path", first)):
            return function(first, *args, **kwargs)

    return wrapper


@dataclass
class _Ranking:
    """The SQL run for one question, each ranked list as (page id, bm25) and the fusion."""

    match: str
    lexical_sql: str
    statement_sql: str | None = None
    section_sql: str | None = None
    lexical: list = field(default_factory=list)
    statements: list = field(default_factory=list)
    sections: list = field(default_factory=list)
    fused: list = field(default_factory=list)


class Finder:
    """Read-only access to one evfind database, answering questions about one revision.

    ``document`` picks a document when the database holds several; ``sha`` picks a revision
    by a prefix of its SHA-256 (the newest revision is the default).
    """

    def __init__(
        self,
        path: str | os.PathLike,
        *,
        document: str | None = None,
        sha: str | None = None,
        method: Method = DEFAULT,
    ):
        self.path = path
        self.method = method
        self._common: frozenset[str] | None = None
        self._common_phrases: dict[str, bool] = {}
        self._pages = 0
        self.conn = store.connect_read(path)
        try:
            with store.reading(path):
                self.revision = store.select_revision(self.conn, document, sha)
        except Exception:
            self.conn.close()
            raise

    def __enter__(self) -> Finder:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()

    @property
    def document(self) -> Document:
        if self.revision is None:
            raise _no_pages(self.path)
        r = self.revision
        return Document(r.document_id, r.sha256, r.page_count, r.source_name, r.revision_id)

    def _require_pages(self) -> Document:
        document = self.document
        if store.count_pages(self.conn, self.revision.revision_id) == 0:
            raise _no_pages(self.path)
        return document

    # -- ranking ---------------------------------------------------------------------------

    def _ranked(self, parsed: ParsedQuestion) -> _Ranking:
        """Run the ranked lists' SQL and fuse them (lexical first, routing second). bm25 runs
        once: the statement and section lists order their pages by the same scores."""
        method = self.method
        revision = self.revision.revision_id
        lexical_sql = store.lexical_sql(method.bm25_weights)
        informative = self._without_common_words(parsed)
        params = {"match": informative.match_expression(), "revision": revision}
        scored = self.conn.execute(lexical_sql, params).fetchall()
        if not scored and informative is not parsed:  # only the common words match: use them
            params["match"] = parsed.match_expression()
            scored = self.conn.execute(lexical_sql, params).fetchall()
        ranking = _Ranking(params["match"], lexical_sql)
        score = dict(scored)
        ranking.lexical = scored[:CANDIDATES]
        if method.statements and parsed.statements:
            kinds = list(parsed.statements)
            ranking.statement_sql = store.statement_sql(kinds)
            pages = self.conn.execute(ranking.statement_sql, {**params, **store.label_params(kinds)}).fetchall()
            # In the order of the kinds targeted; each kind's pages best bm25 first, pages that
            # match no word of the question last.
            pages.sort(key=lambda p: (kinds.index(p[1]), p[0] not in score, score.get(p[0], 0.0), p[2]))
            ranking.statements = [(page_id, score.get(page_id)) for page_id, _, _ in pages]
        # Without statement recognition, statements are routed to by their titles, like any
        # other heading; the plain method routes by the headings in a page's first lines only.
        targets = list(parsed.sections if method.statements else parsed.routes)
        if targets:
            origins = ("title", "statement") + (() if method.first_lines_only else ("started",))
            origins += ("carried",) if method.carried else ()
            ranking.section_sql = store.section_sql(targets, origins)
            ids = self.conn.execute(ranking.section_sql, {**params, **store.label_params(targets)}).fetchall()
            matching = sorted((score[i], i) for (i,) in ids if i in score)
            ranking.sections = [(page_id, value) for value, page_id in matching[:CANDIDATES]]
        # A metric word that implies a statement ("revenue") yields to a topic the question
        # also names ("revenue by geography"): the evidence is then a note or a table.
        statement_weight = method.statement_weight
        if parsed.sections and not parsed.named:
            statement_weight = method.topical_statement_weight
        ranking.fused = rrf(
            [[row[0] for row in rows] for rows in (ranking.lexical, ranking.statements, ranking.sections)],
            [method.lexical_weight, statement_weight, method.section_weight],
            k=method.k,
        )
        # A clear lexical winner (bm25 at least `dominance` times the next page's) stays first
        # unless the question names a statement.
        lexical = ranking.lexical
        if (
            method.dominance
            and not parsed.named
            and len(lexical) > 1
            and lexical[0][1] <= method.dominance * lexical[1][1]  # bm25 is negative
            and ranking.fused[0][0] != lexical[0][0]
        ):
            winner = next(pair for pair in ranking.fused if pair[0] == lexical[0][0])
            ranking.fused.remove(winner)
            ranking.fused.insert(0, winner)
        return ranking

    @_reading
    def query(self, question: str, top: int = TOP_DEFAULT, lang: str | None = None) -> Answer:
        """The pages most likely to hold the evidence, best first (at most ``top``).

        ``lang`` (en or zh) is the language of the notes and the message; by default the
        question's (a question with Chinese characters is answered in Chinese).
        """
        if not isinstance(top, int) or not 1 <= top <= TOP_MAX:
            raise UsageError(f"top must be between 1 and {TOP_MAX}")
        lang = zh.language(question, lang)
        document = self._require_pages()
        parsed = self.parse(question)
        if parsed.empty:
            raise NoContentWordsError(
                "the question has no searchable content words; ask with the words of the filing "
                "(e.g. capital expenditures, legal proceedings)",
                key="no_content_words",
            )
        ranking = self._ranked(parsed)
        match = ranking.match
        chosen = ranking.fused[:top]
        ids = [page_id for page_id, _ in chosen]
        rows = store.page_rows(self.conn, ids)
        marked = store.matched_spans(self.conn, match, ids)
        hits = []
        for rank, (page_id, score) in enumerate(chosen, start=1):
            row = rows[page_id]
            terms = _spans(marked.get(page_id, ""))
            hits.append(
                Hit(
                    rank=rank,
                    page_number=row.page_number,
                    document_id=document.document_id,
                    document_sha256=document.document_sha256,
                    score=score,
                    heading=row.heading,
                    matched_terms=terms,
                    note=zh.note(row.heading, row.section_heading, terms, parsed.reading)
                    if lang == "zh"
                    else _note(row, terms),
                    page_label=row.page_label,
                    section=row.section,
                    statement=row.statement,
                )
            )
        message = None
        if not hits:
            message = zh.localise("no_match", f"{NO_MATCH}; {NO_MATCH_HINT}", lang)
        elif not self._covers(parsed, ids[0]):
            message = zh.localise("weak_match", WEAK_MATCH, lang)
        return Answer(question, document, tuple(hits), message, parsed, lang)

    def _without_common_words(self, parsed: ParsedQuestion) -> ParsedQuestion:
        """Leave out of the MATCH the terms on more than half the pages (the company's name,
        the fiscal year): their bm25 weight is nil (FTS5 floors a negative IDF), and matching
        them would only make FTS5 score nearly every page. A word is looked up in the stored
        common words; a phrase all of whose words are common is counted. Kept when nothing
        else would be left."""
        if self._common is None:
            self._common = store.common_words(self.conn, self.revision.revision_id)
            self._pages = store.count_pages(self.conn, self.revision.revision_id)
        kept = tuple(term for term in parsed.terms if not self._is_common(term))
        if not kept or len(kept) == len(parsed.terms):
            return parsed
        return replace(parsed, terms=kept)

    def _is_common(self, term) -> bool:
        words = [normal(w) for w in term.phrase.split()]
        if not all(w in self._common for w in words):
            return False
        if len(words) == 1:
            return True
        if term.phrase not in self._common_phrases:  # counted once per Finder
            count = store.matching_pages(self.conn, term.fts, self.revision.revision_id)
            self._common_phrases[term.phrase] = count * 2 > self._pages
        return self._common_phrases[term.phrase]

    def parse(self, question: str) -> ParsedQuestion:
        limits.check_question(question)
        return parse(question, metrics=self.method.metrics, meta=self.method.meta)

    def _covers(self, parsed: ParsedQuestion, page_id: int) -> bool:
        """Does the page answer to the question: at least half of its own content words, or a
        phrase the lexicon reads them as (capex: "purchases of property, plant and equipment")?"""
        words = [t for t in parsed.terms if t.source != "lexicon"]
        if not words:
            return True
        held = sum(store.page_matches(self.conn, term.fts, page_id) for term in words)
        if held * 2 >= len(words):
            return True
        expansions = " OR ".join(t.fts for t in parsed.terms if t.source == "lexicon")
        return bool(expansions) and store.page_matches(self.conn, expansions, page_id)

    @_reading
    def explain(self, question: str, top: int = TOP_DEFAULT) -> Plan:
        """The SQL and each ranked list before and after fusion, by page number."""
        self._require_pages()
        parsed = self.parse(question)
        if parsed.empty:
            raise NoContentWordsError("the question has no searchable content words", key="no_content_words")
        ranking = self._ranked(parsed)
        lists = (ranking.lexical, ranking.statements, ranking.sections)
        numbers = self._numbers([row[0] for rows in lists for row in rows])
        return Plan(
            parsed=parsed,
            match=ranking.match,
            lexical_sql=ranking.lexical_sql,
            statement_sql=ranking.statement_sql,
            section_sql=ranking.section_sql,
            lexical=tuple((numbers[i], s) for i, s in ranking.lexical),
            statements=tuple((numbers[i], s) for i, s in ranking.statements),
            sections=tuple((numbers[i], s) for i, s in ranking.sections),
            fused=tuple((numbers[i], s) for i, s in ranking.fused[:top]),
        )

    def _numbers(self, page_ids: list[int]) -> dict[int, int]:
        return {pid: row.page_number for pid, row in store.page_rows(self.conn, list(set(page_ids))).items()}

    # -- inspection ------------------------------------------------------------------------

    @_reading
    def page(self, page_number: int) -> Page:
        """The stored text of one physical page of the revision."""
        document = self._require_pages()
        row = store.page_by_number(self.conn, self.revision.revision_id, page_number)
        if row is None:
            raise UsageError(
                f"page {page_number} does not exist: {document.document_id} has pages 1 to {document.page_count}"
            )
        _, number, label, text, raw, heading, section, section_heading, statement = row
        return Page(document, number, label, text, packing.unpack_text(raw, text), heading, section, section_heading, statement)


def _no_pages(path) -> NoPagesError:
    return NoPagesError(
        f"no pages are loaded in {path}; run `evfind ingest REPORT.pdf --db {path}`", key="no_pages", path=path
    )


def _spans(marked: str, limit: int = 6) -> tuple[str, ...]:
    """The distinct matched stretches of a page's text: the longest (most specific) first, a
    word dropped where a longer stretch already holds it ("cash" beside "cash flows")."""
    found: dict[str, int] = {}
    forms: set[str] = set()
    for span in _MARK.findall(marked):
        span = " ".join(span.split()).lower()
        form = " ".join(normal(w) for w in span.split())  # "cash flows" and "cash flow": one
        if span and form not in forms:
            forms.add(form)
            found[span] = len(found)
    chosen: list[str] = []
    for span in sorted(found, key=lambda s: (-len(s.split()), found[s])):
        if not any(f" {span} " in f" {longer} " for longer in chosen):
            chosen.append(span)
        if len(chosen) >= limit:
            break
    return tuple(chosen)


def _note(row: store.PageRow, terms: tuple[str, ...]) -> str:
    """What the page shows: its heading (or the section it continues) and the matched terms."""
    parts = []
    if row.heading:
        parts.append(row.heading)
    elif row.section_heading:
        parts.append(f"continues: {row.section_heading}")
    if terms:
        parts.append("matched: " + ", ".join(terms))
    return "; ".join(parts)


@_reading
def describe(path: str | os.PathLike) -> dict:
    """What `evfind info` shows: every revision with its pages, blank pages and structure."""
    from .structure import STATEMENTS

    conn = store.connect_read(path)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        all_revisions = store.revisions(conn)
        newest = {}
        for r in all_revisions:
            newest[r.document_id] = r.revision_id
        result = []
        for r in all_revisions:
            by_label: dict[str, dict] = {}
            exhibits: dict[str, dict] = {}
            kinds: dict[tuple[int, str], str] = {}
            for page_number, label, heading, origin in store.page_sections(conn, r.revision_id):
                if label in STATEMENTS and origin != "statement":
                    continue  # a statement's title on a page that is not the statement
                if label == "exhibit":
                    _exhibit_page(exhibits, heading, page_number)
                    continue
                if label.startswith("exhibit_"):
                    kinds[(page_number, heading)] = label[len("exhibit_"):]
                    continue
                entry = by_label.setdefault(label, {"label": label, "heading": "", "pages": []})
                entry["pages"].append(page_number)
                if origin != "carried" and not entry["heading"]:
                    entry["heading"] = heading
            for entry in by_label.values():
                entry["pages"] = sorted(set(entry["pages"]))
            ordered = sorted(by_label.values(), key=lambda e: e["pages"][0])
            for entry in exhibits.values():
                entry["kind"] = kinds.get((entry["first_page"], entry["heading"]), "other")
            result.append(
                {
                    "document_id": r.document_id,
                    "revision_id": r.revision_id,
                    "sha256": r.sha256,
                    "source_name": r.source_name,
                    "source_kind": r.source_kind,
                    "page_count": r.page_count,
                    "ingested_at": r.ingested_at,
                    "form": store.revision_form(conn, r.revision_id),
                    "newest": newest[r.document_id] == r.revision_id,
                    "blank_pages": store.blank_pages(conn, r.revision_id),
                    "labelled_pages": store.labelled_pages(conn, r.revision_id),
                    "statements": [e for e in ordered if e["label"] in STATEMENTS and e["pages"]],
                    "sections": [e for e in ordered if e["label"] not in STATEMENTS],
                    "exhibits": sorted(exhibits.values(), key=lambda e: e["first_page"]),
                }
            )
        return {"schema_version": version, "revisions": result}
    finally:
        conn.close()


def _exhibit_page(exhibits: dict[str, dict], heading: str, page_number: int) -> None:
    """Count a page into the exhibit its heading ("Exhibit 10.1 - Five-Year Credit Agreement")
    names: {"number", "title", "heading", "first_page", "last_page"} (the kind is added after)."""
    entry = exhibits.get(heading)
    if entry is None:
        number, _, title = heading.removeprefix("Exhibit ").partition(" - ")
        exhibits[heading] = {"number": number, "title": title, "heading": heading,
                             "first_page": page_number, "last_page": page_number}
    else:
        entry["first_page"] = min(entry["first_page"], page_number)
        entry["last_page"] = max(entry["last_page"], page_number)
