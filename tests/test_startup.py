"""A query process loads only what a query needs: not the PDF library, not sqlite-utils, not the
ingest side of evfind, and not what Typer can do without (rich, pydantic)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .test_cli import CAPEX

PROBE = """
import json, sys
sys.argv = ["evfind", *json.loads(sys.argv[1])]
from evfind.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
sys.stderr.write(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""

NOT_ON_THE_QUERY_PATH = (
    "pypdfium2",
    "sqlite_utils",
    "rich",
    "pydantic",
    "evfind.ingest",
    "evfind.extract",
    "evfind.structure",
    "evfind.evaluate",
    "evfind.pageimage",
)


def loaded(*args) -> tuple[int, str, set[str]]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps([str(a) for a in args])],
        capture_output=True,
        text=True,
    )
    report = json.loads(result.stderr.splitlines()[-1] if "\n" in result.stderr else result.stderr)
    return report["code"], result.stdout, set(report["modules"])


@pytest.mark.parametrize("fmt", ["table", "json"])
def test_query_imports_neither_the_pdf_library_nor_sqlite_utils(filing_db, fmt):
    code, stdout, modules = loaded("query", filing_db, CAPEX, "--format", fmt)
    assert code == 0, stdout
    assert "Consolidated Statements of Cash Flows" in stdout
    assert "evfind.finder" in modules  # the probe really ran a query
    assert sorted(m for m in modules if m.split(".")[0] in NOT_ON_THE_QUERY_PATH or m in NOT_ON_THE_QUERY_PATH) == []


def test_batch_query_imports_nothing_more(filing_db, tmp_path):
    source = tmp_path / "q.txt"
    source.write_text(CAPEX + "\n", encoding="utf-8")
    code, stdout, modules = loaded("query", filing_db, "--questions", source)
    assert code == 0
    assert json.loads(stdout)["results"][0]["page_number"] == 10
    assert not {m.split(".")[0] for m in modules} & {"pypdfium2", "sqlite_utils", "rich", "pydantic"}
    assert "evfind.ingest" not in modules and "evfind.structure" not in modules


def test_ingest_does_load_the_pdf_library(filing_pdf, tmp_path):
    # the probe sees imports: the same probe on ingest finds pypdfium2
    code, _, modules = loaded("ingest", filing_pdf, "--db", tmp_path / "probe.db", "--quiet")
    assert code == 0
    assert "pypdfium2" in modules and "evfind.structure" in modules
