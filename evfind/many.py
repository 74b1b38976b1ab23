"""Ingest many filings at once: one database per filing, in parallel processes.

    >>> from evfind.many import plan, ingest_many
    >>> jobs = plan(["report.pdf"])      # files as given; a directory gives its *.pdf, *.htm, *.html
    >>> [(o.result.db_path.name, o.result.status) for o in ingest_many(jobs, workers=2)]
    [('report.db', 'created')]

(outcomes in the order they finish; tests/test_doctests.py runs this beside report.pdf.)

Each filing is an ordinary ``ingest.ingest`` into its own database (beside the filing, or in
``out_dir``), so each database is written as a whole new file renamed into place: a filing that
fails, or a run that is interrupted, leaves every database whole, old or new. A failure is the
outcome of its own filing; the others still land.

Parallelism is by processes (``concurrent.futures.ProcessPoolExecutor``): extraction and the
structure analysis are Python and pdfium work that one process does on one core. Ctrl-C is the
parent's: the workers ignore SIGINT and are told to stop by an event they check between pages,
so an ingest stops before it writes; one already writing finishes its file. Nothing is killed
half-way. While the workers run, the parent's SIGINT handler only notes the signal, and the
loop that waits on them stops between two waits: a KeyboardInterrupt raised at whatever the
parent was doing could land inside ``concurrent.futures.wait`` while it held some of the
futures' locks, and the pool's own thread then waited on them for ever.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from .errors import EvfindError, InputError, UsageError
from .ingest import IngestResult, default_db_path, ingest


@dataclass(frozen=True)
class Job:
    """One filing and the database it goes to; ``problem`` when the argument it came from
    cannot be ingested at all (a directory without filings)."""

    source: Path
    db: Path | None
    problem: EvfindError | None = None


@dataclass(frozen=True)
class Outcome:
    """What became of one job: its ingest result, or the error that stopped it."""

    job: Job
    result: IngestResult | None = None
    error: EvfindError | None = None


class Interrupted(Exception):
    """The run was interrupted (Ctrl-C); ``outcomes`` are the jobs that finished before it."""

    def __init__(self, outcomes: list[Outcome], total: int):
        super().__init__(f"interrupted after {len(outcomes)} of {total} filings")
        self.outcomes = outcomes
        self.total = total


# What a directory given to ingest offers: its PDFs and HTML filings, by name.
FILING_SUFFIXES = (".pdf", ".htm", ".html")


def filings_in(directory: Path) -> list[Path]:
    """The PDFs and HTML filings of a directory, by name (``*.pdf``, ``*.htm``, ``*.html``, any
    case); subdirectories are not read."""
    return sorted(p for p in directory.iterdir() if p.suffix.lower() in FILING_SUFFIXES and p.is_file())


def plan(paths: Iterable[str | os.PathLike], out_dir: str | os.PathLike | None = None) -> list[Job]:
    """One job per filing, in the order given: a file as it is, a directory as its filings; each
    filing once. Two filings that would share a database (a.pdf and a.txt; with ``out_dir``,
    two files of one name) are a usage error: they would become revisions of one document."""
    out = Path(out_dir) if out_dir is not None else None
    if out is not None and not out.is_dir():
        raise UsageError(f"--out-dir {out}: no such directory")
    jobs: list[Job] = []
    seen: set[Path] = set()
    for path in map(Path, paths):
        if path.is_dir():
            found = filings_in(path)
            if not found:
                jobs.append(Job(path, None, InputError(
                    f"{path}: no filings in this directory (*.pdf, *.htm, *.html; subdirectories are not read)")))
            sources = found
        else:
            sources = [path]
        for source in sources:
            key = Path(os.path.realpath(source))
            if key in seen:
                continue
            seen.add(key)
            db = out / default_db_path(source).name if out is not None else default_db_path(source)
            jobs.append(Job(source, db))
    targets: dict[Path, Job] = {}
    for job in jobs:
        if job.db is None:
            continue
        key = Path(os.path.realpath(job.db))
        if key in targets:
            raise UsageError(
                f"{targets[key].source} and {job.source} would both be written to {job.db}; "
                "ingest one of them with --db"
            )
        targets[key] = job
    return jobs


def cpu_count() -> int:
    """The processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


Progress = Callable[[float, int], None]  # (filings done, counting the parts of those running; all)


