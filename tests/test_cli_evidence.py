"""What a user reads to check a hit: the evidence line under each row of the table (shortened to
the terminal, highlighted on one), in Markdown, Chinese output and JSON, and `evfind show` with
page ranges and --highlight. Through the CLI, stdout and stderr apart."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from evfind import cli_app
from evfind.cli import app
from evfind.cli_show import SHOW_MAX
from evfind.render import ELLIPSIS, cells, is_control, shorten, width

from .conftest import ranked_pages, write_jsonl

CAPEX = "What were capital expenditures in 2024? Use the cash flow statement."
CAPEX_FACT = "What were capital expenditures in 2024?"  # its best evidence line: ITEM's, line 10 of page 10
CAPEX_ZH = "2024年的资本支出是多少？请根据现金流量表，出自哪一页？"
ITEM = "Purchases of property, plant and equipment"
EVIDENCE = f"{ITEM} (52.8) (47.3) (44.1)"  # line 10 of page 10, the cash flow statement
COLUMNS = {"line": 4, "text": "(In millions) Years ended December 31, 2024 2023 2022"}  # its column headings
ON, OFF = "\x1b[7m", "\x1b[27m"  # reverse video, as the table and `show --highlight` mark terms
ANSI = re.compile("\x1b\\[[0-9;]*m")


def runner_on_a_terminal(monkeypatch, **env) -> CliRunner:
    """A runner whose stdout counts as a terminal, with a colour terminal's environment."""
    monkeypatch.setattr(cli_app, "stdout_is_terminal", lambda: True)
    return CliRunner(env={"COLUMNS": "100", "TERM": "xterm-256color", "NO_COLOR": None, **env})


def invoke(runner: CliRunner, *args):
    return runner.invoke(app, [str(a) for a in args])


def cli_json(db, question):
    result = invoke(CliRunner(), "query", db, question, "--top", "20", "--format", "json")
    return result, json.loads(result.stdout)


# ---------------------------------------------------------------------------------------------
# The table


def test_the_table_shows_each_hits_best_evidence_line_under_its_row(cli, filing_db):
    result = cli("query", filing_db, CAPEX_FACT, "--top", "3")
    assert (result.exit_code, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert lines[4].split()[:2] == ["1", "10"]
    # Under the page column, the line's number on the page and the line itself.
    assert lines[5] == f"      line 10: {EVIDENCE}"
    _, data = cli.json("query", filing_db, CAPEX_FACT, "--top", "3")
    rows = lines[4:]
    for hit in data["results"]:
        row = next(i for i, line in enumerate(rows) if line.split()[:2] == [str(hit["rank"]), str(hit["page_number"])])
        following = rows[row + 1] if row + 1 < len(rows) else ""
        if hit["evidence"]:
            assert following.startswith(f"      line {hit['evidence'][0]['line']}: ")
        else:
            assert not following.startswith("      line ")


def test_the_json_evidence_marks_the_terms_the_evidence_matched(cli, filing_db):
    _, data = cli.json("query", filing_db, CAPEX_FACT)
    first = data["results"][0]["evidence"][0]
    assert first == {"line": 10, "text": EVIDENCE, "marks": [[0, len(ITEM)]], "columns": [COLUMNS]}
    _, page = cli.json("show", filing_db, 10)
    for hit in data["results"]:
        for entry in hit["evidence"]:
            spans = entry["marks"]
            assert spans == sorted(spans) and all(0 <= a < b <= len(entry["text"]) for a, b in spans)
            assert all(entry["text"][a:b].strip() == entry["text"][a:b] for a, b in spans)


def test_matched_terms_are_highlighted_on_a_terminal(monkeypatch, filing_db, cli):
    runner = runner_on_a_terminal(monkeypatch)
    result = invoke(runner, "query", filing_db, CAPEX_FACT, "--top", "3")
    assert result.exit_code == 0
    assert f"      line 10: {ON}{ITEM}{OFF} (52.8) (47.3) (44.1)\n" in result.stdout
    # Only the marks differ from the plain table.
    plain = cli("query", filing_db, CAPEX_FACT, "--top", "3").stdout
    assert ANSI.sub("", result.stdout) == plain
    assert ANSI.findall(result.stdout)  # and there are some


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"TERM": "dumb"}])
def test_no_colour_on_a_terminal_with_no_color_or_a_dumb_terminal(monkeypatch, filing_db, env):
    runner = runner_on_a_terminal(monkeypatch, **env)
    for args in (("query", filing_db, CAPEX), ("show", filing_db, 10, "--highlight", CAPEX)):
        result = invoke(runner, *args)
        assert result.exit_code == 0
        assert "\x1b" not in result.stdout


