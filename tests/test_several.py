"""Several documents in one database: a query without --document ranks the pages of every
document (each one's newest revision), each hit naming its own; --document takes a unique
prefix, any case. Through the CLI, on the test filing and a second filing written here."""

from __future__ import annotations

import json
import re

import pytest

from evfind import merge, store
from evfind.finder import NO_MATCH_HINT, NO_MATCH_SEVERAL

from .conftest import besides_doubt, write_jsonl
from .filing import PAGES

# A second annual report, another company's: its risk factors, legal proceedings and cash flows.
BETA = [
    """FORM 10-K
Beta Gearboxes Corp.
For the fiscal year ended December 31, 2024""",
    """Item 1A. Risk Factors
Our gearboxes depend on rare earth magnets bought from one supplier in 2024.
A shortage of magnets would delay our gearbox deliveries.""",
    """Item 3. Legal Proceedings
In 2024 a distributor filed an antitrust lawsuit about our gearbox pricing.
We believe the lawsuit is without merit.""",
    """Consolidated Statements of Cash Flows
(In millions) Years ended December 31, 2024 2023
Net cash provided by operating activities 88.0 71.5
Purchases of property, plant and equipment (61.5) (40.2)
Net cash used in investing activities (61.5) (40.2)""",
]
LEGAL = "Where are the legal proceedings and the lawsuit?"


def ingest(cli, tmp_path, db, pages, document_id):
    source = write_jsonl(tmp_path / f"{document_id}.jsonl", pages)
    result = cli("ingest", source, "--db", db, "--document-id", document_id)
    assert result.exit_code == 0, result.output


@pytest.fixture
def shelf(cli, tmp_path):
    """A database holding ACME_2024_10K (tests/filing.py) and BETA_2024_10K."""
    db = tmp_path / "filings.db"
    ingest(cli, tmp_path, db, PAGES, "ACME_2024_10K")
    ingest(cli, tmp_path, db, BETA, "BETA_2024_10K")
    return db


def documents(db) -> dict[str, dict]:
    conn = store.connect_read(db)
    try:
        return {r.document_id: {"document_id": r.document_id, "document_sha256": r.sha256, "page_count": r.page_count}
                for r in store.revisions(conn)}
    finally:
        conn.close()


def page_text(cli, db, document_id, page) -> str:
    result = cli("show", db, page, "--document", document_id, "--format", "json")
    assert result.exit_code == 0, result.output
    return " ".join(json.loads(result.stdout)["text"].lower().split())


# --- A query ranks every document's pages --------------------------------------------------------


def test_a_query_ranks_the_pages_of_every_document(cli, shelf):
    known = documents(shelf)
    result, data = cli.json("query", shelf, LEGAL)
    assert (result.exit_code, result.stderr) == (0, "")
    assert set(data) == {"question", "document", "documents", "results", "message"}
    assert data["document"] is None
    assert data["documents"] == [known["ACME_2024_10K"], known["BETA_2024_10K"]]
    found = [(hit["document_id"], hit["page_number"]) for hit in data["results"]]
    assert set(found[:2]) == {("ACME_2024_10K", 5), ("BETA_2024_10K", 3)}  # both legal proceedings
    assert [hit["rank"] for hit in data["results"]] == list(range(1, len(found) + 1))
    for hit in data["results"]:  # each hit names its own document and revision, and is that page
        assert hit["document_sha256"] == known[hit["document_id"]]["document_sha256"]
        text = page_text(cli, shelf, hit["document_id"], hit["page_number"])
        assert all(" ".join(term.split()) in text for term in hit["matched_terms"]), hit


