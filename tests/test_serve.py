"""`evfind serve`: errors as one line with their exit code, and a real server in a subprocess."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

import pytest

from .conftest import REPO, snapshot

CAPEX = "What were capital expenditures in 2024? Use the cash flow statement."


def test_serve_without_datasette_says_how_to_install_it(cli, filing_db, monkeypatch):
    monkeypatch.setitem(sys.modules, "datasette", None)  # `import datasette` now fails
    monkeypatch.setitem(sys.modules, "datasette.app", None)
    result = cli("serve", filing_db)
    assert result.exit_code == 6
    assert result.stderr == "Error: Datasette is not installed: pip install 'evfind[browse]'\n"
    assert result.stdout == ""


def test_serve_a_missing_or_foreign_database(cli, tmp_path):
    pytest.importorskip("datasette")
    before = snapshot(tmp_path)
    result = cli("serve", tmp_path / "missing.db")
    assert result.exit_code == 3
    assert result.stderr.startswith(f"Error: {tmp_path / 'missing.db'}: no such database")
    text = tmp_path / "notes.db"
    text.write_text("not a database")
    assert cli("serve", text).exit_code == 3
    assert snapshot(tmp_path) == {**before, "notes.db": b"not a database"}


def test_serve_on_a_port_in_use(cli, filing_db):
    pytest.importorskip("datasette")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = cli("serve", filing_db, "--port", str(port))
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: port {port} on 127.0.0.1 is in use: choose another with --port (0 picks a free one)\n"
    )


class Server:
    """`python -m evfind serve DB --port 0` in a subprocess; its URL read from what it prints."""

    def __init__(self, db: Path):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "evfind", "serve", str(db), "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=db.parent,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        first = self.process.stdout.readline()
        if not first.startswith("Serving "):
            self.process.kill()
            raise AssertionError(f"evfind serve did not start: {first}{self.process.stderr.read()}")
        self.database_url = first.rsplit(" at ", 1)[1].strip()  # http://127.0.0.1:PORT/NAME
        self.ask_line = self.process.stdout.readline()

    def get(self, path: str, **params) -> str:
        url = self.database_url + path + ("?" + urlencode(params) if params else "")
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.read().decode("utf-8")

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # Ctrl-C
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        self.process.stderr.close()
        return self.process.returncode


@pytest.fixture
def server_for():
    pytest.importorskip("datasette")
    started = []

    def start(db: Path) -> Server:
        started.append(Server(db))
        return started[-1]

    yield start
    for server in started:
        server.stop()


def test_serve_answers_over_http_and_stops_on_ctrl_c(server_for, filing_db):
    server = server_for(filing_db)
    assert server.database_url.startswith("http://127.0.0.1:")
    assert server.database_url.endswith("/ACME_2024_10K")
    assert server.ask_line == f"Ask a question: {server.database_url}/ask  (Ctrl-C to stop)\n"
    hits = json.loads(server.get("/ask.json", question=CAPEX, _shape="array"))
    assert hits[0]["page"] == 10
    assert "Consolidated Statements of Cash Flows" in server.get("/page", page="10")
    assert server.stop() == 0


def test_the_cli_never_imports_datasette(filing_db):
    code = (
        "import sys\n"
        "from evfind.cli import main\n"
        f"sys.argv = ['evfind', 'query', {str(filing_db)!r}, 'capital expenditures']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "assert 'datasette' not in sys.modules, 'datasette was imported'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 0, result.stderr
    assert "Consolidated Statements of Cash Flows" in result.stdout


def test_serve_help_names_the_extra(cli):
    result = cli("serve", "--help")
    assert result.exit_code == 0
    assert "Datasette on 127.0.0.1 (needs the browse extra)" in " ".join(result.stdout.split())
