"""The `evfind` console script and `python -m evfind`: the command line of cli.py, started with
the garbage collector off, and left without tearing the interpreter down.

Start-up (Typer's import and evfind.cli's) makes objects that live as long as the process:
modules, classes, the app. The collector would scan them some 30 times while they are made, again
at each later collection and once more at exit, to free next to nothing: 30 to 50 ms of a query
process, more than evfind's own imports. So it is off while they are made, and they are then
frozen (out of its scans) before it is switched back on for the command. Only a process that runs
the command line imports this module: a program that imports evfind keeps its collector as is.

When the command is done, the process ends with ``os._exit`` once its output is flushed: the
interpreter's own exit would free every module and object one by one (some 3 ms of a query,
for memory the system takes back at once). Only where nothing else is left to do: no atexit
function registered and no thread but the main one; otherwise, and when the output cannot be
flushed (a reader that has gone), Python exits as usual, with its usual status."""

import gc
import os
import sys

gc.disable()
from .cli import main as _command_line  # noqa: E402

gc.freeze()
gc.enable()


def main() -> None:
    """Run the command line and leave with its exit status."""
    try:
        _command_line()
    except SystemExit as exc:
        status = exc.code
    else:
        status = 0
    _leave(status)


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
