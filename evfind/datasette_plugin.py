"""evfind inside Datasette: the plugin Datasette loads from evfind's entry point.

Installed with ``pip install 'evfind[browse]'`` (Datasette 0.65). For every evfind database
Datasette serves (a file marked with evfind's application_id) it registers:

- ``evfind_query(question [, top [, sha [, document]]])``, an SQL function returning the JSON
  object of ``evfind query --format json``: evfind's own ranking, computed by
  :class:`evfind.Finder` on the file the SQL runs against. The ``ask`` query reads it with
  ``json_each(evfind_query(:question, ASK_TOP), '$.results')``;
- the configuration in ``datasette_metadata.yaml`` (titles, descriptions, facets, full-text
  search on ``pages``, and the ``ask``, ``search`` and ``page`` queries) under the database's
  name, so plain ``datasette REPORT.db`` shows the same as ``evfind serve REPORT.db``;
- cell rendering: page numbers link to the page's text, snippets show their highlights, and a
  page's text is shown whole.

Other databases in the same Datasette are left alone.
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
import weakref
from functools import lru_cache
from importlib import resources
from urllib.parse import urlencode

from datasette import hookimpl
from markupsafe import Markup, escape

from . import store, writes
from .errors import EvfindError, UsageError
from .rank import TOP_DEFAULT
from .render import SHORT_SHA  # as the CLI's table shows it; the full hash is in the JSON and the page view
from .zh import LABELS

METADATA_FILE = "datasette_metadata.yaml"
ASK_TOP = 10  # pages the ask query lists
# What the queries of METADATA_FILE write as {name}: filled in from the one definition here.
SQL_VALUES = {
    "ask_top": str(ASK_TOP),
    "continues": LABELS["en"]["continues"].replace("'", "''"),  # inside an SQL string literal
}
TEXT_STYLE = "font-family: monospace; white-space: pre-wrap; min-width: 48em"
SHA_STYLE = "word-break: break-all; display: inline-block; max-width: 12em"
_MARK = re.compile(r"(</?mark>)")

# Datasette instance -> {(database name, path): document ids, or None when not evfind's}
_known: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


# --------------------------------------------------------------------------------------------
# The SQL function


def answer_json(path, question, top=None, sha=None, document=None) -> str:
    """What ``evfind_query()`` returns: the ``--format json`` object of ``Finder.query``.

    SQL passes every argument as text or NULL (a canned query's empty field is ''), so empty
    values mean "the default". An error the user can fix (no content words, a bad revision)
    is not raised into SQLite, where it would read "user-defined function raised exception":
    it comes back as the same object with no results and the message ``Error: ...`` (in the
    question's language), as ``finder.refused`` builds it.
    """
    from .finder import Finder, refused

    text = "" if question is None else str(question)
    try:
        top = _top(top, TOP_DEFAULT)
        with Finder(path, document=document or None, sha=sha or None) as finder:
            answer = finder.answer(text, top=top)
    except EvfindError as exc:
        answer = refused(text, exc)
    if answer.error is not None:  # the ask view shows the message as a row: mark it an error
        answer = answer._replace(message=f"Error: {answer.message}")
    return json.dumps(answer.to_dict(), ensure_ascii=False)


def _top(value, default: int) -> int:
    if value is None or (isinstance(value, str) and not value.strip()):
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise UsageError(f"top must be a whole number, not {value!r}") from None


@hookimpl
def prepare_connection(conn, database, datasette):
    db = datasette.databases.get(database)
    path = getattr(db, "path", None)
    if not path or getattr(db, "is_memory", False):
        return
    try:
        if store.identify(conn)[0] != store.APPLICATION_ID:
            return
    except Exception:  # a file Datasette can open but not read: not ours to configure
        return

    def evfind_query(question, top=None, sha=None, document=None):
        return answer_json(path, question, top, sha, document)

    conn.create_function("evfind_query", -1, evfind_query)


# --------------------------------------------------------------------------------------------
# A database rewritten while Datasette runs


@lru_cache(maxsize=1)
def _reopening_database_class():
    from datasette.database import Database, connections

    class ReopeningDatabase(Database):
        """A Datasette database that reconnects when its file was replaced.

        evfind writes a database as a new file renamed into place, so a connection opened
        before an ingest keeps reading the file as it was: pages of a revision ingested while
        the server runs would not open. Each query checks (one stat) that its connection reads
        the file now at the path, and opens a new one where it does not. Datasette 0.65 keeps
        one connection per thread (``connections``, keyed by the database's name).
        """

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._opened_on: dict[int, tuple[int, int] | None] = {}

        def _current(self, conn):
            if conn is not None and self._opened_on.get(id(conn)) == writes.file_identity(self.path):
                return conn
            if conn is not None:
                self._opened_on.pop(id(conn), None)
                conn.close()  # this thread's own connection, to the replaced file
            conn = self.connect()
            self._opened_on[id(conn)] = writes.file_identity(self.path)
            self.ds._prepare_connection(conn, self.name)
            return conn

        async def execute_fn(self, fn):
            if self.ds.executor is None:  # Datasette's non-threaded mode
                self._read_connection = self._current(self._read_connection)
                return fn(self._read_connection)

            def in_thread():
                conn = self._current(getattr(connections, self.name, None))
                setattr(connections, self.name, conn)
                return fn(conn)

            return await asyncio.get_event_loop().run_in_executor(self.ds.executor, in_thread)

    return ReopeningDatabase


@hookimpl
def startup(datasette):
    """Serve every evfind database through a database that follows its file (above)."""
    reopening = _reopening_database_class()
    for name in evfind_databases(datasette):
        db = datasette.databases[name]
        if isinstance(db, reopening):
            continue
        fresh = reopening(datasette, path=db.path, is_mutable=db.is_mutable)
        datasette.remove_database(name)
        datasette.add_database(fresh, name=name, route=db.route)


# --------------------------------------------------------------------------------------------
# Which databases are evfind's, and their configuration


def _document_ids(path) -> tuple[str, ...] | None:
    """The document ids of an evfind database, or None when the file is not one evfind reads."""
    try:
        conn = store.connect_read(path)
    except EvfindError:
        return None
    try:
        return tuple(dict.fromkeys(r.document_id for r in store.revisions(conn)))
    finally:
        conn.close()


def evfind_databases(datasette) -> dict[str, tuple[str, ...]]:
    """{database name: document ids} for the evfind databases this Datasette serves."""
    known = _known.setdefault(datasette, {})
    found = {}
    for name, db in list(datasette.databases.items()):
        path = getattr(db, "path", None)
        if not path or getattr(db, "is_memory", False):
            continue
        key = (name, str(path))
        if key not in known:
            known[key] = _document_ids(path)
        if known[key] is not None:
            found[name] = known[key]
    return found


@lru_cache(maxsize=1)
def database_template() -> dict:
    """The parsed datasette_metadata.yaml: the configuration of one evfind database, with the
    values its queries name ({ask_top}, {continues}) filled in from ``SQL_VALUES``."""
    import yaml  # a dependency of Datasette

    text = resources.files("evfind").joinpath(METADATA_FILE).read_text(encoding="utf-8")
    metadata = yaml.safe_load(text)
    for query in metadata["queries"].values():
        for name, value in SQL_VALUES.items():
            query["sql"] = query["sql"].replace("{" + name + "}", value)
    return metadata


def database_metadata(datasette, name: str, document_ids: tuple[str, ...]) -> dict:
    """The configuration of one evfind database, for its name and documents."""
    metadata = copy.deepcopy(database_template())
    metadata["title"] = ", ".join(document_ids) or name
    metadata["description_html"] = metadata["description_html"].replace(
        "{database_url}", datasette.urls.database(name)
    )
    return metadata


@hookimpl
def get_metadata(datasette, key, database, table):
    databases = evfind_databases(datasette)
    if not databases:
        return None
    return {
        "databases": {
            name: database_metadata(datasette, name, ids) for name, ids in databases.items()
        }
    }


# --------------------------------------------------------------------------------------------
# Cells


@hookimpl
def render_cell(row, value, column, table, database, datasette):
    """In the results of the ask, search and page queries (rows with page and sha256)."""
    if table is not None or column not in ("page", "snippet", "text", "sha256"):
        return None
    try:
        columns = row.keys()
    except AttributeError:
        return None
    if "page" not in columns or "sha256" not in columns:
        return None
    if database not in evfind_databases(datasette):
        return None
    if column == "page" and isinstance(value, int):
        page_url = datasette.urls.database(database) + "/page?"
        sha = row["sha256"]
        if "text" not in columns:  # a ranked list: the page number opens the page
            return Markup('<a href="{}">{}</a>').format(page_url + urlencode({"page": value, "sha": sha}), value)
        return _page_navigation(page_url, value, row["of_pages"] if "of_pages" in columns else None, sha)
    if column == "snippet" and isinstance(value, str):
        return _highlighted(value)
    if column == "text" and isinstance(value, str):
        # Whole (Datasette would cut it short) and in a fixed-width font, so the columns of a
        # financial statement line up as extracted.
        return Markup('<div style="{}">{}</div>').format(TEXT_STYLE, value)
    if column == "sha256" and isinstance(value, str):
        if "text" in columns:  # the page view: all of it
            return Markup('<code style="{}">{}</code>').format(SHA_STYLE, value)
        return Markup('<code title="{}">{}</code>').format(value, value[:SHORT_SHA])
    return None


def _highlighted(snippet: str) -> Markup:
    """FTS5 snippet text with <mark> around the matches: the text escaped, the marks kept."""
    return Markup("").join(
        Markup(part) if part in ("<mark>", "</mark>") else escape(part) for part in _MARK.split(snippet)
    )


def _page_navigation(page_url: str, page: int, of_pages, sha: str) -> Markup:
    """In the page view: the page number between links to the previous and the next page."""
    parts = []
    if page > 1:
        parts.append(Markup('<a href="{}" rel="prev">‹ {}</a>').format(page_url + urlencode({"page": page - 1, "sha": sha}), page - 1))
    parts.append(Markup("<b>{}</b>").format(page))
    if isinstance(of_pages, int) and page < of_pages:
        parts.append(Markup('<a href="{}" rel="next">{} ›</a>').format(page_url + urlencode({"page": page + 1, "sha": sha}), page + 1))
    return Markup('<span style="white-space: nowrap">{}</span>').format(Markup(" ").join(parts))
