"""Ask a question of one filing: the Python API that the CLI, Datasette and the tests share.

    from evfind import Finder
    with Finder("3M_2018_10K.db") as finder:
        answer = finder.query("What is the FY2018 capital expenditure?", top=5)
        for hit in answer.results:
            print(hit.page_number, hit.note)

A ``Finder`` does one job: it opens a store read-only, gathers a question's signals and builds
the hits of the pages rank.py ranks. A query parses the question (question.py), runs its SQL
(queries.py: one full-text pass, bm25, and the route lists: the primary statements and the
sections the question targets, the Items it names), reads the leading pages' text where the
ranking reads it (their best passages, evidence.py; the spans of time their tables cover; the
terms their definitions define) into one plain record (``rank.Signals``), and hands it to
``rank.order``, which decides everything about the order. Every page it returns exists in the
store. The records it returns are answer.py's; how a page is described, present.py's.
"""

import functools
import os
from collections.abc import Mapping

from . import codes, evidence, limits, lists, queries, rank, readings, store
from .answer import (  # noqa: F401  (re-exported: evfind.finder is where these were first imported from)
    ABSENT,
    ABSENT_SEVERAL,
    NO_CONTENT_WORDS,
    NO_FACTS, PRINTED_FOR,
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
    specific,
    unread_note,
    units,
)
from .errors import EvfindError, NoContentWordsError, NoPagesError, UsageError
from .evidence import Passage
from .present import (  # noqa: F401
    CONTINUES, MARK, evidence_columns, evidence_lines, highlights, line_marks, names_filer, note, shown, shown_passages,
    spans, tiers,
)
from .question import ParsedQuestion, Term, asks_reason, parse
from .rank import DEFAULT, TOP_DEFAULT, TOP_MAX, Method
from .text import is_chinese, language, normal, tokens

