"""End to end over the 18 EDGAR HTML development filings (opt-in: --edgar DIR). Each ingests with
the page count /work/shared/edgar/README.md gives it; where a page prints its folio, the page's
label is that folio on at least 90% of such pages (benchmarks/edgar_folios.tsv, read off the
pages); each shows all of its displayed inline-XBRL facts. The files never go into the repository."""

from __future__ import annotations

import pytest

from .test_benchmarks import load

pytestmark = pytest.mark.edgar


@pytest.fixture(scope="module")
def ingested(edgar, tmp_path_factory):
    """(the folder of the databases, benchmarks/html_folios.py's figures of each filing)."""
    folder = tmp_path_factory.mktemp("edgar")
    return folder, load("html_folios").measure(edgar, folder)


@pytest.fixture(scope="module")
def measured(ingested):
    return ingested[1]


def test_every_filing_ingests_with_the_pages_its_readme_gives(edgar, measured):
    expected = load("html_folios").readme_pages(edgar)
    assert len(expected) == 18
    assert {name: pages for name, (pages, *_) in measured.items()} == expected


def test_the_printed_folio_is_the_page_label(measured):
    right = sum(r[2] for r in measured.values())
    printed = sum(r[3] for r in measured.values())
    assert printed > 1000
    assert right >= 0.90 * printed, f"{right} of {printed}"
    assert sum(r[4] for r in measured.values()) <= 0.02 * printed  # labels where none is printed


def test_the_facts_of_each_filing_are_all_on_its_pages(edgar, ingested):
    """The README's count of ix:nonFraction elements, less those hidden in the header."""
    import re

    from evfind import store

    folder = ingested[0]
    counts = {}
    for line in (edgar / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 7 and cells[1].startswith("`") and cells[6].isdigit():
            counts[cells[1].strip("`")] = int(cells[6])
    for name, facts in counts.items():
        text = (edgar / name).read_bytes()
        header = re.search(rb"<ix:header>.*?</ix:header>", text, re.S)
        hidden = len(re.findall(rb"<ix:nonFraction", header.group(0))) if header else 0
        conn = store.connect_read(folder / (name.rsplit(".", 1)[0] + ".db"))
        try:
            shown = conn.execute("SELECT count(*) FROM facts WHERE kind = 'numeric'").fetchone()[0]
        finally:
            conn.close()
        assert shown == facts - hidden, name
