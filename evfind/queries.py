"""The SQL a question runs: the one full-text pass (bm25), the route lists, the pages with the
question's matches marked, and the counts the evidence weighs concepts by.

store.py holds the file (its schema, connections, revisions, writes); this module the queries
the finder gathers a question's signals with (``Finder._gather``). Every statement reads one
revision's pages, which are a range of ids (``_in_revision``); none writes.
"""

import sqlite3

from .store import in_revision as _in_revision

def bm25(weights: tuple[float, ...]) -> str:
    """bm25() with column weights for (text, heading, context); numbers of evfind's own."""
    return "bm25(pages_fts, " + ", ".join(str(float(w)) for w in weights) + ")"


_REVISION_ROWIDS = _in_revision("pages_fts.rowid")


def lexical_sql(weights: tuple[float, ...]) -> str:
    """Every page of one revision matching an FTS5 expression, best bm25 first (bm25 is
    negative). The one full-text pass of a query: the other lists reuse these scores."""
    return (
        f"SELECT pages_fts.rowid, {bm25(weights)} AS score "
        "FROM pages_fts JOIN pages ON pages.id = pages_fts.rowid "
        f"WHERE pages_fts MATCH :match AND {_REVISION_ROWIDS} AND pages.revision_id = :revision "
        "ORDER BY score"
    )


def label_params(labels: list[str]) -> dict[str, str]:
    return {f"label{i}": label for i, label in enumerate(labels)}


def _label_marks(labels: list[str]) -> str:
    return ",".join(f":label{i}" for i in range(len(labels)))


def statement_sql(labels: list[str]) -> str:
    """The primary statement pages of the main block of these kinds: (page id, kind, page)."""
    return (
        "SELECT pages.id, pages.statement, pages.page_number FROM page_sections "
        "JOIN pages ON pages.id = page_sections.page_id "
        "WHERE page_sections.label = 'primary_statements' "
        f"AND {_in_revision('page_sections.page_id')} "
        f"AND pages.statement IN ({_label_marks(labels)})"
    )


def section_sql(labels: list[str], origins: tuple[str, ...]) -> str:
    """The pages of one revision in one of the target sections, by the given origins: a
    heading on the page, or the section carried onto it. (A revision's pages have contiguous
    ids, so the label index drives the search.)"""
    origin_list = ",".join(f"'{o}'" for o in origins)  # evfind's own constants, never user text
    return (
        "SELECT DISTINCT page_id FROM page_sections "
        f"WHERE label IN ({_label_marks(labels)}) AND origin IN ({origin_list}) AND {_in_revision('page_id')}"
    )


# Every page of the exhibits one revision attaches, headed "Exhibit 10.2 - <title>" (see
# page_sections in schema.sql), and how each is (origin "title" on the exhibit's first page).
EXHIBIT_PAGES_SQL = (
    f"SELECT page_id, heading, origin FROM page_sections WHERE label = 'exhibit' AND {_in_revision('page_id')} "
    "ORDER BY page_id"
)


def exhibit_heading(heading: str) -> tuple[str, str]:
    """(number, title) of an exhibit's heading as page_sections stores it: "Exhibit 10.1 -
    Five-Year Credit Agreement"."""
    number, _, title = heading.removeprefix("Exhibit ").partition(" - ")
    return number, title


def opening_text(conn: sqlite3.Connection, revision_id: int, pages: int) -> str:
    """The (normalised) text of a revision's first ``pages`` pages, one after the other."""
    rows = conn.execute(
        "SELECT text FROM pages WHERE revision_id = ? AND page_number <= ? ORDER BY page_number", (revision_id, pages)
    )
    return "\n".join(text for (text,) in rows)


def item_sql(labels: list[str]) -> str:
    """The Item headings of one revision with these section labels, where each starts (origin
    title or started): (page id, label, heading), in page order."""
    return (
        "SELECT page_id, label, heading FROM page_sections "
        f"WHERE label IN ({_label_marks(labels)}) AND origin IN ('title', 'started') "
        f"AND (heading LIKE 'item%' OR heading LIKE 'part%') AND {_in_revision('page_id')} ORDER BY page_id"
    )


