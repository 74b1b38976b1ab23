"""The evfind command line: parse, call the library, print. No SQL and no ranking here.

One Typer app (cli_app.py: the app, the options several commands take, errors and printing) and
a module for each group of commands, each registering its own on the app:

    cli_ingest.py  ingest, upgrade     the commands that write databases
    cli_query.py   query               one question, or a file of them (--questions)
    cli_show.py    show, info          what a database stores: pages, documents, sections
    cli_eval.py    eval                retrieval measured on labelled questions
    cli_serve.py   serve, mcp          Datasette in a browser, MCP for agents

``app`` is the whole command line (every command registered: ``from evfind.cli import app``,
as the tests and typer.testing use it); ``main`` (the console script) imports only the module of
the command it runs."""

from __future__ import annotations

import importlib
import sys

from . import cli_app

# Each command and the module that defines it, in the order `evfind --help` lists them.
COMMANDS = {
    "ingest": "cli_ingest",
    "query": "cli_query",
    "show": "cli_show",
    "info": "cli_show",
    "eval": "cli_eval",
    "upgrade": "cli_ingest",
    "serve": "cli_serve",
    "mcp": "cli_serve",
}


def load(command: str | None = None) -> None:
    """Register on the app the commands of the module that defines ``command``, or every command
    (``command`` None or not one of COMMANDS), listed in COMMANDS' order."""
    if command in COMMANDS:
        importlib.import_module(f"{__package__}.{COMMANDS[command]}")
    else:
        from . import cli_eval, cli_ingest, cli_query, cli_serve, cli_show  # noqa: F401
    order = list(COMMANDS)
    cli_app.app.registered_commands.sort(key=lambda info: order.index(_name(info)))


def __getattr__(name: str):
    """``app``: the app with every command registered."""
    if name == "app":
        load()
        return cli_app.app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _name(info) -> str:
    return info.name or info.callback.__name__


def main() -> None:  # console script entry point
    """Run the command line. A process runs one command: when the first argument names one,
    only its module is imported and Typer builds the Click command of that one alone (building
    all eight costs a query some 4 ms); anything else (no command, `--help`, `--version`, a
    mistyped name) gets the whole app."""
    import copy

    app = cli_app.app
    first = sys.argv[1] if len(sys.argv) > 1 else None
    load(first)
    named = [c for c in app.registered_commands if _name(c) == first]
    for info in [app.registered_callback, *(named or app.registered_commands)]:
        _evaluate_annotations(info.callback)
    if not named:
        app()
        return
    one = copy.copy(app)  # the same app (its callback, --version, settings) with one command
    one.registered_commands = named
    one()


def _evaluate_annotations(callback) -> None:
    """Evaluate a command's annotations (strings in its module) in place, once, before Typer
    builds the command: Typer reads a signature several times and would evaluate each string
    every time (2.5 ms for `query`), where evaluated once they cost what they did at import."""
    function = getattr(callback, "__wrapped__", callback)  # (errors_to_exit shares the dict)
    annotations = function.__annotations__
    for name, value in annotations.items():
        if isinstance(value, str):
            annotations[name] = eval(value, function.__globals__)  # noqa: S307 (the module's own text)
