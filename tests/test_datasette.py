"""Datasette on evfind databases: the plugin's JSON endpoints through Datasette's own test client,
on databases ingested in the test, compared with the library's answers."""

from __future__ import annotations

import asyncio
import html
import json
import re
import sqlite3
from urllib.parse import quote_plus, urlencode

import pytest

from evfind import Finder

from .conftest import write_jsonl
from .filing import BLANK_PAGE, PAGES

pytest.importorskip("datasette", reason="Datasette is not installed: pip install 'evfind[browse]'")

from evfind.browse import make_datasette  # noqa: E402
from evfind.datasette_plugin import ASK_TOP, database_template  # noqa: E402

CAPEX = "What were capital expenditures in 2024? Use the cash flow statement."
CAPEX_FACT = "What were capital expenditures in 2024?"  # its best evidence line: line 10 of page 10
NAME = "ACME_2024_10K"  # the database's name in Datasette: the file name without .db


def get(ds, path: str, **params):
    """GET a Datasette path (params are query-string arguments); the response."""
    if params:
        path += ("&" if "?" in path else "?") + urlencode(params)

    async def fetch():
        await ds.invoke_startup()
        return await ds.client.get(path)

    return asyncio.run(fetch())


def rows(ds, path: str, **params) -> list[dict]:
    response = get(ds, path, _shape="array", **params)
    assert response.status_code == 200, response.text
    return response.json()


@pytest.fixture
def ds(filing_db):
    return make_datasette([filing_db])


def test_the_plugin_is_loaded_from_the_entry_point(ds):
    plugins = {p["name"]: p for p in get(ds, "/-/plugins.json").json()}
    assert set(plugins["evfind"]["hooks"]) >= {"prepare_connection", "get_metadata", "render_cell"}


@pytest.mark.parametrize(
    "question, page",
    [
        (CAPEX, 10),
        ("Is the company involved in any patent lawsuit or legal proceedings?", 5),
        ("Where is net sales by geography?", 12),
    ],
)
def test_ask_lists_evfinds_own_ranking(ds, filing_db, question, page):
    with Finder(filing_db) as finder:
        answer = finder.query(question, top=ASK_TOP).to_dict()
    listed = rows(ds, f"/{NAME}/ask.json", question=question)
    hits = [row for row in listed if row["rank"] is not None]
    assert hits[0]["page"] == page
    assert [(h["rank"], h["page"], h["note"], h["score"]) for h in hits] == [
        (r["rank"], r["page_number"], r["note"], r["score"]) for r in answer["results"]
    ]
    assert {h["sha256"] for h in hits} == {answer["document"]["document_sha256"]}
    assert {h["document_id"] for h in hits} == {"ACME_2024_10K"}
    # The answer's message, when it has one, is the last row.
    messages = [row["note"] for row in listed if row["rank"] is None]
    assert messages == ([answer["message"]] if answer["message"] else [])


def test_ask_shows_each_hits_best_evidence_line_with_its_terms_marked(ds, filing_db):
    with Finder(filing_db) as finder:
        answer = finder.query(CAPEX_FACT, top=ASK_TOP).to_dict()
    hits = [row for row in rows(ds, f"/{NAME}/ask.json", question=CAPEX_FACT) if row["rank"] is not None]
    assert list(hits[0])[:7] == ["rank", "page", "printed", "confidence", "note", "line", "evidence"]
    assert (hits[0]["line"], hits[0]["evidence"]) == (
        10, "<mark>Purchases of property, plant and equipment</mark> (52.8) (47.3) (44.1)"
    )
    for row, hit in zip(hits, answer["results"]):
        best = hit["evidence"][0] if hit["evidence"] else None
        assert row["line"] == (best and best["line"])
        assert (row["evidence"] or "").replace("<mark>", "").replace("</mark>", "") == (best["text"] if best else "")
    page = get(ds, f"/{NAME}/ask", question=CAPEX_FACT).text
    (cell,) = re.findall(r'<td class="col-evidence[^"]*">(<mark>Purchases.*?)</td>', page, re.S)
    assert cell == "<mark>Purchases of property, plant and equipment</mark> (52.8) (47.3) (44.1)"


