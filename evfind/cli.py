"""The evfind command line: parse, call the library, print. No SQL and no ranking here."""

import functools
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

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

    return wrapper


def _message(exc: EvfindError, kwargs: dict) -> str:
    """The error in the language of the command's question (or its --lang), else English."""
    if kwargs.get("question") is None and kwargs.get("lang") is None:
        return str(exc)
    from .zh import error_message, language

    lang = kwargs.get("lang")
    return error_message(exc, language(kwargs.get("question") or "", lang.value if lang else None))


DbArgument = Annotated[Path, typer.Argument(help="An evfind database (.db).", show_default=False)]
ShaOption = Annotated[
    Optional[str], typer.Option("--sha", help="Read the revision whose SHA-256 starts with this prefix.")
]
DocumentOption = Annotated[
    Optional[str], typer.Option("--document", help="Read this document id (when the database holds several).")
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
    source: Annotated[Path, typer.Argument(help="The filing: a PDF, a JSONL file of pages, or text with form feeds.", show_default=False)],
    db: Annotated[Optional[Path], typer.Option("--db", help="The database to write (default: the source path with .db).")] = None,
    document_id: Annotated[Optional[str], typer.Option("--document-id", help="Document id (default: the file name without extension).")] = None,
    password: Annotated[Optional[str], typer.Option("--password", help="Password of an encrypted PDF.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
    embed_source: Annotated[bool, typer.Option("--embed-source", help="Keep the PDF inside the database (page images without the file).")] = False,
) -> None:
    """Add a filing to a database: every physical page, in one transaction."""
    from .ingest import ingest as run_ingest

    result = run_ingest(source, db, document_id, password=password, progress=_progress(quiet), embed_source=embed_source)
    for warning in result.warnings:
        typer.echo(f"Warning: {warning}", err=True)
    if quiet:
        return
    from .render import SHORT_SHA

    sha = result.sha256[:SHORT_SHA]
    embedded = ", source PDF embedded" if result.embedded and embed_source else ""
    if result.source_updated:  # the same PDF from another place, or embedded now
        typer.echo(
            f"{result.db_path}: {result.document_id} sha256 {sha} is already ingested; "
            f"recorded its source PDF at {result.source_path}{' and embedded it' if embedded else ''}"
        )
        return
    if result.status == "unchanged":
        typer.echo(
            f"{result.db_path}: {result.document_id} sha256 {sha} is already ingested "
            f"({result.page_count} pages); nothing to do"
        )
        return
    verb = "created" if result.status == "created" else "added revision to"
    blank = f", blank pages: {_ranges(result.blank_pages)}" if result.blank_pages else ""
    labels = ", printed page labels stored" if result.has_labels else ""
    typer.echo(
        f"{result.db_path}: {verb} {result.document_id} sha256 {sha}: "
        f"{result.page_count} pages{blank}{labels}{embedded}"
    )


@app.command()
@errors_to_exit
def query(
    db: DbArgument,
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
    from .errors import UsageError
    from .finder import REFUSALS, Finder
    from .render import render, render_plan

    if (question is None) == (questions is None):
        raise UsageError("give one QUESTION, or --questions FILE to ask many (one a line)")
    if questions is not None:
        if fmt not in (None, Format.json):
            raise UsageError("--questions prints one JSON object a line; --format table and markdown do not apply")
        if explain:
            raise UsageError("--explain shows one question; ask it without --questions")
        _ask_all(db, questions, top, document, sha, lang.value if lang else None)
        return
    fmt = fmt or Format.table
    lang_code = lang.value if lang else None
    with Finder(db, document=document, sha=sha) as finder:
        if not explain:
            answer = finder.answer(question, top=top, lang=lang_code)
        else:
            try:
                plan = finder.explain(question, top)
            except REFUSALS as exc:
                answer = finder.refused(question, exc, lang_code)
            else:
                typer.echo(render_plan(plan, "json" if fmt is Format.json else "text"))
                return
    if answer.error is not None and fmt is not Format.json:  # one line on stderr
        raise answer.error
    typer.echo(render(answer, fmt.value))
    if answer.error is not None:
        raise typer.Exit(code=answer.error.exit_code)
    if not answer.results:
        raise typer.Exit(code=EXIT_NO_MATCH)


def _ask_all(db: Path, source: Path, top: int, document: Optional[str], sha: Optional[str], lang: Optional[str]) -> None:
    import json

    from .batch import answer_all, read_questions
    from .finder import Finder

    items = read_questions(source)
    with Finder(db, document=document, sha=sha) as finder:
        for data in answer_all(finder, items, top=top, lang=lang):
            typer.echo(json.dumps(data, ensure_ascii=False))
        if finder.empty:  # every line says so; the status says the run found nothing to search
            raise typer.Exit(code=EXIT_USAGE)


@app.command()
@errors_to_exit
def show(
    db: DbArgument,
    page: Annotated[int, typer.Argument(help="Physical page number (1 is the first page of the PDF).", show_default=False)],
    document: DocumentOption = None,
    sha: ShaOption = None,
    raw: Annotated[bool, typer.Option("--raw", help="The text exactly as extracted, before normalisation.")] = False,
    fmt: Annotated[TextFormat, typer.Option("--format", "-f", help="Output: text or json.")] = TextFormat.text,
    png: Annotated[Optional[Path], typer.Option("--png", help="Write the page as it looks in the source PDF to this PNG file instead.", show_default=False)] = None,
) -> None:
    """Print the stored text of one physical page, so any citation can be checked."""
    from .finder import Finder

    if png is not None:
        from .pageimage import page_png, png_size

        image = page_png(db, page, document=document, sha=sha)
        _write_png(png, image)
        width, height = png_size(image)
        typer.echo(f"{png}: page {page}, {width} x {height} pixels")
        return

    with Finder(db, document=document, sha=sha) as finder:
        stored = finder.page(page)
    if fmt is TextFormat.json:
        import json

        typer.echo(json.dumps(stored.to_dict(), ensure_ascii=False, indent=2))
        return
    doc = stored.document
    label = f" (printed {stored.page_label})" if stored.page_label else ""
    typer.echo(
        f"Page {stored.page_number}{label} of {doc.page_count} · {doc.document_id} · sha256 {doc.document_sha256}"
    )
    from .zh import LABELS

    continues = LABELS["en"]["continues"]
    where = stored.heading or (f"{continues}{stored.section_heading}" if stored.section_heading else "")
    if where:
        typer.echo(f"Heading: {where}")
    typer.echo("")
    typer.echo(stored.raw_text if raw else stored.text)


@app.command()
@errors_to_exit
def info(
    db: DbArgument,
    fmt: Annotated[TextFormat, typer.Option("--format", "-f", help="Output: text or json.")] = TextFormat.text,
) -> None:
    """Documents, revisions, page counts, blank pages and the sections found on which pages."""
    from .finder import describe

    summary = describe(db)
    if fmt is TextFormat.json:
        import json

        typer.echo(json.dumps(summary, ensure_ascii=False, indent=2))
        return
    typer.echo(f"Database: {db}  (evfind schema {summary['schema_version']})")
    if not summary["revisions"]:
        typer.echo(f"No pages are loaded yet: run `evfind ingest REPORT.pdf --db {db}`")
    for rev in summary["revisions"]:
        newest = "  [newest]" if rev["newest"] else ""
        typer.echo("")
        typer.echo(
            f"{rev['document_id']}  revision {rev['revision_id']}{newest}\n"
            f"  sha256      {rev['sha256']}\n"
            f"  source      {rev['source_name']} ({rev['source_kind']}), ingested {rev['ingested_at']}\n"
            f"  form        {rev['form'] or 'not read'}\n"
            f"  pages       {rev['page_count']}\n"
            f"  blank pages {_ranges(rev['blank_pages']) or 'none'}\n"
            f"  page labels {'yes (printed folios stored)' if rev['labelled_pages'] else 'none'}"
        )
        if rev["statements"]:
            typer.echo("  statements")
            for item in rev["statements"]:
                typer.echo(f"    {item['label']:<24} p. {_ranges(item['pages']):<12} {item['heading']}")
        if rev["sections"]:
            typer.echo("  sections")
            for item in rev["sections"]:
                typer.echo(f"    {item['label']:<24} p. {_ranges(item['pages']):<12} {item['heading']}")
        if rev["exhibits"]:
            typer.echo("  exhibits")
            for item in rev["exhibits"]:
                pages = _ranges(list(range(item["first_page"], item["last_page"] + 1)))
                typer.echo(f"    {item['number']:<8} {item['kind']:<24} p. {pages:<12} {item['title']}")


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
    ablate: Annotated[Optional[list[str]], typer.Option("--ablate", help="Switch a lever off: statements, carried, metrics, meta, dominance, evidence_weight (repeatable).")] = None,
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
            typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        else:
            typer.echo(format_loco(in_sample, chosen, setting_name(DEFAULT)))
        return
    reports = {
        name: evaluate(records, pdfs=pdfs, dbs=dbs, cache=cache, question_field=field, group_field=group_by,
                       finder_options={"method": method})
        for name, (records, field) in sets.items()
    }
    if fmt is TextFormat.json:
        import json

        data = reports[str(labels[0])].to_dict() if len(labels) == 1 else {n: r.to_dict() for n, r in reports.items()}
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        titles = len(labels) > 1
        typer.echo("\n\n".join(format_report(r, title=n if titles else "", show_misses=misses) for n, r in reports.items()))


@app.command()
@errors_to_exit
def upgrade(db: DbArgument) -> None:
    """Re-index a database written by an older evfind, from the page text it stores."""
    from .ingest import reindex

    count, old, new = reindex(db)
    typer.echo(f"{db}: re-indexed {count} revision(s), schema {old} -> {new}")


@app.command()
@errors_to_exit
def serve(
    db: DbArgument,
    port: Annotated[int, typer.Option("--port", "-p", min=0, max=65535, help="Port on 127.0.0.1 (0 picks a free one).")] = DEFAULT_PORT,
) -> None:
    """Browse, search and ask the filing in Datasette on 127.0.0.1 (needs the browse extra)."""
    from .browse import serve as run_serve

    run_serve(db, port=port, announce=typer.echo)


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
    app()
