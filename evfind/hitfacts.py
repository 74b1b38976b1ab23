"""The facts each hit lists, read for one revision: those its page tags that match the question
(``pagefacts``) and, on a page that lists none, those it prints that another page tags
(``printedfacts``). What they read of the store once (the words' rarity, the fiscal years' ends,
the facts by value and page) is kept for the revision; the SQL is factstore's and store's."""

from __future__ import annotations

from . import factstore, pagefacts, printedfacts, store


class HitFacts:
    """One revision's facts as its hits list them (``listed``)."""

    def __init__(self, conn, revision_id: int, labels):
        self.conn, self.revision_id, self.labels = conn, revision_id, labels
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
        question = self.asked(parsed, ideas)
        rows = factstore.facts_on_pages(self.conn, list(page_ids))
        found = pagefacts.by_page(question, rows, self.rarity, most=most)
        untagged = [page for page in page_ids if page not in found]
        if untagged and question.ideas:
            if self._printable is None:
                self._printable = printedfacts.Index(factstore.facts_of_revision(self.conn, self.revision_id), self.labels)
            found.update(printedfacts.listed(question, self.texts(untagged), self._printable, self.rarity, self.texts, most))
        return found
