"""Issue 22: the figures a page prints, read as facts where it tags none that matches
(evfind/pagefigures.py): a table row's label, value as printed, its column's period and the scale
the page states; a sentence's figure with the words around it and its date; what is not a figure
(items, notes, years, footnote markers, folios). Pure tests over texts made here, then through the
CLI on an HTML filing and a PDF made here (printed figures are listed for HTML only)."""

from __future__ import annotations

import json

from evfind import pagefigures
from evfind.pagefacts import asked
from evfind.question import parse

TABLE = "\n".join([
    "RESULTS OF OPERATIONS",
    "(In millions, except per share data)",
    "Three Months Ended Six Months Ended",
    "June 30, 2025 June 30, 2024 June 30, 2025 June 30, 2024",
    "Freight revenue $ 1,310 $ 1,205 $ 2,544 $ 2,390",
    "Operating loss (2) (48) (31) (97) (60)",
    "Diluted loss per share $ (0.12) $ (0.08) $ (0.23) $ (0.15)",
    "Effective tax rate 21.5 % 19.0 % 20.8 % 18.7 %",
    "(2) Includes restructuring charges.",
    "14",
])


def printed(text: str) -> list[tuple[int, str, str, str | None, str | None]]:
    return [(p.line, p.label, p.value, p.period, p.scale) for p in pagefigures.read(text)]


def listed(question: str, text: str) -> list[tuple[str, str, str | None, int | None]]:
    found = pagefigures.listed(asked(parse(question)), text, {}, page_id=7, page_number=3)
    assert all(not f.tagged and f.concept is None and f.dimensions is None and f.page_number == 3 for f in found)
    return [(f.row_label, f.value, f.period, f.line) for f in found]


def test_a_table_rows_figures_with_their_columns_periods_and_the_stated_scale():
    assert printed(TABLE)[:4] == [
        (5, "Freight revenue", "$1,310", "Three Months Ended June 30, 2025", "in millions"),
        (5, "Freight revenue", "$1,205", "Three Months Ended June 30, 2024", "in millions"),
        (5, "Freight revenue", "$2,544", "Six Months Ended June 30, 2025", "in millions"),
        (5, "Freight revenue", "$2,390", "Six Months Ended June 30, 2024", "in millions"),
    ]
    rows = {(line, value): (label, period, scale) for line, label, value, period, scale in printed(TABLE)}
    # the footnote marker is no figure and no part of the label; parentheses are the sign as printed
    assert rows[6, "(48)"] == ("Operating loss", "Three Months Ended June 30, 2025", "in millions")
    # a per-share amount of a table "in millions, except per share data" is not in millions
    assert rows[7, "$(0.12)"] == ("Diluted loss per share", "Three Months Ended June 30, 2025", None)
    assert rows[8, "21.5%"] == ("Effective tax rate", "Three Months Ended June 30, 2025", None)
    assert not [p for p in printed(TABLE) if p[0] in (9, 10)]  # the footnote's line, the folio


def test_a_question_lists_the_row_and_column_it_asks_for():
    assert listed("What was the freight revenue for the three months ended June 30, 2025?", TABLE) == [
        ("Freight revenue", "$1,310", "Three Months Ended June 30, 2025", 5)]
    assert listed("What was the effective tax rate in the first six months of 2024?", TABLE) == [
        ("Effective tax rate", "18.7%", "Six Months Ended June 30, 2024", 8)]
    assert listed("What was the diluted loss per share in the second quarter of 2025?", TABLE) == [
        ("Diluted loss per share", "$(0.12)", "Three Months Ended June 30, 2025", 7)]
    assert listed("How many employees did the company have?", TABLE) == []


def test_a_sentences_figure_with_the_words_around_it_and_its_date():
    text = ("Human capital\nAs of December 31, 2025, we employed approximately 12,400 people, of whom 38% work "
            "outside the United States. In April 2025, a jury awarded the plaintiff $41 million in damages.")
    assert printed(text) == [
        (2, "As of December 31, 2025, we employed approximately 12,400 people, of whom", "12,400",
         "As of December 31, 2025", None),
        (2, "people, of whom 38% work outside the United States.", "38%", "As of December 31, 2025", None),
        (2, "In April 2025, a jury awarded the plaintiff $41 million in damages.", "$41 million", "April 2025",
         None),
    ]
    assert listed("How many people did the company employ at the end of 2025?", text) == [
        ("As of December 31, 2025, we employed approximately 12,400 people, of whom", "12,400",
         "As of December 31, 2025", 2)]
    assert listed("How much did the jury award the plaintiff?", text)[0][1] == "$41 million"


