"""An earnings release read as releases are printed, on pages written here: its statements after
its last paragraph, its highlights, and the press release an 8-K attaches as Exhibit 99.1."""

from __future__ import annotations

from evfind.forms import analyse, exhibit_start

HEADLINE = "\n".join([
    "Acme Corp Reports Fourth Quarter and Fiscal 2024 Results",
    "SAN JOSE, Calif., Jan. 5, 2025 (NASDAQ: ACME) -- Acme Corp today reported results for its fourth quarter.",
    "Revenue grew 12 percent to a record, on demand for its cloud products in every region.",
])
INCOME_LINES = "\n".join([
    "Three Months Ended Twelve Months Ended",
    "Net revenue $ 1,200 $ 1,070 $ 4,500 $ 4,100",
    "Cost of revenue 700 650 2,600 2,400",
    "Gross margin 500 420 1,900 1,700",
    "Operating income 230 170 820 700",
    "Income before income taxes 220 158 775 650",
    "Net income $ 176 $ 128 $ 625 $ 530",
    "Net income per share, diluted $ 1.74 $ 1.27 $ 6.20 $ 5.25",
])
CLOSING = "\n".join([
    "About Acme",
    "Acme makes industrial software for manufacturers in forty countries, from its home in San Jose.",
    "Forward-looking statements in this release involve risks that may cause results to differ.",
    "The Company undertakes no obligation to update them, except as the law requires it to.",
    "Investor contact: Investor Relations, ir@acme.example",
    "Media contact: press@acme.example",
    "Source: Acme Corp",
])


def test_a_releases_income_statement_after_its_last_paragraph():
    page = f"{CLOSING}\nAcme Corp and Subsidiaries\nCondensed Consolidated Statements of Operations\n(Unaudited)\n{INCOME_LINES}"
    reading = analyse([HEADLINE, page])
    assert reading.form == "earnings"
    assert reading.pages[1].statement == "income_statement"
    assert ("income_statement", "Condensed Consolidated Statements of Operations", "statement") in reading.pages[1].sections


def test_a_release_statement_that_mentions_its_selected_data():
    page = (f"ACME CORP\nCONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS\n(In millions)\n{INCOME_LINES}\n"
            "See the selected financial data and the reconciliations of non-GAAP measures that follow.")
    assert analyse([HEADLINE, page]).pages[1].statement == "income_statement"


def test_evfind_info_lists_the_releases_income_statement(cli, tmp_path):
    page = f"{CLOSING}\nAcme Corp and Subsidiaries\nCondensed Consolidated Statements of Operations\n(Unaudited)\n{INCOME_LINES}"
    source = tmp_path / "acme_q4_release.txt"
    source.write_text(f"{HEADLINE}\f{page}\n", encoding="utf-8")
    assert cli("ingest", source).exit_code == 0
    result, data = cli.json("info", source.with_suffix(".db"))
    assert result.exit_code == 0, result.output
    statements = {s["label"]: s["pages"] for s in data["revisions"][0]["statements"]}
    assert statements == {"income_statement": [2]}


def test_a_highlights_page_after_a_subsection_is_the_highlights():
    first = f"{HEADLINE}\nQuarterly Earnings Per Share\nDiluted earnings per share were $1.74, compared with $1.27 a year ago."
    highlights = "\n".join([
        "Business Highlights",
        "Acme launched three new cloud products and opened data centers in two new regions this quarter.",
        "The Company signed its largest customer agreement to date, with a global retailer, in December.",
    ])
    pages = analyse([first, highlights]).pages
    assert pages[0].section == "earnings_per_share"
    # The highlights open the page: the subsection before them does not run on under them.
    assert pages[1].section == "highlights"
    assert [label for label, _, _ in pages[1].sections] == ["highlights"]


def test_an_exhibit_is_not_titled_from_a_footnote():
    page = f"Exhibit 99.1\n1 Not meaningful\nACME CORP REPORTS FOURTH QUARTER RESULTS\n{HEADLINE}"
    assert exhibit_start(page) == ("99.1", "Acme Corp Reports Fourth Quarter Results")
    assert exhibit_start("Exhibit 99.1\n(2) Excludes special items\nAcme Reports Results") == ("99.1", "Acme Reports Results")
    # A title may start with figures of its own.
    assert exhibit_start("Exhibit 10.1\n2024 Omnibus Incentive Plan\nArticle I") == ("10.1", "2024 Omnibus Incentive Plan")
    assert exhibit_start("Exhibit 32.1\n18 U.S.C. Section 1350 Certification\nIn connection with the report") == (
        "32.1", "18 U.S.C. Section 1350 Certification")
