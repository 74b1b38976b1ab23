"""The page as it looks: page images rendered from the source PDF (evfind.pageimage), the
SHA-256 check before any is made, `evfind ingest --embed-source` and `evfind show --png`."""

from __future__ import annotations

import math
import os
import shutil
import sqlite3
import struct
import zlib

import pytest

from evfind import Finder, pageimage, store
from evfind.ingest import ingest
from evfind.pageimage import (
    encode_png,
    line_boxes,
    matching_text,
    page_png,
    png_size,
    render_png,
    term_spans,
)

from .conftest import write_jsonl
from .filing import LABELS, PAGES
from .pdfgen import make_pdf

CAPEX = "What were capital expenditures in 2024? Use the cash flow statement."
TERM = "Purchases of property, plant and equipment"  # on page 10, the cash flow statement
OTHER_LINE = "Dividends paid"  # on page 10 too, matching nothing of CAPEX


def decode(png: bytes) -> tuple[int, int, bytes]:
    """(width, height, RGB rows) of a PNG as encode_png writes it (8-bit RGB, filter 0 rows)."""
    width, height = png_size(png)
    data, position = b"", 8
    while position < len(png):
        length, kind = struct.unpack(">I4s", png[position : position + 8])
        if kind == b"IDAT":
            data += png[position + 8 : position + 8 + length]
        position += 12 + length
    raw = zlib.decompress(data)
    row = 3 * width
    lines = [raw[y * (row + 1) : (y + 1) * (row + 1)] for y in range(height)]
    assert {line[0] for line in lines} == {0}  # every row unfiltered
    return width, height, b"".join(line[1:] for line in lines)


def pixel(image: tuple[int, int, bytes], x: float, y: float) -> tuple[int, int, int]:
    width, _, rgb = image
    at = 3 * (int(y) * width + int(x))
    return tuple(rgb[at : at + 3])