def test_no_colour_when_stdout_is_not_a_terminal(filing_db):
    runner = CliRunner(env={"COLUMNS": "100", "TERM": "xterm-256color", "NO_COLOR": None})
    for args in (("query", filing_db, CAPEX), ("show", filing_db, 10, "--highlight", CAPEX)):
        result = invoke(runner, *args)
        assert result.exit_code == 0
        assert "\x1b" not in result.stdout


LONG_LINE = (
    "In the year the company continued to invest in its plants and its people, as in prior years, "
    "and capital expenditures were $12.3 million, mostly for new widget lines in Ohio, while the "
    "rest of the spending went to maintenance of existing facilities and to information systems."
)
CJK_LINE = "公司" * 40 + " capital expenditures 12.3 " + "公司" * 40
BOTH_LINE = (
    "Net cash from operating activities rose in the year, helped by collections from our largest "
    "customers and lower inventories at the end of the year, while capital expenditures were $7.7 million."
)


@pytest.fixture
def long_lines_db(tmp_path, cli):
    source = write_jsonl(tmp_path / "LONG.jsonl", [
        "Cover page\nAnnual report 2024\nOur operating activities",
        f"Liquidity\n{LONG_LINE}",
        f"Segments\n{CJK_LINE}",
        f"Cash flows\n{BOTH_LINE}",
        *["Other matters\nNothing to report"] * 4,
        *["Operating activities\nOperating activities"] * 2,
        "Notes\nOther | capital_expenditures * were <b>$1.0</b> `x` ~y~ [z]\noperating activities",
    ])
    assert cli("ingest", source).exit_code == 0
    return source.with_suffix(".db")


def evidence_rows(stdout: str) -> dict[int, str]:
    """{page: its evidence line as printed} from a table."""
    lines = stdout.splitlines()
    found = {}
    for row, following in zip(lines, lines[1:]):
        fields = row.split()
        if fields and fields[0].isdigit() and following.startswith("      line "):
            found[int(fields[1])] = following
    return found


@pytest.mark.parametrize("columns", [40, 59, 60, 61, 100])
def test_a_long_line_is_shortened_to_the_terminal_around_its_terms(long_lines_db, columns):
    runner = CliRunner(env={"COLUMNS": str(columns), "TERM": "dumb", "NO_COLOR": "1"})
    result = invoke(runner, "query", long_lines_db, "capital expenditures", "--top", "20")
    assert result.exit_code == 0, result.output
    shown = evidence_rows(result.stdout)
    english, chinese = shown[2], shown[3]
    for line in (english, chinese):
        assert width(line) <= columns  # a wide character counts two columns, and is never halved
        assert "capital expenditures" in line
        assert line.rstrip().endswith(ELLIPSIS)
    assert english.startswith("      line 2: ")
    # Cut between words, the kept text a stretch of the line.
    kept = english[len("      line 2: ") :].strip(ELLIPSIS)
    assert kept in LONG_LINE and f" {kept} " in f" {LONG_LINE} "
    assert chinese.startswith(f"      line 2: {ELLIPSIS}") and width(chinese[len("      line 2: ") + 1]) == 2
    # The terms keep the figure after them when there is room.
    if columns >= 59:
        assert "capital expenditures were $12.3" in english


def test_a_shortened_line_shows_the_rarest_of_its_terms(long_lines_db):
    """"operating activities" is on 5 pages of 12, "capital expenditures" on 4: a line holding
    both, too long to show whole, is shown around the rarer, though it comes later."""
    runner = CliRunner(env={"COLUMNS": "60", "TERM": "dumb", "NO_COLOR": "1"})
    result = invoke(runner, "query", long_lines_db, "operating activities and capital expenditures", "--top", "20")
    assert result.exit_code == 0, result.output
    line = evidence_rows(result.stdout)[4]
    assert line.startswith(f"      line 2: {ELLIPSIS}") and "capital expenditures were $7.7" in line
    assert "operating activities" not in line
    # Both are marked: the one shown was chosen.
    _, data = cli_json(long_lines_db, "operating activities and capital expenditures")
    (hit,) = [h for h in data["results"] if h["page_number"] == 4]
    marked = [hit["evidence"][0]["text"][a:b] for a, b in hit["evidence"][0]["marks"]]
    assert marked == ["operating activities", "capital expenditures"]


