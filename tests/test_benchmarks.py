"""The benchmarks' own machinery, on the 12-page test filing: what they write is what ingest
writes. (The benchmarks themselves are run by hand: see the README's Benchmarks section.)"""

from __future__ import annotations

import importlib.util
import sqlite3
import subprocess

import pytest

from evfind.ingest import ingest

from .conftest import REPO, write_jsonl
from .filing import PAGES


def load(name: str):
    """benchmarks/NAME.py as a module (its main() is not run)."""
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", REPO / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def hardening():
    return load("hardening")


def common_words(db, document_id: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT c.word FROM common_words c JOIN documents d ON d.revision_id = c.revision_id "
            "WHERE d.document_id = ? ORDER BY c.word", (document_id,),
        ).fetchall()
    conn.close()
    return [word for (word,) in rows]


@pytest.fixture
def source(tmp_path):
    return write_jsonl(tmp_path / "bench.jsonl", PAGES)


@pytest.fixture
def expected(tmp_path, source):
    """The common words ingest stores for the test filing."""
    db = ingest(source, tmp_path / "reference.db", "bench").db_path
    words = common_words(db, "bench")
    assert {"widget", "table", "content"} <= set(words) and not set(words) & set("aeiou")  # words, not characters
    return words


@pytest.mark.parametrize("way", ["replace", "rollback", "wal"])
def test_hardening_writes_the_common_words_ingest_writes(hardening, tmp_path, source, expected, way):
    db = ingest(source, tmp_path / "filing.db", "ACME").db_path
    hardening.write_seconds(way, db, source)  # in this process
    assert common_words(db, "bench") == expected


@pytest.mark.parametrize("way", ["replace", "rollback"])
def test_hardening_writer_process_writes_the_common_words_ingest_writes(hardening, tmp_path, source, expected, way):
    db = ingest(source, tmp_path / "filing.db", "ACME").db_path
    done = subprocess.run(hardening.writer(way, db, [source]), capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert common_words(db, "bench") == expected
