"""The `evfind` console script and `python -m evfind`: the command line of cli.py, started with
the garbage collector off, and left without tearing the interpreter down.

Start-up (Typer's import and evfind.cli's) makes objects that live as long as the process:
modules, classes, the app. The collector would scan them some 30 times while they are made, again
at each later collection and once more at exit, to free next to nothing: 30 to 50 ms of a query
process, more than evfind's own imports. So it is off while they are made, and they are then
frozen (out of its scans) before it is switched back on for the command, with a first threshold
that a query does not reach (``_start``). Only a process that runs the command line imports
this module: a program that imports evfind keeps its collector as is.

When the command is done, the process ends with ``os._exit`` once its output is flushed: the
interpreter's own exit would free every module and object one by one (some 3 ms of a query,
for memory the system takes back at once). Only where nothing else is left to do: no atexit
function registered and no thread but the main one; otherwise, and when the output cannot be
flushed (a reader that has gone), Python exits as usual, with its usual status."""

import gc
import os
import sys

gc.disable()
from .cli import load as _load  # noqa: E402
from .cli import main as _command_line  # noqa: E402

gc.freeze()
gc.enable()


# The collector's first threshold in the console script's process (``_start``): new objects
# (allocations less deallocations of the objects it tracks) before a collection.
YOUNG = 50_000


def main() -> None:
    """Run the command line and leave with its exit status."""
    _start()
    try:
        _command_line()
    except SystemExit as exc:
        status = exc.code
    else:
        status = 0
    _leave(status)


def _start() -> None:
    """Import the module of the command the process runs (cli.load: cli_query for `evfind
    query`) with the collector off, as the command line was, and freeze what it made. The
    command then runs with the collector on (cli.main's own load finds the module loaded), its
    first generation collected after ``YOUNG`` new objects rather than Python's 700: a query
    makes some 13,000 (its lazy imports among them) and none is garbage a collection finds
    (they are freed by their counts), so the default's 15 to 20 collections of a query free
    nothing; a long command (a batch, `evfind serve`) still collects its cycles, every few
    questions."""
    gc.disable()
    try:
        _load(sys.argv[1] if len(sys.argv) > 1 else None)
    finally:
        gc.freeze()
        gc.set_threshold(YOUNG, *gc.get_threshold()[1:])
        gc.enable()


def _leave(status) -> None:
    if status is None:
        status = 0
    if not isinstance(status, int) or not _nothing_left():
        raise SystemExit(status)  # (a message as the status: Python prints it and exits 1)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # Python's exit reports it, with its own status
        raise SystemExit(status) from None
    os._exit(status)


def _nothing_left() -> bool:
    """Does the interpreter's exit have nothing to do but free memory: no atexit function to
    call (atexit._ncallbacks is CPython's count of them), no thread to wait for?"""
    import atexit

    count = getattr(atexit, "_ncallbacks", None)
    if count is None or count():
        return False
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


if __name__ == "__main__":
    main()
