"""The MCP server behind `evfind mcp`: the filings named, served to an agent over stdio.

    from evfind.mcp_server import Library
    with Library(["sample.db"]) as library:          # no MCP SDK needed for this part
        result = library.call("find_evidence", {"question": "capital expenditures 2025"})
        result.data["results"][0]["page_number"]    # 38, as `evfind query --format json` says

Three tools (``mcp_tools.TOOLS``: name, description, input and output JSON schemas):

- ``find_evidence(question, document?, top?, lang?)``: the answer object of `evfind query
  --format json` (``Answer.to_dict()``), exactly: the same pages for the same question.
- ``read_page(document, page, lines?)``: a page's lines numbered from 1 as the answers'
  evidence lines are, its printed folio and headings, so a citation can be checked.
- ``list_documents()``: what is served: ids, SHA-256, forms, periods, page counts, revisions.

``Library`` does the work with evfind's Python API and no MCP: it opens the databases named
(a PDF through the database beside it; a folder: its .db files and the PDFs beside them), keeps
a ``Finder`` open for each document served, and answers ``call(tool, arguments)`` with a
``ToolResult``; an ``EvfindError`` becomes an error result with evfind's one-line message. It
only reads, unless made with ``ingest=True`` (`evfind mcp --ingest`): a named PDF is then
ingested into the database beside it on first use, as `evfind query report.pdf` does.

``serve`` puts a ``Library`` behind the MCP SDK's low-level server on stdin and stdout. The SDK
is an optional extra (``pip install 'evfind[mcp]'``) imported only by ``serve``: the rest of
evfind, and this module's ``Library``, never load it.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from . import __version__

# evfind's API as the server reads it, imported here only: a rename is a change of this block.
from .errors import EvfindError, InputError, MissingExtraError, UsageError
from .finder import Finder, describe
from .mcp_tools import INSTRUCTIONS, TOOLS
from .multi import MultiFinder
from .rank import TOP_DEFAULT
from .text import language

INSTALL = "pip install 'evfind[mcp]'"
SDK_LINE = "2"  # the MCP SDK's major version the server is written for (its low-level Server API)
SDK_DISTRIBUTION = "mcp"


class ToolResult(NamedTuple):
    """What a tool call gives: ``data`` (the structured content, or None), ``text`` (the same
    as JSON, or the error's one-line message) and whether it is an error."""

    data: dict | None
    text: str
    error: bool = False


# ---------------------------------------------------------------------------------------------
# The documents served and the tools, on evfind's API alone


class Served(NamedTuple):
    """A revision the server reads: the document's newest, or the one a PDF named holds."""

    database: Path
    document_id: str
    sha256: str
    revision: dict  # its record in describe(database)["revisions"]


class _Several(MultiFinder):
    """Several served documents asked as one, as `evfind query` asks a database of several
    (``MultiFinder``'s merge), over finders the library keeps open: closing it closes none."""

    def __init__(self, finders: list[Finder]):  # (not super().__init__: it would open finders anew)
        self.path = None
        self.finders = finders

    def close(self) -> None:
        pass


Notify = Callable[[str], None]


class Library:
    """The filings named (databases, PDFs, folders), read through evfind's Python API and
    answered tool by tool (``call``). ``ingest``: a PDF not yet ingested, or changed, is
    ingested into the database beside it on first use; otherwise nothing is ever written."""

    def __init__(self, paths: Iterable[str | os.PathLike], *, ingest: bool = False, notify: Notify | None = None):
        self.ingest = ingest
        self.notify = notify or (lambda line: None)
        self._databases: list[Path] = []  # in the order named
        self._pins: dict[tuple[Path, str], str] = {}  # (database, document id) -> the SHA-256 a PDF holds
        self._pdfs: dict[Path, tuple] = {}  # with ingest: each PDF's file as last ingested (stat)
        self._not_served: dict[str, str] = {}  # path -> why it is not served
        self._states: dict[Path, tuple] = {}  # each database's file as last read (stat)
        self._records: dict[Path, list[dict]] = {}  # describe()'s revisions of each database
        self._served: list[Served] = []
        self._finders: dict[tuple[Path, str], Finder] = {}
        self._periods: dict[str, dict | None] = {}  # by SHA-256
        for path in paths:
            self._add(Path(path))
        if not self._databases and not self._pdfs:
            raise InputError("nothing to serve: name evfind databases (.db), PDFs or folders holding them")
        # Every database is read now (one that cannot be read stops the start); the PDFs to
        # ingest wait for the first call, so that the client's handshake does not wait for them.
        self._read_databases(strict=True)

    def __enter__(self) -> "Library":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def waiting(self) -> bool:
        """Are PDFs waiting to be ingested (or looked up) at the next call: not yet, or changed
        since?"""
        return any(_state(pdf) != state for pdf, state in self._pdfs.items())

    def close(self) -> None:
        for finder in self._finders.values():
            finder.close()
        self._finders.clear()

    # -- the files named -------------------------------------------------------------------

    def _add(self, path: Path) -> None:
        if not path.exists():
            raise InputError(f"{path}: no such file or directory")
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in (".db", ".pdf"))
            if not found:
                raise InputError(f"{path}: no evfind databases (.db) or PDFs in this folder")
            for child in found:
                if child.suffix.lower() == ".db":
                    self._add_database(child)
            for child in found:
                if child.suffix.lower() == ".pdf":
                    self._add_pdf(child, named=False)
        elif _is_pdf(path):
            self._add_pdf(path, named=True)
        else:
            self._add_database(path)

    def _add_database(self, path: Path) -> None:
        if all(not _same_file(path, known) for known in self._databases):
            self._databases.append(path)

    def _add_pdf(self, pdf: Path, *, named: bool) -> None:
        if self.ingest:  # (ensure_database reads it on first use: ingested if it must be)
            self._pdfs.setdefault(pdf, ())
            return
        from .ingest import locate_database  # (a PDF named: reading its bytes needs the ingest side)

        try:
            found = locate_database(pdf)
        except InputError as exc:
            reason = f"{exc}; or let the server ingest it: evfind mcp --ingest"
            if named:
                raise InputError(reason) from None
            self._not_served[str(pdf)] = reason
            self.notify(f"Warning: {pdf} is not served: {reason}")
            return
        self._pin(found)

    def _pin(self, found) -> None:
        self._add_database(found.db_path)
        database = next(known for known in self._databases if _same_file(found.db_path, known))
        self._pins[(database, found.document_id)] = found.sha256

    def _ingest_pending(self) -> None:
        """Ingest (or find ingested) the PDFs not yet used or changed since: a new revision
        for new bytes, as `evfind query report.pdf` does. One that fails is said and left out
        (until it changes again), and the others are served."""
        if not self.waiting:
            return
        from .ingest import ensure_database

        for pdf, state in self._pdfs.items():
            now = _state(pdf)
            if now == state:
                continue
            self._pdfs[pdf] = now
            try:
                found = ensure_database(pdf, notify=self.notify)
            except EvfindError as exc:
                self._not_served[str(pdf)] = str(exc)
                self.notify(f"Error: {pdf} is not served: {exc}")
                continue
            self._not_served.pop(str(pdf), None)
            for warning in found.warnings:
                self.notify(f"Warning: {warning}")
            self._pin(found)

    def _refresh(self) -> None:
        """Bring the documents served up to date with the databases as they are on disk: one
        rewritten since it was read (`evfind ingest` adds a revision by replacing the file) is
        read again, and its finders opened anew."""
        self._ingest_pending()
        self._read_databases()

    def _read_databases(self, strict: bool = False) -> None:
        """Read the databases whose file changed since they were read (all, the first time).
        One that cannot be read now (gone, damaged) is not served, and said so, until it can:
        the others are served all the same. ``strict``: it is an error (at the start)."""
        changed = False
        for database in self._databases:
            state = _state(database)
            if self._states.get(database) != state:
                for key in [key for key in self._finders if key[0] == database]:
                    self._finders.pop(key).close()
                self._states[database] = state
                changed = True
                try:
                    self._records[database] = describe(database)["revisions"]
                except EvfindError as exc:
                    if strict:
                        raise
                    self._records[database] = []
                    self._not_served[str(database)] = str(exc)
                    self.notify(f"Error: {database} is not served: {exc}")
                else:
                    self._not_served.pop(str(database), None)
        if changed:
            # by document id, as a database of several lists them (then by database, as named)
            served = [served for database in self._databases for served in self._documents_of(database)]
            self._served = sorted(served, key=lambda served: served.document_id)

    def _documents_of(self, database: Path) -> list[Served]:
        records = self._records[database]
        served = []
        for record in sorted((r for r in records if r["newest"]), key=lambda r: r["document_id"]):
            sha = self._pins.get((database, record["document_id"]), record["sha256"])
            pinned = next(r for r in records if r["sha256"] == sha and r["document_id"] == record["document_id"])
            served.append(Served(database, record["document_id"], sha, pinned))
        return served

    # -- documents by name -----------------------------------------------------------------

    def resolve(self, document: str | None) -> list[Served]:
        """The revisions a tool reads: every document served (``document`` None), else the one
        ``document`` names: a served document's id (exactly, in any case, or a unique prefix
        of it, as --document takes it), else the SHA-256 (or a prefix) of any revision of the
        databases served, an older one too. Unknown or ambiguous: a usage error."""
        if document is None:
            if not self._served:
                raise UsageError("no document is served yet: see list_documents for the files not served and why")
            return list(self._served)
        if not isinstance(document, str):
            raise UsageError("document must be a string: a document id or a SHA-256")
        ids = sorted({served.document_id for served in self._served})
        wanted = document.strip().casefold()
        named = [d for d in ids if d == document] or [d for d in ids if d.casefold() == wanted]
        named = named or [d for d in ids if wanted and d.casefold().startswith(wanted)]
        if len(named) > 1:
            raise UsageError(f"document {document!r} matches {len(named)} documents ({', '.join(named)}); give more of the id")
        if named:
            chosen = [served for served in self._served if served.document_id == named[0]]
            if len(chosen) > 1:
                shas = ", ".join(served.sha256[:12] for served in chosen)
                raise UsageError(f"document {named[0]!r} is served from {len(chosen)} databases; name it by its SHA-256 ({shas})")
            return chosen
        if wanted and all(c in "0123456789abcdef" for c in wanted):
            revisions = [(database, record) for database in self._databases for record in self._records[database]
                         if record["sha256"].startswith(wanted)]
            if len(revisions) > 1:
                raise UsageError(f"SHA-256 {wanted!r} matches {len(revisions)} revisions; give more digits")
            if revisions:
                database, record = revisions[0]
                return [Served(database, record["document_id"], record["sha256"], record)]
        served = ", ".join(ids) or "none"
        raise UsageError(f"no document {document!r} is served (documents: {served}); list_documents lists them")

    @contextmanager
    def reading(self, served: Served):
        """A finder of a served revision: the one kept open for it, or, for an older revision
        a SHA-256 named, one opened for the call and closed after it."""
        if served not in self._served:
            with Finder(served.database, document=served.document_id, sha=served.sha256) as finder:
                yield finder
            return
        key = (served.database, served.sha256)
        if key not in self._finders:
            self._finders[key] = Finder(served.database, document=served.document_id, sha=served.sha256)
        yield self._finders[key]

    # -- the tools -------------------------------------------------------------------------

    def call(self, name: str, arguments: dict | None) -> ToolResult:
        """Run one tool: its result, or an error result with evfind's one-line message (in
        the question's language, as the CLI prints it). Nothing a call meets stops the server."""
        tools = {"find_evidence": self.find_evidence, "read_page": self.read_page, "list_documents": self.list_documents}
        arguments = arguments or {}
        try:
            if name not in tools:
                raise UsageError(f"no tool {name!r}: the tools are {', '.join(tools)}")
            arguments = {key: value for key, value in arguments.items() if value is not None}  # null: the default
            _check_arguments(name, arguments)
            self._refresh()
            data, error = tools[name](**arguments)
        except EvfindError as exc:
            return ToolResult(None, _message(exc, arguments.get("question"), arguments.get("lang")), True)
        except Exception as exc:  # a fault of evfind's: said, logged with its traceback, and survived
            self.notify(traceback.format_exc().rstrip())
            return ToolResult(None, f"internal error ({type(exc).__name__}: {exc}); the server goes on", True)
        text = json.dumps(data, ensure_ascii=False)
        if error is not None:  # a question that could not be asked: the answer says why, as an error
            return ToolResult(data, data.get("message") or str(error), True)
        return ToolResult(data, text)

    def find_evidence(self, question: str, document: str | None = None, top: int = TOP_DEFAULT,
                      lang: str | None = None) -> tuple[dict, EvfindError | None]:
        """`evfind query --format json`'s object for the question, and the error when it
        could not be asked (no content words, no pages loaded)."""
        chosen = self.resolve(document)
        if len(chosen) == 1:
            with self.reading(chosen[0]) as finder:
                answer = finder.answer(question, top=top, lang=lang)
        else:  # (only served documents: their finders are kept open)
            finders = []
            for served in chosen:
                with self.reading(served) as finder:
                    finders.append(finder)
            answer = _Several(finders).answer(question, top=top, lang=lang)
        return answer.to_dict(), answer.error

    def read_page(self, document: str, page: int, lines: int | str | None = None) -> tuple[dict, None]:
        (served,) = self.resolve(document)
        with self.reading(served) as finder:
            stored = finder.page(page)
        numbered = stored.text.split("\n")
        first, last = _line_range(lines, len(numbered), stored)
        data = {
            "document": _document(stored.document),
            "page_number": stored.page_number,
            "page_label": stored.page_label,
            "heading": stored.heading,
            "section": stored.section,
            "section_heading": stored.section_heading,
            "statement": stored.statement,
            "line_count": len(numbered),
            "lines": [{"line": n, "text": numbered[n - 1]} for n in range(first, last + 1)],
        }
        return data, None

    def list_documents(self) -> tuple[dict, None]:
        documents = []
        for served in self._served:
            record = served.revision
            same = [r for r in self._records[served.database] if r["document_id"] == served.document_id]
            documents.append({
                "document_id": served.document_id,
                "document_sha256": served.sha256,
                "form": record["form"],
                "period": self._period(served),
                "page_count": record["page_count"],
                "labelled_pages": record["labelled_pages"],
                "blank_pages": record["blank_pages"],
                "source_name": record["source_name"],
                "source_kind": record["source_kind"],
                "ingested_at": record["ingested_at"],
                "database": str(served.database.resolve()),
                "revisions": [
                    {"document_sha256": r["sha256"], "page_count": r["page_count"], "ingested_at": r["ingested_at"],
                     "served": r["sha256"] == served.sha256}
                    for r in same
                ],
            })
        not_served = [{"path": path, "reason": reason} for path, reason in self._not_served.items()]
        return {"documents": documents, "not_served": not_served}, None

    def _period(self, served: Served) -> dict | None:
        """The period the cover page prints (forms.cover_period), read once per revision."""
        if served.sha256 not in self._periods:
            from .forms import COVER_PAGES, cover_period

            pages = range(1, min(COVER_PAGES, served.revision["page_count"]) + 1)
            with self.reading(served) as finder:
                found = cover_period([finder.page(number).text for number in pages])
            self._periods[served.sha256] = None if found is None else {"text": found[1], "page_number": found[0]}
        return self._periods[served.sha256]