def test_shortening_never_passes_the_width_nor_halves_a_wide_character():
    text = "资本支出" * 10 + " capital expenditures " + "x" * 30 + "公司" * 10
    start = text.index("capital")
    line = cells(text, [(start, start + len("capital expenditures"))])
    for columns in range(5, 120):
        kept = shorten(line, columns)
        shown = "".join(ch for ch, _ in kept)
        assert width(shown) <= columns, columns
        inner = shown.strip(ELLIPSIS)
        assert inner in text
        if columns >= 25:
            assert "capital expenditures" in shown
    assert shorten(line, None) == line and shorten(line, width(text)) == line


def test_width_and_control_characters_agree_with_unicodedata():
    """render reads widths and control characters without unicodedata where it can (ASCII, and
    the fixed set Cc): the same answers as unicodedata for every character."""
    import sys
    import unicodedata

    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        assert is_control(ch) == (unicodedata.category(ch) == "Cc"), hex(code)
    for code in range(0x3100):  # ASCII, Latin, punctuation... and the first wide ranges
        ch = chr(code)
        assert width(ch) == (2 if unicodedata.east_asian_width(ch) in "WF" else 1), hex(code)
    assert width("a资本b") == 6 and width("") == 0


def test_markdown_shows_the_evidence_line_with_its_terms_in_bold(cli, filing_db, long_lines_db):
    markdown = cli("query", filing_db, CAPEX_FACT, "--top", "2", "--format", "markdown")
    lines = markdown.stdout.splitlines()
    assert lines[0] == "| Rank | Physical page | Confidence | Document | What matched | Evidence |"
    assert lines[1] == "| ---: | ---: | ---: | --- | --- | --- |"
    assert lines[2].endswith(f"| line 10: **{ITEM}** (52.8) (47.3) (44.1)<br>columns, line 4: {COLUMNS['text']} |")
    # Whole, and what Markdown would read in the filing's text is escaped.
    escaped = cli("query", long_lines_db, "capital expenditures", "--top", "20", "--format", "markdown").stdout
    assert f"| line 2: {LONG_LINE.replace('capital expenditures', '**capital expenditures**')} |" in escaped
    assert r"| line 2: Other \| **capital\_expenditures** \* were \<b>$1.0\</b> \`x\` \~y\~ \[z\] |" in escaped


def test_chinese_output_shows_the_evidence_line(cli, filing_db):
    table = cli("query", filing_db, CAPEX_ZH, "--top", "2")
    assert table.exit_code == 0
    lines = table.stdout.splitlines()
    assert lines[4].split()[:2] == ["1", "10（印刷页码"]
    _, data = cli.json("query", filing_db, CAPEX_ZH, "--top", "1")
    best = data["results"][0]["evidence"][0]
    assert lines[5] == f"      第 {best['line']} 行：{best['text']}"
    markdown = cli("query", filing_db, CAPEX_ZH, "--top", "1", "--format", "markdown").stdout.splitlines()
    assert markdown[0] == "| 排名 | 页码（物理页） | 置信度 | 文档 | 命中说明 | 证据 |"
    text, bold = best["text"], best["text"]
    for start, end in reversed(best["marks"]):
        bold = f"{bold[:start]}**{text[start:end]}**{bold[end:]}"
    assert best["marks"] and markdown[2].endswith(f"| 第 {best['line']} 行：{bold}<br>表头，第 4 行：{COLUMNS['text']} |")


# ---------------------------------------------------------------------------------------------
# evfind show


def headers(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith("Page ")]


def test_show_a_range_and_a_list_of_pages(cli, filing_db):
    one = {n: cli("show", filing_db, n).stdout for n in (9, 10, 11)}
    result = cli("show", filing_db, "9-11")
    assert result.exit_code == 0
    assert [h.split(" of ")[0] for h in headers(result.stderr)] == ["Page 9 (printed 7)", "Page 10 (printed 8)", "Page 11 (printed 9)"]
    assert result.stdout == "\f\n".join([one[9], one[10], one[11]])  # each as alone, a form feed apart
    listed = cli("show", filing_db, "11,9")
    assert listed.stdout == "\f\n".join([one[11], one[9]])  # in the order asked
    assert cli("show", filing_db, "9-10,11").stdout == result.stdout