def marked(conn: sqlite3.Connection, match: str, page_ids: list[int], revision_id: int) -> dict[int, tuple[str, str]]:
    """(text, heading) of each of these pages that matches the expression, every match marked
    by \\x02 ... \\x03 (FTS5 highlight()): what evidence.py reads the evidence lines from and
    the notes their matched terms. One full-text pass over the revision (its rowid range); the
    page list is a filter FTS5 is not handed (``+rowid``): FTS5 would run the query again for
    every page of a ``rowid IN`` list."""
    if not page_ids:
        return {}
    pages = {f"page{i}": page_id for i, page_id in enumerate(page_ids)}
    rows = conn.execute(
        "SELECT rowid, highlight(pages_fts, 0, char(2), char(3)), highlight(pages_fts, 1, char(2), char(3)) "
        f"FROM pages_fts WHERE pages_fts MATCH :match AND {_in_revision('rowid')} "
        f"AND +rowid IN ({','.join(':' + name for name in pages)})",
        {"match": match, "revision": revision_id, **pages},
    )
    return {page: (text, heading) for page, text, heading in rows}


def has_facts(conn: sqlite3.Connection, revision_id: int) -> bool:
    """Does the revision tag any inline-XBRL fact (a file without the facts table, or a filing
    ingested from PDF, tags none)?"""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'facts'").fetchone() is None:
        return False
    return conn.execute(f"SELECT 1 FROM facts WHERE {_in_revision('page_id')} LIMIT 1",
                        {"revision": revision_id}).fetchone() is not None


def term_pages(conn: sqlite3.Connection, terms: list[str]) -> dict[str, int]:
    """How many pages (of every revision) hold each of these index terms (Porter stems, as
    FTS5 stores them), read from the index itself through an fts5vocab table made for the
    connection (in its temp schema: the file is never written)."""
    if not terms:
        return {}
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.evfind_terms USING fts5vocab(main, pages_fts, 'row')")
    rows = conn.execute(f"SELECT term, doc FROM temp.evfind_terms WHERE term IN ({','.join('?' * len(terms))})", terms)
    return dict(rows.fetchall())


def pages_with_labels(
    conn: sqlite3.Connection, revision_id: int, labels: list[str], own: tuple[str, ...] = ()
) -> dict[int, frozenset[str]]:
    """The pages of one revision that have any of these section labels: {page id: its labels}.
    The labels in ``own`` count only where the page itself is that section (a heading or a
    title on it), not where the section is carried onto it from an earlier page."""
    if not labels:
        return {}
    owned = {f"own{i}": label for i, label in enumerate(own)}
    rows = conn.execute(
        f"SELECT page_id, label FROM page_sections WHERE label IN ({_label_marks(labels)}) "
        f"AND {_in_revision('page_id')} "
        f"AND NOT (origin = 'carried' AND label IN ({','.join(':' + name for name in owned) or 'NULL'}))",
        {**label_params(labels), "revision": revision_id, **owned},
    )
    found: dict[int, set[str]] = {}
    for page_id, label in rows:
        found.setdefault(page_id, set()).add(label)
    return {page: frozenset(labels) for page, labels in found.items()}


def matching_pages(conn: sqlite3.Connection, match: str, revision_id: int | None = None) -> int:
    """How many pages of a revision (of every revision: None) match an FTS5 expression."""
    if revision_id is None:
        return conn.execute("SELECT count(*) FROM pages_fts WHERE pages_fts MATCH ?", (match,)).fetchone()[0]
    return conn.execute(
        f"SELECT count(*) FROM pages_fts WHERE pages_fts MATCH :match AND {_REVISION_ROWIDS}",
        {"match": match, "revision": revision_id},
    ).fetchone()[0]


# How a page belongs to a section, strongest first (page_sections.origin): a heading or title on
# it, a section started on it, the statement it is, a section carried onto it.
_ORIGINS = ("title", "started", "statement", "carried")


def page_places(conn: sqlite3.Connection, page_ids: list[int], labels: list[str]) -> dict[int, tuple[int, str | None, str | None]]:
    """For each of these pages: (its page number, the primary statement it is, how it belongs
    to the sections ``labels`` name: the strongest of their origins on it, None where it is
    in none). What the learned last stage reads of a candidate's place."""
    if not page_ids:
        return {}
    ids = ",".join("?" * len(page_ids))
    found = {page: [number, statement, None] for page, number, statement in
             conn.execute(f"SELECT id, page_number, statement FROM pages WHERE id IN ({ids})", page_ids)}
    if labels:
        rows = conn.execute(
            f"SELECT page_id, origin FROM page_sections WHERE page_id IN ({ids}) AND label IN ({','.join('?' * len(labels))})",
            [*page_ids, *labels],
        )
        strength = {origin: i for i, origin in enumerate(_ORIGINS)}
        for page, origin in rows:
            held = found[page][2]
            if held is None or strength.get(origin, 9) < strength.get(held, 9):
                found[page][2] = origin
    return {page: tuple(value) for page, value in found.items()}
