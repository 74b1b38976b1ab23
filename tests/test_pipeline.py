"""The query pipeline end to end: what ingest stores about the filing for it, what the finder
gathers, and that the finder's pages are rank.order's over the record it gathered."""

from __future__ import annotations

import sqlite3

from evfind import Finder, store
from evfind.forms import tickers

from .conftest import write_jsonl

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