FACTS_SHOWN = 5  # the matching facts a hit lists at most, best first
FACTS_LEAST = 0.25  # the weighted share of the question's line items a fact must say to match


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
        self._about: rank.Filing | None = None  # what the ranking reads about the revision (_filing)
        self._common: frozenset[str] | None = None
        self._common_phrases: dict[str, bool] = {}
        self._holding: dict[tuple[str, int | None], int] = {}  # pages an idea's MATCH holds, by scope
        self._indexed: int | None = None  # pages of the index, every revision's
        self._counted: int | None = None  # pages of the revision read
        self._weighed: tuple = (None, ())  # the last question's concepts, weighed
        self._filer: frozenset[str] | None = None  # the cover's words on most pages (``_names_filer``)
        self._name: str | None = None  # the registrant's name its cover prints (``_registrant``)
        self._fact_labels = None  # the facts' (concept, row label) pairs, indexed (concepts.Index)
        self._looked: tuple = (None, None)  # the last question's facts (``_facts``)
        self._frequent: tuple = (None, ())  # the last question's ideas' page counts (``_frequencies``)
        self._read: tuple = (None, {})  # the last question's pages' lines, as its ranking read them
        self._hit_facts = None  # the facts its hits list, read for the revision (hitfacts.HitFacts)
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

    # -- gathering a question's signals, ranking them ---------------------------------------

    def _ranked(self, parsed: ParsedQuestion, top: int = TOP_DEFAULT) -> Plan:
        """Gather the question's signals (``_gather``), order them by ``rank.order`` and keep
        what the answer and --explain show of them: the SQL, the lists, the marked pages."""
        signals, sql, marks = self._gather(parsed, top)
        ranking = rank.order(signals, self.method)
        match, lexical_sql, statement_sql, section_sql = sql
        if ranking.exhibits:  # an exhibit named by number or title: its pages were read too
            section_sql = f"{section_sql};\n{queries.EXHIBIT_PAGES_SQL}" if section_sql else queries.EXHIBIT_PAGES_SQL
        made = ranking.candidates
        return Plan(
            parsed, match, lexical_sql, statement_sql, section_sql, made.lexical, made.statements, made.sections,
            fused=ranking.fused, passages=signals.passages, expanded=made.expanded, marks=marks, named=ranking.named,
            signals=signals, confidence=ranking.confidence, facts=self._facts(parsed), facts_list=made.facts,
        )

    def _gather(self, parsed: ParsedQuestion, top: int) -> tuple[rank.Signals, tuple, dict]:
        """The question's signals (``rank.Signals``), the SQL run for them ((MATCH, lexical,
        statement and section SQL)) and the leading pages with the question's matches marked.
        The SQL runs the lists rank.py asks for; the pages' text is read where ``rank.to_define``
        and ``rank.to_read`` say the ranking reads it. Nothing is decided here."""
        method = self.method
        revision = self.revision.revision_id
        filing = self._filing()
        terms = self._term_signals(parsed)
        tries = lists.lexical_terms(terms, filing.pages)
        lexical_sql = queries.lexical_sql(method.bm25_weights)
        for kept in tries:  # the first MATCH that matches a page gives the list
            params = {"match": readings.expression(parsed, kept), "revision": revision}
            scored = tuple(self.conn.execute(lexical_sql, params).fetchall())
            if scored:
                break
        own = None
        own_terms = lists.own_terms(terms, tries[0], method)
        if own_terms is not None and scored:  # the question's own words, the expansions apart
            own = tuple(self.conn.execute(lexical_sql, {**params, "match": readings.expression(parsed, own_terms)}).fetchall())
        statement_sql = section_sql = None
        kinds = lists.statement_kinds(parsed.statements, method)
        statements: tuple = ()
        if kinds:
            statement_sql = queries.statement_sql(list(kinds))
            statements = tuple(self.conn.execute(statement_sql, {**params, **queries.label_params(list(kinds))}))
        items = self._item_labels(parsed) if parsed.items else ()
        targets = lists.targets(parsed.sections, parsed.routes, items, method)
        sections: tuple = ()
        if targets:
            section_sql = queries.section_sql(list(targets), lists.section_origins(method))
            rows = self.conn.execute(section_sql, {**params, **queries.label_params(list(targets))})
            sections = tuple(page for (page,) in rows)
        item_rows: tuple = ()
        if items:
            rows = self.conn.execute(queries.item_sql(list(items)), {"revision": revision, **queries.label_params(list(items))})
            item_rows = tuple((page, label, frozenset(normal(w) for w in tokens(heading))) for page, label, heading in rows)
        reading = parsed.reading.english if parsed.reading is not None else parsed.text
        signals = rank.Signals(
            intent=rank.intent_of(parsed.named, parsed.sections, parsed.fact, parsed.ratio, parsed.opening),
            filing=filing, terms=terms, lexical=scored, own=own, kinds=kinds, statements=statements,
            sections=sections, exhibits=parsed.exhibits,
            title_words=frozenset(readings.title_words(reading)) if filing.exhibits and not parsed.exhibits else frozenset(),
            items=item_rows,
            item_words=frozenset(normal(w) for w in parsed.words if not w.isdigit()) if item_rows else frozenset(),
            periods=evidence.periods_asked(reading),
            facts=tuple((page, score) for page, _, score in self._facts(parsed).pages),
            reason=asks_reason(parsed.text),
        )
        several = [idea.label for idea in parsed.ideas if " " in idea.label and not idea.year]
        pages = rank.to_define(signals, method) if several else ()
        if pages:
            signals = signals._replace(defining=readings.defining(several, store.page_rows(self.conn, list(pages))))
        reads = rank.to_read(signals, method, top)
        informative = parsed._replace(terms=tuple(parsed.terms[i] for i in tries[0]))
        marks = queries.marked(self.conn, readings.marking(params["match"], informative), list(reads.pages), revision)
        shown = {page: evidence.periods_shown(marks[page][0]) for page in reads.periods if page in marks}
        read: dict = {}  # each page's lines and concepts, read once: for its passage, signals and evidence lines
        self._read = (parsed, read)
        signals = signals._replace(shown=shown, passages=self._passages(parsed, marks, read))
        if method.learned:  # what the learned stage reads besides: each candidate's text and place
            concepts = self._concept_signals(parsed)
            signals = signals._replace(
                concepts=concepts, chinese=parsed.reading is not None,
                pages=self._page_signals(parsed, reads.pages, marks, read, list(dict.fromkeys(targets)), concepts,
                                         signals.reason),
            )
        return signals, (params["match"], lexical_sql, statement_sql, section_sql), marks

    @_reading
    def signals(self, question: str, top: int = TOP_DEFAULT) -> rank.Signals:
        """Everything the ranking of ``question`` reads, as one plain record (rank.py's input:
        ``rank.order(finder.signals(question), finder.method)`` ranks the pages ``query``
        lists), page ids as the store's ``pages.id``; ``top``: the pages whose evidence lines
        are read besides the leading ones (the ranking does not depend on it)."""
        self._require_pages()
        parsed = self.parse(question)
        if parsed.empty:
            raise NoContentWordsError(NO_CONTENT_WORDS, key="no_content_words")
        return self._gather(parsed, top)[0]

    def _filing(self) -> rank.Filing:
        """What the ranking reads about the revision (``rank.Filing``), read once per Finder."""
        if self._about is None:
            definitions, instruments, contents = self._aside_pages()
            exhibits = self._exhibit_pages()
            cover = readings.title_words(queries.opening_text(self.conn, self.revision.revision_id, 1)) if exhibits else ()
            self._about = rank.Filing(
                pages=self._revision_pages(),
                common=self._common_words(),
                tickers=store.revision_tickers(self.conn, self.revision.revision_id),
                definitions=definitions, instruments=instruments, contents=contents,
                exhibits=tuple((page, number, starts) for page, number, _, starts in exhibits),
                titles=tuple((number, frozenset(readings.title_words(title))) for _, number, title, starts in exhibits if starts),
                cover=frozenset(cover),
            )
        return self._about

    def _term_signals(self, parsed: ParsedQuestion) -> tuple[rank.TermSignal, ...]:
        """Each of the question's terms: its source, whether it is on more than half the pages,
        whether it holds a trading symbol of the filer that the question writes in capitals."""
        symbols = readings.symbols_written(self._filing().tickers, parsed.text)
        return tuple(
            rank.TermSignal(term.source, self._is_common(term), bool(symbols.intersection(term.phrase.split())))
            for term in parsed.terms
        )

    def _exhibit_pages(self) -> tuple[tuple[int, str, str, bool], ...]:
        """Every page of the exhibits the revision attaches: (page id, the exhibit's number, its
        title, whether the exhibit starts on the page), in page order."""
        found = []
        for page, heading, origin in self.conn.execute(queries.EXHIBIT_PAGES_SQL, {"revision": self.revision.revision_id}):
            number, title = queries.exhibit_heading(heading)
            found.append((page, number, title, origin == "title"))
        return tuple(found)

    def _item_labels(self, parsed: ParsedQuestion) -> tuple[str, ...]:
        """The section labels of the Items the question names, by the numbering of the form
        this revision was read as (a 10-Q's Part II, Item 2 is not a 10-K's Item 2)."""
        from .forms import item_labels  # a question that names an Item only

        form = store.revision_form(self.conn, self.revision.revision_id)
        return tuple(label for part, number in parsed.items for label in item_labels(form, number, part))

    def _aside_pages(self) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
        """The pages ``rank.set_aside`` may set aside, of the whole revision (the ranking never
        depends on how many pages are shown): (pages of definitions, pages of the exhibits that
        are instruments, pages of contents)."""
        from .exhibits import instrument_labels

        own = ("definitions", rank.CONTENTS)
        labels = [*own, *sorted(instrument_labels())]
        found = queries.pages_with_labels(self.conn, self.revision.revision_id, labels, own)
        return (
            frozenset(page for page, on in found.items() if "definitions" in on),
            frozenset(page for page, on in found.items() if on - set(own)),
            frozenset(page for page, on in found.items() if rank.CONTENTS in on),
        )

    def _passages(self, parsed: ParsedQuestion, marks: Mapping[int, tuple[str, str]],
                  read: dict | None = None) -> dict[int, Passage]:
        """The best passage of each page (evidence.py), read from its text with the question's
        matches marked by FTS5 (the terms the lexical list matched); ``read``, when given, gets
        each page's lines and the concepts on each (``evidence.read_lines``)."""
        concepts = self._concepts(parsed)
        if not concepts:
            return {}
        fact, window = parsed.fact, self.method.window
        passages = {}
        for page_id, (text, _) in marks.items():
            lines, held = evidence.read_lines(text, concepts)
            if read is not None:
                read[page_id] = (lines, held)
            passages[page_id] = evidence.best_passage(lines, held, concepts, window, fact)
        return passages

    def _concept_signals(self, parsed: ParsedQuestion) -> tuple[rank.ConceptSignal, ...]:
        """The question's concepts (``_concepts``, in its order) as the learned stage reads them:
        each one's weight, the pages holding it, whether it is a year."""
        concepts = self._concepts(parsed)
        kept = [(idea, count) for idea, count in zip(parsed.ideas, self._frequencies(parsed))
                if any(evidence.stems(phrase) for phrase in idea.phrases)]
        return tuple(rank.ConceptSignal(concept.weight, count, idea.year) for concept, (idea, count) in zip(concepts, kept))

    def _page_signals(self, parsed: ParsedQuestion, pages, marks, read: Mapping, targets: list[str],
                      concept_signals: tuple = (), reason: bool = False) -> dict:
        """What the learned stage reads of each candidate (``rank.PageSignal``): its page number,
        the statement it is and how it belongs to the targeted sections (SQL), and from its
        marked text and headings: its lines, those with a figure, those where a line item of the
        question sits beside a figure, and the question's concepts in its text and headings;
        where the question asks the reasons of a change (``reason``), the lines stating a change
        and its cause (``readings.explaining``)."""
        concepts = self._concepts(parsed)
        items = frozenset(i for i, concept in enumerate(concepts) if concept.line_item)
        periods = [(i, concept.label) for i, (concept, signal) in enumerate(zip(concepts, concept_signals)) if signal.year]
        places = queries.page_places(self.conn, list(pages), targets)
        found = {}
        for page in pages:
            number, statement, origin = places.get(page, (0, None, None))
            lines, held = read.get(page, ((), {}))
            heading = marks[page][1] if page in marks else ""
            on_heading = evidence.read_lines(heading, concepts)[1] if concepts and "\x02" in heading else {}
            text = "\n".join(lines)
            lower = text.lower() if periods else ""
            found[page] = rank.PageSignal(
                number=number, lines=len(lines), characters=len(text), digits=readings.digits(text),
                rows=sum(1 for i, on in held.items() if not items.isdisjoint(on) and evidence.has_figure(lines[i])),
                on_lines=tuple(sorted(held.items())),
                heading=frozenset().union(*on_heading.values()) if on_heading else frozenset(),
                printed=frozenset(i for i, label in periods if label in lower),
                origin=origin, statement=statement,
                explained=readings.explaining(lines) if reason else frozenset(),
            )
        return found

    def _shown(self, plan: Plan, page_ids) -> Plan:
        """The plan with the evidence lines a user reads of these pages in its passages
        (``present.shown_passages``); what the ranking read (``plan.signals``) is as it was."""
        read = self._read[1] if self._read[0] is plan.parsed else None  # (the lines its ranking read)
        passages = shown_passages(plan.passages, plan.marks, page_ids, self._concepts(plan.parsed), plan.parsed,
                                  plan.facts, FACTS_LEAST, read)
        return plan._replace(passages=passages)

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
            kept = [(p, tier) for p, tier in zip((evidence.stems(phrase) for phrase in idea.phrases),
                                                  tiers(idea, self.method.metrics)) if p]
            if not kept:
                continue
            phrases, ranks = tuple(p for p, _ in kept), tuple(t for _, t in kept)
            if idea.year or idea.source:  # a column, or the statement itself: not a line to find
                concepts.append(evidence.Concept(idea.label, phrases, 0.0, line_item=False, tiers=ranks))
                continue
            weight = math.log(1 + (pages - count + 0.5) / (count + 0.5))
            concepts.append(evidence.Concept(idea.label, phrases, weight, tiers=ranks, filer=self._names_filer(idea, parsed)))
        self._weighed = (parsed, tuple(concepts))
        return self._weighed[1]

    def _names_filer(self, idea, parsed: ParsedQuestion) -> bool:
        """Does a question's idea name the filer (``present.names_filer``: the cover's words
        that are on most of the filing's pages, read once)?"""
        if self._filer is None:
            cover = {normal(w) for w in tokens(queries.opening_text(self.conn, self.revision.revision_id, 1))}
            self._filer = frozenset(cover & self._common_words())
        return names_filer(idea.label, parsed.reading.english if parsed.reading is not None else parsed.text, self._filer)

    def _facts(self, parsed: ParsedQuestion):
        """The revision's inline-XBRL facts that match the question's line items and the pages
        tagging them (``concepts.asked_facts``; the filer's name matches nothing), kept for the
        question's ranking and its hits; the facts' (concept, row label) pairs indexed once."""
        if self._looked[0] is not parsed:
            if self._fact_labels is None and not queries.has_facts(self.conn, self.revision.revision_id):
                self._fact_labels = ()  # (a PDF's: neither concepts.py nor factstore.py imported)
            if self._fact_labels == ():
                self._looked = (parsed, NO_FACTS)
                return NO_FACTS
            from . import concepts, factstore

            if self._fact_labels is None:
                labels = factstore.fact_labels(self.conn, self.revision.revision_id)
                self._fact_labels = concepts.Index(labels, common=self._common_words())
            ideas = {c.label: c.weight for c in self._concepts(parsed) if not c.filer}
            fetch = functools.partial(factstore.facts_of_labels, self.conn, self.revision.revision_id)
            self._looked = (parsed, concepts.asked_facts(parsed, self._fact_labels, ideas, fetch, FACTS_LEAST))
        return self._looked[1]

    def _listed(self, parsed: ParsedQuestion, page_ids) -> dict:
        """The facts each of these pages' hits lists (``hitfacts.HitFacts``: those of the page
        that match the question, else those it prints that another page tags; the filer's name
        matches nothing)."""
        if not page_ids or self._fact_labels is None or not (self._fact_labels or self.revision.source_kind in PRINTED_FOR):
            return {}
        if self._hit_facts is None:
            from .hitfacts import HitFacts

            self._hit_facts = HitFacts(self.conn, self.revision.revision_id, self._fact_labels.labels if self._fact_labels else (), self.revision.source_kind)
        ideas = {c.label: c.weight for c in self._concepts(parsed) if not c.filer}
        return self._hit_facts.listed(parsed, ideas, page_ids, FACTS_SHOWN)

    def _pages_indexed(self) -> int:
        """The pages of the full-text index, every revision's (what its term counts count)."""
        if self._indexed is None:
            self._indexed = store.count_pages(self.conn)
        return self._indexed

    def _frequencies(self, parsed: ParsedQuestion) -> tuple[int, ...]:
        """For each of the question's ideas, how many pages hold it. An idea of single words is
        read from the index's own term counts (one lookup for all of them; where its words are
        several, the pages of the commonest); an idea with a phrase is counted by FTS5 (kept
        for the finder's life). The counts span every revision of the file, as bm25's do. Kept
        for the last question (its weights, its signals and its absent ideas read them)."""
        if self._frequent[0] is parsed:
            return self._frequent[1]
        stemmed = [[evidence.stems(phrase) for phrase in idea.phrases] for idea in parsed.ideas]
        words = {p[0] for phrases in stemmed for p in phrases if len(p) == 1}
        missing = sorted(words - self._terms.keys())
        if missing:
            self._terms.update(dict.fromkeys(missing, 0))
            self._terms.update(queries.term_pages(self.conn, missing))
        counts = self._terms
        found = []
        for idea, phrases in zip(parsed.ideas, stemmed):
            if all(len(p) <= 1 for p in phrases):
                found.append(max((counts.get(p[0], 0) for p in phrases if p), default=0))
                continue
            found.append(self._pages_holding(idea))
        self._frequent = (parsed, tuple(found))
        return self._frequent[1]

    def _pages_holding(self, idea, revision_id: int | None = None) -> int:
        """How many pages of ``revision_id`` (of every revision: None) any of an idea's phrases
        matches, counted by FTS5; kept for the finder's life, for each scope apart."""
        match = " OR ".join(Term(phrase, "question").fts for phrase in idea.phrases)
        if (match, revision_id) not in self._holding:
            self._holding[match, revision_id] = queries.matching_pages(self.conn, match, revision_id)
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
        plan = self._shown(plan, ids)
        listed = self._listed(parsed, ids)
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
                    confidence=plan.confidence.get(page_id),
                    evidence_columns=evidence_columns(plan.passages.get(page_id)),
                    facts=listed.get(page_id, ()),
                )
            )
        outcome = None
        if not hits:
            outcome = "no_match"
        elif not rank.covers(plan.signals.terms, readings.on_page(parsed, plan.marks.get(ids[0], ("", "")))):
            outcome = "weak_match"
        elif rank.doubtful(hits[0].confidence):
            outcome = "doubtful"
        absent = self.absent(parsed)
        if outcome in (None, "doubtful") and absent and parsed.reading is None:
            absent = specific(absent, parsed)
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
        """The labels of the question's own ideas (``units``) no page of the revision holds (``held``)."""
        held = self.held(parsed)
        return tuple(idea.label for idea, count, unit in zip(parsed.ideas, held, units(parsed.ideas)) if unit and not count)

    def _common_words(self) -> frozenset[str]:
        """The revision's words on more than half its pages (stored at ingest), read once."""
        if self._common is None:
            self._common = store.common_words(self.conn, self.revision.revision_id)
        return self._common

    def _is_common(self, term) -> bool:
        """Is the term on more than half the revision's pages? A word is looked up in the common
        words stored at ingest; a phrase all of whose words are common is counted (once per
        Finder)."""
        words = [normal(w) for w in term.phrase.split()]
        if not all(w in self._common_words() for w in words):
            return False
        if len(words) == 1:
            return True
        if term.phrase not in self._common_phrases:  # counted once per Finder
            count = queries.matching_pages(self.conn, term.fts, self.revision.revision_id)
            self._common_phrases[term.phrase] = count * 2 > self._revision_pages()
        return self._common_phrases[term.phrase]

    def match_terms(self, question: str) -> tuple[str, ...]:
        """The phrases a query for ``question`` matches on this revision's pages, common words
        left out as the query leaves them: the terms its notes show and a page image boxes.
        Empty for a question with no content words."""
        parsed = self.parse(question)
        if parsed.empty or self.revision is None:
            return ()
        kept = lists.lexical_terms(self._term_signals(parsed), self._revision_pages())[0]
        return tuple(parsed.terms[i].phrase for i in kept)

    def concepts(self, question: str) -> tuple[evidence.Concept, ...]:
        """The question's concepts as the evidence lines read them, weighted in this revision (or none)."""
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
        filer = self._registrant() if is_chinese(question) else ""
        parsed = parse(question, metrics=method.metrics, meta=method.meta, pairs=method.pairs, filer=filer)
        if self.revision is None:
            return parsed
        return codes.with_codes(parsed, lambda wanted: store.terms_containing(self.conn, wanted))

    def _registrant(self) -> str:
        """The registrant's name its cover prints (registrant.py), read once; "" without one."""
        if self._name is None:
            from . import registrant  # a Chinese question only

            cover = queries.opening_text(self.conn, self.revision.revision_id, 3) if self.revision is not None else ""
            self._name = registrant.name(cover)
        return self._name

    @_reading
    def explain(self, question: str, top: int = TOP_DEFAULT) -> Plan:
        """The SQL and each ranked list before and after fusion, by page number."""
        self._require_pages()
        parsed = self.parse(question)
        if parsed.empty:
            raise NoContentWordsError(NO_CONTENT_WORDS, key="no_content_words")
        plan = self._ranked(parsed, top)
        plan = self._shown(plan, [page for page, _ in plan.fused[:top]])
        lists = (plan.lexical, plan.statements, plan.sections, plan.expanded, plan.facts_list)
        numbers = self._numbers([page for ranked in lists for page, _ in ranked] + [page for page, _ in plan.fused] + list(plan.named))

        def by_number(ranked):
            return tuple((numbers[page], score) for page, score in ranked)

        return plan._replace(
            document=self.document,
            lexical=by_number(plan.lexical),
            statements=by_number(plan.statements),
            sections=by_number(plan.sections),
            expanded=by_number(plan.expanded),
            facts_list=by_number(plan.facts_list),
            fused=by_number(plan.fused[:top]),
            passages={numbers[page]: passage for page, passage in plan.passages.items()},
            named=tuple(numbers[page] for page in plan.named),
            confidence={numbers[page]: value for page, value in plan.confidence.items() if page in numbers},
        )

    def _numbers(self, page_ids: list[int]) -> dict[int, int]:
        return {pid: row.page_number for pid, row in store.page_rows(self.conn, list(set(page_ids))).items()}

    # -- inspection ------------------------------------------------------------------------

    @_reading
    def pages_labelled(self, label: str) -> list[int]:
        """The physical pages that print the folio ``label`` (their stored page label), in page
        order; an error naming the label when none does."""
        document = self._require_pages()
        found = store.pages_labelled(self.conn, self.revision.revision_id, label)
        if not found:
            labelled = store.labelled_pages(self.conn, self.revision.revision_id)
            why = "it has no printed page labels" if not labelled else f"{labelled} of its pages have one"
            raise UsageError(f"no page is labelled {label.strip()!r} in {document.document_id} ({why})")
        return found

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


def _no_pages(path) -> NoPagesError:
    return NoPagesError(
        f"no pages are loaded in {path}; run `evfind ingest REPORT.pdf --db {path}`", key="no_pages", path=path
    )


def __getattr__(name: str):
    """``describe`` (`evfind info`) lives in describe.py; ``from evfind.finder import describe``
    still finds it, without the query path importing it."""
    if name == "describe":
        from .describe import describe

        return describe
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