def test_show_json_is_a_list_for_a_range_and_one_object_for_one_page(cli, filing_db):
    _, single = cli.json("show", filing_db, 10)
    assert isinstance(single, dict) and single["page_number"] == 10
    _, pages = cli.json("show", filing_db, "9-10")
    assert [p["page_number"] for p in pages] == [9, 10]
    assert pages[1] == single
    _, alone = cli.json("show", filing_db, "10-10")  # a range is a list, even of one page
    assert alone == [single]


@pytest.mark.parametrize(
    "spec, message",
    [
        (f"1-{SHOW_MAX + 1}", f"1-{SHOW_MAX + 1} asks for more than {SHOW_MAX} pages; show at most {SHOW_MAX} at a time"),
        ("1-9,10-60", f"1-9,10-60 asks for more than {SHOW_MAX} pages; show at most {SHOW_MAX} at a time"),
        ("1-999999999999", f"1-999999999999 asks for more than {SHOW_MAX} pages; show at most {SHOW_MAX} at a time"),
        ("10-9", "the range 10-9 runs backwards: write 9-10"),
        ("10-", "'10-' is not a page, a range 37-39 or a list 37,39 of physical pages"),
        ("ten", "'ten' is not a page, a range 37-39 or a list 37,39 of physical pages"),
        ("11-13", "page 13 does not exist: ACME_2024_10K has pages 1 to 12"),
        (f"1-{SHOW_MAX}", "page 13 does not exist: ACME_2024_10K has pages 1 to 12"),  # within the bound
    ],
)
def test_show_refuses_bad_ranges_in_one_line_and_prints_nothing(cli, filing_db, spec, message):
    result = cli("show", filing_db, spec)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"Error: {message}\n")


def test_show_highlight_marks_the_terms_on_a_terminal(monkeypatch, cli, filing_db):
    runner = runner_on_a_terminal(monkeypatch)
    result = invoke(runner, "show", filing_db, 10, "--highlight", CAPEX)
    assert (result.exit_code, result.stderr) == (0, cli("show", filing_db, 10).stderr)  # the header
    assert f"{ON}{ITEM}{OFF} (52.8) (47.3) (44.1)\n" in result.stdout
    assert f"{ON}Dividends" not in result.stdout
    assert ANSI.sub("", result.stdout) == cli("show", filing_db, 10).stdout  # nothing else changed
    several = invoke(runner, "show", filing_db, "9-10", "--highlight", CAPEX)
    assert ANSI.sub("", several.stdout) == cli("show", filing_db, "9-10").stdout
    assert several.stdout.count(f"{ON}{ITEM}{OFF}") == 1


def test_show_highlight_piped_is_the_plain_page_and_json_has_the_marks(cli, filing_db):
    piped = cli("show", filing_db, 10, "--highlight", CAPEX)
    assert (piped.exit_code, piped.stderr) == (0, cli("show", filing_db, 10).stderr)
    assert piped.stdout == cli("show", filing_db, 10).stdout
    _, page = cli.json("show", filing_db, 10, "--highlight", CAPEX)
    marked = [page["text"][a:b] for a, b in page["marks"]]
    assert ITEM in marked and "Dividends paid" not in marked
    _, pages = cli.json("show", filing_db, "9-10", "--highlight", CAPEX)
    assert pages[1]["marks"] == page["marks"]
    _, unmarked = cli.json("show", filing_db, 10)
    assert "marks" not in unmarked


def test_show_highlight_says_when_there_is_nothing_to_mark(cli, filing_db):
    stopwords = cli("show", filing_db, 10, "--highlight", "what is the")
    assert stopwords.exit_code == 0
    assert stopwords.stderr.startswith("Warning: the question has no searchable content words; nothing to highlight\nPage 10 ")
    assert stopwords.stdout == cli("show", filing_db, 10).stdout
    elsewhere = cli("show", filing_db, 5, "--highlight", "dividends paid")
    assert elsewhere.stderr.startswith("Warning: none of the question's terms is on this page\nPage 5 ")


def test_show_png_with_highlight_boxes_the_questions_terms(cli, filing_db, tmp_path):
    from evfind.pageimage import page_png

    out = tmp_path / "page.png"
    result = cli("show", filing_db, 10, "--png", out, "--highlight", CAPEX)
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert out.read_bytes() == page_png(filing_db, 10, question=CAPEX)
    assert out.read_bytes() != page_png(filing_db, 10)
    several = cli("show", filing_db, "9-10", "--png", out)
    assert (several.exit_code, several.stderr) == (2, "Error: --png writes one page: give one page number\n")