def test_the_evidence_line_is_escaped_but_its_marks(tmp_path):
    from evfind.ingest import ingest

    hostile = "cover\nCapital expenditures <script>alert(1)</script> & <mark>x</mark> $5.0"
    db = ingest(write_jsonl(tmp_path / "odd.jsonl", ["cover", hostile]), tmp_path / "odd.db", "ODD").db_path
    page = get(make_datasette([db]), "/odd/ask", question="capital expenditures").text
    # the hit's row (a two-page filing's answer is doubtful: its message is a row of its own, with no evidence)
    (cell,) = [c for c in re.findall(r'<td class="col-evidence[^"]*">(.*?)</td>', page, re.S) if "Capital" in c]
    assert cell.startswith("<mark>Capital expenditures</mark> &lt;script&gt;alert(1)&lt;/script&gt; &amp; ")


def test_ask_with_no_question_lists_nothing_and_a_stopword_question_says_why(ds):
    assert rows(ds, f"/{NAME}/ask.json", question="") == []
    assert rows(ds, f"/{NAME}/ask.json") == []
    (row,) = rows(ds, f"/{NAME}/ask.json", question="what is the")
    assert row["page"] is None
    assert row["note"].startswith("Error: the question has no searchable content words")


def test_the_queries_take_their_values_from_evfind(ds):
    queries = database_template()["queries"]
    assert f"evfind_query(:question, {ASK_TOP})" in queries["ask"]["sql"]
    assert not [name for name, query in queries.items() if "{" in query["sql"]]  # all filled in
    # A page without a heading of its own (7 is blank) names the section it continues, as
    # `evfind show` does.
    (page,) = rows(ds, f"/{NAME}/page.json", page="7")
    assert page["heading"] == "continues: Liquidity and Capital Resources"


def test_errors_come_back_as_the_answer_object_in_the_questions_language(ds, filing_db):
    (row,) = rows(ds, f"/{NAME}/ask.json", question="在哪一页？")
    assert row["note"] == "Error: 问题缺少可检索的内容词；请用财报中的说法提问（例如 资本支出、法律诉讼、现金流量表）"
    (row,) = rows(ds, f"/{NAME}.json", sql="select evfind_query(:q) as j", q="what is the")
    with Finder(filing_db) as finder:
        document = finder.query(CAPEX).to_dict()["document"]
    assert json.loads(row["j"]) == {
        "question": "what is the",
        "document": document,
        "results": [],
        "message": "Error: the question has no searchable content words; ask with the words of the filing "
        "(e.g. capital expenditures, legal proceedings)",
    }


def test_evfind_query_returns_the_json_of_evfind_query(ds, filing_db):
    (row,) = rows(ds, f"/{NAME}.json", sql="select evfind_query(:q, 3) as j", q=CAPEX)
    with Finder(filing_db) as finder:
        assert json.loads(row["j"]) == finder.query(CAPEX, top=3).to_dict()
    (row,) = rows(ds, f"/{NAME}.json", sql="select evfind_query(:q) as j", q=CAPEX)
    assert len(json.loads(row["j"])["results"]) == 5  # the CLI's default
    for sql, message in [
        ("select evfind_query(:q, 50) as j", "Error: top must be between 1 and 20"),
        ("select evfind_query(:q, 'many') as j", "Error: top must be a whole number, not 'many'"),
        ("select evfind_query(:q, 5, 'ffff') as j", "Error: no revision whose SHA-256 starts with 'ffff'"),
    ]:
        (row,) = rows(ds, f"/{NAME}.json", sql=sql, q=CAPEX)
        failed = json.loads(row["j"])
        assert failed["results"] == [] and failed["document"] is None
        assert failed["message"].startswith(message)


