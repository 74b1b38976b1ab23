"""The facts each hit lists, read for one revision: those its page tags that match the question
(``pagefacts``) and, on a page that lists none, those it prints that another page tags
(``printedfacts``) and, on a page that still lists none, of a filing whose kind
``pagefigures.PRINTED_FOR`` names, the figures it prints that match (``pagefigures``). What they read of the store once (the words' rarity, the fiscal years' ends,
the facts by value and page) is kept for the revision; the SQL is factstore's and store's."""

from __future__ import annotations

from . import factstore, pagefacts, pagefigures, printedfacts, store


class HitFacts:
    """One revision's facts as its hits list them (``listed``)."""

    def __init__(self, conn, revision_id: int, labels, source_kind: str = "pdf"):
        self.conn, self.revision_id, self.labels = conn, revision_id, labels
        self.figures = source_kind in pagefigures.PRINTED_FOR  # do its hits list the figures pages print?
        self.rarity = pagefacts.rarity(labels)  # each word's rarity among the (concept, row label) pairs
        self.year_ends = factstore.annual_ends(conn, revision_id)  # where its fiscal years end
        self._printable = None  # its facts by value and by page (printedfacts.Index), read where first needed

    def asked(self, parsed, ideas) -> pagefacts.Asked:
        """The question as the lists read it: its line-item ideas (``ideas``), its periods."""
        return pagefacts.asked(parsed, ideas)._replace(year_ends=self.year_ends)

    def texts(self, page_ids) -> dict[int, str]:
        return {page: row.text for page, row in store.page_rows(self.conn, list(page_ids)).items()}

    def listed(self, parsed, ideas, page_ids, most: int) -> dict:
        """page id -> the facts its hit lists, best first, at most ``most``."""
        if not self.labels and not self.figures:
            return {}  # a filing that tags no fact, of a kind whose printed figures are not listed
        question = self.asked(parsed, ideas)
        rows = factstore.facts_on_pages(self.conn, list(page_ids))
        found = pagefacts.by_page(question, rows, self.rarity, most=most)
        untagged = [page for page in page_ids if page not in found]
        if untagged and question.ideas:
            if self._printable is None:
                self._printable = printedfacts.Index(factstore.facts_of_revision(self.conn, self.revision_id), self.labels)
            rows = store.page_rows(self.conn, untagged)
            texts = {page: row.text for page, row in rows.items()}
            if self._printable.by_value:
                found.update(printedfacts.listed(question, texts, self._printable, self.rarity, self.texts, most))
            for page in (page for page in untagged if self.figures and page not in found and page in rows):
                if figures := pagefigures.listed(question, texts[page], self.rarity, most=most, page_id=page,
                                                 page_number=rows[page].page_number):
                    found[page] = figures
        return found
