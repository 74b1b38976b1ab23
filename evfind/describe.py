"""What `evfind info` shows: every revision of a database with its pages, blank pages and structure.

    from evfind.describe import describe
    summary = describe("3M_2018_10K.db")   # {"schema_version": 5, "revisions": [...]}

Read-only, like a query; SQLite's errors become evfind's (``store.reading``).
"""

import os

from . import queries, store


def describe(path: str | os.PathLike) -> dict:
    """What `evfind info` shows: every revision with its pages, blank pages and structure."""
    with store.reading(path):
        return _describe(path)


def _describe(path: str | os.PathLike) -> dict:
    from .structure import STATEMENTS  # the statement labels: `evfind info` only

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
        number, title = queries.exhibit_heading(heading)
        exhibits[heading] = {"number": number, "title": title, "heading": heading,
                             "first_page": page_number, "last_page": page_number}
    else:
        entry["first_page"] = min(entry["first_page"], page_number)
        entry["last_page"] = max(entry["last_page"], page_number)

