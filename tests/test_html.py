"""Issue 22, item 1: an EDGAR HTML filing ingested as its filer paginated it: pages at the page
breaks (/work/shared/edgar/README.md), the text laid out as a reader sees it, the printed folios,
the structure (with the inline-XBRL text blocks), the facts; and a file that is no filing
refused with one line, nothing written. Filings written here (tests/html_filing.py)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import zipfile

import pytest

from evfind import factstore, htmlread, store
from evfind.extract import extract
from evfind.htmlread import read
from evfind.ingest import ingest
from evfind.text import normalise

from .conftest import snapshot
from .html_filing import COMPANY, LABELS, TEXTS, filing_html, write_filing
from .test_startup import banned, loaded


@pytest.fixture
def filing(tmp_path):
    return write_filing(tmp_path / "mrw-20251231.htm")


@pytest.fixture
def filing_db(filing):
    return ingest(filing).db_path


def pages_of(html: str, tmp_path, name: str = "doc.htm") -> list[str]:
    """The indexed text of each page of a small filing (inline XBRL marks it a filing)."""
    path = tmp_path / name
    path.write_text(
        '<html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><body>'
        '<div style="display:none"><ix:header></ix:header></div>' + html + "</body></html>",
        encoding="utf-8",
    )
    return [normalise(text) for text in read(path).texts]


# --------------------------------------------------------------------------------------------
# Pages: the README's rules, one at a time


BREAK_AFTER = '<hr style="page-break-after:always"/>'
BREAK_BEFORE = '<div style="page-break-before:always">'


@pytest.mark.parametrize(
    "html, pages",
    [
        ("<p>one</p>" + BREAK_AFTER + "<p>two</p>", ["one", "two"]),  # after: ends a page
        ("<p>one</p>" + BREAK_BEFORE + "two</div>", ["one", "two"]),  # before: starts one
        ('<p>one</p><p style="break-after: page">x</p><p>two</p>', ["one\nx", "two"]),  # CSS 3 forms
        ('<p>one</p><div style="break-before:page">two</div>', ["one", "two"]),
        ('<p>one</p><p style="PAGE-BREAK-AFTER: Always">two</p>', ["one\ntwo"]),  # (a break with nothing after it)
        (BREAK_AFTER + BREAK_BEFORE + "one</div>", ["one"]),  # breaks before anything displayed: no blank first page
        ("<p>one</p>" + BREAK_AFTER + BREAK_AFTER + "<p>two</p>", ["one", "", "two"]),  # nothing between: a blank page
        ("<p>one</p>" + BREAK_AFTER + '<p style="display:none">hidden</p>' + BREAK_AFTER + "<p>two</p>", ["one", "", "two"]),
        ("<p>one</p>" + BREAK_AFTER + "<p>&#160;&#8203;</p>" + BREAK_AFTER + "<p>two</p>", ["one", "", "two"]),
        ("<p>one</p>" + BREAK_AFTER + BREAK_AFTER + "<p>&#160;</p>", ["one"]),  # trailing breaks add no page
        ("<p>one</p>" + BREAK_AFTER + '<img src="chart.jpg"/>' + BREAK_AFTER + "<p>two</p>", ["one", "", "two"]),
        ('<p>one</p><div style="page-break-after: avoid">two</div>', ["one\ntwo"]),  # not a break
        ('<p>one</p><div style="display: none">' + BREAK_AFTER + "</div><p>two</p>", ["one\ntwo"]),  # a hidden break
    ],
)
def test_pages_are_the_filers_pages(tmp_path, html, pages):
    assert pages_of(html, tmp_path) == pages


def test_an_image_alone_is_a_page_of_its_own(tmp_path):
    path = tmp_path / "graph.htm"
    path.write_text('<html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><body><div style="display:none"><ix:header/></div>'
                    '<p>one</p>' + BREAK_AFTER + '<img src="g.jpg"/>' + BREAK_AFTER + BREAK_AFTER + "</body></html>",
                    encoding="utf-8")
    assert read(path).texts == ["one", ""]  # the graph's page is displayed, though it has no text


# --------------------------------------------------------------------------------------------
# Text


@pytest.mark.parametrize(
    "html, text",
    [
        ("<table><tr><td>Net sales</td><td>$</td><td>1,234</td><td></td><td>$</td><td>1,100</td></tr></table>",
         "Net sales $ 1,234 $ 1,100"),
        ("<table><tr><td><div>Interest</div><div>expense</div></td><td>(12</td><td>)</td></tr></table>",
         "Interest expense (12)"),  # a cell's blocks on the row's line; a lone bracket joins its figure
        ("<table><tr><td><p>A paragraph.</p><p>Another.</p></td><td></td></tr></table>",
         "A paragraph.\nAnother."),  # a row of one cell keeps its lines (a table used for layout)
        ("<table><tr><td>Total</td><td>5%</td><td>%</td></tr></table>", "Total 5% %"),
        ("<h2>Liquidity</h2><p>Cash rose.</p>", "Liquidity\nCash rose."),
        ("<p>First<br/>second</p><div>third <b>bold</b><i>ly</i></div>", "First\nsecond\nthird boldly"),
        ("<p>caf&#233; &amp; &lt;tea&gt; &#8220;q&#8221; &#8212; x</p>", 'café & <tea> "q" - x'),
        ("<p>re&#173;venue&#160;&#160;growth, zero&#8203;width</p>", "revenue growth, zerowidth"),
        ("<p>a\n   b\tc</p>", "a b c"),
        ('<p><span style="display:none">hidden </span>shown</p>', "shown"),
        ("<p>x<script>var y = 1;</script><style>p {}</style>y</p>", "xy"),
        ('<p>Revenue <ix:nonFraction name="us-gaap:Revenues" contextRef="c">1,234</ix:nonFraction> million</p>',
         "Revenue 1,234 million"),  # inline XBRL is transparent
    ],
)
def test_text_is_laid_out_as_a_reader_sees_the_page(tmp_path, html, text):
    assert pages_of(html, tmp_path) == [text]


def test_the_raw_text_keeps_the_characters_the_indexed_text_folds(filing):
    raw = extract(filing).texts[1]
    assert "Item\u00a07. Management\u2019s" in raw and "tool\u00ading" in raw and "saws\u200bbusiness" in raw
    assert normalise(raw) == TEXTS[1]


def test_every_page_of_the_filing_as_it_is_indexed(filing):
    extraction = extract(filing)
    assert extraction.kind == "html"
    assert [normalise(t) for t in extraction.texts] == TEXTS
    assert extraction.labels == LABELS
    assert extraction.sha256 == hashlib.sha256(filing.read_bytes()).hexdigest()


def test_an_sgml_wrapped_exhibit_and_an_older_plain_html_filing(tmp_path):
    wrapped = tmp_path / "ex99.htm"
    wrapped.write_bytes(
        b"<DOCUMENT>\n<TYPE>EX-99.1\n<SEQUENCE>2\n<FILENAME>ex99.htm\n<DESCRIPTION>EX-99.1\n<TEXT>\n"
        b"<html><head><title>Release</title></head><body><p>Exhibit 99.1</p><p>Record quarter</p>"
        b'<hr style="page-break-after:always"><p>Tables</p></body></html>\n</TEXT>\n</DOCUMENT>\n'
    )
    assert [normalise(t) for t in read(wrapped).texts] == ["Exhibit 99.1\nRecord quarter", "Tables"]
    older = tmp_path / "0000000000-10-000001.html"
    older.write_bytes(  # upper-case tags, no XBRL, Windows-1252 text, breaks before
        b"<HTML><BODY><P ALIGN=center>SECURITIES AND EXCHANGE COMMISSION</P><P>FORM 10-K</P>"
        b"<P Style='page-break-before:always'>Caf\xe9 results</P><P ALIGN=center>1</P></BODY></HTML>"
    )
    filing = extract(older)
    assert [normalise(t) for t in filing.texts] == ["SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K", "Café results\n1"]
    assert filing.facts == []


# --------------------------------------------------------------------------------------------
# Facts and text blocks


def test_every_shown_fact_with_its_page_context_and_unit(filing):
    facts = {(f["concept"], f["context"]): f for f in extract(filing).facts}
    assert ("dei:AmendmentFlag", "FY2025") not in facts  # hidden in the header: on no page
    assert len(facts) == 13  # (the 2024 earnings per share is not tagged)
    assert facts["us-gaap:Revenues", "FY2025"] == {
        "page": 3, "concept": "us-gaap:Revenues", "kind": "numeric", "context": "FY2025",
        "period_start": "2025-01-01", "period_end": "2025-12-31", "instant": None, "dimensions": None,
        "unit": "iso4217:USD", "scale": 6, "sign": None, "decimals": "-6", "format": "ixt:num-dot-decimal",
        "value": "1,234", "row_label": "Net sales", "fact_id": "f-Revenues-FY2025",
    }
    other = facts["us-gaap:NonoperatingIncomeExpense", "FY2024"]
    assert (other["value"], other["sign"], other["row_label"]) == ("10", "-", "Other income (expense), net")
    eps = facts["us-gaap:EarningsPerShareDiluted", "FY2025"]
    assert (eps["unit"], eps["scale"], eps["decimals"]) == ("iso4217:USD/xbrli:shares", None, "2")
    saws = facts["us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest", "FY2025_Saws"]
    assert (saws["page"], json.loads(saws["dimensions"])) == (5, {"us-gaap:StatementBusinessSegmentsAxis": "mrw:SawsMember"})
    deferred = facts["us-gaap:DeferredTaxAssetsNet", "I2025"]
    assert (deferred["period_start"], deferred["period_end"], deferred["instant"]) == (None, None, "2025-12-31")
    # a fact that runs across a page break is on its first page, its value as shown
    exam = facts["us-gaap:IncomeTaxExaminationDescription", "FY2025"]
    assert (exam["page"], exam["kind"], exam["value"]) == (5, "text", "Tax years from 2019 remain open to examination.")
    assert facts["dei:EntityRegistrantName", "FY2025"]["value"] == COMPANY
    # a text block is no fact: it is where its note runs, its continuation included
    assert not any(concept.endswith("TextBlock") for concept, _ in facts)
    assert extract(filing).blocks == [{"concept": "us-gaap:IncomeTaxDisclosureTextBlock", "first_page": 5,
                                       "last_page": 6, "heading": "Note 5 \u2014 Amounts Owed to Governments"}]


def test_the_parsers_events_and_the_parsed_tree_read_the_same_filing(filing, tmp_path):
    # ingest reads a filing as the parser's target (no tree); `show --html` walks the parsed
    # tree: the same pages, facts and text blocks. Here too a fact before the header that holds
    # its context, a fact whose text lies partly in a hidden element and is cut by entities,
    # a fact hidden itself, and a text run split by an entity (one text node, as in the tree).
    late = tmp_path / "late.htm"
    late.write_text(
        '<html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><body><table><tr><td>Net sales</td><td>'
        '<ix:nonFraction name="us-gaap:Revenues" contextRef="c" unitRef="u">1,<span style="display:none">2</span>'
        '3&amp;4\n  5</ix:nonFraction></td></tr></table>'
        '<p>a \n&#160;\n b <ix:nonNumeric name="dei:Flag" contextRef="c" style="display:none"> no </ix:nonNumeric></p>'
        '<div style="display:none"><ix:header><ix:resources><xbrli:context id="c"><xbrli:period>'
        '<xbrli:instant>2025-12-31</xbrli:instant></xbrli:period></xbrli:context><xbrli:unit id="u">'
        '<xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit></ix:resources></ix:header></div></body></html>',
        encoding="utf-8",
    )
    for path in (filing, late):
        data, _ = htmlread.check(path)
        events, tree = htmlread.walk(data), htmlread.Walk(htmlread.parse(data)).run()
        assert events.texts == tree.texts
        assert [f.row() for f in events.facts] == [f.row() for f in tree.facts]
        assert events.blocks == tree.blocks
    facts = {f["concept"]: f for f in extract(late).facts}
    assert (facts["us-gaap:Revenues"]["value"], facts["us-gaap:Revenues"]["instant"]) == ("1,23&4 5", "2025-12-31")
    assert (facts["us-gaap:Revenues"]["unit"], facts["us-gaap:Revenues"]["row_label"]) == ("iso4217:USD", "Net sales")
    assert facts["dei:Flag"]["value"] == "no"
    assert extract(late).texts == ["Net sales 1,3&4 5\na \u00a0 b"]


def test_facts_are_stored_with_their_pages(filing_db):
    conn = store.connect_read(filing_db)
    try:
        assert factstore.fact_count(conn, 1) == 13
        rows = factstore.facts_on_pages(conn, [3])
        assert [(r.page_number, r.concept, r.period_end, r.value, r.row_label) for r in rows[:2]] == [
            (3, "us-gaap:Revenues", "2025-12-31", "1,234", "Net sales"),
            (3, "us-gaap:Revenues", "2024-12-31", "1,100", "Net sales"),
        ]
        assert [r.page_number for r in factstore.facts_of_concepts(conn, 1, ["us-gaap:DeferredTaxAssetsNet"])] == [5]
        assert "us-gaap:NetIncomeLoss" in factstore.revision_concepts(conn, 1)
        assert factstore.text_blocks(conn, 1) == [{"concept": "us-gaap:IncomeTaxDisclosureTextBlock", "first_page": 5,
                                               "last_page": 6, "heading": "Note 5 \u2014 Amounts Owed to Governments"}]
    finally:
        conn.close()


def test_a_text_block_marks_where_its_note_begins_and_ends(filing_db):
    """The note's title names no topic evfind knows ("Amounts Owed to Governments"); its text
    block's concept does (evfind/data/textblocks.tsv): income taxes, started on page 5 and carried
    onto page 6, where its continuation is."""
    conn = store.connect_read(filing_db)
    try:
        rows = {(page, label): (heading, origin) for page, label, heading, origin in store.page_sections(conn, 1)}
    finally:
        conn.close()
    assert rows[5, "income_taxes"] == ("Note 5 \u2014 Amounts Owed to Governments", "started")
    assert rows[6, "income_taxes"] == ("Note 5 \u2014 Amounts Owed to Governments", "carried")
    assert not any(label == "income_taxes" for page, label in rows if page < 5)
    assert rows[3, "income_statement"][1] == "statement"


# --------------------------------------------------------------------------------------------
# Through the CLI


def test_ingest_and_show_the_pages(cli, filing, tmp_path):
    result = cli("ingest", filing)
    assert result.exit_code == 0, result.output
    db = tmp_path / "mrw-20251231.db"
    sha = hashlib.sha256(filing.read_bytes()).hexdigest()
    assert result.stdout == (
        f"{db}: created mrw-20251231 sha256 {sha[:12]}: 6 pages, 1 blank (page 4), printed page labels stored\n"
    )
    shown = cli("show", db, "3")
    assert shown.stderr.startswith(f"Page 3 (printed 2) of 6 · mrw-20251231 · sha256 {sha}\n")  # the header
    assert shown.stdout == TEXTS[2] + "\n"  # the page's lines, line N on line N
    info = cli("info", db, "--format", "json")
    revision = json.loads(info.stdout)["revisions"][0]
    assert (revision["source_kind"], revision["form"], revision["blank_pages"]) == ("html", "10-K", [4])


def test_ask_the_html_file_itself(cli, filing, tmp_path):
    db = tmp_path / "mrw-20251231.db"
    result, data = cli.json("query", filing, "What were net sales in 2025?")
    assert result.exit_code == 0, result.output
    assert result.stderr == f"{filing}: ingesting into {db} (first use)\n"
    assert data["results"][0]["page_number"] == 3
    assert data["results"][0]["page_label"] == "2"
    again = cli("query", filing, "deferred tax assets at year end", "--format", "json")
    assert again.stderr == ""  # the same bytes: read from the database as it is
    assert json.loads(again.stdout)["results"][0]["page_number"] == 5
    assert cli("show", filing, "5").stderr.startswith("Page 5 (printed 4) of 6")


def test_a_changed_filing_is_a_new_revision(cli, filing, tmp_path):
    assert cli("ingest", filing).exit_code == 0
    write_filing(filing, company="Morrow Tools Holdings Inc.")
    result = cli("ingest", filing)
    assert result.exit_code == 0, result.output
    assert "added revision to mrw-20251231" in result.stdout
    conn = store.connect_read(tmp_path / "mrw-20251231.db")
    try:
        revisions = store.revisions(conn)
        assert [r.page_count for r in revisions] == [6, 6]
        assert [factstore.fact_count(conn, r.revision_id) for r in revisions] == [13, 13]
    finally:
        conn.close()


def test_a_directory_gives_its_html_filings_too(cli, tmp_path):
    folder = tmp_path / "filings"
    folder.mkdir()
    write_filing(folder / "a.htm")
    write_filing(folder / "b.html", company="Other Co.")
    (folder / "notes.txt").write_text("not picked up", encoding="utf-8")
    result = cli("ingest", folder, "--jobs", "2", "--quiet")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.glob("*.db")) == ["a.db", "b.db"]


def test_upgrade_keeps_the_facts_and_text_blocks(cli, filing_db):
    with sqlite3.connect(filing_db) as conn:
        before = conn.execute("SELECT * FROM page_sections ORDER BY page_id, label").fetchall()
        facts = conn.execute("SELECT * FROM facts ORDER BY id").fetchall()
        conn.execute(f"PRAGMA user_version = {store.SCHEMA_VERSION - 1}")
    conn.close()
    result = cli("upgrade", filing_db)
    assert result.exit_code == 0, result.output
    with sqlite3.connect(filing_db) as conn:
        assert conn.execute("SELECT * FROM page_sections ORDER BY page_id, label").fetchall() == before
        assert conn.execute("SELECT * FROM facts ORDER BY id").fetchall() == facts
        assert conn.execute("SELECT count(*) FROM text_blocks").fetchone() == (1,)
    conn.close()


def test_a_query_of_an_html_filings_database_does_not_load_lxml(filing_db):
    code, stdout, modules = loaded("query", filing_db, "What were net sales in 2025?")
    assert code == 0, stdout
    assert "evfind.finder" in modules
    assert banned(modules, ("lxml", "nh3", "evfind.htmlread", "evfind.htmlwalk", "evfind.xbrl", "evfind.folios",
                            "evfind.pagehtml")) == []


# --------------------------------------------------------------------------------------------
# What is not a filing: one line, a non-zero exit, nothing written


def _zip(path):
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("filing.htm", filing_html())
    return path


BAD = {
    "web page": ("page.html", lambda p: p.write_text(
        "<!DOCTYPE html><html><head><title>My blog</title></head><body><h1>Recipes</h1><p>Bake the bread.</p>"
        '<p style="page-break-after:always">Print me</p></body></html>', encoding="utf-8"),
        "an HTML page, not a filing: it has no inline XBRL, no EDGAR <DOCUMENT> wrapper and names no SEC form "
        "(give the filing's own document, e.g. the 10-K's .htm from EDGAR)"),
    "zip": ("filing.zip", _zip, "a zip archive, not a filing (unzip it and ingest the filing inside)"),
    "zip named .htm": ("filing.htm", _zip, "a zip archive, not a filing (unzip it and ingest the filing inside)"),
    "xbrl instance": ("mrw-20251231_htm.xml", lambda p: p.write_text(
        "<?xml version='1.0' encoding='utf-8'?>\n<xbrli:xbrl xmlns:xbrli=\"http://www.xbrl.org/2003/instance\">"
        "<us-gaap:Revenues contextRef=\"FY2025\">1234000000</us-gaap:Revenues></xbrli:xbrl>", encoding="utf-8"),
        "an XBRL instance, facts without pages, not a filing: ingest the filing's HTML (its inline-XBRL .htm) instead"),
    "truncated": ("cut.htm", lambda p: p.write_bytes(filing_html().encode()[: len(filing_html()) // 2]),
                  "the HTML ends before </html>: a truncated file? (download it again)"),
    "empty": ("empty.htm", lambda p: p.write_bytes(b""), "an empty file, not a filing"),
    "binary": ("noise.htm", lambda p: p.write_bytes(bytes(range(256)) * 40),
               "not HTML (it does not open with <html>, <!DOCTYPE html> or an EDGAR <DOCUMENT>)"),
    "nothing displayed": ("hidden.htm", lambda p: p.write_text(
        '<html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><body><div style="display:none"><ix:header/>'
        "<p>FORM 10-K</p></div></body></html>", encoding="utf-8"), "the HTML displays nothing: no page to read"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_what_is_not_a_filing_is_refused_and_nothing_is_written(cli, tmp_path, case):
    name, make, message = BAD[case]
    folder = tmp_path / "in"
    folder.mkdir()
    source = folder / name
    make(source)
    before = snapshot(folder)
    for command in (["ingest", source], ["query", source, "What were net sales?"]):
        result = cli(*command)
        assert result.exit_code == 3, (command, result.output)
        assert result.stdout == ""
        # (a file that reads as a filing until its pages are laid out: ask-a-file says it ingests it)
        said = f"{source}: ingesting into {source.with_suffix('.db')} (first use)\n" if case == "nothing displayed" else ""
        assert result.stderr == (said if command[0] == "query" else "") + f"Error: {source}: {message}\n", command
        assert snapshot(folder) == before  # no database, no temporary file
