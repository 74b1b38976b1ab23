"""The evfind command line's Typer app and what its commands share: the options several commands
take, library errors turned into `Error: ...` and an exit status, printing (to a stdout that may go
away, in colour on a terminal, to its width) and the words pages are counted in. No command is
defined here: each cli_*.py module registers its commands on ``app``; cli.py puts them together."""

# Annotations stay strings until Typer builds a command (cli.main builds the one named): the
# Annotated[..., typer.Option(...)] of the other commands cost a query nothing.
from __future__ import annotations

import functools
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from . import __version__
from .errors import EvfindError

app = typer.Typer(
    name="evfind",
    help="Find the physical pages of a financial filing that hold the evidence for a question.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


class TextFormat(str, Enum):  # the --format of show, info and eval
    text = "text"
    json = "json"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"evfind {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        Optional[bool],
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = None,
) -> None:
    """Find the physical pages of a financial filing that hold the evidence for a question."""


def errors_to_exit(command):
    """Library errors become one line `Error: ...` on stderr and their exit code."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except EvfindError as exc:
            typer.echo(f"Error: {_message(exc, kwargs)}", err=True)
            raise typer.Exit(code=exc.exit_code) from None
        except KeyboardInterrupt:
            typer.echo("Error: interrupted; nothing was changed", err=True)
            raise typer.Exit(code=130) from None
        except BrokenPipeError:  # output not wrapped by emit: the reader had what it wanted
            _stdout_gone()
            raise typer.Exit(code=0) from None

    return wrapper


def emit(text: str, status: int = 0, colour: bool | None = None) -> None:
    """Print to stdout. Where the reader has gone (`| head -1` has its line), stop quietly with
    ``status``: the exit status of the output that was wanted, never a traceback, and never 1
    ("no page found") for pages found. ``colour``: keep ANSI highlighting (click's ``color``)."""
    try:
        typer.echo(text, color=colour or None)
    except BrokenPipeError:
        _stdout_gone()
        raise typer.Exit(code=status) from None


def _stdout_gone() -> None:
    """Point stdout at /dev/null, so that what is still buffered is dropped at exit instead of
    failing again (Python's "Exception ignored ... BrokenPipeError")."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (a test runner's buffer)
        pass


def plural(count: int, word: str, words: str | None = None) -> str:
    """1 page, 2 pages; 1 revision, 0 revisions."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def page_list(numbers) -> str:
    """A list of pages, told apart from a count: "page 7", "pages 2-4, 9"."""
    numbers = sorted(set(numbers))
    return f"{'page' if len(numbers) == 1 else 'pages'} {ranges(numbers)}"


def pp(numbers) -> str:
    """Pages in a table: "p. 8", "pp. 11-12"."""
    numbers = sorted(set(numbers))
    return ("p. " if len(numbers) == 1 else "pp. ") + ranges(numbers)


def counted_pages(numbers) -> str:
    """How many pages, then which: "3 (pages 2, 58, 116)"; "none" for none."""
    return f"{len(set(numbers))} ({page_list(numbers)})" if numbers else "none"


def _message(exc: EvfindError, kwargs: dict) -> str:
    """The error in the language of the command's question (or its --lang), else English."""
    if kwargs.get("question") is None and kwargs.get("lang") is None:
        return str(exc)
    from .text import language

    lang = kwargs.get("lang")
    if language(kwargs.get("question") or "", lang.value if lang else None) != "zh":
        return str(exc)
    from .zh import error_message

    return error_message(exc, "zh")


DbArgument = Annotated[Path, typer.Argument(help="An evfind database (.db).", show_default=False)]
QueryDbArgument = Annotated[
    Path,
    typer.Argument(
        help="An evfind database (.db), or a PDF or HTML filing: asked through the database beside it "
        "(report.pdf -> report.db), ingested on first use and again when the file changes.",
        show_default=False,
    ),
]
ReadDbArgument = Annotated[
    Path,
    typer.Argument(
        help="An evfind database (.db), or a PDF or HTML filing already asked or ingested (read through the database beside it).",
        show_default=False,
    ),
]


def _is_filing(path: Path) -> bool:
    """A PDF or an HTML filing given where a database goes: named .pdf, .htm or .html, or
    starting as one does (evfind/kinds.py: a look at its first bytes, no parser)."""
    from .kinds import looks_like_source

    return looks_like_source(path)


def database_of(path: Path, document: Optional[str], sha: Optional[str], *, ingest: bool):
    """(database, document, sha) to read. A PDF or an HTML filing is read through the database
    beside it (made or brought up to date first when ``ingest``), at the revision holding its
    bytes unless --document or --sha says otherwise; a line on stderr says when it is ingested."""
    if not _is_filing(path):
        return path, document, sha
    from .ingest import ensure_database, locate_database

    def notify(line: str) -> None:
        typer.echo(line, err=True)

    if ingest:
        found = ensure_database(path, progress=progress_bar(False), notify=notify)
    else:
        found = locate_database(path, notify=notify)
    for warning in found.warnings:
        typer.echo(f"Warning: {warning}", err=True)
    if document is None and sha is None:
        document, sha = found.document_id, found.sha256
    return found.db_path, document, sha


ShaOption = Annotated[
    Optional[str], typer.Option("--sha", help="Read the revision whose SHA-256 starts with this prefix.")
]
DocumentOption = Annotated[
    Optional[str], typer.Option("--document", help="Read one document of several: its id, or a unique prefix of it, any case.")
]


def progress_bar(quiet: bool):
    if quiet or not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        if total < 20:
            return
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\rExtracting pages [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\r" + " " * (width + 40) + "\r")
        sys.stderr.flush()

    return show


def stdout_is_terminal() -> bool:
    """Is standard output a terminal (tests replace this to act as one)?"""
    return sys.stdout.isatty()


def use_colour() -> bool:
    """Highlight with ANSI codes: on a terminal, unless NO_COLOR is set and not empty
    (https://no-color.org) or TERM is dumb."""
    import os

    return stdout_is_terminal() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def terminal_width() -> int:
    """The terminal's width: COLUMNS, else the terminal's, else 80."""
    import shutil

    return shutil.get_terminal_size().columns


def ranges(numbers) -> str:
    """[1, 2, 3, 7] -> "1-3, 7"."""
    numbers = sorted(set(numbers))
    parts, start = [], None
    for i, n in enumerate(numbers):
        if start is None:
            start = n
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            parts.append(str(start) if start == n else f"{start}-{n}")
            start = None
    return ", ".join(parts)

