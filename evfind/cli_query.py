"""`evfind query`: rank the pages of a filing for one question, or for every question of a file
(--questions, one JSON line each). Parse, call the finder (multi.py), print through render.py."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer
from typer.core import TyperCommand

try:  # the Click that Typer parses with: a copy of its own since typer 0.28
    from typer._click.exceptions import NoSuchOption as _NoSuchOption
except ImportError:  # pragma: no cover (older typer, on Click itself)
    from click.exceptions import NoSuchOption as _NoSuchOption

from .cli_app import (
    DocumentOption,
    QueryDbArgument,
    ShaOption,
    app,
    database_of,
    emit,
    errors_to_exit,
    terminal_width,
    use_colour,
)
from .errors import EXIT_NO_MATCH, EXIT_USAGE
from .rank import TOP_DEFAULT, TOP_MAX


class Format(str, Enum):
    table = "table"
    markdown = "markdown"
    json = "json"


class Language(str, Enum):
    en = "en"
    zh = "zh"


class RankMethod(str, Enum):
    """The last stage after the fusion (rank.METHODS): the learned model or the hand-set rules."""

    learned = "learned"
    rules = "rules"


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
    method: Annotated[
        RankMethod, typer.Option("--method", help="The last stage after the fusion: learned (a trained model, with a confidence per page) or rules (the hand-set rules, no confidence).")
    ] = RankMethod.learned,
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
    from .rank import METHODS
    from .render import render, render_plan

    if (question is None) == (questions is None):
        raise UsageError("give one QUESTION, or --questions FILE to ask many (one a line)")
    if questions is not None:
        if fmt not in (None, Format.json):
            raise UsageError("--questions prints one JSON object a line; --format table and markdown do not apply")
        if explain:
            raise UsageError("--explain shows one question; ask it without --questions")
    db, document, sha = database_of(db, document, sha, ingest=True)
    if questions is not None:
        _ask_all(db, questions, top, document, sha, lang.value if lang else None, METHODS[method.value])
        return
    fmt = fmt or Format.table
    lang_code = lang.value if lang else None
    with open_finder(db, document=document, sha=sha, method=METHODS[method.value]) as finder:
        if not explain:
            answer = finder.answer(question, top=top, lang=lang_code)
        else:
            try:
                plan = finder.explain(question, top)
            except REFUSALS as exc:
                answer = finder.refused(question, exc, lang_code)
            else:
                emit(render_plan(plan, "json" if fmt is Format.json else "text"))
                return
    if answer.error is not None and fmt is not Format.json:  # one line on stderr
        raise answer.error
    status = answer.error.exit_code if answer.error is not None else 0 if answer.results else EXIT_NO_MATCH
    colour = use_colour()
    emit(render(answer, fmt.value, columns=terminal_width(), colour=colour), status, colour)
    if status:
        raise typer.Exit(code=status)


def _ask_all(db: Path, source: Path, top: int, document: Optional[str], sha: Optional[str], lang: Optional[str],
             method) -> None:
    import json

    from .batch import answer_all, read_questions
    from .multi import open_finder

    items = read_questions(source)
    with open_finder(db, document=document, sha=sha, method=method) as finder:
        for data in answer_all(finder, items, top=top, lang=lang):
            emit(json.dumps(data, ensure_ascii=False), EXIT_USAGE if finder.empty else 0)
        if finder.empty:  # every line says so; the status says the run found nothing to search
            raise typer.Exit(code=EXIT_USAGE)
