"""`evfind ingest` and `evfind upgrade`: the commands that write databases. Parse, call ingest.py
(many.py for several filings at once), print a line for each database written."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from .cli_app import DbArgument, app, emit, errors_to_exit, page_list, plural, progress_bar


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
    result = run_ingest(sources[0], db, document_id, password=password, progress=progress_bar(quiet), embed_source=embed_source)
    for warning in result.warnings:
        typer.echo(f"Warning: {warning}", err=True)
    if not quiet:
        emit(_ingested(result, embed_source))


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
            f"({plural(result.page_count, 'page')}); nothing to do"
        )
    verb = "created" if result.status == "created" else "added revision to"
    blank = f", {len(result.blank_pages)} blank ({page_list(result.blank_pages)})" if result.blank_pages else ""
    labels = ", printed page labels stored" if result.has_labels else ""
    return (
        f"{result.db_path}: {verb} {result.document_id} sha256 {sha}: "
        f"{plural(result.page_count, 'page')}{blank}{labels}{embedded}"
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
                emit(_ingested(outcome.result, embed_source))

    try:
        ingest_many(todo, workers=jobs or cpu_count(), password=password, embed_source=embed_source,
                    on_outcome=report, progress=bar.show)
    except Interrupted as stopped:
        bar.clear()
        typer.echo(
            f"Error: interrupted; {len(stopped.outcomes)} of {plural(stopped.total, 'filing')} ingested "
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


@app.command()
@errors_to_exit
def upgrade(db: DbArgument) -> None:
    """Re-index a database written by an older evfind, from the page text it stores."""
    from .ingest import upgrade as run_upgrade

    done = run_upgrade(db)
    if done.reindexed is None:
        emit(f"{db}: already at schema {done.new}; nothing to do")
    else:
        emit(f"{db}: re-indexed {plural(done.reindexed, 'revision')}, schema {done.old} -> {done.new}")