def ingest_many(
    jobs: list[Job],
    *,
    workers: int = 1,
    password: str | None = None,
    embed_source: bool = False,
    on_outcome: Callable[[Outcome], None] | None = None,
    progress: Progress | None = None,
) -> list[Outcome]:
    """Ingest every job, ``workers`` at a time (1: in this process, one after the other), and
    return the outcomes in the order they finished; ``on_outcome`` hears each as it does.
    ``password`` and ``embed_source`` are handed to each ingest. Raises ``Interrupted`` on
    Ctrl-C, once the workers have stopped."""
    outcomes: list[Outcome] = []

    def finished(outcome: Outcome) -> None:
        outcomes.append(outcome)
        if on_outcome is not None:
            on_outcome(outcome)

    options = {"password": password, "embed_source": embed_source}
    ready = [job for job in jobs if job.problem is None]
    for job in jobs:
        if job.problem is not None:
            finished(Outcome(job, error=job.problem))
    try:
        if workers <= 1 or len(ready) <= 1:
            _one_by_one(ready, options, finished, progress, len(jobs) - len(ready), len(jobs))
        else:
            _in_parallel(ready, min(workers, len(ready)), options, finished, progress, len(jobs) - len(ready), len(jobs))
    except KeyboardInterrupt:
        raise Interrupted([o for o in outcomes if o.result is not None], len(jobs)) from None
    return outcomes


def _one_by_one(jobs: list[Job], options: dict, finished, progress: Progress | None, done: int, total: int) -> None:
    for job in jobs:
        def page(pages_done: int, pages: int, done: int = done) -> None:
            if progress is not None:
                progress(done + pages_done / pages, total)

        finished(_ingest(job, options, page))
        done += 1
        if progress is not None:
            progress(done, total)


def _ingest(job: Job, options: dict, progress=None) -> Outcome:
    try:
        return Outcome(job, result=ingest(job.source, job.db, progress=progress, **options))
    except EvfindError as exc:
        return Outcome(job, error=exc)


# --------------------------------------------------------------------------------------------
# Worker processes

_WORKER: dict = {}  # in a worker: the shared progress array and the stop event


def _start_worker(shared, stop) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's; it sets `stop`
    _WORKER.update(shared=shared, stop=stop)


def _work(index: int, job: Job, options: dict) -> Outcome:
    shared, stop = _WORKER["shared"], _WORKER["stop"]

    def progress(done: int, total: int) -> None:
        if stop.is_set():
            raise KeyboardInterrupt  # between two pages: nothing is written yet
        shared[index] = done / total

    if stop.is_set():
        raise KeyboardInterrupt
    return _ingest(job, options, progress)


class _CtrlC:
    """While in effect, SIGINT is noted (``pressed``) instead of raising KeyboardInterrupt
    wherever the main thread happens to be; the caller looks at ``pressed`` where stopping is
    safe. In effect only where Python's own handler is (the main thread, SIGINT not ignored or
    handled by the program): elsewhere nothing changes."""

    def __init__(self):
        self.pressed = False
        self._before = None

    def __enter__(self) -> "_CtrlC":
        if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self._before = signal.signal(signal.SIGINT, self._note)
        return self

    def _note(self, signum, frame) -> None:
        self.pressed = True

    def __exit__(self, *exc) -> None:
        if self._before is not None:
            signal.signal(signal.SIGINT, self._before)


def _in_parallel(jobs: list[Job], workers: int, options: dict, finished, progress: Progress | None, done: int, total: int) -> None:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    context = multiprocessing.get_context()
    shared = context.Array("d", len(jobs), lock=False)  # each job's share of pages extracted
    stop = context.Event()
    with _CtrlC() as ctrl_c:  # before the pool starts: its workers are forked with it until they ignore SIGINT
        executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker, initargs=(shared, stop))
        running: dict = {}
        try:
            running = {executor.submit(_work, i, job, options): i for i, job in enumerate(jobs)}
            while running and not ctrl_c.pressed:
                ended, _ = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)  # a Ctrl-C is seen within 0.2 s
                for future in ended:
                    finished(_outcome(future, jobs[running.pop(future)]))
                    done += 1
                if progress is not None:
                    progress(done + sum(shared[i] for i in running.values()), total)
            if ctrl_c.pressed:
                raise KeyboardInterrupt
        except BaseException:
            stop.set()  # the workers stop at their next page; the queued jobs never start
            executor.shutdown(wait=True, cancel_futures=True)  # a second Ctrl-C meanwhile is only noted
            for future, index in running.items():  # those already writing when told have landed
                if not future.cancelled() and not isinstance(future.exception(), KeyboardInterrupt):
                    finished(_outcome(future, jobs[index]))
            raise
        finally:
            executor.shutdown(wait=True)


def _outcome(future, job: Job) -> Outcome:
    from concurrent.futures.process import BrokenProcessPool

    try:
        return future.result()
    except BrokenProcessPool:  # a worker was killed (out of memory, a signal): say which filing
        return Outcome(job, error=EvfindError(f"{job.source}: the process ingesting it ended abruptly; its database was left whole"))
