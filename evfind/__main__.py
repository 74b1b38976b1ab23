"""The `evfind` console script and `python -m evfind`: the command line of cli.py, started with
the garbage collector off.

Start-up (Typer's import and evfind.cli's) makes objects that live as long as the process:
modules, classes, the app. The collector would scan them some 30 times while they are made, again
at each later collection and once more at exit, to free next to nothing: 30 to 50 ms of a query
process, more than evfind's own imports. So it is off while they are made, and they are then
frozen (out of its scans) before it is switched back on for the command. Only a process that runs
the command line imports this module: a program that imports evfind keeps its collector as is."""

import gc

gc.disable()
from .cli import main  # noqa: E402

gc.freeze()
gc.enable()

if __name__ == "__main__":
    main()