def test_control_characters_of_a_filing_never_reach_the_terminal(monkeypatch, cli, tmp_path):
    """A line of a hostile filing carrying terminal escapes is shown with spaces in their place:
    the table and `show --highlight` write no escape but their own highlighting."""
    source = write_jsonl(tmp_path / "ESC.jsonl", [
        "Cover", "Cash flows\nCapital expenditures \x1b]0;owned\x07 were \x1b[31m$5.0\x08 million",
    ])
    assert cli("ingest", source).exit_code == 0
    db = source.with_suffix(".db")
    runner = runner_on_a_terminal(monkeypatch)
    table = invoke(runner, "query", db, "capital expenditures")
    assert f"      line 2: {ON}Capital expenditures{OFF} ]0;owned were [31m$5.0 million\n" in table.stdout
    page = invoke(runner, "show", db, 2, "--highlight", "capital expenditures")
    assert f"{ON}Capital expenditures{OFF}  ]0;owned  were  [31m$5.0  million" in page.stdout
    for output in (table.stdout, page.stdout):
        assert output.count("\x1b") == output.count(ON) + output.count(OFF) > 0
        assert "\x07" not in output and "\x08" not in output


def test_a_line_item_wrapped_over_two_lines_is_marked_on_both(cli, tmp_path):
    source = write_jsonl(tmp_path / "WRAP.jsonl", [
        "Cover\nAnnual report",
        "Cash flows\nInvesting activities\nPurchases of property, plant\nand equipment (52.8) (47.3)\nDividends paid (5.0)",
        "Other\nNothing here",
    ])
    assert cli("ingest", source).exit_code == 0
    db = source.with_suffix(".db")
    _, data = cli.json("query", db, CAPEX_FACT)
    assert data["results"][0]["evidence"] == [
        {"line": 4, "text": "and equipment (52.8) (47.3)", "marks": [[0, 13]], "columns": []},
        {"line": 3, "text": "Purchases of property, plant", "marks": [[0, 28]], "columns": []},
    ]
    _, page = cli.json("show", db, 2, "--highlight", CAPEX_FACT)
    assert [page["text"][a:b] for a, b in page["marks"]] == ["Purchases of property, plant", "and equipment"]


def test_only_the_terms_the_evidence_counts_are_marked(cli, tmp_path):
    """FTS5 also matches the single words of a phrase ("cash" of "cash flow statement"); the
    evidence counts the phrases, and so do the marks."""
    source = write_jsonl(tmp_path / "CASH.jsonl", [
        "Cover\nAnnual report",
        "Spending\nLess: purchases of property, plant\nand equipment paid in cash (52.8) (47.3)\nDividends",
        "Other\nNothing here",
    ])
    assert cli("ingest", source).exit_code == 0
    _, data = cli.json("query", source.with_suffix(".db"), CAPEX)
    evidence = data["results"][0]["evidence"]
    marked = {entry["line"]: [entry["text"][a:b] for a, b in entry["marks"]] for entry in evidence}
    assert marked[2] == ["purchases of property, plant"]  # from where it starts on its line
    assert marked[3] == ["and equipment"]  # "cash" is FTS5's, not a concept of the question


QUARTER_PAGES = [
    "Acme Corp\nQuarterly Report on Form 10-Q\nFor the quarterly period ended June 30, 2023",
    "Condensed Consolidated Statements of Income\nNet sales 1,020 980\nCost of sales 610 590\n"
    "Provision for income taxes (106) (166)\nNet income 304 214",
    "Overview\nOur effective tax rate depends on where we earn our profits.\nWe sell display glass and optical fiber.",
    "Results of operations\nDemand for display glass recovered in the second quarter of 2023.\n"
    "Second quarter shipments were the highest since 2021.",
    "Income taxes\nProvision for income taxes $ (106) $ (166)\nEffective tax rate 25.9% 22.1%",
    "Risk factors\nChanges in tax law could raise our effective tax rate.\nCurrency moves could lower our sales.",
    "Liquidity\nCash and cash equivalents were $1.6 billion.\nWe repaid commercial paper.",
    "Legal proceedings\nNo material proceedings were brought against the company.",
    "Controls and procedures\nOur disclosure controls were effective.",
    "Exhibits\n31.1 Certification of the Chief Executive Officer\n32.1 Section 1350 certification",
]


