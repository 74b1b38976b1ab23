"""Ask a question of one filing: the Python API that the CLI, Datasette and the tests share.

    from evfind import Finder
    with Finder("3M_2018_10K.db") as finder:
        answer = finder.query("What is the FY2018 capital expenditure?", top=5)
        for hit in answer.results:
            print(hit.page_number, hit.note)

A query reads only: it parses the question, runs one full-text SQL statement (bm25) and the
route SQL (the primary statements and the sections the question targets), hands the ranked
lists to the ranking policy of rank.py (Reciprocal Rank Fusion, lexical first; pure functions,
no SQL there) and describes each page from its own text. Every page it returns exists in the
store.
"""
import functools
import os
import re
from collections.abc import Mapping

from . import evidence, limits, rank, store
from .answer import (  # noqa: F401  (re-exported: evfind.finder is where these were first imported from)
    ABSENT,
    ABSENT_SEVERAL,
    NO_CONTENT_WORDS,
    NO_MATCH,
    NO_MATCH_HINT,
    NO_MATCH_SEVERAL,
    NOT_READ,
    REFUSALS,
    WEAK_MATCH,
    Answer,
    Document,
    Hit,
    Page,
    Plan,
    compose_message,
    outcome_note,
    refused,
    unread_note,
    units,
)
from .errors import EvfindError, NoContentWordsError, NoPagesError, UsageError
from .evidence import Passage
from .present import CONTINUES, MARK, evidence_lines, highlights, line_marks, note, spans  # noqa: F401
from .question import ParsedQuestion, Term, parse
from .rank import CANDIDATES, DEFAULT, TOP_DEFAULT, TOP_MAX, Method
from .text import LazyPattern, language, normal, tokens

# A filing this short (an 8-K, a short release) keeps its common words in the MATCH: "more than
# half the pages" is then two or three pages, a word such as "dividend" that the page asked for
# shares with the exhibit; left out, the page that holds the answer may match nothing at all.
# Scoring every page of so short a filing costs nothing.
FEW_PAGES = 10

# A defined term as an agreement or a glossary defines it: "Applicable Rate" means ...
_DEFINED = LazyPattern(r"[\"\u201c]([A-Za-z][\w&'\- ]{2,60}?)[\"\u201d]\s*(?:means|shall mean|has the meaning)", re.S)