def _document(document) -> dict:
    return {"document_id": document.document_id, "document_sha256": document.document_sha256,
            "page_count": document.page_count}


def _check_arguments(name: str, arguments: dict) -> None:
    """The arguments a tool takes, of the JSON types its input schema gives (the SDK's
    low-level server leaves them unchecked): anything else is a usage error."""
    schema = next(tool["input_schema"] for tool in TOOLS if tool["name"] == name)
    properties = schema["properties"]
    unknown = sorted(set(arguments) - set(properties))
    if unknown:
        takes = ", ".join(properties) or "no arguments"
        raise UsageError(f"{name} takes {takes}; not {', '.join(unknown)}")
    for required in schema.get("required", ()):
        if required not in arguments:
            raise UsageError(f"{name} needs {required}")
    kinds = {"string": str, "integer": int}
    for key, value in arguments.items():
        allowed = properties[key]["type"]
        allowed = allowed if isinstance(allowed, list) else [allowed]
        if isinstance(value, bool) or not isinstance(value, tuple(kinds[kind] for kind in allowed)):
            raise UsageError(f"{key} must be {' or '.join('a ' + kind if kind == 'string' else 'an ' + kind for kind in allowed)}")


def _line_range(lines: int | str | None, count: int, stored) -> tuple[int, int]:
    """(first, last) line of ``lines`` (None: all; 29; "29"; "27-31"), each on the page."""
    if lines is None:
        return 1, count
    first, dash, last = str(lines).strip().partition("-")
    if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
        raise UsageError(f"lines {lines!r} is not a line (29) or a range of lines (27-31)")
    low, high = int(first), int(last) if dash else int(first)
    if high < low:
        raise UsageError(f"the range of lines {lines} runs backwards: write {high}-{low}")
    for number in (low, high):
        if not 1 <= number <= count:
            raise UsageError(
                f"line {number} does not exist: page {stored.page_number} of {stored.document.document_id} has "
                f"{'only line 1' if count == 1 else f'lines 1 to {count}'}"
            )
    return low, high