def test_search_lists_pages_in_bm25_order_with_highlighted_snippets(ds):
    found = rows(ds, f"/{NAME}/search.json", words="net sales")
    # In row order these pages would come 4, 6, 8, 12: bm25 puts the densest page first.
    assert [row["page"] for row in found] == [12, 6, 4, 8]
    assert [row["bm25"] for row in found] == sorted(row["bm25"] for row in found)
    first = found[0]
    assert first["heading"] == "Note 3. Segment Information"
    assert first["printed"] == "10"
    assert "Industrial Widgets <mark>net</mark> <mark>sales</mark> were $530.0 million" in first["snippet"]
    assert rows(ds, f"/{NAME}/search.json", words="") == []
    assert rows(ds, f"/{NAME}/search.json", words='"') == []


def test_page_shows_one_physical_page_with_document_id_and_sha(ds, filing_db):
    with Finder(filing_db) as finder:
        stored = finder.page(10)
    (page,) = rows(ds, f"/{NAME}/page.json", page="10")
    sha = stored.document.document_sha256
    assert page == {
        "page": 10,
        "document_id": "ACME_2024_10K",
        "sha256": sha,
        "printed": "8",
        "of_pages": 12,
        "heading": "Consolidated Statements of Cash Flows",
        "image": f"/-/evfind/{NAME}/page-image?page=10&sha={sha}",
        "html": None,  # (a PDF's page: its image is the page as it looks)
        "text": stored.text,
    }
    assert "Purchases of property, plant and equipment (52.8) (47.3) (44.1)" in page["text"]
    (blank,) = rows(ds, f"/{NAME}/page.json", page=str(BLANK_PAGE))
    assert blank["text"] == ""
    assert rows(ds, f"/{NAME}/page.json", page="13") == []


def test_revisions_old_pages_stay_readable_and_facet(ds, filing_db, tmp_path):
    from evfind.ingest import ingest

    old_sha = Finder(filing_db).document.document_sha256
    changed = list(PAGES)
    changed[9] = PAGES[9].replace("(52.8)", "(58.2)", 1)
    new_sha = ingest(write_jsonl(tmp_path / "restated.jsonl", changed), filing_db, "ACME_2024_10K").sha256
    ds = make_datasette([filing_db])

    (newest,) = rows(ds, f"/{NAME}/page.json", page="10")
    (old,) = rows(ds, f"/{NAME}/page.json", page="10", sha=old_sha[:8])
    assert (newest["sha256"], old["sha256"]) == (new_sha, old_sha)
    assert "equipment (58.2)" in newest["text"] and "equipment (52.8)" in old["text"]
    assert {row["sha256"] for row in rows(ds, f"/{NAME}/ask.json", question=CAPEX) if row["rank"]} == {new_sha}
    assert {row["sha256"] for row in rows(ds, f"/{NAME}/search.json", words="dividends paid")} == {new_sha}

    facets = get(ds, f"/{NAME}/pages.json").json()["facet_results"]
    assert {"revision_id", "statement", "section"} <= set(facets)
    revisions = {item["label"]: item["count"] for item in facets["revision_id"]["results"]}
    assert revisions == {old_sha: 12, new_sha: 12}


def test_a_revision_ingested_while_datasette_runs_opens_in_the_page_view(filing_db, tmp_path):
    from evfind.ingest import ingest

    ds = make_datasette([filing_db])
    old_sha = Finder(filing_db).document.document_sha256
    (before,) = rows(ds, f"/{NAME}/page.json", page="10")  # connections open on the file
    assert before["sha256"] == old_sha
    changed = list(PAGES)
    changed[9] = PAGES[9].replace("(52.8)", "(58.2)", 1)
    new_sha = ingest(write_jsonl(tmp_path / "restated.jsonl", changed), filing_db, "ACME_2024_10K").sha256
    (after,) = rows(ds, f"/{NAME}/page.json", page="10")  # the same Datasette, no restart
    assert after["sha256"] == new_sha and "equipment (58.2)" in after["text"]
    (cited,) = rows(ds, f"/{NAME}/page.json", page="10", sha=new_sha[:12])
    assert cited["sha256"] == new_sha
    assert {row["sha256"] for row in rows(ds, f"/{NAME}/search.json", words="dividends paid")} == {new_sha}