def test_respectively_pairs_figures_with_their_years():
    text = "Comparable sales increased 4.8% and 4.9% in fiscal 2025 and 2024, respectively, driven by grocery."
    assert [(p[2], p[3]) for p in printed(text)] == [("4.8%", "fiscal 2025"), ("4.9%", "2024")]
    assert [f[1] for f in listed("How much did comparable sales increase in fiscal 2024?", text)] == ["4.9%"]
    text = "During 2025 and 2024, we increased the reach-forward loss on the tanker program by $812 and $95."
    assert [(p[2], p[3]) for p in printed(text)] == [("$812", "2025"), ("$95", "2024")]


def test_items_notes_years_dates_and_markers_are_not_figures():
    text = "\n".join([
        "Item 3. Legal Proceedings",
        "See Note 7 and Part II, Item 8 of this Form 10-K, on page 45.",
        "On June 4, 2025 the Company filed a motion (1) in the second quarter.",
        "F-12",
    ])
    assert printed(text) == []
    assert listed("What legal proceedings are disclosed in Item 3?", text) == []


def test_no_question_ideas_no_figures():
    assert pagefigures.listed(asked(parse("2025")), TABLE, {}) == ()


def test_printed_figures_are_listed_for_html_only():
    assert pagefigures.PRINTED_FOR == frozenset({"html"})


PLAIN_HTML = """<html><body>
<p>ACME FREIGHT CORP. ANNUAL REPORT ON FORM 10-K</p>
<hr style="page-break-after:always">
<p>Item 1. Business</p>
<p>Human capital</p>
<p>As of December 31, 2025, we employed approximately 12,400 people, of whom 38% work outside the United States.</p>
<hr style="page-break-after:always">
<p>Item 7. Management's Discussion and Analysis</p>
<p>Results of operations</p>
<table>
<tr><td>(In millions)</td><td></td><td>2025</td><td></td><td>2024</td></tr>
<tr><td>Freight revenue</td><td>$</td><td>1,310</td><td>$</td><td>1,205</td></tr>
<tr><td>Operating loss</td><td></td><td>(48)</td><td></td><td>(31)</td></tr>
</table>
<p>Freight revenue grew on higher volumes.</p>
</body></html>
"""


def test_a_filing_without_inline_xbrl_lists_the_figures_its_pages_print(cli, tmp_path):
    from evfind.ingest import ingest

    path = tmp_path / "acme-10k.htm"
    path.write_text(PLAIN_HTML, encoding="utf-8")
    db = ingest(path).db_path
    result, data = cli.json("query", db, "What was freight revenue in 2025?", "--top", "1")
    assert result.exit_code == 0, result.output
    first = data["results"][0]
    assert first["page_number"] == 3
    assert first["facts"] == [{"concept": None, "period": "2025", "value": "$1,310", "unit": None,
                               "row_label": "Freight revenue", "dimensions": None, "tagged_on": None,
                               "line": first["facts"][0]["line"], "tagged": False, "scale": "in millions"}]
    lines = json.loads(cli("show", db, "3", "--format", "json").stdout)["text"].split("\n")
    assert lines[first["facts"][0]["line"] - 1].startswith("Freight revenue")
    table = cli("query", db, "What was freight revenue in 2025?", "--top", "1").stdout
    assert "fact: $1,310 (in millions), Freight revenue, 2025 (printed, not tagged)" in table
    result, data = cli.json("query", db, "How many people did Acme employ at the end of 2025?", "--top", "1")
    assert data["results"][0]["page_number"] == 2
    assert [(f["value"], f["period"], f["tagged"]) for f in data["results"][0]["facts"]] == [
        ("12,400", "As of December 31, 2025", False)]


def test_a_pdf_lists_no_printed_figures(cli, tmp_path):
    from evfind.ingest import ingest

    from .pdfgen import make_pdf

    pdf = tmp_path / "acme.pdf"
    make_pdf(pdf, ["\n".join(["Item 7. Management's Discussion and Analysis", "Results of operations", "(In millions) 2025 2024",
                              "Freight revenue $ 1,310 $ 1,205", "Operating loss (48) (31)"])])
    db = ingest(pdf).db_path
    result, data = cli.json("query", db, "What was freight revenue in 2025?", "--top", "1")
    assert result.exit_code == 0, result.output
    assert data["results"][0]["page_number"] == 1
    assert data["results"][0]["facts"] == []
