"""Browse a filing database in Datasette: the library behind `evfind serve`.

Datasette is an optional extra (``pip install 'evfind[browse]'``): it is imported only inside
these functions, so the rest of evfind never loads it. What Datasette shows of an evfind
database (the ask, search and page queries, titles, facets) comes from the plugin in
``evfind.datasette_plugin``, which Datasette loads from evfind's entry point.
"""

import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from .errors import MissingExtraError, UsageError

if TYPE_CHECKING:
    import socket

HOST = "127.0.0.1"
DEFAULT_PORT = 8001  # `evfind serve`'s port unless --port says otherwise (the CLI reads it here)
INSTALL = "pip install 'evfind[browse]'"
DATASETTE_LINE = "0.65"  # the Datasette release line the plugin and its metadata are written for
INSTANCE_METADATA = {
    "title": "evfind",
    "description_html": (
        "Which page of this filing holds the evidence? Open a database, then "
        "<b>Ask a question</b>: every page number links to the page's stored text."
    ),
}


def require_datasette() -> str:
    """The installed Datasette version; a clear error when it is missing or of another line."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        import datasette.app  # noqa: F401
        found = version("datasette")
    except (ImportError, PackageNotFoundError):
        raise MissingExtraError(f"Datasette is not installed: {INSTALL}") from None
    if found.split(".")[:2] != DATASETTE_LINE.split("."):
        raise MissingExtraError(
            f"evfind's Datasette plugin is written for Datasette {DATASETTE_LINE}.x, "
            f"found {found}: {INSTALL}"
        )
    return found


def make_datasette(paths: list[str | os.PathLike]):
    """A Datasette instance serving evfind databases with evfind's configuration."""
    require_datasette()
    from datasette.app import Datasette

    return Datasette([str(p) for p in paths], metadata=INSTANCE_METADATA)


def bind(port: int, host: str = HOST) -> "socket.socket":
    """A listening socket on host:port (0: any free port), or a clear error."""
    import errno
    import socket  # only `evfind serve` pays for it: the CLI imports this module for DEFAULT_PORT

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(f"port {port} on {host} is in use: choose another with --port (0 picks a free one)") from None
        raise UsageError(f"cannot listen on {host}:{port} ({exc.strerror}): choose another with --port") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve(db: str | os.PathLike, port: int = DEFAULT_PORT, announce: Callable[[str], None] = print) -> None:
    """Serve one evfind database on 127.0.0.1 until interrupted (Ctrl-C)."""
    from . import store  # here, not at the top: the CLI imports this module for DEFAULT_PORT

    require_datasette()
    db = Path(db)
    store.connect_read(db).close()  # evfind's own errors for a missing or foreign file
    datasette = make_datasette([db])
    sock = bind(port)
    try:
        import asyncio

        import uvicorn

        asyncio.run(datasette.invoke_startup())
        name = next(n for n, d in datasette.databases.items() if d.path and Path(d.path).resolve() == db.resolve())
        base = f"http://{HOST}:{sock.getsockname()[1]}"
        announce(f"Serving {db} at {base}{datasette.urls.database(name)}")
        announce(f"Ask a question: {base}{datasette.urls.database(name)}/ask  (Ctrl-C to stop)")
        config = uvicorn.Config(datasette.app(), lifespan="on", log_level="warning")
        try:
            uvicorn.Server(config).run(sockets=[sock])
        except KeyboardInterrupt:  # Ctrl-C is how a server is stopped: not an error
            pass
    finally:
        sock.close()
