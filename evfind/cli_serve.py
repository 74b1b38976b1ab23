"""`evfind serve` and `evfind mcp`: the servers. Datasette in a browser (browse.py, the browse
extra) and MCP on stdio for LLM agents (mcp_server.py, the mcp extra), each imported only here."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .browse import DEFAULT_PORT
from .cli_app import DbArgument, app, errors_to_exit


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
