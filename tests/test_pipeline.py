"""The query pipeline end to end: what ingest stores about the filing for it, what the finder
gathers, and that the finder's pages are rank.order's over the record it gathered."""

from __future__ import annotations

import json
import pickle
import sqlite3

import pytest

from evfind import Finder, rank, store
from evfind.forms import tickers

from .conftest import REPO, write_jsonl

COVER = (
    "ACME CORP\nFORM 10-K\nTitle of each class Trading Symbol(s) Name of each exchange on which registered\n"
    "Common Stock, $0.01 par value ACMW New York Stock Exchange\n"
    "Depositary Shares ACMW.P The New York Stock Exchange"
)


def test_the_trading_symbols_are_read_from_the_cover():
    assert tickers([COVER]) == ("ACMW", "ACMW.P")
    # a release's dateline; each symbol once, in the order met
    assert tickers(["SPRINGFIELD -- Acme (NYSE: ACMW) and (Nasdaq: ACMW) reported"]) == ("ACMW",)
    # the cover's first pages only (forms.COVER_PAGES): a symbol on page 4 is some other company's
    assert tickers(["", "", "", "Beta Inc. BETA New York Stock Exchange"]) == ()
    assert tickers(["Quarterly results in New York"]) == ()


def _acme(tmp_path, cli):
    source = write_jsonl(tmp_path / "ACME_2024_10K.jsonl", [
        COVER,
        "Liquidity\nWe expect capital expenditures of about $40 million in 2025.",
    ] + [f"Other matters of ACME, part {n}." for n in range(1, 10)])
    db = tmp_path / "acme.db"
    assert cli("ingest", source, "--db", db, "--quiet").exit_code == 0
    return db


def test_ingest_stores_the_symbols_and_a_query_reads_them_from_the_store(tmp_path, cli):
    db = _acme(tmp_path, cli)
    with Finder(db) as finder:
        assert store.revision_tickers(finder.conn, finder.revision.revision_id) == ("ACMW", "ACMW.P")
    # The cover is not read again at query time: a cover rewritten after ingest changes nothing.
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE pages SET text = 'ACME CORP' WHERE page_number = 1")
    conn.close()
    with Finder(db) as finder:
        assert "acmw" not in finder.match_terms("How much capex does ACMW expect to spend in 2025?")


def test_upgrade_reads_the_symbols_of_a_database_written_before_they_were_stored(tmp_path, cli):
    """A schema 4 file has no tickers column: `evfind upgrade` brings it forward, symbols read."""
    db = _acme(tmp_path, cli)
    with sqlite3.connect(db) as conn:
        conn.execute("ALTER TABLE documents DROP COLUMN tickers")
        conn.execute("PRAGMA user_version = 4")
    conn.close()
    refused = cli("query", db, "capex")
    assert refused.exit_code != 0 and "evfind upgrade" in refused.stderr
    upgraded = cli("upgrade", db)
    assert upgraded.exit_code == 0, upgraded.output
    assert upgraded.stdout == f"{db}: re-indexed 1 revision, schema 4 -> {store.SCHEMA_VERSION}\n"
    with Finder(db) as finder:
        assert store.revision_tickers(finder.conn, finder.revision.revision_id) == ("ACMW", "ACMW.P")
        assert "acmw" not in finder.match_terms("How much capex does ACMW expect to spend in 2025?")


# ---------------------------------------------------------------------------------------------
# The finder ranks as rank.order does over the record it gathers


def agree(finder: Finder, question: str, top: int = 20) -> rank.Signals:
    """Check that the pages (and scores) ``finder.query`` lists for ``question`` are those of
    ``rank.order`` over the record ``finder.signals`` gathers, copied as plain data (a record
    that held a connection, or anything read later, would not survive the copy); return it."""
    signals = finder.signals(question, top=top)
    plain = pickle.loads(pickle.dumps(signals))
    assert plain == signals
    ranked = rank.order(plain, finder.method).fused[:top]
    rows = store.page_rows(finder.conn, [page for page, _ in ranked])
    listed = [(hit.page_number, hit.score) for hit in finder.query(question, top=top).results]
    assert listed == [(rows[page].page_number, score) for page, score in ranked], question
    return signals


