"""The SQL of re-indexing (`evfind upgrade`, ``ingest.reindex``): whether a file is whole, its
revisions and their pages' extracted text read with the columns every schema version evfind
ever wrote has, and evfind's tables dropped, to be written again in the current schema. Apart
from store.py, which holds the current schema's reads and writes; ingest.py runs the re-index."""

from __future__ import annotations

import sqlite3

from .store import revisions


def intact(conn: sqlite3.Connection) -> bool:
    """Does SQLite find every table and index of the file whole (PRAGMA quick_check)?"""
    return conn.execute("PRAGMA quick_check(1)").fetchone()[0] == "ok"


def dump_sources(conn: sqlite3.Connection) -> list[tuple[dict, list[dict]]]:
    """Every revision and its pages' extracted text, read with the columns every schema
    version has, to rebuild the tables from."""
    from .packing import unpack_text  # the re-index only: queries never unpack

    saved = []
    for revision in revisions(conn):
        meta = {
            "document_id": revision.document_id,
            "sha256": revision.sha256,
            "source_name": revision.source_name,
            "source_kind": revision.source_kind,
            "page_count": revision.page_count,
            "ingested_at": revision.ingested_at,
        }
        pages = [
            {"page_label": label, "raw": unpack_text(raw, text), "text": text}
            for label, text, raw in conn.execute(
                "SELECT page_label, text, raw_text FROM pages WHERE revision_id = ? ORDER BY page_number",
                (revision.revision_id,),
            )
        ]
        saved.append((meta, pages))
    return saved


def drop_all(conn: sqlite3.Connection) -> None:
    """Drop evfind's tables and reset the version marks (inside the caller's transaction)."""
    for table in ("pages_fts", "page_sections", "common_words", "sources", "facts", "fact_labels", "text_blocks", "pages",
                  "documents"):
        conn.execute(f"DROP TABLE IF EXISTS {table}")
    conn.execute("PRAGMA application_id = 0")
    conn.execute("PRAGMA user_version = 0")
