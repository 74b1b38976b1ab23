"""Several documents of one database asked as one: `evfind query DB "question"` without
--document on a database that holds more than one filing.

    from evfind.multi import open_finder
    with open_finder("filings.db") as finder:        # a Finder, or a MultiFinder
        for hit in finder.query("capital expenditures 2023").results:
            print(hit.document_id, hit.page_number, hit.note)

Each document's newest revision is asked by a ``Finder`` of its own, which ranks that revision's
pages exactly as it does when the document is alone (its lexical list, routes and fusion); the
ranked lists are then merged by ``merge.merge`` (pure), the documents taking turns, the one that
fits the question best first (``merge.document_fit``: the question's ideas it holds, the share of
its pages naming the years asked about, its best bm25), and each hit names its own document and
SHA-256. Nothing here runs SQL.
"""

import os

from .answer import REFUSALS, Answer, Document, compose_message, refused, units
from .errors import EvfindError, UsageError
from .finder import Finder
from .question import QUARTER_WORDS
from .rank import DEFAULT, TOP_DEFAULT, Method


def open_finder(
    path: str | os.PathLike, *, document: str | None = None, sha: str | None = None, method: Method = DEFAULT
) -> "Finder | MultiFinder":
    """A ``Finder`` of the revision ``document`` and ``sha`` pick (as ``Finder`` itself takes
    them); when the database holds several documents and neither picks one, a ``MultiFinder``
    over the newest revision of each. Both answer ``query``, ``answer`` and ``refused`` alike."""
    try:
        return Finder(path, document=document, sha=sha, method=method)
    except UsageError as exc:
        if exc.key != "several_documents":
            raise
        return MultiFinder(path, exc.params["revisions"], method=method)


def _dated(idea) -> bool:
    """Does ``document_fit`` weigh this idea as a year, by the share of a document's pages that
    hold it? Years and months: a filing speaks of its own period on most pages. Not a quarter
    named ("second quarter", "Q2"): among a 10-K and the Q2 10-Q, the quarter tells them apart
    as any idea does, by whether the document holds it at all."""
    return idea.year and not set(idea.label.split()) & QUARTER_WORDS


class MultiFinder:
    """The newest revisions of several documents in one database, asked as one: a ``Finder``
    for each (``finders``, by document id), their answers merged by ``merge.merge``."""

    def __init__(self, path: str | os.PathLike, revisions, *, method: Method = DEFAULT):
        self.path = path
        self.finders: list[Finder] = []
        try:
            for revision in revisions:  # the full SHA-256 pins the revision listed, whatever comes later
                self.finders.append(Finder(path, document=revision.document_id, sha=revision.sha256, method=method))
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> "MultiFinder":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for finder in self.finders:
            finder.close()

    @property
    def documents(self) -> tuple[Document, ...]:
        return tuple(finder.document for finder in self.finders)

    @property
    def empty(self) -> bool:
        """No page is loaded in any of the documents."""
        return all(finder.empty for finder in self.finders)

    def query(self, question: str, top: int = TOP_DEFAULT, lang: str | None = None) -> Answer:
        """The pages most likely to hold the evidence in any of the documents, best first (at
        most ``top``): each document's answer as ``Finder.query`` gives it, merged."""
        from . import merge  # several documents only

        answers = [finder.query(question, top=top, lang=lang) for finder in self.finders]
        lists = [[(hit, hit.score) for hit in answer.results] for answer in answers]
        merged = merge.merge(lists, self.fits(answers))[:top]
        hits = tuple(hit._replace(rank=position) for position, (_, hit, _) in enumerate(merged, start=1))
        first = answers[0]
        outcome = "no_match"
        if merged:
            outcome = answers[merged[0][0]].outcome  # about the top page, from its own document
        absent = tuple(label for label in first.absent if all(label in answer.absent for answer in answers))
        answer = Answer(question, None, hits, None, first.parsed, first.lang, absent=absent, outcome=outcome,
                        documents=self.documents)
        return answer._replace(message=compose_message(answer))

    def fits(self, answers: list[Answer]) -> list[float]:
        """How well each document fits the question (``merge.document_fit``), from its answer:
        the pages holding each of the question's own ideas (``units``), and its lexical list's
        best bm25. A document holding a page the question names outright (where the Exhibit
        10.2 or the Item 7 it asks for begins) fits best: the others only mention it."""
        from . import merge  # several documents only

        best = [answer.plan.lexical[0][1] if answer.plan and answer.plan.lexical else None for answer in answers]
        strongest = min((score for score in best if score is not None), default=None)
        fits = []
        for finder, answer, bm25 in zip(self.finders, answers, best):
            ideas = answer.parsed.ideas
            held = finder.held(answer.parsed)
            own = [(_dated(idea), count) for idea, count, unit in zip(ideas, held, units(ideas)) if unit]
            fit = merge.document_fit(own, finder.document.page_count, bm25, strongest)
            fits.append(float("inf") if answer.plan is not None and answer.plan.named else fit)
        return fits

    def answer(self, question: str, top: int = TOP_DEFAULT, lang: str | None = None) -> Answer:
        """``query``, except that a question evfind cannot ask is answered rather than raised,
        as ``Finder.answer`` does."""
        try:
            return self.query(question, top=top, lang=lang)
        except REFUSALS as exc:
            return self.refused(question, exc, lang)

    def refused(self, question: str, error: EvfindError, lang: str | None = None) -> Answer:
        """The answer to a question that could not be asked: no results, the reason."""
        return refused(question, error, None, lang)._replace(documents=self.documents)

    def explain(self, question: str, top: int = TOP_DEFAULT):
        """A plan is one revision's: the documents are named so that one can be chosen."""
        names = ", ".join(document.document_id for document in self.documents)
        raise UsageError(f"--explain shows one document's plan; choose one with --document (this database holds: {names})")