def test_the_table_lists_the_documents(cli, shelf):
    known = documents(shelf)
    acme, beta = (known[d]["document_sha256"][:12] for d in ("ACME_2024_10K", "BETA_2024_10K"))
    result = cli("query", shelf, LEGAL, "--top", "2")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[:4] == [
        f"Question: {LEGAL}",
        f"Documents: ACME_2024_10K  sha256 {acme}  (12 pages)",
        f"           BETA_2024_10K  sha256 {beta}  (4 pages)",
        "",
    ]
    assert lines[4].split() == ["Rank", "Page", "Conf", "Document", "SHA-256", "What", "matched"]
    rows = [line for line in lines[5:] if not line.startswith("      line ")]  # each hit's evidence line under it
    # "5 (printed 3)": ACME's pages print their folios
    cells = [re.sub(r" \(printed \w+\)", "", line).split() for line in rows[:2]]
    assert {tuple(cell[3:5]) for cell in cells} == {("ACME_2024_10K", acme), ("BETA_2024_10K", beta)}
    chinese = cli("query", shelf, "法律诉讼在哪一页？", "--top", "2").stdout.splitlines()
    assert chinese[1:3] == [f"文档：ACME_2024_10K  sha256 {acme}  （共 12 页）", f"      BETA_2024_10K  sha256 {beta}  （共 4 页）"]  # 文档： takes six columns


def test_the_document_that_fits_the_question_leads(cli, shelf):
    result, data = cli.json("query", shelf, "Which supplier provides the rare earth magnets?")
    assert result.exit_code == 0
    assert (data["results"][0]["document_id"], data["results"][0]["page_number"]) == ("BETA_2024_10K", 2)
    assert data["message"] is None  # ACME lacks the magnets, BETA has them: the filings hold every word
    result, data = cli.json("query", shelf, "Where is the patent lawsuit about the spinning widget?")
    assert (data["results"][0]["document_id"], data["results"][0]["page_number"]) == ("ACME_2024_10K", 5)


def test_the_document_that_holds_the_named_exhibit_leads(cli, tmp_path):
    """Asked where Exhibit 10.1 begins, the 8-K that attaches it comes first, not the 10-K whose
    exhibit index cites it (incorporated by reference) more often than the agreement names itself."""
    from .test_forms import EIGHT_K

    db = tmp_path / "filings.db"
    ingest(cli, tmp_path, db, EIGHT_K, "ACME_2024_8K")
    index = ("Item 15. Exhibits\nExhibit 10.1 Credit Agreement (incorporated by reference to Exhibit 10.1 to the "
             "Current Report on Form 8-K filed May 2, 2024). Exhibit 10.1 is a management contract. Exhibit 10.1 "
             "was amended; see Exhibit 10.1(a).")
    ingest(cli, tmp_path, db, [*PAGES, index], "ACME_2024_10K")
    _, data = cli.json("query", db, "Where does Exhibit 10.1 begin?")
    assert (data["results"][0]["document_id"], data["results"][0]["page_number"]) == ("ACME_2024_8K", 4)


def test_words_no_document_holds_and_no_match(cli, shelf):
    result, data = cli.json("query", shelf, "rare earth magnets and zebra stripes")
    assert result.exit_code == 0
    # (no page is likely to hold the evidence either: the doubtful answer's sentence comes first)
    assert besides_doubt(data["message"]) == "Not in these filings: zebra, stripes"
    result, data = cli.json("query", shelf, "zebra stripes")
    assert result.exit_code == 1
    assert data["results"] == []
    assert data["message"] == f"{NO_MATCH_SEVERAL}; {NO_MATCH_HINT}. Not in these filings: zebra, stripes"
    assert cli("query", shelf, "zebra stripes").exit_code == 1
    result, data = cli.json("query", shelf, "what is the")  # no content words: exit 2, the documents named
    assert (result.exit_code, result.stderr) == (2, "")
    assert data["document"] is None and len(data["documents"]) == 2 and data["results"] == []
    assert data["message"].startswith("the question has no searchable content words")


def test_each_document_is_read_at_its_newest_revision(cli, shelf, tmp_path):
    revised = [page.replace("(61.5) (40.2)", "(62.0) (40.2)") for page in BETA]
    ingest(cli, tmp_path, shelf, revised, "BETA_2024_10K")
    newest = documents(shelf)["BETA_2024_10K"]["document_sha256"]  # the revisions are listed in order
    result, data = cli.json("query", shelf, "purchases of property, plant and equipment")
    shas = {hit["document_sha256"] for hit in data["results"] if hit["document_id"] == "BETA_2024_10K"}
    assert shas == {newest}
    assert [d["document_sha256"] for d in data["documents"] if d["document_id"] == "BETA_2024_10K"] == [newest]