def test_fts_on_pages_is_detected_by_plain_datasette(filing_db):
    from datasette.app import Datasette

    ds = Datasette([str(filing_db)])  # no evfind configuration given
    assert asyncio.run(ds.get_database(NAME).fts_table("pages")) == "pages_fts"
    found = rows(ds, f"/{NAME}/pages.json", _search="patents", _col="page_number")
    assert [row["page_number"] for row in found] == [5]


def test_plain_datasette_command_gets_the_queries(filing_db):
    from click.testing import CliRunner
    from datasette.cli import cli as datasette_cli

    path = f"/{NAME}/ask.json?" + urlencode({"question": CAPEX, "_shape": "array"})
    result = CliRunner().invoke(datasette_cli, [str(filing_db), "--get", path])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)[0]["page"] == 10


def test_titles_descriptions_and_html(tmp_path, filing_pdf):
    from evfind.ingest import ingest

    db = ingest(filing_pdf, tmp_path / "filing.db", "ACME_2024_10K").db_path
    ds = make_datasette([db])
    home = get(ds, "/filing").text
    assert ">ACME_2024_10K</h1>" in home  # the title is the document id, not the file name
    assert '<a href="/filing/ask">Ask a question</a>' in home
    assert "One row per physical page of each revision" in get(ds, "/filing/pages").text

    sha = Finder(db).document.document_sha256
    ask = get(ds, "/filing/ask", question=CAPEX).text
    # The page opens with the question, whose terms its image boxes.
    assert f'<a href="/filing/page?page=10&amp;sha={sha}&amp;question={quote_plus(CAPEX)}">10</a>' in ask
    assert f'<code title="{sha}">{sha[:12]}</code>' in ask
    search = get(ds, "/filing/search", words="patents").text
    assert "<mark>patents</mark>" in search
    page = get(ds, "/filing/page", page="10", sha=sha[:12]).text
    assert f'<a href="/filing/page?page=9&amp;sha={sha}" rel="prev">' in page
    assert f'<a href="/filing/page?page=11&amp;sha={sha}" rel="next">' in page
    assert sha in page and "ACME_2024_10K" in page


def test_page_text_is_whole_and_escaped(tmp_path):
    from datasette.app import Datasette

    from evfind.ingest import ingest

    hostile = "Risk <script>alert(1)</script> & <b>bold</b> <mark>claims</mark>\n" + "filler words " * 400
    db = ingest(write_jsonl(tmp_path / "odd.jsonl", ["cover", hostile]), tmp_path / "odd.db", "ODD").db_path
    ds = Datasette([str(db)], settings={"truncate_cells_html": 40})
    page = get(ds, "/odd/page", page="2").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in page
    assert "<script>alert" not in page
    assert page.count("filler words") == 400  # not cut at truncate_cells_html
    search = get(ds, "/odd/search", words="script").text
    assert "&lt;<mark>script</mark>&gt;alert" in search and "<script>alert" not in search


def test_other_databases_are_left_alone(filing_db, tmp_path):
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE pages (page INTEGER, sha256 TEXT, text TEXT)")
        conn.execute("INSERT INTO pages VALUES (1, 'abc', '<b>x</b>')")
    conn.close()
    ds = make_datasette([filing_db, other])
    assert get(ds, "/other/ask").status_code == 404
    assert rows(ds, f"/{NAME}/ask.json", question=CAPEX)[0]["page"] == 10
    failed = get(ds, "/other.json", sql="select evfind_query('capex')")
    assert "no such function: evfind_query" in failed.text
    html = get(ds, "/other", sql="select page, sha256, text from pages").text
    assert "/other/page?page=1" not in html and "&lt;b&gt;x&lt;/b&gt;" in html


# --------------------------------------------------------------------------------------------
# The page as it looks


def image_cell(html: str) -> str:
    (cell,) = re.findall(r'<td class="col-image[^"]*">(.*?)</td>', html, re.S)
    return cell.strip()


