"""Issue 24: `evfind mcp FOLDER --ingest` over a folder holding a PDF made here (with printed page
labels) and another filing's database: the PDF is ingested into the database beside it on its
first use and answers as `evfind query report.pdf` does; several documents are asked as one; a
database rewritten on disk is served anew while an old revision stays readable by its SHA-256.
Without --ingest, nothing is written. One server process serves the module (through the MCP
SDK's stdio client); the refusals at start-up run the command alone."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest

from evfind.ingest import ingest
from evfind.mcp_server import Library

from .conftest import Cli, write_jsonl
from .filing import LABELS, PAGES
from .hostile import revised_pdf
from .mcpclient import McpClient
from .pdfgen import make_pdf
from .test_several import BETA, LEGAL

CAPEX = "What were capital expenditures in 2024? Use the cash flow statement."
QUESTIONS = [
    CAPEX,
    "Where are the risk factors?",
    "What was total revenue in 2024?",
    "Where are the legal proceedings?",
    "2024年的资本支出是多少？",
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """filings/: ACME_2024_10K.pdf, never ingested, and BETA_2024_10K.db."""
    folder = tmp_path_factory.mktemp("filings")
    make_pdf(folder / "ACME_2024_10K.pdf", PAGES, LABELS)
    sources = tmp_path_factory.mktemp("sources")
    ingest(write_jsonl(sources / "BETA_2024_10K.jsonl", BETA), folder / "BETA_2024_10K.db", "BETA_2024_10K")
    return folder


@pytest.fixture(scope="module")
def server(folder, tmp_path_factory):
    client = McpClient(folder, "--ingest", errlog=tmp_path_factory.mktemp("mcp") / "stderr.txt")
    client.ingested_at_start = (folder / "ACME_2024_10K.db").exists()
    yield client
    client.close()


@pytest.fixture(scope="module")
def cli() -> Cli:
    return Cli()


def test_the_pdf_is_ingested_beside_it_on_first_use(server, folder):
    assert server.ingested_at_start is False  # started, initialized, tools listed: nothing ingested
    assert all(tool.annotations.read_only_hint is False for tool in server.tools())  # --ingest may write
    listed = server.call("list_documents").structured_content
    db = folder / "ACME_2024_10K.db"
    assert db.exists()
    assert server.stderr() == f"{folder / 'ACME_2024_10K.pdf'}: ingesting into {db} (first use)\n"
    acme, beta = listed["documents"]
    assert (acme["document_id"], beta["document_id"]) == ("ACME_2024_10K", "BETA_2024_10K")
    assert acme["document_sha256"] == hashlib.sha256((folder / "ACME_2024_10K.pdf").read_bytes()).hexdigest()
    assert (acme["source_kind"], acme["page_count"], acme["labelled_pages"]) == ("pdf", 12, 12)
    assert acme["database"] == str(db.resolve()) and acme["form"] == "10-K"
    assert acme["period"] == {"text": "fiscal year ended December 31, 2024", "page_number": 1}
    assert beta["period"] == {"text": "fiscal year ended December 31, 2024", "page_number": 1}
    assert listed["not_served"] == []


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_pdf_answers_as_evfind_query_asks_it(server, folder, cli, question):
    result, expected = cli.json("query", folder / "ACME_2024_10K.pdf", question)
    assert result.exit_code == 0 and result.stderr == "", result.output  # (already ingested by the server)
    answer = server.call("find_evidence", question=question, document="acme")
    assert not answer.is_error
    assert answer.structured_content == expected
    # every hit's page opens, with its printed folio, and its evidence lines are its lines
    for hit in expected["results"]:
        page = server.call("read_page", document=hit["document_sha256"], page=hit["page_number"]).structured_content
        assert page["page_label"] == hit["page_label"] and page["heading"] == hit["heading"]
        for evidence in hit["evidence"]:
            assert page["lines"][evidence["line"] - 1] == {"line": evidence["line"], "text": evidence["text"]}
    if question == CAPEX:
        first = expected["results"][0]
        assert (first["page_number"], first["page_label"]) == (10, "8")  # the physical page and the folio


def test_several_documents_are_asked_as_one_each_keeping_its_own_order(server):
    merged = server.call("find_evidence", question=LEGAL).structured_content
    assert merged["document"] is None
    assert [d["document_id"] for d in merged["documents"]] == ["ACME_2024_10K", "BETA_2024_10K"]
    assert [hit["rank"] for hit in merged["results"]] == list(range(1, len(merged["results"]) + 1))
    for document in merged["documents"]:
        alone = server.call("find_evidence", question=LEGAL, document=document["document_sha256"]).structured_content
        mine = [hit["page_number"] for hit in merged["results"] if hit["document_id"] == document["document_id"]]
        assert mine and mine == [hit["page_number"] for hit in alone["results"]][: len(mine)]


def test_a_database_rewritten_on_disk_is_served_anew_and_old_citations_still_open(server, folder, tmp_path):
    old = server.call("list_documents").structured_content["documents"][1]
    revised = BETA[:3] + [BETA[3].replace("(61.5) (40.2)\nNet cash used", "(64.0) (40.2)\nNet cash used")]
    ingest(write_jsonl(tmp_path / "BETA_2024_10K.jsonl", revised), folder / "BETA_2024_10K.db", "BETA_2024_10K")
    new = server.call("list_documents").structured_content["documents"][1]
    assert new["document_sha256"] != old["document_sha256"]
    assert [(r["document_sha256"], r["served"]) for r in new["revisions"]] == [
        (old["document_sha256"], False), (new["document_sha256"], True)]
    asked = server.call("find_evidence", question="purchases of property, plant and equipment", document="BETA")
    assert asked.structured_content["results"][0]["document_sha256"] == new["document_sha256"]
    assert "(64.0)" in asked.structured_content["results"][0]["evidence"][0]["text"]
    # a citation of the old revision still opens, by its SHA-256, as it was
    page = server.call("read_page", document=old["document_sha256"][:16], page=4, lines=4).structured_content
    assert page["document"]["document_sha256"] == old["document_sha256"]
    assert page["lines"] == [{"line": 4, "text": "Purchases of property, plant and equipment (61.5) (40.2)"}]
    again = server.call("find_evidence", question="purchases of property", document=old["document_sha256"])
    assert again.structured_content["document"]["document_sha256"] == old["document_sha256"]


def test_a_pdf_changed_on_disk_is_ingested_again_as_a_new_revision(server, folder):
    pdf = folder / "ACME_2024_10K.pdf"
    old = server.call("find_evidence", question=CAPEX, document="ACME").structured_content
    revised_pdf(pdf, 61)  # new bytes: capital expenditures of 61.9
    new = server.call("find_evidence", question=CAPEX, document="ACME").structured_content
    sha = hashlib.sha256(pdf.read_bytes()).hexdigest()
    assert old["document"]["document_sha256"] != sha == new["document"]["document_sha256"]
    assert "(61.9)" in new["results"][0]["evidence"][0]["text"]
    assert server.stderr().endswith(
        f"{pdf}: changed since it was ingested into {folder / 'ACME_2024_10K.db'} (sha256 {sha[:12]}, was "
        f"{old['document']['document_sha256'][:12]}); ingesting a new revision\n")
    revisions = server.call("list_documents").structured_content["documents"][0]["revisions"]
    assert [(r["document_sha256"], r["served"]) for r in revisions] == [
        (old["document"]["document_sha256"], False), (sha, True)]


def run(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "evfind", "mcp", *map(str, args)], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, cwd=cwd, timeout=60)


def test_without_ingest_a_pdf_not_ingested_is_refused_at_start_and_nothing_written(tmp_path):
    pdf = make_pdf(tmp_path / "NEW_2024_10K.pdf", PAGES, LABELS)
    result = run(pdf)
    assert result.returncode == 3 and result.stdout == ""
    assert result.stderr == (
        f"Error: {pdf} is a PDF, not yet ingested into {tmp_path / 'NEW_2024_10K.db'}: ask it with "
        f"`evfind query {pdf} \"...\"`, which ingests it, or run `evfind ingest {pdf}`; or let the server "
        "ingest it: evfind mcp --ingest\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["NEW_2024_10K.pdf"]
    for args, message in (
        ([tmp_path / "missing.db"], f"Error: {tmp_path / 'missing.db'}: no such file or directory\n"),
        ([tmp_path / "empty"], f"Error: {tmp_path / 'empty'}: no evfind databases (.db) or PDFs in this folder\n"),
    ):
        (tmp_path / "empty").mkdir(exist_ok=True)
        result = run(*args)
        assert (result.returncode, result.stdout, result.stderr) == (3, "", message)


def test_without_ingest_a_folders_pdf_not_ingested_is_left_out_and_said_so(tmp_path):
    make_pdf(tmp_path / "NEW_2024_10K.pdf", PAGES, LABELS)
    ingest(write_jsonl(tmp_path / "BETA.jsonl", BETA), tmp_path / "BETA_2024_10K.db", "BETA_2024_10K")
    said = []
    with Library([tmp_path], notify=said.append) as library:
        listed = library.call("list_documents", {}).data
    assert [d["document_id"] for d in listed["documents"]] == ["BETA_2024_10K"]
    ((path, reason),) = [(item["path"], item["reason"]) for item in listed["not_served"]]
    assert path == str(tmp_path / "NEW_2024_10K.pdf") and "not yet ingested" in reason
    assert said == [f"Warning: {path} is not served: {reason}"]
    assert not (tmp_path / "NEW_2024_10K.db").exists()


def test_a_database_that_cannot_be_read_any_more_is_left_out_and_the_others_served(tmp_path):
    ingest(write_jsonl(tmp_path / "BETA.jsonl", BETA), tmp_path / "BETA_2024_10K.db", "BETA_2024_10K")
    acme = ingest(write_jsonl(tmp_path / "ACME.jsonl", PAGES), tmp_path / "ACME_2024_10K.db", "ACME_2024_10K").db_path
    said = []
    with Library([tmp_path], notify=said.append) as library:
        assert library.call("find_evidence", {"question": LEGAL}).data["documents"]
        kept = acme.read_bytes()
        acme.unlink()  # gone while the server runs
        answer = library.call("find_evidence", {"question": LEGAL})
        assert not answer.error and answer.data["document"]["document_id"] == "BETA_2024_10K"
        listed = library.call("list_documents", {}).data
        assert [d["document_id"] for d in listed["documents"]] == ["BETA_2024_10K"]
        gone = f"{acme}: no such database (run `evfind ingest REPORT.pdf --db {acme}`)"
        assert listed["not_served"] == [{"path": str(acme), "reason": gone}]
        assert said == [f"Error: {acme} is not served: {gone}"]
        failed = library.call("read_page", {"document": "ACME_2024_10K", "page": 1})
        assert failed.error and failed.text.startswith("no document 'ACME_2024_10K' is served")
        acme.write_bytes(kept)  # back: served again
        listed = library.call("list_documents", {}).data
        assert [d["document_id"] for d in listed["documents"]] == ["ACME_2024_10K", "BETA_2024_10K"]
        assert listed["not_served"] == []


def test_a_fault_of_evfinds_is_an_error_result_and_the_library_goes_on(monkeypatch, tmp_path):
    import evfind.finder

    ingest(write_jsonl(tmp_path / "BETA.jsonl", BETA), tmp_path / "BETA_2024_10K.db", "BETA_2024_10K")
    said = []
    with Library([tmp_path / "BETA_2024_10K.db"], notify=said.append) as library:
        def broken(self, *args, **kwargs):
            raise RuntimeError("a bug")

        monkeypatch.setattr(evfind.finder.Finder, "answer", broken)
        failed = library.call("find_evidence", {"question": LEGAL})
        assert failed == (None, "internal error (RuntimeError: a bug); the server goes on", True)
        assert said[0].startswith("Traceback") and said[0].endswith("RuntimeError: a bug")
        monkeypatch.undo()
        assert library.call("find_evidence", {"question": LEGAL}).data["results"]