# --- Choosing a document or a revision -----------------------------------------------------------


@pytest.mark.parametrize("name", ["BETA_2024_10K", "beta", "Beta_2024", "b", "beta_2024_10k"])
def test_document_takes_a_unique_prefix_in_any_case(cli, shelf, name):
    result, data = cli.json("query", shelf, LEGAL, "--document", name)
    assert result.exit_code == 0, result.output
    assert set(data) == {"question", "document", "results", "message"}  # one document: as before
    assert data["document"]["document_id"] == "BETA_2024_10K"
    assert {hit["document_id"] for hit in data["results"]} == {"BETA_2024_10K"}
    assert cli("query", shelf, LEGAL, "--document", name).stdout == cli("query", shelf, LEGAL, "--document", "BETA_2024_10K").stdout


def test_an_ambiguous_or_unknown_document_is_a_usage_error(cli, shelf, tmp_path):
    ingest(cli, tmp_path, shelf, BETA[:2], "ACME_2024_10Q")
    for args in (["query", shelf, LEGAL], ["query", shelf, "--questions", "-"], ["show", shelf, "1"]):
        result = cli(*args, "--document", "acme_2024", input=f"{LEGAL}\n")
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        assert result.stderr == "Error: --document 'acme_2024' matches 2 documents (ACME_2024_10K, ACME_2024_10Q); give more of the id\n"
    assert cli.json("query", shelf, "magnets", "--document", "acme_2024_10q")[1]["document"]["document_id"] == "ACME_2024_10Q"
    unknown = cli("query", shelf, LEGAL, "--document", "gamma")
    assert unknown.exit_code == 2
    assert unknown.stderr == "Error: no document 'gamma' in this database (it holds: ACME_2024_10K, ACME_2024_10Q, BETA_2024_10K)\n"


def test_an_id_that_is_exact_wins_over_longer_ids_it_starts(cli, tmp_path):
    db = tmp_path / "x.db"
    ingest(cli, tmp_path, db, BETA, "BETA")
    ingest(cli, tmp_path, db, BETA[:2], "BETA_2025")
    assert cli.json("query", db, LEGAL, "--document", "BETA")[1]["document"]["document_id"] == "BETA"
    assert cli.json("query", db, LEGAL, "--document", "beta")[1]["document"]["document_id"] == "BETA"
    assert cli("query", db, LEGAL, "--document", "bet").exit_code == 2


def test_sha_picks_a_revision_of_any_document(cli, shelf):
    sha = documents(shelf)["BETA_2024_10K"]["document_sha256"]
    result, data = cli.json("query", shelf, LEGAL, "--sha", sha[:8])
    assert result.exit_code == 0
    assert data["document"]["document_sha256"] == sha
    assert {hit["document_id"] for hit in data["results"]} == {"BETA_2024_10K"}


def test_show_needs_to_know_which_document(cli, shelf):
    result = cli("show", shelf, "3")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        "Error: this database holds several documents (ACME_2024_10K, BETA_2024_10K); choose one with --document\n"
    )
    chinese = cli("show", shelf, "3", "--png", tmp := shelf.with_suffix(".png"))
    assert chinese.exit_code == 2 and not tmp.exists()
    shown = cli("show", shelf, "3", "--document", "beta")
    assert shown.exit_code == 0
    assert shown.stderr.startswith("Page 3 of 4 · BETA_2024_10K · sha256 ")
    assert "antitrust lawsuit" in shown.stdout


def test_info_lists_every_document(cli, shelf):
    result, data = cli.json("info", shelf)
    assert result.exit_code == 0
    assert [(r["document_id"], r["newest"]) for r in data["revisions"]] == [("ACME_2024_10K", True), ("BETA_2024_10K", True)]