def test_the_page_view_shows_the_image_with_the_questions_terms_boxed(ds, filing_db):
    from evfind.pageimage import page_png, png_size

    sha = Finder(filing_db).document.document_sha256
    ask = get(ds, f"/{NAME}/ask", question=CAPEX).text
    (link,) = re.findall(r'<td class="col-page[^"]*"><a href="([^"]*page=10[^"]*)">', ask)
    page = get(ds, html.unescape(link)).text
    url = f"/-/evfind/{NAME}/page-image?" + urlencode({"page": 10, "sha": sha, "question": CAPEX})
    assert image_cell(page).startswith(f'<a href="{html.escape(url)}" style="')
    assert f'<img src="{html.escape(url)}" alt="page 10 as it looks in the source PDF"' in image_cell(page)
    # The previous and next pages keep the question.
    assert f'rel="next">11 ›' in page and f"page=11&amp;sha={sha}&amp;question={quote_plus(CAPEX)}" in page

    response = get(ds, url)
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    assert png_size(response.content) == (918, 1188)  # US Letter at 1.5 pixels a point
    assert response.content == page_png(filing_db, 10, sha=sha, question=CAPEX)
    plain = get(ds, f"/-/evfind/{NAME}/page-image", page="10", sha=sha)
    assert plain.headers["content-type"] == "image/png"
    assert plain.content == page_png(filing_db, 10) != response.content


def test_images_are_rendered_once_then_cached(ds, filing_db, monkeypatch):
    from evfind import datasette_plugin, pageimage

    rendered = []
    real = pageimage.page_png
    monkeypatch.setattr(pageimage, "page_png", lambda *a, **k: rendered.append(a) or real(*a, **k))
    datasette_plugin._images.clear()
    first = get(ds, f"/-/evfind/{NAME}/page-image", page="4", question="net sales").content
    again = get(ds, f"/-/evfind/{NAME}/page-image", page="4", question="net sales").content
    assert first == again and len(rendered) == 1
    get(ds, f"/-/evfind/{NAME}/page-image", page="5", question="net sales")
    assert len(rendered) == 2


def test_without_an_image_the_page_view_says_why_in_one_line(filing_pdf, filing_db, tmp_path):
    from evfind.ingest import ingest

    moved = filing_pdf.rename(tmp_path / "moved.pdf")
    ds = make_datasette([filing_db])
    why = f"no page image: the source PDF is not at {filing_pdf.resolve()} (ingest it again from where it is now, or with --embed-source)"
    assert image_cell(get(ds, f"/{NAME}/page", page="10").text) == f'<span class="evfind-no-image">{why}</span>'
    (row,) = rows(ds, f"/{NAME}/page.json", page="10")
    assert row["image"] == why
    sha = Finder(filing_db).document.document_sha256
    response = get(ds, f"/-/evfind/{NAME}/page-image", page="10", sha=sha)
    assert (response.status_code, response.headers["content-type"]) == (404, "text/plain; charset=utf-8")
    assert response.text == why

    ingest(moved, filing_db, NAME)  # the same bytes from where they are now
    assert image_cell(get(ds, f"/{NAME}/page", page="10").text).startswith('<a href="/-/evfind/')

    jsonl = tmp_path / "lines.db"
    ingest(write_jsonl(tmp_path / "lines.jsonl", PAGES), jsonl, "LINES")
    ds = make_datasette([jsonl])
    assert image_cell(get(ds, "/lines/page", page="10").text) == (
        '<span class="evfind-no-image">no page image: the revision was ingested from a JSONL file, not a PDF</span>'
    )
    assert get(ds, "/-/evfind/lines/page-image", page="10").status_code == 404


def test_the_image_route_refuses_what_is_not_a_page(ds, tmp_path):
    assert get(ds, f"/-/evfind/{NAME}/page-image", page="13").status_code == 400
    assert get(ds, f"/-/evfind/{NAME}/page-image", page="13").text == "page 13 does not exist: ACME_2024_10K has pages 1 to 12"
    assert get(ds, f"/-/evfind/{NAME}/page-image", page="ten").status_code == 400
    assert get(ds, f"/-/evfind/{NAME}/page-image", page="1", sha="ffff").status_code == 400
    assert get(ds, "/-/evfind/nothing/page-image", page="1").status_code == 404
