"""The store's inline-XBRL tables: the facts an HTML filing tags and where its text blocks run
(the ``facts`` and ``text_blocks`` tables of schema.sql). Ingest writes them; the finder and
``evfind.concepts`` read them. No ranking here."""

import sqlite3
from typing import NamedTuple

from .store import _has_table, in_revision as _in_revision


FACT_COLUMNS = ("concept", "kind", "context", "period_start", "period_end", "instant", "dimensions", "unit",
                "scale", "sign", "decimals", "format", "value", "row_label", "fact_id")


class FactRow(NamedTuple):
    """One stored fact, with its page (see the facts table in schema.sql)."""

    page_id: int
    page_number: int
    concept: str
    kind: str
    context: str | None
    period_start: str | None
    period_end: str | None
    instant: str | None
    dimensions: str | None
    unit: str | None
    scale: int | None
    sign: str | None
    decimals: str | None
    format: str | None
    value: str
    row_label: str | None
    fact_id: str | None


_FACT_SELECT = (
    "SELECT facts.page_id, pages.page_number, " + ", ".join(f"facts.{c}" for c in FACT_COLUMNS)
    + " FROM facts JOIN pages ON pages.id = facts.page_id"
)


def _page_ids(conn: sqlite3.Connection, revision_id: int) -> dict[int, int]:
    return dict(conn.execute("SELECT page_number, id FROM pages WHERE revision_id = ?", (revision_id,)))


def insert_facts(conn: sqlite3.Connection, revision_id: int, facts: list[dict]) -> None:
    """The facts of a revision whose pages are inserted: dicts with ``page`` (its number) and
    the FACT_COLUMNS."""
    from operator import itemgetter

    ids = _page_ids(conn, revision_id)
    columns = itemgetter(*FACT_COLUMNS)
    conn.executemany(
        f"INSERT INTO facts (page_id, {', '.join(FACT_COLUMNS)}) VALUES (?{', ?' * len(FACT_COLUMNS)})",
        [(ids[fact["page"]], *columns(fact)) for fact in facts],
    )
    if _has_table(conn, "fact_labels"):  # (an older file being re-indexed gets it from schema.sql)
        conn.execute(
            "INSERT INTO fact_labels (revision_id, concept, row_label) SELECT DISTINCT :revision, concept, row_label "
            "FROM facts WHERE " + _in_revision("page_id") + " ORDER BY concept, row_label",
            {"revision": revision_id},
        )


def insert_text_blocks(conn: sqlite3.Connection, revision_id: int, blocks: list[dict]) -> None:
    """Where the text blocks of a revision run: dicts with concept, first_page, last_page, heading."""
    ids = _page_ids(conn, revision_id)
    conn.executemany(
        "INSERT INTO text_blocks (first_page_id, last_page_id, concept, heading) VALUES (?, ?, ?, ?)",
        [(ids[b["first_page"]], ids[b["last_page"]], b["concept"], b["heading"]) for b in blocks],
    )


def facts_on_pages(conn: sqlite3.Connection, page_ids: list[int]) -> list[FactRow]:
    """Every fact shown on these pages, in page and document order."""
    if not page_ids or not _has_table(conn, "facts"):
        return []
    marks = ",".join("?" * len(page_ids))
    rows = conn.execute(f"{_FACT_SELECT} WHERE facts.page_id IN ({marks}) ORDER BY facts.id", page_ids)
    return [FactRow(*row) for row in rows]


def revision_concepts(conn: sqlite3.Connection, revision_id: int) -> list[str]:
    """The distinct concepts a revision's facts tag, by name."""
    if not _has_table(conn, "facts"):
        return []
    rows = conn.execute(
        "SELECT DISTINCT concept FROM facts WHERE " + _in_revision("page_id") + " ORDER BY concept",
        {"revision": revision_id},
    )
    return [row[0] for row in rows]


def facts_of_concepts(conn: sqlite3.Connection, revision_id: int, concepts: list[str]) -> list[FactRow]:
    """Every fact of a revision tagged with one of these concepts, in document order."""
    if not concepts or not _has_table(conn, "facts"):
        return []
    names = {f"concept{i}": c for i, c in enumerate(concepts)}
    rows = conn.execute(
        f"{_FACT_SELECT} WHERE facts.concept IN ({','.join(':' + n for n in names)}) "
        f"AND {_in_revision('facts.page_id')} ORDER BY facts.id",
        {**names, "revision": revision_id},
    )
    return [FactRow(*row) for row in rows]