FILING_QUESTIONS = [
    "What were capital expenditures in 2024? Use the cash flow statement.",  # names a statement
    "Where is net sales by geography?",  # a topic and an implied statement
    "Is the company involved in any patent lawsuit or legal proceedings?",
    "Where is the table of contents?",  # the contents, asked for
    "Where is Item 8, financial statements and supplementary data?",  # an Item named
    "What was Acme's gross margin in 2024?",
    "What is the effective tax rate?",
    "Who is the largest customer and what share of net sales does it account for?",
    "What is the company's current ratio?",  # a ratio of statement line items
    "How many employees does Acme have?",
    "2024财年的资本支出是多少？",
    "widgets of Mars",  # a weak match
]


def test_the_finder_ranks_the_test_filing_as_rank_order_does(filing_db):
    with Finder(filing_db) as finder:
        contents = [agree(finder, question) for question in FILING_QUESTIONS]
        assert contents[0].statements and contents[1].sections and contents[3].filing.contents  # the lists were there


def test_the_finder_ranks_every_sample_question_as_rank_order_does():
    records = [json.loads(line) for line in (REPO / "sample" / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(records) >= 30
    with Finder(REPO / "sample.db") as finder:
        for record in records:
            agree(finder, record["question"])
            agree(finder, record["question_zh"])


def _agreements(title: str, rate: str) -> list[str]:
    """A credit agreement's pages: its cover, Article I's definitions, covenants, defaults."""
    number, name = title
    return [
        f"Exhibit {number}\nEXECUTION VERSION\n{name}\ndated as of May 1, 2024\namong ACME WIDGETS INC. and THE LENDERS",
        "ARTICLE I\nDEFINITIONS\nSection 1.01 Defined Terms.\n"
        f'"Applicable Rate" means, for any day, {rate} per annum, as set forth in the pricing grid below.\n'
        '"Business Day" means any day other than a Saturday or Sunday.',
        '"Consolidated EBITDA" means, for any period, Consolidated Net Income plus interest expense, taxes, '
        'depreciation and amortization.\n"Consolidated Net Income" means the net income of the Borrower.\n'
        '"Interest Period" means the period commencing on the date of a Loan. The Applicable Rate applies.',
        "ARTICLE VI\nNEGATIVE COVENANTS\nSection 6.01 Leverage Ratio. The Borrower will not permit the ratio of "
        "Consolidated Total Debt to Consolidated EBITDA to exceed 3.50 to 1.00.\nSection 6.02 Liens.",
        "ARTICLE VII\nEVENTS OF DEFAULT\nSection 7.01 Events of Default. If the Borrower fails to pay any principal "
        "when due, the Lenders may terminate the Commitments.",
    ]


CURRENT_REPORT = [
    "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nFORM 8-K\nCURRENT REPORT\nAcme Widgets Inc.\n"
    "Title of each class Trading Symbol(s) Name of each exchange on which registered\n"
    "Common Stock ACMW New York Stock Exchange",
    "Item 1.01 Entry into a Material Definitive Agreement.\nOn May 1, 2024 Acme entered into a five-year credit "
    "agreement and a 364-day credit agreement with a syndicate of lenders. The interest rate is the Applicable Rate.",
    "Item 2.02 Results of Operations and Financial Condition.\nOn May 1, 2024 Acme reported its results for the "
    "quarter; net sales were $812 million for the three months ended March 31, 2024.",
    "Item 9.01 Financial Statements and Exhibits.\n(d) Exhibits\nExhibit No. Description\n10.1 Five-Year Credit "
    "Agreement, dated as of May 1, 2024.\n10.2 364-Day Credit Agreement, dated as of May 1, 2024.\n"
    "99.1 Press release dated May 1, 2024.",
    *_agreements(("10.1", "FIVE-YEAR CREDIT AGREEMENT"), "1.25%"),
    *_agreements(("10.2", "364-DAY CREDIT AGREEMENT"), "1.00%"),
    "EXHIBIT 99.1\nAcme Widgets Reports First Quarter Results\nSPRINGFIELD, Ill., May 1, 2024 -- Acme Widgets "
    "Inc. (NYSE: ACMW) reported net sales of $812 million for the quarter ended March 31, 2024.\n"
    "Three Months Ended March 31, 2024 2023\nNet sales 812 760\nOperating income 141 123",
    "Acme Widgets Inc.\nTwelve Months Ended March 31, 2024 2023\nNet sales 3,140 2,960\nOperating income 560 501\n"
    "Full-year net sales and operating income, reconciled to GAAP.",
]
REPORT_QUESTIONS = [
    "What is the Applicable Rate under the five-year credit agreement?",  # an exhibit named by its title
    "How is Consolidated EBITDA defined in the 364-day credit agreement?",  # pages that define the term
    "What does Consolidated EBITDA mean in the credit agreement?",  # asks what a term means
    "Where does Exhibit 10.2 begin?",  # named by number, its first page named outright
    "Where is Item 2.02, results of operations?",  # an Item named outright
    "What were full-year net sales?",  # a span of time asked: the quarter's table is off-period
    "What were ACMW net sales for the quarter?",  # the filer's symbol
    "What is the maximum leverage ratio covenant?",  # about an instrument
    "What are the events of default?",
    "Exhibit 10.1 events of default",
]


def test_the_finder_ranks_a_current_report_as_rank_order_does(tmp_path, cli):
    """A filing where every signal of the record counts: exhibits named by number and by title,
    their twins set aside, pages of definitions that define the term asked about, Items and
    exhibits named outright, a span of time asked, the filer's symbol."""
    source = write_jsonl(tmp_path / "ACME_2024_8K.jsonl", CURRENT_REPORT)
    db = tmp_path / "acme.db"
    assert cli("ingest", source, "--db", db, "--quiet").exit_code == 0
    with Finder(db) as finder:
        found = {question: agree(finder, question) for question in REPORT_QUESTIONS}
        ranked = {question: rank.order(signals, finder.method) for question, signals in found.items()}
    first = REPORT_QUESTIONS
    assert ranked[first[0]].exhibits == ("10.1",) and ranked[first[3]].exhibits == ("10.2",)
    assert found[first[1]].defining and found[first[0]].filing.definitions
    assert ranked[first[3]].named and ranked[first[4]].named
    assert found[first[5]].periods == {"year"} and found[first[5]].shown
    assert any(term.symbol for term in found[first[6]].terms)
    assert found[first[7]].intent.instrument


@pytest.mark.financebench
def test_the_finder_ranks_every_labelled_question_as_rank_order_does(financebench, tmp_path_factory):
    """Every question of every development set (benchmarks/retrieval.py ``sets``: FinanceBench's,
    ours, the hold-out sets and the sample's, in English and Chinese), asked of its own filing."""
    import importlib.util

    from evfind.evaluate import database_for
    from evfind.errors import NoContentWordsError

    spec = importlib.util.spec_from_file_location("benchmark_retrieval", REPO / "benchmarks" / "retrieval.py")
    retrieval = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(retrieval)
    cache = tmp_path_factory.mktemp("pipeline")
    finders: dict[str, Finder] = {}
    asked = 0
    try:
        for _, labels, field, _, sources, _ in retrieval.sets(financebench):
            for record in retrieval.records_of(labels, field, sources):
                name = record["doc_name"]
                if name not in finders:
                    finders[name] = Finder(database_for(name, sources, None, cache))
                try:
                    agree(finders[name], record[field])
                except NoContentWordsError:
                    continue
                asked += 1
    finally:
        for finder in finders.values():
            finder.close()
    assert asked > 1300