def _reading(function):
    """SQLite errors met while reading (a damaged file) become evfind errors, never a traceback.
    For Finder methods and for functions whose first argument is the database path."""

    @functools.wraps(function)
    def wrapper(first, *args, **kwargs):
        with store.reading(getattr(first, "path", first)):
            return function(first, *args, **kwargs)

    return wrapper


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
        self._symbols: frozenset[str] | None = None  # the filer's trading symbols (_tickers)
        self._titles: tuple | None = None  # (number, title words) of each exhibit attached
        self._exhibits: tuple | None = None  # the exhibits' pages (_exhibit_pages)
        self._aside: tuple | None = None  # the pages set_aside may set aside (_aside_pages)
        self._holding: dict[tuple[str, int | None], int] = {}  # pages an idea's MATCH holds, by scope
        self._indexed: int | None = None  # pages of the index, every revision's
        self._counted: int | None = None  # pages of the revision read
        self._weighed: tuple = (None, ())  # the last question's concepts, weighed
        self._terms: dict[str, int] = {}  # pages holding an index term (every revision's)
        self.conn = store.connect_read(path)
        try:
            with store.reading(path):
                self.revision = store.select_revision(self.conn, document, sha)
        except Exception:
            self.conn.close()
            raise

    def __enter__(self) -> "Finder":
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

    @property
    def empty(self) -> bool:
        """No page is loaded: there is nothing to search."""
        return self.revision is None or self._revision_pages() == 0

    def _revision_pages(self) -> int:
        """The pages of the revision read (counted once: a Finder reads one revision)."""
        if self._counted is None:
            self._counted = store.count_pages(self.conn, self.revision.revision_id)
        return self._counted

    def _require_pages(self) -> Document:
        if self.empty:
            raise _no_pages(self.path)
        return self.document

    # -- ranking ---------------------------------------------------------------------------

    def _ranked(self, parsed: ParsedQuestion, top: int = TOP_DEFAULT) -> Plan:
        """Run the ranked lists' SQL and order the pages by the policy of rank.py. bm25 runs
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
        bm25 = dict(scored)
        expanded: list = []
        own = informative._replace(terms=tuple(t for t in informative.terms if t.source != "lexicon"))
        if method.expansion_weight and scored and own.terms and len(own.terms) < len(informative.terms):
            # The question's own words ranked apart: the expansions then make a list of their own.
            expanded = scored[:CANDIDATES]
            scored = self.conn.execute(lexical_sql, {**params, "match": own.match_expression()}).fetchall() or scored
        statement_sql = section_sql = None
        openings: list[int] = []  # pages named outright: where a named Item or exhibit begins
        unnamed: list[int] = []  # the pages of the exhibits a question naming one does not name
        statements: list = []
        sections: list = []
        if method.statements and parsed.statements:
            kinds = list(parsed.statements)
            statement_sql = store.statement_sql(kinds)
            rows = self.conn.execute(statement_sql, {**params, **store.label_params(kinds)}).fetchall()
            statements = rank.statement_list(rows, kinds, bm25)
        # Without statement recognition, statements are routed to by their titles, like any
        # other heading.
        targets = list(parsed.sections if method.statements else parsed.routes)
        if parsed.items:  # "Item 7", "Part II, Item 2": read by the numbering of this filing's form
            named = self._item_targets(parsed, revision)
            targets = list(dict.fromkeys(named + targets))
            openings = self._item_openings(parsed, named, revision) if named else []
        if targets:
            section_sql = store.section_sql(targets, rank.section_origins(method))
            ids = self.conn.execute(section_sql, {**params, **store.label_params(targets)}).fetchall()
            in_order = method.section_order == "page" and not parsed.fact
            sections = rank.section_list([page for (page,) in ids], bm25, in_order=in_order)
        exhibits = parsed.exhibits or self._exhibits_by_title(parsed)
        if exhibits:  # an exhibit named by number or title
            section_sql = f"{section_sql};\n{store.EXHIBIT_PAGES_SQL}" if section_sql else store.EXHIBIT_PAGES_SQL
            sections, unnamed, first_pages = self._named_exhibits(parsed, exhibits, sections, bm25)
            openings += first_pages
        plan = Plan(
            parsed, params["match"], lexical_sql, statement_sql, section_sql,
            tuple(scored[:CANDIDATES]), tuple(statements), tuple(sections), fused=(),
            expanded=tuple(expanded),
        )
        fused = rank.fuse(plan.candidates, plan.intent, method)
        # The ranking never depends on ``top``: the first pages of --top 3 are those of --top 20.
        # Every fused page may be set aside; the rerank reads the passages of its rerank_depth
        # pages; the pages shown past them (and those named outright) are read for their
        # evidence lines only.
        shown = max(top, method.rerank_depth)
        definitions, instruments, contents = self._aside_pages()
        if definitions and not plan.intent.definition:
            # (the pages read are the rerank's, whatever ``top`` is: the ranking never depends on it)
            definitions = definitions - self._defining(parsed, [page for page, _ in fused[:method.rerank_depth]], definitions)
        fused = rank.set_aside(fused, definitions, instruments, plan.intent, method, unnamed, contents)
        leading = list(dict.fromkeys([page for page, _ in fused[:shown]] + openings))
        marks = store.marked(self.conn, _marking(plan.match, informative), leading, revision)
        passages = self._passages(parsed, marks)
        off_period = self._off_period(parsed, [page for page, _ in fused[:method.rerank_depth]], marks)
        tables = rank.asked_tables(plan.candidates, plan.intent)
        ordered = rank.rerank(fused, passages, plan.intent, method, tables, off_period)
        ordered = rank.lead(ordered, openings)
        return plan._replace(fused=tuple(ordered), passages=passages, marks=marks, named=tuple(openings))

    def _named_exhibits(self, parsed: ParsedQuestion, exhibits: tuple[str, ...], sections: list, bm25: dict):
        """(the section list, the pages of the other exhibits, the pages named outright) for a
        question that names these exhibits. Named by number, the exhibits' pages lead the
        section list; named by title, they join it. "Where does Exhibit 10.2 begin?" names its
        first page outright."""
        pages = self._exhibit_pages()
        named = rank.section_list([page for page, number, _, _ in pages if number in exhibits], bm25)
        if parsed.exhibits:
            sections = rank.named_first(named, sections)
        else:
            sections = rank.section_list(list(dict.fromkeys(page for page, _ in sections + named)), bm25)
        unnamed = [page for page, number, _, _ in pages if number not in exhibits]
        first = sorted(page for page, number, _, starts in pages if number in exhibits and starts) if parsed.opening else []
        return sections, unnamed, first

    def _exhibits_by_title(self, parsed: ParsedQuestion) -> tuple[str, ...]:
        """The numbers of the exhibits the question names by title ("the five-year credit
        agreement", "Costco's amended bylaws": ``rank.named_by_title``), the words of the cover
        page and of most pages, such as the filer's name, left out of the titles."""
        if not self._exhibit_pages():  # (a filing that attaches no exhibit: nothing to name)
            return ()
        if self._titles is None:
            # the filer's name in a title ("The Boeing Company Subsidiaries") names no exhibit:
            # the words of the cover (the registrant's name) and of most pages are left out
            aside = _title_words(store.opening_text(self.conn, self.revision.revision_id, 1))
            if self._revision_pages() >= FEW_PAGES:  # (a short filing's common words are its topic)
                aside |= self._common_words()
            self._titles = tuple(
                (number, _title_words(title) - aside) for _, number, title, first in self._exhibit_pages() if first
            )
        reading = parsed.reading.english if parsed.reading is not None else parsed.text
        return rank.named_by_title(_title_words(reading), self._titles)

    def _exhibit_pages(self) -> tuple[tuple[int, str, str, bool], ...]:
        """Every page of the exhibits the revision attaches: (page id, the exhibit's number, its
        title, whether the exhibit starts on the page), in page order; read once per Finder."""
        if self._exhibits is None:
            rows = self.conn.execute(store.EXHIBIT_PAGES_SQL, {"revision": self.revision.revision_id})
            found = []
            for page, heading, origin in rows:
                number, title = store.exhibit_heading(heading)
                found.append((page, number, title, origin == "title"))
            self._exhibits = tuple(found)
        return self._exhibits

    def _item_targets(self, parsed: ParsedQuestion, revision: int) -> list[str]:
        """The section labels of the Items the question names, by the numbering of the form
        this revision was read as (a 10-Q's Part II, Item 2 is not a 10-K's Item 2)."""
        from .forms import item_labels  # a question that names an Item only

        form = store.revision_form(self.conn, revision)
        return [label for part, number in parsed.items for label in item_labels(form, number, part)]

    def _item_openings(self, parsed: ParsedQuestion, labels: list[str], revision: int) -> list[int]:
        """The first page of each Item the question names, when the question asks for the Item
        itself: the words it asks about besides the Item's number (years, the filing's common
        words and the words of Items and Parts aside) are all words of the Item's heading
        ("Where is Item 7?", "Item 9, changes in and disagreements with accountants"). A
        question that asks for something within the Item ("the repurchase table in Part II,
        Item 2") is left to the ranking, the Item's pages among the targeted sections."""
        rows = self.conn.execute(store.item_sql(labels), {"revision": revision, **store.label_params(labels)})
        first: dict[str, tuple[int, str]] = {}
        for page, label, heading in rows:
            first.setdefault(label, (page, heading))
        common = self._common_words()
        asked = {normal(w) for w in parsed.words if not w.isdigit() and normal(w) not in common} - _ITEM_WORDS
        return sorted(page for page, heading in first.values() if asked <= {normal(w) for w in tokens(heading)})

    def _defining(self, parsed: ParsedQuestion, leading: list[int], definitions: frozenset[int]) -> set[int]:
        """The leading pages of definitions that define a term of several words the question
        names ("Applicable Rate" means ..., "Consolidated EBITDA" shall mean ...): where an
        agreement sets out the pricing grid or the ratio the question asks about. They are the
        evidence, not a restatement of it."""
        terms = [idea.label for idea in parsed.ideas if " " in idea.label and not idea.year]
        pages = [page for page in leading if page in definitions]
        if not terms or not pages:
            return set()
        defined = _DEFINED.finditer
        found = set()
        for page, row in store.page_rows(self.conn, pages).items():
            named = {" ".join(m.group(1).lower().split()) for m in defined(row.text)}
            if any(term in named for term in terms):
                found.add(page)
        return found

    def _aside_pages(self) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
        """The pages ``rank.set_aside`` may set aside, of the whole revision (the ranking never
        depends on how many pages are shown): (pages of definitions, pages of the exhibits that
        are instruments, pages of contents); read once per Finder."""
        if self._aside is None:
            from .exhibits import instrument_labels

            own = ("definitions", rank.CONTENTS)
            labels = [*own, *sorted(instrument_labels())]
            found = store.pages_with_labels(self.conn, self.revision.revision_id, labels, own)
            self._aside = (
                frozenset(page for page, on in found.items() if "definitions" in on),
                frozenset(page for page, on in found.items() if on - set(own)),
                frozenset(page for page, on in found.items() if rank.CONTENTS in on),
            )
        return self._aside

    def _passages(self, parsed: ParsedQuestion, marks: Mapping[int, tuple[str, str]]) -> dict[int, Passage]:
        """The best passage of each page (evidence.py), read from its text with the question's
        matches marked by FTS5 (the terms the lexical list matched)."""
        concepts = self._concepts(parsed)
        if not concepts:
            return {}
        fact, window = parsed.fact, self.method.window
        passages = {}
        for page_id, (text, _) in marks.items():
            lines, held = evidence.read_lines(text, concepts)
            passages[page_id] = evidence.best_passage(lines, held, concepts, window, fact)
        return passages

    @staticmethod
    def _off_period(parsed: ParsedQuestion, pages: list[int], marks: Mapping[int, tuple[str, str]]) -> frozenset[int]:
        """The pages whose tables cover only spans of time the question does not ask for: the
        quarter's table when it asks for the full year or the year to date (evidence.py)."""
        asked = evidence.periods_asked(parsed.reading.english if parsed.reading else parsed.text)
        if asked <= {"quarter"}:
            # A quarter named alone mostly names the filing ("in the Q3 release", "the 10-Q for
            # the quarter ended June 2"), whose every page is of that quarter and its year to date.
            return frozenset()
        return frozenset(page for page in pages if page in marks and evidence.off_period(asked, marks[page][0]))

    def _concepts(self, parsed: ParsedQuestion) -> tuple[evidence.Concept, ...]:
        """The question's ideas as evidence concepts, each weighted by its rarity in the filing:
        the BM25 IDF of the pages holding any of its phrases, ln(1 + (N - n + 0.5) / (n + 0.5))
        (Robertson and Sparck Jones). Years pick a column, not a line: weight 0."""
        if self._weighed[0] is parsed:  # the same question, already weighed by its ranking
            return self._weighed[1]
        import math

        pages, held = self._pages_indexed(), self._frequencies(parsed)
        concepts = []
        for idea, count in zip(parsed.ideas, held):
            phrases = tuple(p for p in (evidence.stems(phrase) for phrase in idea.phrases) if p)
            if not phrases:
                continue
            if idea.year or idea.source:  # a column, or the statement itself: not a line to find
                concepts.append(evidence.Concept(idea.label, phrases, 0.0, line_item=False))
                continue
            weight = math.log(1 + (pages - count + 0.5) / (count + 0.5))
            concepts.append(evidence.Concept(idea.label, phrases, weight))
        self._weighed = (parsed, tuple(concepts))
        return self._weighed[1]

    def _pages_indexed(self) -> int:
        """The pages of the full-text index, every revision's (what its term counts count)."""
        if self._indexed is None:
            self._indexed = store.count_pages(self.conn)
        return self._indexed

    def _frequencies(self, parsed: ParsedQuestion) -> tuple[int, ...]:
        """For each of the question's ideas, how many pages hold it. An idea of single words is
        read from the index's own term counts (one lookup for all of them; where its words are
        several, the pages of the commonest); an idea with a phrase is counted by FTS5 (kept
        for the finder's life). The counts span every revision of the file, as bm25's do."""
        stemmed = [[evidence.stems(phrase) for phrase in idea.phrases] for idea in parsed.ideas]
        words = {p[0] for phrases in stemmed for p in phrases if len(p) == 1}
        missing = sorted(words - self._terms.keys())
        if missing:
            self._terms.update(dict.fromkeys(missing, 0))
            self._terms.update(store.term_pages(self.conn, missing))
        counts = self._terms
        found = []
        for idea, phrases in zip(parsed.ideas, stemmed):
            if all(len(p) <= 1 for p in phrases):
                found.append(max((counts.get(p[0], 0) for p in phrases if p), default=0))
                continue
            found.append(self._pages_holding(idea))
        return tuple(found)

    def _pages_holding(self, idea, revision_id: int | None = None) -> int:
        """How many pages of ``revision_id`` (of every revision: None) any of an idea's phrases
        matches, counted by FTS5; kept for the finder's life, for each scope apart."""
        match = " OR ".join(Term(phrase, "question").fts for phrase in idea.phrases)
        if (match, revision_id) not in self._holding:
            self._holding[match, revision_id] = store.matching_pages(self.conn, match, revision_id)
        return self._holding[match, revision_id]

    @_reading
    def query(self, question: str, top: int = TOP_DEFAULT, lang: str | None = None) -> Answer:
        """The pages most likely to hold the evidence, best first (at most ``top``).

        ``lang`` (en or zh) is the language of the notes and the message; by default the
        question's (a question with Chinese characters is answered in Chinese).
        """
        if not isinstance(top, int) or not 1 <= top <= TOP_MAX:
            raise UsageError(f"top must be between 1 and {TOP_MAX}")
        lang = language(question, lang)
        document = self._require_pages()
        parsed = self.parse(question)
        if parsed.empty:
            raise NoContentWordsError(NO_CONTENT_WORDS, key="no_content_words")
        plan = self._ranked(parsed, top)
        chosen = plan.fused[:top]
        ids = [page_id for page_id, _ in chosen]
        rows = store.page_rows(self.conn, ids)
        concepts = self._concepts(parsed) if ids else ()
        hits = []
        for position, (page_id, score) in enumerate(chosen, start=1):
            row = rows[page_id]
            terms = spans("\n".join(plan.marks.get(page_id, ("", ""))))
            marked_text = plan.marks.get(page_id, ("", ""))[0]
            lines = evidence_lines(plan.passages.get(page_id))
            hits.append(
                Hit(
                    rank=position,
                    page_number=row.page_number,
                    document_id=document.document_id,
                    document_sha256=document.document_sha256,
                    score=score,
                    heading=row.heading,
                    matched_terms=terms,
                    note=note(row, terms, parsed, lang),
                    page_label=row.page_label,
                    section=row.section,
                    statement=row.statement,
                    evidence=lines,
                    evidence_marks=line_marks(marked_text, lines, concepts),
                )
            )
        outcome = None
        if not hits:
            outcome = "no_match"
        elif not self._covers(parsed, plan.marks.get(ids[0], ("", ""))):
            outcome = "weak_match"
        absent = self.absent(parsed)
        if parsed.reading is not None:  # as the Chinese question says them
            from .zh import named

            absent = named(absent, parsed.reading, lang)
        answer = Answer(question, document, tuple(hits), None, parsed, lang, absent=absent, outcome=outcome, plan=plan)
        return answer._replace(message=compose_message(answer))

    def answer(self, question: str, top: int = TOP_DEFAULT, lang: str | None = None) -> Answer:
        """``query``, except that a question evfind cannot ask (no content words, no pages
        loaded: ``REFUSALS``) is answered rather than raised: no results, the reason as the
        message in the question's language (or ``lang``), and the error in ``Answer.error``."""
        try:
            return self.query(question, top=top, lang=lang)
        except REFUSALS as exc:
            return self.refused(question, exc, lang)

    def refused(self, question: str, error: EvfindError, lang: str | None = None) -> Answer:
        """The answer to a question this finder could not ask (see ``refused``)."""
        return refused(question, error, None if self.revision is None else self.document, lang)

    @_reading
    def held(self, parsed: ParsedQuestion) -> tuple[int, ...]:
        """How many pages of the revision hold each of the question's ideas (``parsed.ideas``,
        in order): the pages any of an idea's phrases (its wording, the lexicon's expansions of
        it) matches. Read from the index's term counts (``_frequencies``) where the file holds
        one revision; counted by FTS5, an idea at a time, where it holds several (the term
        counts span them all), kept for the finder's life."""
        if self._pages_indexed() == self._revision_pages():
            return self._frequencies(parsed)
        return tuple(self._pages_holding(idea, self.revision.revision_id) for idea in parsed.ideas)

    def absent(self, parsed: ParsedQuestion) -> tuple[str, ...]:
        """The labels of the question's own ideas (``units``) that no page of the revision
        holds (``held``)."""
        held = self.held(parsed)
        return tuple(idea.label for idea, count, unit in zip(parsed.ideas, held, units(parsed.ideas)) if unit and not count)

    def _without_common_words(self, parsed: ParsedQuestion) -> ParsedQuestion:
        """Leave out of the MATCH the terms on more than half the pages (the company's name,
        the fiscal year): their bm25 weight is nil (FTS5 floors a negative IDF), and matching
        them would only make FTS5 score nearly every page. A word is looked up in the stored
        common words; a phrase all of whose words are common is counted. Kept when nothing
        else would be left, and in a filing of fewer than ``FEW_PAGES`` pages."""
        tickers = self._tickers(parsed.text)
        few = self._revision_pages() < FEW_PAGES
        if few and not tickers:
            return parsed
        kept = tuple(
            term for term in parsed.terms
            if not tickers.intersection(term.phrase.split()) and (few or not self._is_common(term))
        )
        if not kept or len(kept) == len(parsed.terms):
            return parsed
        return parsed._replace(terms=kept)

    def _common_words(self) -> frozenset[str]:
        """The revision's words on more than half its pages (stored at ingest), read once."""
        if self._common is None:
            self._common = store.common_words(self.conn, self.revision.revision_id)
        return self._common

    def _tickers(self, question: str) -> frozenset[str]:
        """The filer's trading symbols the question writes, in capitals as symbols are written
        ("How much capex does ATVI expect?"), lower case: they name the filer, as its name does,
        which is on most pages; left out of the MATCH, they no longer pull up the one page that
        prints them (the cover). "COST" names Costco; "cost" is a word."""
        if not any(len(word) > 1 and word.isupper() for word in re.findall(r"[A-Za-z.]+", question)):
            return frozenset()  # no word in capitals: no symbol
        if self._symbols is None:  # (read from the cover at ingest: forms.tickers)
            self._symbols = frozenset(store.revision_tickers(self.conn, self.revision.revision_id))
        return frozenset(symbol.lower() for symbol in self._symbols if _written_as_symbol(symbol, question))

    def _is_common(self, term) -> bool:
        words = [normal(w) for w in term.phrase.split()]
        if not all(w in self._common_words() for w in words):
            return False
        if len(words) == 1:
            return True
        if term.phrase not in self._common_phrases:  # counted once per Finder
            count = store.matching_pages(self.conn, term.fts, self.revision.revision_id)
            self._common_phrases[term.phrase] = count * 2 > self._revision_pages()
        return self._common_phrases[term.phrase]

    def match_terms(self, question: str) -> tuple[str, ...]:
        """The phrases a query for ``question`` matches on this revision's pages, common words
        left out as the query leaves them: the terms its notes show and a page image boxes.
        Empty for a question with no content words."""
        parsed = self.parse(question)
        if parsed.empty or self.revision is None:
            return ()
        return tuple(term.phrase for term in self._without_common_words(parsed).terms)

    def concepts(self, question: str) -> tuple[evidence.Concept, ...]:
        """The question's concepts as the evidence lines read them, weighted in this revision
        (empty for a question with no content words)."""
        parsed = self.parse(question)
        if parsed.empty or self.empty:
            return ()
        return self._concepts(parsed)

    def highlights(self, question: str, text: str) -> tuple[tuple[int, int], ...]:
        """The (start, end) offsets in ``text`` of the terms a query for ``question`` matches
        (``match_terms``, marked as FTS5 marks them) that the evidence counts, as the evidence
        lines' ``evidence_marks`` are chosen: for `evfind show --highlight`."""
        terms = self.match_terms(question)
        return highlights(text, terms, self.concepts(question)) if terms else ()

    def parse(self, question: str) -> ParsedQuestion:
        limits.check_question(question)
        method = self.method
        return parse(question, metrics=method.metrics, meta=method.meta, pairs=method.pairs)

    def _covers(self, parsed: ParsedQuestion, marks: tuple[str, str]) -> bool:
        """Does the page answer to the question: at least half of its own content words, or a
        phrase the lexicon reads them as (capex: "purchases of property, plant and equipment")?
        Read from the page's text and headings as the query marked them (``marks``); a word on
        most pages of the filing, which the query does not mark, counts as on this one."""
        words = [t for t in parsed.terms if t.source not in ("lexicon", "pair")]
        if not words:
            return True
        spans = {evidence.stems(span) for span in MARK.findall("\n".join(marks))}

        def on_page(term: Term) -> bool:
            wanted = evidence.stems(term.phrase)
            size = len(wanted)
            return self._is_common(term) or any(
                span[i : i + size] == wanted for span in spans for i in range(len(span) - size + 1)
            )

        if 2 * sum(on_page(term) for term in words) >= len(words):
            return True
        return any(on_page(term) for term in parsed.terms if term.source == "lexicon")

    @_reading
    def explain(self, question: str, top: int = TOP_DEFAULT) -> Plan:
        """The SQL and each ranked list before and after fusion, by page number."""
        self._require_pages()
        parsed = self.parse(question)
        if parsed.empty:
            raise NoContentWordsError(NO_CONTENT_WORDS, key="no_content_words")
        plan = self._ranked(parsed, top)
        lists = (plan.lexical, plan.statements, plan.sections, plan.expanded)
        numbers = self._numbers([page for ranked in lists for page, _ in ranked] + [page for page, _ in plan.fused] + list(plan.named))

        def by_number(ranked):
            return tuple((numbers[page], score) for page, score in ranked)

        return plan._replace(
            document=self.document,
            lexical=by_number(plan.lexical),
            statements=by_number(plan.statements),
            sections=by_number(plan.sections),
            expanded=by_number(plan.expanded),
            fused=by_number(plan.fused[:top]),
            passages={numbers[page]: passage for page, passage in plan.passages.items()},
            named=tuple(numbers[page] for page in plan.named),
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
            pages = "only page 1" if document.page_count == 1 else f"pages 1 to {document.page_count}"
            raise UsageError(f"page {page_number} does not exist: {document.document_id} has {pages}")
        from .packing import unpack_text  # only `evfind show` reads the raw text

        _, number, label, text, raw, heading, section, section_heading, statement = row
        return Page(document, number, label, text, unpack_text(raw, text), heading, section, section_heading, statement)



def _marking(match: str, parsed: ParsedQuestion) -> str:
    """The MATCH that marks a page's matches for its evidence: the query's, and each idea's own
    wording of several words as a phrase ("net income"). FTS5 marks the words of a phrase it
    was not asked for one by one, and a line holds an idea only where one stretch says it; the
    ranking's MATCH is left as it is (its bm25 already counts the words)."""
    searched = {term.phrase for term in parsed.terms}
    extra = [Term(idea.label, "pair").fts for idea in parsed.ideas
             if " " in idea.label and idea.label not in searched and not idea.year]
    return " OR ".join([match, *dict.fromkeys(extra)]) if extra else match



def _no_pages(path) -> NoPagesError:
    return NoPagesError(
        f"no pages are loaded in {path}; run `evfind ingest REPORT.pdf --db {path}`", key="no_pages", path=path
    )



def _title_words(text: str) -> set[str]:
    from .question import stopwords

    stop = stopwords()
    return {normal(w) for w in tokens(text) if w not in stop}


def _written_as_symbol(symbol: str, question: str) -> bool:
    """Does the question write the symbol, each time it writes the word, in capitals ("COST's
    margin", not "COST's cost of sales")?"""
    if symbol not in question:
        return False
    written = re.findall(rf"\b{re.escape(symbol)}\b", question, re.I)
    return bool(written) and all(word == symbol for word in written)


# The words a question names an Item with, besides its title: "Part II, Item 1A of the 10-Q".
_ITEM_WORDS = frozenset(normal(w) for w in "item items part i ii iii iv form filing section".split())



def __getattr__(name: str):
    """``describe`` (`evfind info`) lives in describe.py; ``from evfind.finder import describe``
    still finds it, without the query path importing it."""
    if name == "describe":
        from .describe import describe

        return describe
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
