"""Issue 22, item 3: checking an HTML filing's page as it looks: `evfind show DB N --html` writes the
page's own HTML, sanitised (no script, nothing loaded from anywhere, no event handler), the
question's terms marked; the Datasette page view shows it beside the text. Cut again from the
recorded filing (or the bytes --embed-source keeps), as a PDF's page image is rendered."""

from __future__ import annotations

import asyncio
import re
import shutil

import pytest

from evfind.ingest import ingest
from evfind.pagehtml import cut_page, sanitise

from .html_filing import TEXTS, filing_html, write_filing


@pytest.fixture
def filing(tmp_path):
    return write_filing(tmp_path / "mrw-20251231.htm")


@pytest.fixture
def filing_db(filing):
    return ingest(filing).db_path


def body(document: str) -> str:
    (inside,) = re.findall(r'<div class="evfind-page" data-page="\d+">(.*?)</div>\n', document, re.S)
    return inside


def test_the_page_as_filed(cli, filing_db):
    result = cli("show", filing_db, "3", "--html")
    assert result.exit_code == 0, result.output
    page = result.stdout
    assert page.startswith("<!DOCTYPE html>\n")
    assert "Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\"" in page
    assert "<!-- mrw-20251231, page 3: page 3 (printed 2), sha256 " in page
    inside = body(page)
    # the statement's table as filed: rows, cells, their layout styles; inline XBRL transparent
    assert re.search(r'<tr><td style="width:60%"><div><span>Net sales</span></div></td>'
                     r'<td style="text-align:right"><span>\$</span></td>'
                     r'<td style="text-align:right"><span><span>1,234</span></span></td>', inside)
    assert "CONSOLIDATED STATEMENTS OF INCOME" in inside
    assert "ix:" not in inside and "contextref" not in inside.lower()
    # nothing of another page
    assert "Management" not in inside and "Amounts Owed" not in inside
    # what a reader sees of it is the page's text
    text = re.sub(r"<[^>]+>", " ", inside)
    for line in TEXTS[2].splitlines()[3:]:
        for word in line.replace("(", " ").replace(")", " ").split():
            assert word in text


def test_a_page_that_starts_inside_an_element_keeps_that_element(cli, filing_db):
    """Page 6 starts inside the <div> that holds the fact running over the break."""
    inside = body(cli("show", filing_db, "6", "--html").stdout)
    assert inside.startswith("<div><span><span>open to examination.</span></span></div>")  # its own copy of the <div>
    assert "The effective tax rate was 21.5% in 2025." in inside
    assert "Tax years from 2019 remain" not in inside


def test_the_questions_terms_are_marked(cli, filing_db):
    result = cli("show", filing_db, "3", "--html", "--highlight", "What were net sales in 2025?")
    assert result.exit_code == 0, result.output
    marks = re.findall(r"<mark>(.*?)</mark>", body(result.stdout))
    assert {"Net", "sales", "2025"} <= set(marks)  # (each word the query matches, as a page image boxes them)
    assert re.search(r"<span><mark>Net</mark> <mark>sales</mark></span>", body(result.stdout))


def test_several_pages_and_a_blank_one(cli, filing_db):
    page = cli("show", filing_db, "3-5", "--html").stdout
    assert re.findall(r'data-page="(\d+)"', page) == ["3", "4", "5"]
    assert page.count('<hr class="evfind-break">') == 2
    (blank,) = re.findall(r'<div class="evfind-page" data-page="4">(.*?)</div>\n', page, re.S)
    assert re.sub(r"<[^>]+>", "", blank).strip() == ""  # (the break that ends it, and nothing displayed)


HOSTILE = (
    '<div onclick="steal()" style="color:red;background-image:url(https://evil.example/x.png);position:fixed">'
    '<script>alert(1)</script><img src="https://evil.example/pixel.gif" onerror="alert(2)">'
    '<a href="javascript:alert(3)">link</a><iframe src="https://evil.example"></iframe>'
    '<link rel="stylesheet" href="https://evil.example/s.css"><style>@import url(https://evil.example/t.css)</style>'
    '<form action="https://evil.example"><input name="x"></form><object data="x.swf"></object>'
    '<table border="1"><tr><td colspan="2" style="border-bottom:1px solid #000;padding:2pt">Net sales</td></tr></table>'
    "</div>"
)


def test_sanitising_keeps_tables_and_layout_and_nothing_that_runs_or_loads():
    clean = sanitise(HOSTILE)
    assert clean == (
        '<div style="color:red">link'
        '<table border="1"><tbody><tr><td colspan="2" style="border-bottom:1px solid #000;padding:2pt">Net sales</td></tr></tbody></table>'
        "</div>"
    )


