from __future__ import annotations

import json
import os
import re
import signal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evfind.cli import app

from .filing import LABELS, PAGES
from .pdfgen import make_pdf

REPO = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    """Ctrl-C reaches the commands the tests start, as from a terminal. A shell without job control
    starts a background job (`pytest ... &`, `nohup`, some CI runners) with SIGINT ignored, and a
    program started with SIGINT ignored keeps it ignored (Python then installs no handler, and
    evfind leaves a program's own choice alone): the Ctrl-C tests would send a signal nobody hears.
    Only the tests' own process is changed, and only from ignored to Python's default."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser):
    parser.addoption(
        "--financebench",
        metavar="DIR",
        default=os.environ.get("EVFIND_FINANCEBENCH"),
        help="the FinanceBench development folder (pdfs/, questions*.jsonl): runs the slow "
        "end-to-end tests over the real filings (also EVFIND_FINANCEBENCH)",
    )
    parser.addoption(
        "--edgar",
        metavar="DIR",
        default=os.environ.get("EVFIND_EDGAR"),
        help="the EDGAR HTML development filings (*.htm, *.html, README.md): runs the end-to-end "
        "tests of HTML ingest over them (also EVFIND_EDGAR)",
    )


@pytest.fixture(scope="session")
def edgar(request) -> Path:
    """The EDGAR development filings (/work/shared/edgar: *.htm, *.html and the README that
    defines their pages), given with --edgar DIR; the tests that use them skip without it."""
    folder = request.config.getoption("--edgar")
    if not folder:
        pytest.skip("EDGAR filings not given: pass --edgar ../shared/edgar to run")
    folder = Path(folder)
    if not (folder / "README.md").is_file():
        pytest.skip(f"{folder}/README.md not found")
    return folder


@pytest.fixture(scope="session")
def financebench(request) -> Path:
    folder = request.config.getoption("--financebench")
    if not folder:
        pytest.skip("real filings not given: pass --financebench ../shared/financebench to run")
    folder = Path(folder)
    if not (folder / "pdfs").is_dir():
        pytest.skip(f"{folder}/pdfs not found")
    return folder


class Cli:
    """Runs the evfind CLI in-process; stdout and stderr are kept apart."""

    def __init__(self):
        self.runner = CliRunner(env={"COLUMNS": "100", "TERM": "dumb", "NO_COLOR": "1"})

    def __call__(self, *args: str | os.PathLike, input: str | None = None):
        return self.runner.invoke(app, [str(a) for a in args], input=input)

    def json(self, *args):
        result = self(*args, "--format", "json")
        return result, json.loads(result.stdout)


@pytest.fixture
def cli() -> Cli:
    return Cli()


@pytest.fixture
def filing_pdf(tmp_path) -> Path:
    return make_pdf(tmp_path / "ACME_2024_10K.pdf", PAGES, LABELS)


@pytest.fixture
def filing_db(tmp_path, filing_pdf) -> Path:
    from evfind.ingest import ingest

    return ingest(filing_pdf).db_path


# The doubtful answer's sentence (answer.DOUBTFUL, zh.MESSAGES["doubtful"]): the first page's
# confidence is under the doubt threshold.
DOUBT_SAID = re.compile(r"^(No page is likely to hold the evidence \(the first has confidence [0-9.]+\); these are the "
                        r"candidates\. Check them(\. )?|没有页面很可能包含所需证据（第一页的置信度为 [0-9.]+）；以下是候选页面，请逐页核对。?)")


def besides_doubt(message: str | None) -> str | None:
    """An answer's message without the doubtful answer's sentence (None when nothing else is
    said): what tests of the other parts of a message check."""
    if message is None:
        return None
    return DOUBT_SAID.sub("", message) or None


def write_jsonl(path: Path, pages: list[str]) -> Path:
    path.write_text(
        "".join(json.dumps({"page_number": n, "text": t}) + "\n" for n, t in enumerate(pages, 1)),
        encoding="utf-8",
    )
    return path


def ranked_pages(cli: Cli, tmp_path: Path, name: str, pages: list[str], question: str, *options: str) -> list[int]:
    """The pages a query of a filing written here lists (up to 20), through the CLI (with
    ``options``: "--method", "rules"); the filing is ingested once, as ``name``.jsonl."""
    source = tmp_path / f"{name}.jsonl"
    if not source.with_suffix(".db").exists():
        write_jsonl(source, pages)
        assert cli("ingest", source).exit_code == 0
    result, data = cli.json("query", source.with_suffix(".db"), question, "--top", "20", *options)
    assert result.exit_code == 0, result.output
    return [hit["page_number"] for hit in data["results"]]


def snapshot(path: Path) -> dict[str, bytes]:
    """Every file in a directory with its bytes: to prove a command changed nothing."""
    return {p.name: p.read_bytes() for p in sorted(path.iterdir()) if p.is_file()}
