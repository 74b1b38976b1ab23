"""The evfind command line: parse, call the library, print. No SQL and no ranking here."""

# Annotations stay strings until Typer builds a command (cli.main builds the one named): the
# Annotated[..., typer.Option(...)] of the other commands cost a query nothing.
from __future__ import annotations

import functools
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer
from typer.core import TyperCommand

try:  # the Click that Typer parses with: a copy of its own since typer 0.28
    from typer._click.exceptions import NoSuchOption as _NoSuchOption
except ImportError:  # pragma: no cover (older typer, on Click itself)
    from click.exceptions import NoSuchOption as _NoSuchOption

from . import __version__
from .browse import DEFAULT_PORT
from .errors import EXIT_NO_MATCH, EXIT_USAGE, EvfindError
from .rank import TOP_DEFAULT, TOP_MAX

app = typer.Typer(
    name="evfind",
    help="Find the physical pages of a financial filing that hold the evidence for a question.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


class Format(str, Enum):
    table = "table"
    markdown = "markdown"
    json = "json"


class TextFormat(str, Enum):
    text = "text"
    json = "json"


class Language(str, Enum):
    en = "en"
    zh = "zh"


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
        except BrokenPipeError:  # output not wrapped by _emit: the reader had what it wanted
            _stdout_gone()
            raise typer.Exit(code=0) from None

    return wrapper


def _emit(text: str, status: int = 0, colour: bool | None = None) -> None:
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


def _plural(count: int, word: str, words: str | None = None) -> str:
    """1 page, 2 pages; 1 revision, 0 revisions."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def _page_list(numbers) -> str:
    """A list of pages, told apart from a count: "page 7", "pages 2-4, 9"."""
    numbers = sorted(set(numbers))
    return f"{'page' if len(numbers) == 1 else 'pages'} {_ranges(numbers)}"


def _pp(numbers) -> str:
    """Pages in a table: "p. 8", "pp. 11-12"."""
    numbers = sorted(set(numbers))
    return ("p. " if len(numbers) == 1 else "pp. ") + _ranges(numbers)


def _counted_pages(numbers) -> str:
    """How many pages, then which: "3 (pages 2, 58, 116)"; "none" for none."""
    return f"{len(set(numbers))} ({_page_list(numbers)})" if numbers else "none"


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


def _database(path: Path, document: Optional[str], sha: Optional[str], *, ingest: bool):
    """(database, document, sha) to read. A PDF or an HTML filing is read through the database
    beside it (made or brought up to date first when ``ingest``), at the revision holding its
    bytes unless --document or --sha says otherwise; a line on stderr says when it is ingested."""
    if not _is_filing(path):
        return path, document, sha
    from .ingest import ensure_database, locate_database

    def notify(line: str) -> None:
        typer.echo(line, err=True)

    if ingest:
        found = ensure_database(path, progress=_progress(False), notify=notify)
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


def _progress(quiet: bool):
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


@app.command()
@errors_to_exit
def ingest(
    sources: Annotated[
        list[Path],
        typer.Argument(
            help="The filings: PDFs, HTML filings (.htm, .html), JSONL files of pages or text with form feeds; a "
            "directory gives its *.pdf, *.htm and *.html (not those of its subdirectories).",
            show_default=False,
        ),
    ],
    db: Annotated[Optional[Path], typer.Option("--db", help="The database to write (default: the source path with .db); one filing only.")] = None,
    document_id: Annotated[Optional[str], typer.Option("--document-id", help="Document id (default: the file name without extension); one filing only.")] = None,
    out_dir: Annotated[Optional[Path], typer.Option("--out-dir", help="Write each database here (default: beside its filing).", show_default=False)] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help="Filings ingested at once, each in a process of its own (0: one per CPU).")] = 1,
    password: Annotated[Optional[str], typer.Option("--password", help="Password of an encrypted PDF.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
    embed_source: Annotated[bool, typer.Option("--embed-source", help="Keep the PDF or HTML filing inside the database (page images, show --html, without the file).")] = False,
) -> None:
    """Add filings to databases: every physical page of each, in one transaction.

    Several filings (or a directory) are each written to a database of their own, --jobs at a
    time; a line for each as it lands, an error line for each that fails. Exit status: 0 when
    every filing landed, else the exit status of the first that failed (in the order given).
    """
    from .errors import UsageError

    several = len(sources) > 1 or any(path.is_dir() for path in sources)
    if several and db is not None:
        raise UsageError("--db names the database of one filing; for several, give --out-dir DIR or none (each beside its filing)")
    if several and document_id is not None:
        raise UsageError("--document-id names one filing's document; with several, each is named after its file")
    if db is not None and out_dir is not None:
        raise UsageError("give --db or --out-dir, not both")
    if several:
        _ingest_many(sources, out_dir, jobs, password, quiet, embed_source)
        return
    from .ingest import ingest as run_ingest

    if out_dir is not None:
        from .many import plan

        (job,) = plan(sources, out_dir)
        db = job.db
    result = run_ingest(sources[0], db, document_id, password=password, progress=_progress(quiet), embed_source=embed_source)
    for warning in result.warnings:
        typer.echo(f"Warning: {warning}", err=True)
    if not quiet:
        _emit(_ingested(result, embed_source))


def _ingested(result, embed_source: bool = False) -> str:
    """The line an ingest prints: what it did to which database."""
    from .render import SHORT_SHA

    sha = result.sha256[:SHORT_SHA]
    what = "HTML" if result.source_kind == "html" else "PDF"
    embedded = f", source {what} embedded" if result.embedded and embed_source else ""
    if result.source_updated:  # the same file from another place, or embedded now
        return (
            f"{result.db_path}: {result.document_id} sha256 {sha} is already ingested; "
            f"recorded its source {what} at {result.source_path}{' and embedded it' if embedded else ''}"
        )
    if result.status == "unchanged":
        return (
            f"{result.db_path}: {result.document_id} sha256 {sha} is already ingested "
            f"({_plural(result.page_count, 'page')}); nothing to do"
        )
    verb = "created" if result.status == "created" else "added revision to"
    blank = f", {len(result.blank_pages)} blank ({_page_list(result.blank_pages)})" if result.blank_pages else ""
    labels = ", printed page labels stored" if result.has_labels else ""
    return (
        f"{result.db_path}: {verb} {result.document_id} sha256 {sha}: "
        f"{_plural(result.page_count, 'page')}{blank}{labels}{embedded}"
    )


def _ingest_many(sources: list[Path], out_dir: Optional[Path], jobs: int, password: Optional[str], quiet: bool,
                 embed_source: bool) -> None:
    from .many import Interrupted, cpu_count, ingest_many, plan

    todo = plan(sources, out_dir)
    bar = _Bar(len(todo), enabled=not quiet and sys.stderr.isatty())
    failures = []

    def report(outcome) -> None:
        with bar.aside():
            if outcome.error is not None:
                failures.append(outcome)
                message = str(outcome.error)
                source = str(outcome.job.source)
                where = "" if message.startswith(source) else f"{source}: "
                typer.echo(f"Error: {where}{message}", err=True)
                return
            for warning in outcome.result.warnings:
                typer.echo(f"Warning: {warning}", err=True)
            if not quiet:
                _emit(_ingested(outcome.result, embed_source))

    try:
        ingest_many(todo, workers=jobs or cpu_count(), password=password, embed_source=embed_source,
                    on_outcome=report, progress=bar.show)
    except Interrupted as stopped:
        bar.clear()
        typer.echo(
            f"Error: interrupted; {len(stopped.outcomes)} of {_plural(stopped.total, 'filing')} ingested "
            "(listed above), the others left as they were",
            err=True,
        )
        raise typer.Exit(code=130) from None
    bar.clear()
    if failures:
        first = min(failures, key=lambda outcome: todo.index(outcome.job))  # (jobs come back as copies)
        raise typer.Exit(code=first.error.exit_code)


class _Bar:
    """One progress bar on stderr for a run of many filings (a terminal only): filings done of
    all, the part of those running counted by their pages."""

    WIDTH = 30

    def __init__(self, total: int, enabled: bool):
        self.total, self.enabled, self.done, self.drawn = total, enabled, 0.0, False

    def show(self, done: float, total: int) -> None:
        self.done = done
        self._draw()

    def _draw(self) -> None:
        if not self.enabled:
            return
        filled = min(self.WIDTH, int(self.WIDTH * self.done / self.total))
        sys.stderr.write(
            f"\rIngesting [{'#' * filled}{'.' * (self.WIDTH - filled)}] {int(self.done)}/{self.total} filings"
        )
        sys.stderr.flush()
        self.drawn = True

    def clear(self) -> None:
        if self.drawn:
            sys.stderr.write("\r" + " " * (self.WIDTH + 40) + "\r")
            sys.stderr.flush()
            self.drawn = False

    def aside(self):
        """Clear the bar while a line is printed, then draw it again below."""
        import contextlib

        @contextlib.contextmanager
        def printing():
            drawn = self.drawn
            self.clear()
            try:
                yield
            finally:
                if drawn:
                    self._draw()

        return printing()


class _QueryCommand(TyperCommand):
    """`evfind query`, where a question that starts with '-' ("-5% revenue growth?") would be
    read as an option: say where it goes instead of Click's "No such option: -5"."""

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        given = list(args)  # (Click's parser consumes the list it is handed)
        try:
            return super().parse_args(ctx, args)
        except _NoSuchOption as exc:
            question = _dashed_question(given, exc.option_name)
            if question is None:
                raise
            import shlex

            db = _first_argument(self, given) or "DB"
            typer.echo(
                f"Error: a question that starts with '-' goes after '--': "
                f"evfind query {shlex.quote(db)} -- {shlex.quote(question)}",
                err=True,
            )
            raise typer.Exit(code=EXIT_USAGE) from None


def _dashed_question(args: list[str], option: str) -> str | None:
    """The argument Click took for the unknown option ``option``, where it reads as a question
    (words after the dash, or no letter right after it: "-5%", "-$3 million") rather than a
    mistyped option ("--tpo", "-x")."""
    for arg in args:
        if arg == "--":
            break
        if arg.startswith(option) and not arg.startswith("--"):
            if any(c.isspace() for c in arg) or not arg[1:2].isalpha():
                return arg
    return None


def _first_argument(command: TyperCommand, args: list[str]) -> str | None:
    """The first positional argument (the database), skipping options and their values."""
    takes_value = {
        name for param in command.params
        if param.param_type_name == "option" and not getattr(param, "is_flag", False)
        for name in param.opts
    }
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--":
            return None
        elif arg.startswith("-") and arg != "-":
            skip = arg in takes_value
        else:
            return arg
    return None


@app.command(cls=_QueryCommand)
@errors_to_exit
def query(
    db: QueryDbArgument,
    question: Annotated[Optional[str], typer.Argument(help="The question, in plain words.", show_default=False)] = None,
    top: Annotated[int, typer.Option("--top", "-n", min=1, max=TOP_MAX, help=f"How many pages to list (1 to {TOP_MAX}).")] = TOP_DEFAULT,
    fmt: Annotated[Optional[Format], typer.Option("--format", "-f", help="Output: table (the default), markdown or json.", show_default=False)] = None,
    document: DocumentOption = None,
    sha: ShaOption = None,
    explain: Annotated[bool, typer.Option("--explain", help="Show the SQL and each ranked list before fusion.")] = False,
    lang: Annotated[
        Optional[Language], typer.Option("--lang", help="Language of notes and messages: en or zh (default: the question's).")
    ] = None,
    questions: Annotated[
        Optional[Path],
        typer.Option("--questions", help="Ask every question of FILE (one a line, or JSONL with \"question\" and \"id\"; - for stdin) and print one JSON object a line.", show_default=False),
    ] = None,
) -> None:
    """Rank the pages of a filing that hold the evidence for a question.

    Exit status: 0 pages found, 1 no page found, 2 usage error, empty store or no content words
    (with --format json these still print the answer, with no results and the message).
    With --questions: 0 once every question has its line, 2 for an empty store, 3 for a
    malformed questions file.
    """
    from .answer import REFUSALS
    from .errors import UsageError
    from .multi import open_finder
    from .render import render, render_plan

    if (question is None) == (questions is None):
        raise UsageError("give one QUESTION, or --questions FILE to ask many (one a line)")
    if questions is not None:
        if fmt not in (None, Format.json):
            raise UsageError("--questions prints one JSON object a line; --format table and markdown do not apply")
        if explain:
            raise UsageError("--explain shows one question; ask it without --questions")
    db, document, sha = _database(db, document, sha, ingest=True)
    if questions is not None:
        _ask_all(db, questions, top, document, sha, lang.value if lang else None)
        return
    fmt = fmt or Format.table
    lang_code = lang.value if lang else None
    with open_finder(db, document=document, sha=sha) as finder:
        if not explain:
            answer = finder.answer(question, top=top, lang=lang_code)
        else:
            try:
                plan = finder.explain(question, top)
            except REFUSALS as exc:
                answer = finder.refused(question, exc, lang_code)
            else:
                _emit(render_plan(plan, "json" if fmt is Format.json else "text"))
                return
    if answer.error is not None and fmt is not Format.json:  # one line on stderr
        raise answer.error
    status = answer.error.exit_code if answer.error is not None else 0 if answer.results else EXIT_NO_MATCH
    colour = _colour()
    _emit(render(answer, fmt.value, columns=_columns(), colour=colour), status, colour)
    if status:
        raise typer.Exit(code=status)


def _ask_all(db: Path, source: Path, top: int, document: Optional[str], sha: Optional[str], lang: Optional[str]) -> None:
    import json

    from .batch import answer_all, read_questions
    from .multi import open_finder

    items = read_questions(source)
    with open_finder(db, document=document, sha=sha) as finder:
        for data in answer_all(finder, items, top=top, lang=lang):
            _emit(json.dumps(data, ensure_ascii=False), EXIT_USAGE if finder.empty else 0)
        if finder.empty:  # every line says so; the status says the run found nothing to search
            raise typer.Exit(code=EXIT_USAGE)


SHOW_MAX = 50  # pages one `evfind show` prints


@app.command()
@errors_to_exit
def show(
    db: ReadDbArgument,
    page: Annotated[Optional[str], typer.Argument(help=f"Physical page number (1 is the first page of the PDF), a range 37-39 or a list 37,39 (at most {SHOW_MAX} pages).", show_default=False)] = None,
    document: DocumentOption = None,
    sha: ShaOption = None,
    label: Annotated[Optional[str], typer.Option("--label", help="The page that prints this folio (its page label, e.g. 109 or F-12) instead of a physical page; every such page where several do.", show_default=False)] = None,
    number: Annotated[bool, typer.Option("--number", "-n", help="Number the lines, from 1, as the evidence lines of `evfind query` are numbered.")] = False,
    lines: Annotated[Optional[str], typer.Option("--lines", help="Only these lines of each page: 17 or 17-19, numbered as -n numbers them.", show_default=False)] = None,
    raw: Annotated[bool, typer.Option("--raw", help="The text exactly as extracted, before normalisation.")] = False,
    fmt: Annotated[TextFormat, typer.Option("--format", "-f", help="Output: text or json.")] = TextFormat.text,
    highlight: Annotated[Optional[str], typer.Option("--highlight", help="Mark the terms a query for this question would match (on a terminal; with --format json, as \"marks\").", show_default=False)] = None,
    png: Annotated[Optional[Path], typer.Option("--png", help="Write the page as it looks in the source PDF to this PNG file instead.", show_default=False)] = None,
    html: Annotated[bool, typer.Option("--html", help="Print the pages of an HTML filing as filed instead: their own HTML, sanitised (no script, nothing loaded), the --highlight terms marked.")] = False,
) -> None:
    """Print the stored text of physical pages, so any citation can be checked.

    Standard output holds the page text alone, so its line N is the page's line N (`evfind
    show DB 49 | sed -n 18p` is line 18, the line an evidence entry "line": 18 names); the
    header (page, printed folio, document, SHA-256, heading) goes to standard error. Pages of a
    range are separated by a form feed, as in a text filing. --format json is unchanged: one
    object for one page, a list for several; --lines adds "lines": [[number, text], ...].
    """
    from .errors import UsageError
    from .finder import Finder

    if (page is None) == (label is None):
        raise UsageError("give a physical page number or --label FOLIO, not both" if page else "give a physical page number, or --label FOLIO")
    wanted = _line_range(lines) if lines is not None else None
    db, document, sha = _database(db, document, sha, ingest=False)
    numbers = _page_numbers(page) if page is not None else []

    if html:
        _show_html(db, numbers, document, sha, highlight, png is not None or raw or fmt is not TextFormat.text)
        return

    if png is not None:
        from .pageimage import page_png, png_size

        if label is not None:
            with Finder(db, document=document, sha=sha) as finder:
                numbers = finder.pages_labelled(label)
        if len(numbers) != 1 or (page is not None and not page.strip().isdigit()):
            raise UsageError("--png writes one page: give one page number")
        image = page_png(db, numbers[0], document=document, sha=sha, question=highlight)
        _write_png(png, image)
        width, height = png_size(image)
        typer.echo(f"{png}: page {numbers[0]}, {width} x {height} pixels")
        return

    json_out = fmt is TextFormat.json
    with Finder(db, document=document, sha=sha) as finder:
        if label is not None:
            numbers = finder.pages_labelled(label)[:SHOW_MAX]
            if len(numbers) > 1:
                typer.echo(f"Note: {_plural(len(numbers), 'page')} print the folio {label.strip()}: {_page_list(numbers)}", err=True)
        pages = [finder.page(number) for number in numbers]  # every page checked before any is printed
        if wanted is not None and not any(_selected(p.text, wanted) for p in pages):
            most = max(len(p.text.split("\n")) for p in pages)
            raise UsageError(f"--lines {lines.strip()}: {'the page has' if len(pages) == 1 else 'the pages have'} {_plural(most, 'line')}" + ("" if len(pages) == 1 else " at most"))
        marks = None
        if highlight is not None:  # JSON's marks are in `text`; printed, in the text printed
            marks = [finder.highlights(highlight, p.raw_text if raw and not json_out else p.text) for p in pages]
            if finder.parse(highlight).empty:
                typer.echo("Warning: the question has no searchable content words; nothing to highlight", err=True)
            elif not any(marks):
                typer.echo("Warning: none of the question's terms is on " + ("this page" if len(pages) == 1 else "these pages"), err=True)
    if json_out:
        import json

        objects = [p.to_dict() for p in pages]
        for data, found in zip(objects, marks or ()):
            data["marks"] = [list(span) for span in found]
        if wanted is not None:
            for data, stored in zip(objects, pages):
                data["lines"] = [list(line) for line in _selected(stored.text, wanted)]
        single = len(pages) == 1 and (label is not None or page.strip().isdigit())  # one page: one object, as always
        _emit(json.dumps(objects[0] if single else objects, ensure_ascii=False, indent=2))
        return
    from .present import CONTINUES
    from .render import highlighted_text

    colour = _colour()
    for index, stored in enumerate(pages):
        doc = stored.document
        folio = f" (printed {stored.page_label})" if stored.page_label else ""
        head = [f"Page {stored.page_number}{folio} of {doc.page_count} · {doc.document_id} · sha256 {doc.document_sha256}"]
        where = stored.heading or (f"{CONTINUES}{stored.section_heading}" if stored.section_heading else "")
        if where:
            head.append(f"Heading: {where}")
        text = stored.raw_text if raw else stored.text
        if marks and colour:
            text = highlighted_text(text, marks[index])
        if wanted is not None or number:
            selected = _selected(text, wanted)
            width = len(str(selected[-1][0])) if selected else 1
            text = "\n".join(f"{n:>{width}}  {line}" if number else line for n, line in selected)
        if index:
            _emit("\f")
        typer.echo("\n".join(head), err=True)
        _emit(text, 0, colour and bool(marks))


def _line_range(spec: str) -> tuple[int, int]:
    """ "17" -> (17, 17); "17-19" -> (17, 19): lines of a page, counted from 1."""
    from .errors import UsageError

    first, dash, last = spec.strip().partition("-")
    if not first.strip().isdigit() or (dash and not last.strip().isdigit()) or int(first) < 1:
        raise UsageError(f"--lines {spec!r}: give a line 17 or a range 17-19 (lines count from 1)")
    low, high = int(first), int(last) if dash else int(first)
    if high < low:
        raise UsageError(f"--lines {spec.strip()} runs backwards: write {high}-{low}")
    return low, high


def _selected(text: str, wanted: tuple[int, int] | None) -> list[tuple[int, str]]:
    """(number, line) of the page's lines, numbered from 1 on the text split on newlines, as the
    evidence numbers them; only those in ``wanted`` (first, last) when given."""
    numbered = list(enumerate(text.split("\n"), start=1))
    if wanted is None:
        return numbered
    return numbered[wanted[0] - 1 : wanted[1]]


def _show_html(db: Path, numbers: list[int], document: Optional[str], sha: Optional[str], highlight: Optional[str],
               other: bool) -> None:
    """`evfind show --html`: the pages' own HTML, as one document on stdout."""
    from .errors import UsageError
    from .finder import Finder
    from .pagehtml import document as html_document
    from .pagehtml import filing_bytes, cut_page
    from .store import reading

    if other:
        raise UsageError("--html prints the pages as filed; give it without --png, --raw or --format json")
    with Finder(db, document=document, sha=sha) as finder:
        pages = [finder.page(number) for number in numbers]  # every page checked before any is cut
        with reading(db):
            data = filing_bytes(finder.conn, finder.revision, db)
        phrases = finder.match_terms(highlight) if highlight and highlight.strip() else ()
        doc = pages[0].document
    fragments = [(p.page_number, p.page_label, cut_page(data, p.page_number, phrases)) for p in pages]
    _emit(html_document(fragments, f"{doc.document_id}, page {_ranges(numbers)}", doc.document_sha256), 0)


def _page_numbers(spec: str) -> list[int]:
    """ "38" -> [38]; "37-39" -> [37, 38, 39]; "37,39" -> [37, 39]; ranges and pages may be mixed
    ("37-39,41"), at most SHOW_MAX pages, each once, in the order given."""
    from .errors import UsageError

    numbers: list[int] = []
    for part in spec.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
            raise UsageError(f"{spec!r} is not a page, a range 37-39 or a list 37,39 of physical pages")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise UsageError(f"the range {part.strip()} runs backwards: write {high}-{low}")
        if high - low + 1 + len(numbers) > SHOW_MAX:
            raise UsageError(f"{spec} asks for more than {SHOW_MAX} pages; show at most {SHOW_MAX} at a time")
        numbers += [n for n in range(low, high + 1) if n not in numbers]
    return numbers


def _terminal() -> bool:
    """Is standard output a terminal (tests replace this to act as one)?"""
    return sys.stdout.isatty()


def _colour() -> bool:
    """Highlight with ANSI codes: on a terminal, unless NO_COLOR is set and not empty
    (https://no-color.org) or TERM is dumb."""
    import os

    return _terminal() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def _columns() -> int:
    """The terminal's width: COLUMNS, else the terminal's, else 80."""
    import shutil

    return shutil.get_terminal_size().columns


@app.command()
@errors_to_exit
def info(
    db: ReadDbArgument,
    fmt: Annotated[TextFormat, typer.Option("--format", "-f", help="Output: text or json.")] = TextFormat.text,
) -> None:
    """Documents, revisions, page counts, blank pages and the sections found on which pages."""
    from .describe import describe

    db, _, _ = _database(db, None, None, ingest=False)
    summary = describe(db)
    if fmt is TextFormat.json:
        import json

        _emit(json.dumps(summary, ensure_ascii=False, indent=2))
        return
    lines = [f"Database: {db}  (evfind schema {summary['schema_version']})"]
    if not summary["revisions"]:
        lines.append(f"No pages are loaded yet: run `evfind ingest REPORT.pdf --db {db}`")
    for rev in summary["revisions"]:
        newest = "  [newest]" if rev["newest"] else ""
        labelled = rev["labelled_pages"]
        lines += [
            "",
            f"{rev['document_id']}  revision {rev['revision_id']}{newest}",
            f"  sha256       {rev['sha256']}",
            f"  source       {rev['source_name']} ({rev['source_kind']}), ingested {rev['ingested_at']}",
            f"  form         {rev['form'] or 'not read'}",
            f"  pages        {rev['page_count']}",
            f"  blank pages  {_counted_pages(rev['blank_pages'])}",
            "  page labels  "
            + (f"{labelled} of {_plural(rev['page_count'], 'page')} (printed folios stored)" if labelled else "none"),
        ]
        for group in ("statements", "sections"):
            if rev[group]:
                lines.append(f"  {group}")
                for item in rev[group]:
                    lines.append(f"    {item['label']:<24} {_pp(item['pages']):<12}  {item['heading']}".rstrip())
        if rev["exhibits"]:
            lines.append("  exhibits")
            for item in rev["exhibits"]:
                pages = _pp(range(item["first_page"], item["last_page"] + 1))
                lines.append(f"    {item['number']:<8} {item['kind']:<24} {pages:<12}  {item['title']}".rstrip())
    _emit("\n".join(lines))


@app.command("eval")
@errors_to_exit
def eval_(
    labels: Annotated[list[Path], typer.Argument(help="Labelled questions (JSONL: doc_name, question, gold_pages); several files may be given.", show_default=False)],
    pdfs: Annotated[Optional[Path], typer.Option("--pdfs", help="Directory of the filings, DOC_NAME.pdf (ingested once, cached).")] = None,
    dbs: Annotated[Optional[Path], typer.Option("--dbs", help="Directory of ready databases, DOC_NAME.db.")] = None,
    cache: Annotated[Optional[Path], typer.Option("--cache", help="Where --pdfs are ingested (default ~/.cache/evfind/eval).")] = None,
    question_field: Annotated[str, typer.Option("--question-field", help="The field holding the question text, e.g. question_zh.")] = "question",
    group_by: Annotated[Optional[str], typer.Option("--group-by", help="Field to break the metrics down by (default question_type).")] = None,
    fmt: Annotated[TextFormat, typer.Option("--format", "-f", help="Output: text or json.")] = TextFormat.text,
    misses: Annotated[bool, typer.Option("--misses/--no-misses", help="List the questions with no gold page in the top 5.")] = True,
    plain: Annotated[bool, typer.Option("--plain", help="Rank with the design's plain method (for comparison).")] = False,
    ablate: Annotated[Optional[list[str]], typer.Option("--ablate", help="Switch a lever off: statements, carried, metrics, meta, pairs, dominance, evidence_weight, section_order (repeatable).")] = None,
    loco: Annotated[bool, typer.Option("--loco", help="Also leave one company out: rank each company's questions with the parameters (rank.GRID) that score best on the other companies, and print those figures beside the in-sample ones.")] = False,
) -> None:
    """Measure retrieval on labelled questions: hit@k, recall@5 and MRR, with the misses."""
    from .errors import UsageError
    from .evaluate import evaluate, format_loco, format_report, load_labels
    from .rank import DEFAULT, PLAIN

    method = PLAIN if plain else DEFAULT
    for lever in ablate or []:
        try:
            method = method.without(lever)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if loco and (plain or ablate):
        raise UsageError("--loco chooses the parameters itself; give it without --plain or --ablate")
    if (pdfs is None) == (dbs is None):
        raise UsageError("give exactly one of --pdfs DIR or --dbs DIR")
    for folder in (pdfs, dbs):
        if folder is not None and not folder.is_dir():
            raise UsageError(f"{folder}: not a directory")
    sets = {str(path): (load_labels(path, question_field), question_field) for path in labels}
    if loco:
        from .evaluate import evaluate_grid, leave_one_company_out
        from .rank import grid, setting_name

        results = evaluate_grid(sets, grid(), pdfs=pdfs, dbs=dbs, cache=cache, group_field=group_by)
        chosen = leave_one_company_out(results, setting_name(DEFAULT))
        in_sample = results[setting_name(DEFAULT)]
        if fmt is TextFormat.json:
            import json

            data = {"in_sample": {name: r.to_dict() for name, r in in_sample.items()}, "loco": chosen.to_dict()}
            _emit(json.dumps(data, ensure_ascii=False, indent=2))
        else:
            _emit(format_loco(in_sample, chosen, setting_name(DEFAULT)))
        return
    reports = {
        name: evaluate(records, pdfs=pdfs, dbs=dbs, cache=cache, question_field=field, group_field=group_by,
                       finder_options={"method": method})
        for name, (records, field) in sets.items()
    }
    if fmt is TextFormat.json:
        import json

        data = reports[str(labels[0])].to_dict() if len(labels) == 1 else {n: r.to_dict() for n, r in reports.items()}
        _emit(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        titles = len(labels) > 1
        _emit("\n\n".join(format_report(r, title=n if titles else "", show_misses=misses) for n, r in reports.items()))


@app.command()
@errors_to_exit
def upgrade(db: DbArgument) -> None:
    """Re-index a database written by an older evfind, from the page text it stores."""
    from .ingest import upgrade as run_upgrade

    done = run_upgrade(db)
    if done.reindexed is None:
        _emit(f"{db}: already at schema {done.new}; nothing to do")
    else:
        _emit(f"{db}: re-indexed {_plural(done.reindexed, 'revision')}, schema {done.old} -> {done.new}")


@app.command()
@errors_to_exit
def serve(
    db: DbArgument,
    port: Annotated[int, typer.Option("--port", "-p", min=0, max=65535, help="Port on 127.0.0.1 (0 picks a free one).")] = DEFAULT_PORT,
) -> None:
    """Browse, search and ask the filing in Datasette on 127.0.0.1 (needs the browse extra)."""
    from .browse import serve as run_serve

    run_serve(db, port=port, announce=typer.echo)


@app.command()
@errors_to_exit
def mcp(
    paths: Annotated[
        Optional[list[Path]],
        typer.Argument(help="Databases (.db), PDFs or folders to serve (a folder: its .db files and the PDFs beside them; default: the current folder).", metavar="[PATH]...", show_default=False),
    ] = None,
    ingest: Annotated[bool, typer.Option("--ingest", help="Let the server ingest a PDF into the .db beside it on first use, as `evfind query report.pdf` does (without it, it only reads).")] = False,
) -> None:
    """Serve filings to LLM agents over MCP on stdio (needs the mcp extra)."""
    from .mcp_server import serve as run_mcp

    run_mcp(paths or [Path(".")], ingest=ingest, notify=lambda line: typer.echo(line, err=True))


def _write_png(path: Path, data: bytes) -> None:
    from .errors import InputError

    try:
        path.write_bytes(data)
    except OSError as exc:
        raise InputError(f"{path}: cannot write the image ({exc.strerror})") from None


def _ranges(numbers) -> str:
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


def main() -> None:  # console script entry point
    """Run the command line. A process runs one command: when the first argument names one,
    Typer builds the Click command of that one alone (building all eight costs a query some
    4 ms); anything else (no command, `--help`, `--version`, a mistyped name) gets the whole app."""
    import copy

    first = sys.argv[1] if len(sys.argv) > 1 else None
    named = [c for c in app.registered_commands if (c.name or c.callback.__name__) == first]
    for info in [app.registered_callback, *(named or app.registered_commands)]:
        _evaluate_annotations(info.callback)
    if not named:
        app()
        return
    one = copy.copy(app)  # the same app (its callback, --version, settings) with one command
    one.registered_commands = named
    one()


def _evaluate_annotations(callback) -> None:
    """Evaluate a command's annotations (strings in this module) in place, once, before Typer
    builds the command: Typer reads a signature several times and would evaluate each string
    every time (2.5 ms for `query`), where evaluated once they cost what they did at import."""
    function = getattr(callback, "__wrapped__", callback)  # (errors_to_exit shares the dict)
    annotations = function.__annotations__
    for name, value in annotations.items():
        if isinstance(value, str):
            annotations[name] = eval(value, function.__globals__)  # noqa: S307 (this module's own text)