def test_a_hostile_filing_shows_nothing_hostile(cli, tmp_path):
    path = tmp_path / "hostile.htm"
    path.write_text(filing_html().replace("<p>Margins widened.</p>", "").replace(
        "Margins widened.", "Margins widened." + HOSTILE), encoding="utf-8")
    assert cli("ingest", path).exit_code == 0
    page = cli("show", tmp_path / "hostile.db", "2", "--html").stdout
    for bad in ("<script", "onclick", "onerror", "<img", "<iframe", "javascript:", "evil.example", "<link", "@import",
                "<form", "<input", "<object", "position:fixed"):
        assert bad not in page
    assert "Net sales" in body(page)


def test_the_html_is_cut_from_the_recorded_file_while_it_is_the_same(cli, filing, filing_db, tmp_path):
    moved = tmp_path / "elsewhere.htm"
    shutil.move(filing, moved)
    result = cli("show", filing_db, "3", "--html")
    assert result.exit_code == 3
    assert result.stderr == (
        f"Error: no page HTML: the HTML filing is not at {filing.resolve()} (ingest it again from where it is "
        "now, or with --embed-source)\n"
    )
    filing.write_text(filing_html().replace("Net sales", "Revenue"), encoding="utf-8")
    changed = cli("show", filing_db, "3", "--html")
    assert changed.exit_code == 3 and "no page HTML: the file at " in changed.stderr and "has changed" in changed.stderr
    # the text, which is what evfind cites, is in the database whatever became of the file
    assert cli("show", filing_db, "3").stdout.endswith(TEXTS[2] + "\n")


def test_embedded_the_database_shows_the_page_on_its_own(cli, filing, tmp_path):
    result = cli("ingest", filing, "--embed-source")
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith(", printed page labels stored, source HTML embedded\n")
    filing.unlink()
    page = cli("show", tmp_path / "mrw-20251231.db", "3", "--html")
    assert page.exit_code == 0, page.output
    assert "CONSOLIDATED STATEMENTS OF INCOME" in page.stdout


def test_a_pdfs_page_has_no_html(cli, filing_db, tmp_path):
    from .pdfgen import make_pdf

    pdf = make_pdf(tmp_path / "report.pdf", ["Page one", "Page two"])
    assert cli("ingest", pdf).exit_code == 0
    result = cli("show", tmp_path / "report.db", "1", "--html")
    assert result.exit_code == 3
    assert result.stderr == ("Error: no page HTML: the revision was ingested from a PDF (its page as it looks: "
                             "evfind show --png), not an HTML filing\n")
    usage = cli("show", filing_db, "3", "--html", "--format", "json")
    assert usage.exit_code == 2
    assert usage.stderr == "Error: --html prints the pages as filed; give it without --png, --raw or --format json\n"


def test_cutting_a_page_is_the_readers_own_pages(filing):
    data = filing.read_bytes()
    assert re.sub(r"<[^>]+>", "", cut_page(data, 4)).strip() == ""  # the blank page: nothing displayed on it
    assert cut_page(data, 7) == ""  # (no such page)
    assert "Item&nbsp;7." in cut_page(data, 2) and "Item&nbsp;8." not in cut_page(data, 2)


# --------------------------------------------------------------------------------------------
# Datasette's page view


def datasette_page(db, **params):
    pytest.importorskip("datasette", reason="Datasette is not installed: pip install 'evfind[browse]'")
    from urllib.parse import urlencode

    from evfind.browse import make_datasette

    ds = make_datasette([db])

    async def fetch():
        await ds.invoke_startup()
        return await ds.client.get(f"/{db.stem}/page?" + urlencode(params))

    return asyncio.run(fetch())


def test_the_page_view_shows_the_page_as_filed_beside_its_text(filing_db):
    response = datasette_page(filing_db, page="3", question="net sales")
    assert response.status_code == 200
    (cell,) = re.findall(r'<td class="col-html[^"]*">(.*?)</td>\s*<td class="col-text', response.text, re.S)
    assert cell.startswith('<div class="evfind-page-html" style="')
    assert "<table" in cell and "<mark>Net</mark> <mark>sales</mark>" in cell
    (image,) = re.findall(r'<td class="col-image[^"]*">(.*?)</td>', response.text, re.S)
    assert image.strip() == ""  # no "no page image" note beside the page as filed
    assert "Net sales $ 1,234 $ 1,100" in response.text  # the text, beside it


def test_a_cell_renders_only_sanitised_html(filing_db):
    from evfind.datasette_plugin import _html_cells

    row = {"html": HOSTILE}
    shown = str(_html_cells("html", "<b>x</b>" + HOSTILE, row))
    assert "<script" not in shown and "onclick" not in shown and "evil.example" not in shown
    assert str(_html_cells("html", "no page HTML: the file moved", row)) == (
        '<span class="evfind-no-html">no page HTML: the file moved</span>')