def test_a_quarter_picks_a_column_it_is_not_the_evidence(cli, tmp_path):
    """"The second quarter" says which column, as a year does: the page that only talks about
    the quarter (page 4, where "second quarter" is rarer than "effective tax rate") does not
    outrank the page that states the rate asked for (page 5)."""
    for question in ("What was the effective tax rate in the second quarter of 2023?", "2023年第二季度的有效税率是多少？"):
        assert ranked_pages(cli, tmp_path, "ACME_10Q", QUARTER_PAGES, question)[0] == 5, question
        assert ranked_pages(cli, tmp_path, "ACME_10Q", QUARTER_PAGES, question, "--method", "rules")[:2] == [5, 4], question


SEGMENT_PAGES = [
    "Acme Corp\nAnnual Report on Form 10-K\nFor the fiscal year ended December 31, 2024",
    "Item 1. Business\nWe make sensors and software.\nWe report two segments: Sensors and Software.",
    "Item 7. Management's Discussion and Analysis\nRevenue rose 8% in 2024.\nOperating income rose 5%.",
    "Consolidated Balance Sheets\nCash 1,200 1,100\nGoodwill 2,450 2,300\nTotal assets 9,800 9,100",
    "Notes to Consolidated Financial Statements\nNote 6. Goodwill and Intangible Assets\n"
    "The changes in the carrying amount of goodwill were as follows:\n"
    "Sensors Software Total\nBalance at December 31, 2023 1,500 800 2,300\nAcquisitions 150 - 150\n"
    "Balance at December 31, 2024 1,650 800 2,450",
    "Note 7. Debt\nWe have $3.0 billion of senior notes.\nThe notes mature from 2026 to 2034.",
    "Note 12. Segment Information\nWe have two reportable segments: Sensors and Software.\n"
    "Segment revenue: Sensors 4,100 Software 2,900\nSegment operating income: Sensors 820 Software 610\n"
    "Segment assets exclude goodwill, which is not allocated to segment results.\n"
    "The chief operating decision maker reviews segment operating income.",
    "Note 13. Income Taxes\nThe effective tax rate was 21%.\nDeferred tax assets were $400 million.",
    "Item 9A. Controls and Procedures\nOur disclosure controls were effective.",
    "Exhibits\n21.1 Subsidiaries\n23.1 Consent of the independent registered public accounting firm",
]


def test_goodwill_by_segment_is_the_goodwill_note_not_the_segment_note(cli, tmp_path):
    """"By segment" names the rows of the goodwill table: the goodwill note (page 5) comes
    before the segment note (page 7), which mentions goodwill and says "segment" on every line.
    So the rules rank them; the learned stage, trained on real filings, puts both first but the
    segment note before the goodwill note on this ten-page filing (a known miss, not tuned away)."""
    for question in ("Where is goodwill by segment?", "按分部划分的商誉在哪一页？"):
        assert ranked_pages(cli, tmp_path, "ACME_10K", SEGMENT_PAGES, question, "--method", "rules")[:2] == [5, 7], question
        assert set(ranked_pages(cli, tmp_path, "ACME_10K", SEGMENT_PAGES, question)[:2]) == {5, 7}, question


DELIVERY_PAGES = [
    "Acme Aircraft Corp\nAnnual Report on Form 10-K\nFor the fiscal year ended December 31, 2024",
    "Item 1. Business\nWe design, build and deliver commercial jet aircraft.\nWe deliver aircraft to airlines worldwide.",
    "Risk factors\nDelays could affect when we deliver aircraft.\nCustomers may cancel aircraft orders we cannot deliver on time.",
    "Commercial Airplanes\nAircraft deliveries as of December 31 were as follows:\nModel A1 A2 Total\n"
    "Deliveries 2024 310 80 390\nDeliveries 2023 280 70 350",
    "Item 7. Management's Discussion and Analysis\nRevenue rose 9% in 2024.\nOperating income rose 4%.",
    "Note 9. Debt\nWe have $4.0 billion of senior notes.\nThe notes mature from 2027 to 2040.",
    "Item 9A. Controls and Procedures\nOur disclosure controls were effective.",
    "Exhibits\n21.1 Subsidiaries\n23.1 Consent of the independent registered public accounting firm",
]


def test_a_verb_finds_the_page_that_uses_its_noun(cli, tmp_path):
    """"Deliver" and "deliveries" have different Porter stems (deliv, deliveri): the question's
    verb finds the deliveries table (page 4), not only the pages that repeat the verb."""
    assert ranked_pages(cli, tmp_path, "ACME_10K", DELIVERY_PAGES, "How many A2 aircraft did Acme deliver in 2024?")[0] == 4