def _message(exc: EvfindError, question, lang) -> str:
    """The error in the language of the call's question (or its lang), else English, as the
    CLI prints it."""
    try:
        chinese = isinstance(question, str) and language(question, lang if isinstance(lang, str) else None) == "zh"
    except EvfindError:
        chinese = False
    if not chinese:
        return str(exc)
    from .zh import error_message

    return error_message(exc, "zh")


def _is_pdf(path: Path) -> bool:
    """A PDF: named .pdf, or starting as a PDF does (the CLI's test)."""
    if path.suffix.lower() == ".pdf":
        return True
    try:
        with open(path, "rb") as handle:
            head = handle.read(64)
    except OSError:
        return False
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"%PDF-")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or os.path.samefile(a, b)
    except OSError:
        return False


def _state(path: Path) -> tuple:
    """What tells a database file rewritten: the file (a rename puts a new one in place) and
    its size and time."""
    try:
        stat = path.stat()
    except OSError:
        return ()
    return stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns


# ---------------------------------------------------------------------------------------------
# The MCP SDK: imported here only, when `evfind mcp` runs


def require_sdk() -> str:
    """The installed MCP SDK's version, found without importing it (that takes half a second:
    a mistyped path is said first); a clear error when it is missing or of another major version
    than the server's (its low-level Server API changed between 1 and 2)."""
    from importlib.metadata import PackageNotFoundError, version
    from importlib.util import find_spec

    try:
        found = version(SDK_DISTRIBUTION)
        if find_spec("mcp") is None:
            raise ImportError("mcp")
    except (ImportError, ValueError, PackageNotFoundError):  # (ValueError: a module set to None)
        raise MissingExtraError(f"the MCP SDK is not installed: {INSTALL}") from None
    if found.split(".")[0] != SDK_LINE:
        raise MissingExtraError(f"evfind's MCP server is written for the MCP SDK {SDK_LINE}.x, found {found}: {INSTALL}")
    return found