def char_box(pdf, page_number: int, text: str, offset: int = 0):
    """pdfium's box (left, bottom, right, top, in points) of a character of ``text`` (the first,
    or the one ``offset`` after it) on the page, found here without evfind; and the page's
    height."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[page_number - 1]
        textpage = page.get_textpage()
        index = textpage.get_text_range().index(text) + offset
        box = textpage.get_charbox(index)
        textpage.close()
        height = page.get_height()
        page.close()
        return box, height
    finally:
        document.close()


# --------------------------------------------------------------------------------------------
# Rendering


@pytest.mark.parametrize("size", [(612, 792), (842, 595), (300, 500)])
@pytest.mark.parametrize("scale", [0.5, 1.0, 1.5, 2.0])
def test_the_png_is_the_page_at_the_scale(tmp_path, size, scale):
    pdf = make_pdf(tmp_path / "sized.pdf", ["", "Second page"], page_size=size)
    png = render_png(pdf, 2, scale=scale)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png_size(png) == (math.ceil(size[0] * scale), math.ceil(size[1] * scale))


def test_a_box_is_drawn_where_a_term_is_and_nowhere_else(filing_pdf):
    scale = 2.0
    plain = decode(render_png(filing_pdf, 10, scale=scale))
    boxed = decode(render_png(filing_pdf, 10, scale=scale, phrases=["purchases of property plant and equipment"]))
    # In the space between "Purchases" and "of", halfway up: paper in the plain page, inside
    # the box in the other, so yellow: red kept, blue taken out.
    (_, bottom, s_right, top), height = char_box(filing_pdf, 10, TERM, offset=len("Purchase"))
    (o_left, _, _, _), _ = char_box(filing_pdf, 10, TERM, offset=len("Purchases "))
    x, y = (s_right + o_left) / 2 * scale, (height - (bottom + top) / 2) * scale
    assert pixel(plain, x, y) == (255, 255, 255)
    red, _, blue = pixel(boxed, x, y)
    assert red > 200 and blue < 80
    # A line the phrase is not on is the same in both.
    (left, bottom, right, top), _ = char_box(filing_pdf, 10, OTHER_LINE)
    rows = range(int((height - top) * scale) - 2, int((height - bottom) * scale) + 2)
    assert [pixel(plain, x, y) for y in rows for x in range(0, 400)] == [
        pixel(boxed, x, y) for y in rows for x in range(0, 400)
    ]


def test_the_boxes_are_the_questions_terms(filing_db, filing_pdf):
    """page_png boxes what the query matches: the page differs from the plain one only where
    those terms are."""
    boxed = page_png(filing_db, 10, question=CAPEX)
    assert boxed == render_png(filing_pdf, 10, phrases=Finder(filing_db).match_terms(CAPEX))
    assert boxed != page_png(filing_db, 10)
    assert page_png(filing_db, 10, question="what is the") == page_png(filing_db, 10)  # no content words


def test_a_huge_page_is_rendered_smaller(tmp_path, monkeypatch):
    monkeypatch.setattr(pageimage, "MAX_PIXELS", 10_000)
    pdf = make_pdf(tmp_path / "big.pdf", ["x"], page_size=(1000, 1000))
    width, height = png_size(render_png(pdf, 1, scale=1.0))
    assert width * height <= 10_000 and width == height


def test_pages_and_scales_out_of_range(filing_pdf):
    from evfind.errors import UsageError

    with pytest.raises(UsageError, match="page 13 does not exist: the PDF has pages 1 to 12"):
        render_png(filing_pdf, 13)
    with pytest.raises(UsageError, match="scale must be between"):
        render_png(filing_pdf, 1, scale=40)


# --------------------------------------------------------------------------------------------
# Finding the terms (pure)


def test_term_spans_match_as_the_query_does():
    text = "Purchases of property, plant and equipment (52.8)\nNet cash used in investing"
    cash = text.index("cash")
    assert term_spans(text, ["purchase of property plant and equipment", "cash"]) == [(0, 42), (cash, cash + 4)]
    assert term_spans(text, ["investing activities"]) == []  # a phrase, not its words
    assert term_spans(text, ["INVESTING"]) == [(len(text) - 9, len(text))]
    assert term_spans(text, []) == [] and term_spans("", ["cash"]) == []
    assert term_spans('a "quoted" AND NEAR(x) term', ['"quoted" and', "near"]) == [(3, 14), (15, 19)]


def test_matching_text_folds_as_ingest_does_and_keeps_the_character_indexes():
    codes = [ord(c) for c in "\ufb01nancing\r\nlong\ufffeterm\x02"]
    text, owners = matching_text(codes)
    assert text == "financing  long-term "
    assert owners[:3] == [0, 0, 1]  # the ligature's two letters are its one character
    assert len(owners) == len(text) and owners[-1] == len(codes) - 1
    assert term_spans(text, ["financing"]) == [(0, 9)]


def test_unmapped_ligatures_are_read_as_ingest_restores_them(tmp_path):
    # pdfium gives code 0 for a ligature glyph without a Unicode mapping ("cash \ufffeows").
    codes = [0 if "\ufb00" <= c <= "\ufb04" else ord(c) for c in "Cash \ufb02ows, \ufb01nancial o\ufb03ce"]
    text, owners = matching_text(codes)
    assert text == "Cash flows, financial office"
    assert owners[5:7] == [5, 5] and owners[-5:-2] == [len(codes) - 3] * 3 and len(owners) == len(text)
    pdf = make_pdf(tmp_path / "unmapped.pdf", ["Consolidated Statements of Cash \ufb02ows"], unmapped=True)
    db = ingest(pdf).db_path
    assert Finder(db).page(1).text.endswith("Cash flows")  # as ingest restored it
    assert page_png(db, 1, question="cash flows") != page_png(db, 1, question="consolidated statements")


def test_line_boxes_merge_a_terms_characters_line_by_line():
    # "Cash Flows" drawn a character at a time (as many filings are), then "from" on the next line.
    chars = [(10, 100, 15, 108), (15.5, 100, 19, 106), (0, 0, 0, 0), (22, 99, 27, 108), (27.5, 100, 30, 108)]
    below = [(10, 88, 14, 96), (14.5, 88, 18, 94)]
    assert line_boxes(chars + below) == [(10, 99, 30, 108), (10, 88, 18, 96)]
    far = [(10, 100, 15, 108), (200, 100, 205, 108)]  # another column of the same line
    assert line_boxes(far) == far


def test_encode_png_round_trips():
    rows = bytes(range(9)) + b"\xff\xff\xff" + bytes(range(9, 18)) + b"\xff\xff\xff"  # 2 rows of 3 pixels, 3 bytes apart
    assert decode(encode_png(3, 2, 12, rows)) == (3, 2, bytes(range(18)))


# --------------------------------------------------------------------------------------------
# Only from bytes with the revision's SHA-256


def test_the_source_pdf_is_recorded_where_it_was(filing_pdf, filing_db):
    with Finder(filing_db) as finder:
        recorded = store.source(finder.conn, finder.revision.revision_id)
    assert recorded == store.Source(str(filing_pdf.resolve()), embedded=False)
    assert pageimage.unavailable(filing_db) is None


def test_a_moved_pdf_gives_no_image_and_says_where_it_looked(cli, filing_pdf, filing_db, tmp_path):
    moved = filing_pdf.rename(tmp_path / "elsewhere.pdf")
    result = cli("show", filing_db, "10", "--png", tmp_path / "page.png")
    assert result.exit_code == 3
    assert result.stderr == (
        f"Error: no page image: the source PDF is not at {filing_pdf.resolve()} (ingest it again from "
        "where it is now, or with --embed-source)\n"
    )
    assert not (tmp_path / "page.png").exists()
    # Ingesting the same bytes from where they are now records the place, and nothing else.
    again = cli("ingest", moved, "--db", filing_db, "--document-id", "ACME_2024_10K")
    assert again.exit_code == 0, again.output
    assert again.stdout == (
        f"{filing_db}: ACME_2024_10K sha256 {again.stdout.split('sha256 ')[1][:12]} is already ingested; "
        f"recorded its source PDF at {moved.resolve()}\n"
    )
    assert cli("show", filing_db, "10", "--png", tmp_path / "page.png").exit_code == 0
    assert cli("ingest", moved, "--db", filing_db, "--document-id", "ACME_2024_10K").stdout.endswith("nothing to do\n")


def test_a_changed_pdf_gives_no_image(cli, filing_pdf, filing_db, tmp_path):
    sha = Finder(filing_db).document.document_sha256
    changed = list(PAGES)
    changed[9] = PAGES[9].replace("(52.8)", "(58.2)", 1)
    make_pdf(filing_pdf, changed, LABELS)
    new_sha = pageimage.file_sha256(str(filing_pdf), filing_pdf.stat().st_size, filing_pdf.stat().st_mtime_ns)
    result = cli("show", filing_db, "10", "--png", tmp_path / "page.png")
    assert result.exit_code == 3
    assert result.stderr == (
        f"Error: no page image: the file at {filing_pdf.resolve()} has changed (sha256 {new_sha[:12]}, "
        f"the revision's is {sha[:12]})\n"
    )


def test_the_file_is_hashed_once_per_size_and_modification_time(filing_pdf, filing_db):
    pageimage.file_sha256.cache_clear()
    for _ in range(3):
        assert pageimage.unavailable(filing_db) is None
    assert pageimage.file_sha256.cache_info().misses == 1
    os.utime(filing_pdf, ns=(1, 1))  # touched: hashed again, and still the same bytes
    assert pageimage.unavailable(filing_db) is None
    assert pageimage.file_sha256.cache_info().misses == 2


def test_a_revision_from_jsonl_or_text_has_no_image(cli, tmp_path):
    db = tmp_path / "pages.db"
    ingest(write_jsonl(tmp_path / "pages.jsonl", PAGES), db, "ACME")
    result = cli("show", db, "10", "--png", tmp_path / "page.png")
    assert result.exit_code == 3
    assert result.stderr == "Error: no page image: the revision was ingested from a JSONL file, not a PDF\n"
    text = tmp_path / "pages.txt"
    text.write_text("\f".join(PAGES), encoding="utf-8")
    ingest(text, tmp_path / "text.db", "ACME")
    assert pageimage.unavailable(tmp_path / "text.db") == "no page image: the revision was ingested from a text file, not a PDF"


def test_a_database_that_never_recorded_its_source(filing_pdf, filing_db, tmp_path):
    old = tmp_path / "old.db"
    shutil.copyfile(filing_db, old)
    with sqlite3.connect(old) as conn:
        conn.execute("DROP TABLE sources")  # as evfind wrote databases before it kept sources
    conn.close()
    assert pageimage.unavailable(old) == (
        "no page image: the database does not record where the source PDF was; ingest the PDF again"
    )
    with Finder(old) as finder:  # the rest reads as before
        assert finder.query(CAPEX).results[0].page_number == 10
    # Ingesting the PDF again records it (the table is added to the file), and nothing else.
    assert ingest(filing_pdf, old, "ACME_2024_10K").source_updated
    assert pageimage.unavailable(old) is None
    with Finder(old) as finder:
        assert len(store.revisions(finder.conn)) == 1


def test_an_encrypted_pdf_has_no_image(tmp_path):
    pdf = make_pdf(tmp_path / "locked.pdf", PAGES, password="secret")
    db = ingest(pdf, password="secret").db_path
    with pytest.raises(pageimage.NoPageImageError, match="password-protected, and evfind keeps no password"):
        page_png(db, 10)


# --------------------------------------------------------------------------------------------
# --embed-source and show --png


def test_embed_source_keeps_the_pdf_so_the_database_works_without_it(cli, filing_pdf, tmp_path):
    db = tmp_path / "embedded.db"
    result = cli("ingest", filing_pdf, "--db", db, "--embed-source")
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith(", printed page labels stored, source PDF embedded\n")
    before = page_png(db, 10, question=CAPEX)
    filing_pdf.unlink()
    assert page_png(db, 10, question=CAPEX) == before
    shown = cli("show", db, "10", "--png", tmp_path / "page.png")
    assert shown.exit_code == 0, shown.output
    assert shown.stdout == f"{tmp_path / 'page.png'}: page 10, 918 x 1188 pixels\n"
    assert (tmp_path / "page.png").read_bytes() == page_png(db, 10)
    with Finder(db) as finder:
        assert finder.query(CAPEX).results[0].page_number == 10
        assert store.source_bytes(finder.conn, finder.revision.revision_id)[:5] == b"%PDF-"
    # `evfind upgrade` re-indexes and keeps the embedded PDF.
    assert cli("upgrade", db).exit_code == 0
    assert page_png(db, 10, question=CAPEX) == before


def test_embedding_an_ingested_pdf_later(cli, filing_pdf, filing_db, tmp_path):
    result = cli("ingest", filing_pdf, "--db", filing_db, "--embed-source")
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith(f"recorded its source PDF at {filing_pdf.resolve()} and embedded it\n")
    filing_pdf.unlink()
    assert pageimage.unavailable(filing_db) is None
    with Finder(filing_db) as finder:
        assert len(store.revisions(finder.conn)) == 1  # no new revision


def test_a_tampered_embedded_pdf_gives_no_image(cli, filing_pdf, tmp_path):
    db = tmp_path / "embedded.db"
    ingest(filing_pdf, db, embed_source=True)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE sources SET bytes = CAST(? AS BLOB)", (b"%PDF-1.4 not the same",))
    conn.close()
    assert pageimage.unavailable(db).startswith("no page image: the PDF embedded in the database has changed (sha256 ")


def test_embed_source_is_for_pdfs(cli, tmp_path):
    source = write_jsonl(tmp_path / "pages.jsonl", PAGES)
    result = cli("ingest", source, "--embed-source")
    assert result.exit_code == 2
    assert result.stderr == f"Error: {source}: not a PDF or an HTML filing; --embed-source keeps one of those in the database\n"
    assert not (tmp_path / "pages.db").exists()


def test_show_png_of_an_older_revision_and_errors(cli, filing_pdf, filing_db, tmp_path):
    old_sha = Finder(filing_db).document.document_sha256
    changed = list(PAGES)
    changed[9] = PAGES[9].replace("(52.8)", "(58.2)", 1)
    new_pdf = make_pdf(tmp_path / "restated.pdf", changed, LABELS)
    ingest(new_pdf, filing_db, "ACME_2024_10K")
    out = tmp_path / "old.png"
    assert cli("show", filing_db, "10", "--png", out, "--sha", old_sha[:8]).exit_code == 0
    assert out.read_bytes() == render_png(filing_pdf, 10)
    assert out.read_bytes() != render_png(new_pdf, 10)
    missing_page = cli("show", filing_db, "13", "--png", out)
    assert (missing_page.exit_code, missing_page.stderr) == (2, "Error: page 13 does not exist: ACME_2024_10K has pages 1 to 12\n")
    unwritable = cli("show", filing_db, "10", "--png", tmp_path / "no" / "such" / "dir.png")
    assert unwritable.exit_code == 3
    assert unwritable.stderr.startswith(f"Error: {tmp_path / 'no' / 'such' / 'dir.png'}: cannot write the image")
