"""What ingest writes, byte for byte: the normalised text, the raw text packed against it, and
files laid out in small pages so they stay smaller than the PDF they come from."""

from __future__ import annotations

import sqlite3
import zlib

import pytest

from evfind import packing, store
from evfind.text import normalise

from .filing import PAGES


@pytest.mark.parametrize(
    "raw, text",
    [
        ("Net sales\r\n$ 812.4\r\n", "Net sales\n$ 812.4"),
        ("  Item 7.\tMD&A  \r\n\r\n  Results  ", "Item 7. MD&A\n\nResults"),
        ("re\ufffe\r\nported", "re-\nported"),  # pdfium's hyphen marker
        ("non\u00a0breaking\u2003spaces \u200b\u00adhere", "non breaking spaces here"),
        ("\ufb01nancial o\ufb03ce", "financial office"),
        ("\u201cQuoted\u201d \u2018words\u2019 \u2013 and \u2014 dashes \u2212 1", "\"Quoted\" 'words' - and - dashes - 1"),
        ("caf\u00e9 \u2022 bullet \u00ae", "caf\u00e9 \u2022 bullet \u00ae"),  # other characters are kept
        ("a\u2028b\x85c\x0bd\x1fe\ue000f", "a b c d e f"),  # separators, controls, private use
        ("\n \n line \n \n", "line"),
        ("one\r\rtwo\rthree", "one\n\ntwo\nthree"),
        ("", ""),
        ("   ", ""),
    ],
)
def test_normalise(raw, text):
    assert normalise(raw) == text


def test_raw_text_is_packed_against_the_normalised_text():
    raw = "\r\n".join(PAGES[9].splitlines()) + "\r\n"
    text = normalise(raw)
    packed = packing.pack_text(raw, text)
    assert packing.unpack_text(packed, text) == raw
    assert len(packed) < len(zlib.compress(raw.encode())) / 4
    assert packing.pack_text(text, text) is None and packing.unpack_text(None, text) == text
    # raw text packed without a dictionary, by the first evfind release, still reads
    assert packing.unpack_text(zlib.compress(raw.encode(), 6), text) == raw
    # packed against the text itself where the raw text has no CRLF line breaks
    hyphenated = "Net sales re\ufffe\nported  in millions \n"
    assert packing.unpack_text(packing.pack_text(hyphenated, normalise(hyphenated)), normalise(hyphenated)) == hyphenated
    # pages longer than zlib's 32 KiB window
    long_raw = raw * 40
    long_text = normalise(long_raw)
    assert packing.unpack_text(packing.pack_text(long_raw, long_text), long_text) == long_raw


def test_new_databases_use_small_pages(filing_db):
    with sqlite3.connect(filing_db) as conn:
        assert conn.execute("PRAGMA page_size").fetchone()[0] == store.PAGE_SIZE == 512



def _everything(db) -> list:
    """Every row of every table of a database (FTS5's own tables too), its schema and marks."""
    with sqlite3.connect(db) as conn:
        names = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        found = [conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").fetchall(),
                 conn.execute("SELECT * FROM pragma_application_id, pragma_user_version, pragma_page_size").fetchall()]
        for name in names:
            rows = conn.execute(f'SELECT * FROM "{name}"').fetchall()
            found.append((name, sorted(rows, key=repr)))
    return found


@pytest.mark.skipif(not store.IN_MEMORY, reason="this Python's sqlite3 cannot serialize a database")
def test_a_new_database_built_in_memory_holds_what_one_built_in_place_holds(tmp_path, monkeypatch):
    from evfind.ingest import ingest

    from .html_filing import write_filing

    source = write_filing(tmp_path / "morrow-10k.htm")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the same time of ingest in both
    in_memory = ingest(source, tmp_path / "memory.db")
    monkeypatch.setattr(store, "IN_MEMORY", False)
    in_place = ingest(source, tmp_path / "place.db")
    assert in_memory.status == in_place.status == "created"
    built = _everything(in_memory.db_path)
    assert built == _everything(in_place.db_path)
    counts = {name: len(rows) for name, rows in built[2:]}
    assert counts["pages"] == 6 and counts["facts"] > 0 and counts["pages_fts_data"] > 0  # (not empty tables)