def serve(paths: Iterable[str | os.PathLike], *, ingest: bool = False, notify: Notify | None = None) -> None:
    """Serve the filings named over MCP on stdin and stdout until the client closes stdin.
    ``notify`` hears what goes to the log (stderr): ingests, warnings, internal errors."""
    require_sdk()
    notify = notify or (lambda line: print(line, file=sys.stderr, flush=True))
    with Library(paths, ingest=ingest, notify=notify) as library:
        try:
            import anyio
        except ImportError:
            raise MissingExtraError(f"the MCP SDK is not installed whole (no anyio): {INSTALL}") from None
        anyio.run(_run, library)


async def _run(library: Library) -> None:
    import anyio

    try:
        import mcp.types as types
        from mcp.server.lowlevel import Server
        from mcp.server.stdio import stdio_server
    except ImportError as exc:
        raise MissingExtraError(f"the MCP SDK cannot be imported ({exc}): {INSTALL}") from None
    import gc

    # What the SDK's import and the library's start made lives as long as the server: frozen
    # out of the collector's scans (as evfind.__main__ freezes the command line's), a full
    # collection no longer walks it at every few calls.
    gc.collect()
    gc.freeze()

    read_only = types.ToolAnnotations(read_only_hint=not library.ingest, idempotent_hint=True, open_world_hint=False)
    tools = [
        types.Tool(name=tool["name"], title=tool["title"], description=tool["description"],
                   input_schema=tool["input_schema"], output_schema=tool["output_schema"], annotations=read_only)
        for tool in TOOLS
    ]

    one_at_a_time = anyio.CapacityLimiter(1)  # the finders are the library's: one call at a time

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        async with one_at_a_time:
            if library.waiting:  # PDFs to ingest first (seconds): the loop goes on meanwhile (pings)
                result = await anyio.to_thread.run_sync(library.call, params.name, params.arguments)
            else:  # a few milliseconds: in the loop, not worth a thread's two wake-ups
                result = library.call(params.name, params.arguments)
        return types.CallToolResult(
            content=[types.TextContent(text=result.text)], structured_content=result.data, is_error=result.error
        )

    server = Server("evfind", version=__version__, instructions=INSTRUCTIONS, on_list_tools=list_tools,
                    on_call_tool=call_tool)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
