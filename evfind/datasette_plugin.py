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
- ``evfind_mark(text, marks)``, an SQL function putting ``<mark>`` around the marks of an
  evidence line, for the ask query's ``evidence`` column;
- ``evfind_page_image(page, sha [, question])``, an SQL function giving the address of a page's
  image (or, when it has none, why), which the ``page`` query shows beside the text;
- the route ``/-/evfind/DB/page-image?page=N&sha=SHA&question=...`` serving that image, a PNG
  of the page as it looks in the source PDF with the question's terms boxed
  (``evfind.pageimage``), rendered on request and kept in an in-process cache (``IMAGES``);
- cell rendering: page numbers link to the page's text (from an answer, carrying the question,
  so the page's image boxes its terms), snippets and evidence lines show their highlights, a page's text is shown
  whole and its image beside it.

Other databases in the same Datasette are left alone.
"""

from __future__ import annotations

import asyncio
import contextvars
import copy
import json
import os
import re
import threading
import weakref
from collections import OrderedDict
from functools import lru_cache
from importlib import resources
from urllib.parse import parse_qs, urlencode

from datasette import hookimpl
from markupsafe import Markup, escape

from . import store, writes
from .errors import EvfindError, NoPageImageError, UsageError
from .present import CONTINUES
from .rank import TOP_DEFAULT
from .render import SHORT_SHA  # as the CLI's table shows it; the full hash is in the JSON and the page view

METADATA_FILE = "datasette_metadata.yaml"
ASK_TOP = 10  # pages the ask query lists
# What the queries of METADATA_FILE write as {name}: filled in from the one definition here.
SQL_VALUES = {
    "ask_top": str(ASK_TOP),
    "continues": CONTINUES.replace("'", "''"),  # inside an SQL string literal
}
TEXT_STYLE = "font-family: monospace; white-space: pre-wrap; overflow-wrap: anywhere"
TEXT_BESIDE_IMAGE_STYLE = TEXT_STYLE
SHA_STYLE = "word-break: break-all"
IMAGE_STYLE = "display: block; width: 100%"  # the link around the image: as wide as its half of the page
IMAGE_BORDER = "width: 100%; height: auto; border: 1px solid #bbb"
# The page view's one row laid out as a page, not a table row: the page's facts on a line (each
# named, the column headings hidden), its heading under them, then the image and the text side by
# side, each half of the window (the text wraps, so nothing runs off the right edge). Without an
# image the text takes the whole width. Appended to the page query's description.
PAGE_VIEW_CSS = """<style>
.rows-and-columns, .rows-and-columns tbody { display: block; width: 100%; }
.rows-and-columns thead { display: none; }
.rows-and-columns tbody tr { display: flex; flex-wrap: wrap; gap: 0.25em 1.5em; align-items: flex-start; }
.rows-and-columns tbody td { display: block; border: none; padding: 0.2em 0; min-width: 0; text-align: left; }
.rows-and-columns td.col-heading { flex: 1 1 100%; font-weight: bold; }
.rows-and-columns td.col-image { flex: 1 1 calc(50% - 1.5em); }
.rows-and-columns td.col-image:has(.evfind-no-image) { flex-basis: 100%; }
.rows-and-columns td.col-text { flex: 1 1 calc(50% - 1.5em); }
.rows-and-columns td.col-document_id::before { content: "document "; }
.rows-and-columns td.col-sha256::before { content: "sha256 "; }
.rows-and-columns td.col-printed:not(:empty)::before { content: "printed folio "; }
.rows-and-columns td.col-of_pages::before { content: "pages in all "; }
.rows-and-columns td.col-page::before { content: "physical page "; }
.rows-and-columns td::before { display: block; color: #666; font-size: 0.85em; }
.rows-and-columns tbody tr { padding: 0 0.3em; }
</style>"""
IMAGE_ROUTE = "/-/evfind/{route}/page-image"
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
    from .answer import refused
    from .multi import open_finder

    text = "" if question is None else str(question)
    try:
        top = _top(top, TOP_DEFAULT)
        with open_finder(path, document=document or None, sha=sha or None) as finder:
            answer = finder.answer(text, top=top)
    except EvfindError as exc:
        answer = refused(text, exc)
    if answer.error is not None:  # the ask view shows the message as a row: mark it an error
        answer = answer._replace(message=f"Error: {answer.message}")
    return json.dumps(answer.to_dict(), ensure_ascii=False)


def marked_text(text, marks) -> str | None:
    """What ``evfind_mark(text, marks)`` returns: an evidence line with ``<mark>`` around each
    of its marks (the JSON array of [start, end] offsets of ``--format json``), as FTS5's
    snippet() marks a search's words; the cell shows the text escaped and the marks as marks."""
    from . import render

    if text is None:
        return None
    spans = json.loads(marks) if isinstance(marks, str) and marks else []
    return render.highlight(render.cells(str(text), spans), ("<mark>", "</mark>"))


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

    def evfind_page_image(page, sha, question=None):
        return page_image_cell(datasette, database, path, page, sha, question)

    conn.create_function("evfind_query", -1, evfind_query)
    conn.create_function("evfind_mark", 2, marked_text, deterministic=True)
    conn.create_function("evfind_page_image", -1, evfind_page_image)
    conn.create_function("evfind_page_html", -1, lambda page, sha, question=None: page_html_cell(path, page, sha, question))


def page_image_cell(datasette, database: str, path, page, sha, question=None) -> str | None:
    """What ``evfind_page_image()`` returns: the address of the page's image (a path starting
    with /), or why the page has none (one line); None for a row that is not a page."""
    from . import pageimage

    if page is None or not sha:
        return None
    try:
        why = pageimage.unavailable(path, sha=str(sha))
    except EvfindError as exc:
        return f"no page image: {exc}"
    if why is not None:
        return why
    return image_url(datasette, database, page, str(sha), question)


def image_url(datasette, database: str, page, sha: str, question=None) -> str:
    from datasette.utils import tilde_encode

    route = tilde_encode(datasette.databases[database].route)
    params = {"page": page, "sha": sha}
    if question and str(question).strip():
        params["question"] = str(question)
    return datasette.urls.path(IMAGE_ROUTE.format(route=route)) + "?" + urlencode(params)


# --------------------------------------------------------------------------------------------
# The page as filed (HTML filings, issue 22): evfind_page_html() and its cell in the page view

HTML_STYLE = ("background: #fff; border: 1px solid #bbb; padding: 0.5em 1em; width: min(48em, 46vw); "
              "max-height: 80vh; overflow: auto; font-size: 80%")
HTML_BYTES = 16 * 1024 * 1024  # cut pages kept in the process, as images are (IMAGES_BYTES)
_pages_html: OrderedDict[tuple, str] = OrderedDict()
_pages_html_lock = threading.Lock()


def page_html_cell(path, page, sha, question=None) -> str | None:
    """What ``evfind_page_html(page, sha [, question])`` returns: the page's own HTML (a
    sanitised fragment, starting with "<"), the question's terms marked; why it has none (one
    line); None for a row that is not a page of an HTML filing."""
    from . import pagehtml
    from .errors import NoPageHtmlError

    if page is None or not sha:
        return None
    try:
        number = int(page)
    except (TypeError, ValueError):
        return None
    question = str(question or "").strip()
    key = (os.path.realpath(path), writes.file_identity(path), str(sha), number, question)
    with _pages_html_lock:
        if key in _pages_html:
            _pages_html.move_to_end(key)
            return _pages_html[key]
    try:
        fragment = pagehtml.page_html(path, number, sha=str(sha), question=question or None)
    except NoPageHtmlError as exc:
        return None if exc.key == "not_html" else str(exc)
    except EvfindError as exc:
        return f"no page HTML: {exc}"
    with _pages_html_lock:
        _pages_html[key] = fragment
        while sum(len(v) for v in _pages_html.values()) > HTML_BYTES and len(_pages_html) > 1:
            _pages_html.popitem(last=False)
    return fragment


def _html_cells(column: str, value, row) -> Markup | None:
    """In the page view of an HTML filing: the page as filed beside its text (sanitised again
    here: a cell renders whatever SQL put in it), and no "no page image" note; None elsewhere."""
    html = row["html"]
    if column == "image":
        return Markup("") if isinstance(html, str) and html.startswith("<") else None
    if not isinstance(value, str):
        return Markup("")
    if not value.startswith("<"):
        return Markup('<span class="evfind-no-html">{}</span>').format(value)
    from .pagehtml import sanitise

    return Markup('<div class="evfind-page-html" style="{}">{}</div>').format(HTML_STYLE, Markup(sanitise(value)))


# --------------------------------------------------------------------------------------------
# The page image route

# Rendered images, most recently used last: {(database file, its identity, sha, page, question,
# scale): PNG}, at most IMAGES_BYTES in all. In the process rather than in a directory: a page
# renders in a tenth of a second, the database may be served from read-only media, and a cache
# on disk would need its own cleaning; what is worth keeping is the pages being looked at now
# (a page and its neighbours, one answer's hits). A database rewritten by an ingest is a new
# file, so its identity in the key keeps a cached image from outliving it.
IMAGES_BYTES = 64 * 1024 * 1024
_images: OrderedDict[tuple, bytes] = OrderedDict()
_images_lock = threading.Lock()


def cached_png(path, page: int, sha: str, question: str) -> bytes:
    """The PNG of a page, from the cache or rendered (``pageimage.page_png``) and cached."""
    from . import pageimage

    key = (os.path.realpath(path), writes.file_identity(path), sha, page, question, pageimage.DEFAULT_SCALE)
    with _images_lock:
        if key in _images:
            _images.move_to_end(key)
            return _images[key]
    png = pageimage.page_png(path, page, sha=sha or None, question=question or None)
    with _images_lock:
        _images[key] = png
        while sum(len(v) for v in _images.values()) > IMAGES_BYTES and len(_images) > 1:
            _images.popitem(last=False)
    return png


async def page_image_view(datasette, request):
    """GET /-/evfind/DB/page-image?page=N&sha=SHA&question=...: the page's PNG; 404 with the
    reason as text when it has no image, 400 for a bad page or revision."""
    from datasette.utils import tilde_decode
    from datasette.utils.asgi import Response

    route = tilde_decode(request.url_vars["database"])
    names = [name for name in evfind_databases(datasette) if datasette.databases[name].route == route]
    if not names:
        return Response.text(f"no evfind database {route!r} here", status=404)
    path = datasette.databases[names[0]].path
    try:
        page = int(request.args.get("page", ""))
    except ValueError:
        return Response.text("page must be a page number", status=400)
    sha, question = request.args.get("sha", ""), request.args.get("question", "")
    loop = asyncio.get_running_loop()
    try:
        png = await loop.run_in_executor(None, cached_png, path, page, sha, question)
    except NoPageImageError as exc:
        return Response.text(str(exc), status=404)
    except EvfindError as exc:
        return Response.text(str(exc), status=400)
    return Response(png, content_type="image/png", headers={"Cache-Control": "private, max-age=3600"})


@hookimpl
def register_routes(datasette):
    return [(r"^" + IMAGE_ROUTE.format(route="(?P<database>[^/]+)") + "$", page_image_view)]


# The query string of the request being answered: the ask view's page links carry its question
# (Datasette 0.65 hands render_cell no request).
_query_string: contextvars.ContextVar[bytes] = contextvars.ContextVar("evfind_query_string", default=b"")


@hookimpl
def asgi_wrapper(datasette):
    def wrap(app):
        async def with_query_string(scope, receive, send):
            token = _query_string.set(scope.get("query_string", b"") if scope.get("type") == "http" else b"")
            try:
                await app(scope, receive, send)
            finally:
                _query_string.reset(token)

        return with_query_string

    return wrap


def _request_question() -> str:
    values = parse_qs(_query_string.get().decode("utf-8", "replace")).get("question", [""])
    return values[0].strip()


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
    page = metadata["queries"]["page"]
    page["description_html"] = page.get("description_html", "") + PAGE_VIEW_CSS
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
    if table is not None or column not in ("page", "snippet", "evidence", "text", "sha256", "image", "html"):
        return None
    try:
        columns = row.keys()
    except AttributeError:
        return None
    if "page" not in columns or "sha256" not in columns:
        return None
    if database not in evfind_databases(datasette):
        return None
    if column == "html" or (column == "image" and "html" in columns):
        shown = _html_cells(column, value, row)
        if shown is not None:
            return shown
    if column == "image":
        return _image(value, row["page"])
    if column == "page" and isinstance(value, int):
        page_url = datasette.urls.database(database) + "/page?"
        sha = row["sha256"]
        question = _request_question()
        if "text" not in columns:  # a ranked list: the page number opens the page
            params = {"page": value, "sha": sha}
            if question and "note" in columns:  # an answer: the page's image boxes its terms
                params["question"] = question
            return Markup('<a href="{}">{}</a>').format(page_url + urlencode(params), value)
        return _page_navigation(page_url, value, row["of_pages"] if "of_pages" in columns else None, sha, question)
    if column in ("snippet", "evidence") and isinstance(value, str):
        return _highlighted(value)
    if column == "text" and isinstance(value, str):
        # Whole (Datasette would cut it short) and in a fixed-width font, so the columns of a
        # financial statement line up as extracted.
        beside_image = "image" in columns and isinstance(row["image"], str) and row["image"].startswith("/")
        return Markup('<div style="{}">{}</div>').format(TEXT_BESIDE_IMAGE_STYLE if beside_image else TEXT_STYLE, value)
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


def _image(value, page) -> Markup | None:
    """In the page view: the page's image (a link to the PNG itself), or why there is none."""
    if not isinstance(value, str):
        return None
    if value.startswith("/"):
        return Markup('<a href="{}" style="{}"><img src="{}" alt="page {} as it looks in the source PDF" style="{}"></a>').format(
            value, IMAGE_STYLE, value, page, IMAGE_BORDER
        )
    return Markup('<span class="evfind-no-image">{}</span>').format(value)


def _page_navigation(page_url: str, page: int, of_pages, sha: str, question: str = "") -> Markup:
    """In the page view: the page number between links to the previous and the next page (which
    keep the question whose terms the image boxes)."""

    def link(number: int) -> str:
        params = {"page": number, "sha": sha}
        if question:
            params["question"] = question
        return page_url + urlencode(params)

    parts = []
    if page > 1:
        parts.append(Markup('<a href="{}" rel="prev">‹ {}</a>').format(link(page - 1), page - 1))
    parts.append(Markup("<b>{}</b>").format(page))
    if isinstance(of_pages, int) and page < of_pages:
        parts.append(Markup('<a href="{}" rel="next">{} ›</a>').format(link(page + 1), page + 1))
    return Markup('<span style="white-space: nowrap">{}</span>').format(Markup(" ").join(parts))