def test_explain_shows_one_document(cli, shelf):
    result = cli("query", shelf, LEGAL, "--explain")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        "Error: --explain shows one document's plan; choose one with --document "
        "(this database holds: ACME_2024_10K, BETA_2024_10K)\n"
    )
    assert cli("query", shelf, LEGAL, "--explain", "--document", "acme").exit_code == 0


# --- Batch mode and Datasette follow --------------------------------------------------------------


def test_batch_lines_are_the_several_document_answers(cli, shelf):
    asked = [LEGAL, "rare earth magnets", "zebra stripes", "what is the"]
    result = cli("query", shelf, "--questions", "-", input="\n".join(asked) + "\n")
    assert (result.exit_code, result.stderr) == (0, "")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    for question, line in zip(asked, lines, strict=True):
        assert line == json.loads(cli("query", shelf, question, "--format", "json").stdout)
        assert line["document"] is None and len(line["documents"]) == 2


def test_datasette_evfind_query_asks_every_document(cli, shelf):
    pytest.importorskip("datasette")
    from evfind.datasette_plugin import answer_json

    single = json.loads(cli("query", shelf, LEGAL, "--format", "json").stdout)
    assert json.loads(answer_json(shelf, LEGAL)) == single
    chosen = json.loads(answer_json(shelf, LEGAL, None, None, "beta"))
    assert chosen["document"]["document_id"] == "BETA_2024_10K"


# --- The merge (merge.py): worked by hand ---------------------------------------------------------


def test_merge_takes_turns_best_fitting_document_first():
    a = [("a1", 0.09), ("a2", 0.08), ("a3", 0.07)]
    b = [("b1", 0.05), ("b2", 0.04)]
    c = [("c1", 0.09)]
    # the fits order the turns (b, c, a); each list keeps its order and runs out on its own
    assert merge.merge([a, b, c], [0.2, 0.9, 0.5]) == [
        (1, "b1", 0.05), (2, "c1", 0.09), (0, "a1", 0.09),
        (1, "b2", 0.04), (0, "a2", 0.08),
        (0, "a3", 0.07),
    ]
    # equal fits: the better first page first, then the order of the lists
    assert [item for _, item, _ in merge.merge([b, a, c], [0.5, 0.5, 0.5])] == ["a1", "c1", "b1", "a2", "b2", "a3"]
    assert [item for _, item, _ in merge.merge([b, a])] == ["a1", "b1", "a2", "b2", "a3"]
    assert merge.merge([[], b], [1.0, 0.0]) == [(1, "b1", 0.05), (1, "b2", 0.04)]
    assert merge.merge([]) == []
    with pytest.raises(ValueError):
        merge.merge([a, b], [1.0])


def test_document_fit_by_hand():
    # three ideas, one a year: the document holds two of them (coverage 2/3); the year is on 30 of
    # its 60 pages (1/2); its best bm25 is -6 against the strongest document's -8 (3/4)
    ideas = [(False, 4), (False, 0), (True, 30)]
    assert merge.document_fit(ideas, 60, -6.0, -8.0) == pytest.approx(2 / 3 * 1 / 2 * 3 / 4)
    # two years: the mean of their shares, (10/40 + 30/40) / 2
    assert merge.document_fit([(True, 10), (True, 30)], 40, -8.0, -8.0) == pytest.approx(0.5)
    assert merge.document_fit([(False, 3)], 10, -8.0, -8.0) == 1.0  # no year asked about
    assert merge.document_fit([(False, 3)], 10, None, -8.0) == 0.0  # no page matched
    assert merge.document_fit([], 10, -2.0, -8.0) == pytest.approx(0.25)


def test_years_and_months_weigh_by_their_share_of_pages_a_quarter_does_not():
    from evfind.multi import _dated
    from evfind.question import parse

    dated = {idea.label: _dated(idea) for idea in parse("Gross margin in the second quarter of 2024, the quarter ended June 30?").ideas}
    assert dated["2024"] and dated["june"]
    assert not dated["second quarter"] and not dated["second"] and not dated["gross margin"]