def fact_labels(conn: sqlite3.Connection, revision_id: int) -> list[tuple[str, str | None]]:
    """The distinct (concept, row label) pairs of a revision's facts, by concept: what a
    question's line items are matched against (``concepts.candidates``) before any fact is read.
    Stored at ingest (the fact_labels table); read from the facts for a revision ingested before
    that table existed."""
    if not _has_table(conn, "facts"):
        return []
    if _has_table(conn, "fact_labels"):
        stored = conn.execute("SELECT concept, row_label FROM fact_labels WHERE revision_id = ? ORDER BY rowid",
                              (revision_id,)).fetchall()
        if stored:
            return [(concept, row_label) for concept, row_label in stored]
    rows = conn.execute(
        "SELECT DISTINCT concept, row_label FROM facts WHERE " + _in_revision("page_id") + " ORDER BY concept, row_label",
        {"revision": revision_id},
    )
    return [(concept, row_label) for concept, row_label in rows]


def facts_of_labels(conn: sqlite3.Connection, revision_id: int, labels: list[tuple[str, str | None]]) -> list[FactRow]:
    """Every fact of a revision with one of these (concept, row label) pairs, in document order."""
    if not labels or not _has_table(conn, "facts"):
        return []
    wanted = set(labels)
    found = facts_of_concepts(conn, revision_id, sorted({concept for concept, _ in labels}))
    return [fact for fact in found if (fact.concept, fact.row_label) in wanted]


def facts_of_revision(conn: sqlite3.Connection, revision_id: int) -> list[FactRow]:
    """Every fact of a revision, in document order (a few thousand rows for a 10-K)."""
    if not _has_table(conn, "facts"):
        return []
    rows = conn.execute(f"{_FACT_SELECT} WHERE {_in_revision('facts.page_id')} ORDER BY facts.id",
                        {"revision": revision_id})
    return [FactRow(*row) for row in rows]


def annual_ends(conn: sqlite3.Connection, revision_id: int) -> tuple[str, ...]:
    """The distinct ends of a revision's year-long durations (350 to 380 days): where its fiscal
    years end, as the filing's own periods say."""
    if not _has_table(conn, "facts"):
        return ()
    rows = conn.execute(
        "SELECT DISTINCT period_end FROM facts WHERE " + _in_revision("page_id") + " AND period_start IS NOT NULL "
        "AND julianday(period_end) - julianday(period_start) BETWEEN 350 AND 380 ORDER BY period_end",
        {"revision": revision_id},
    )
    return tuple(row[0] for row in rows)


def fact_count(conn: sqlite3.Connection, revision_id: int) -> int:
    if not _has_table(conn, "facts"):
        return 0
    return conn.execute(
        "SELECT count(*) FROM facts WHERE " + _in_revision("page_id"), {"revision": revision_id}
    ).fetchone()[0]


def text_blocks(conn: sqlite3.Connection, revision_id: int) -> list[dict]:
    """Where each text block of a revision runs: concept, first_page, last_page, heading."""
    if not _has_table(conn, "text_blocks"):
        return []
    rows = conn.execute(
        "SELECT b.concept, f.page_number, l.page_number, b.heading FROM text_blocks b "
        "JOIN pages f ON f.id = b.first_page_id JOIN pages l ON l.id = b.last_page_id "
        "WHERE f.revision_id = ? ORDER BY b.id",
        (revision_id,),
    )
    return [{"concept": c, "first_page": f, "last_page": l, "heading": h} for c, f, l, h in rows]


def dump_facts(conn: sqlite3.Connection, revision_id: int) -> list[dict]:
    """A revision's facts as insert_facts takes them (``page`` and the FACT_COLUMNS): what a
    re-index carries over, since they cannot be read again from the page text."""
    if not _has_table(conn, "facts"):
        return []
    rows = conn.execute(
        f"{_FACT_SELECT} WHERE pages.revision_id = ? ORDER BY facts.id", (revision_id,)
    )
    return [{"page": row[1], **dict(zip(FACT_COLUMNS, row[2:]))} for row in rows]
