"""A minimal PDF writer for tests: text pages, blank pages, page labels, nothing else.

Real filings are made by many producers; what evfind needs from a test PDF is text that
pdfium extracts line by line, in page order, with empty pages where a page is blank. Standard
Helvetica (no embedded font) in WinAnsi encoding is enough for that.
"""

from __future__ import annotations

from pathlib import Path


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _content(lines: list[str]) -> bytes:
    if not lines:
        return b""
    parts = ["BT", "/F1 9 Tf", "11 TL", "50 760 Td"]
    for line in lines:
        parts.append(f"({_escape(line)}) Tj T*")
    parts.append("ET")
    return "\n".join(parts).encode("cp1252", errors="replace")


def make_pdf(path: str | Path, pages: list[str], labels: dict | None = None) -> Path:
    """Write a PDF with one page per string (lines split on newlines; "" is a blank page).

    ``labels`` are PDF page label ranges: {first_page_index: (style, start, prefix)}, style "D"
    (decimal), "r" (roman) or None, e.g. {0: ("r", 1, ""), 2: ("D", 1, "")}.
    """
    path = Path(path)
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    pages_id = len(objects) + 1 + 2 * len(pages) + 1  # placeholder, fixed below
    page_ids = []
    # Reserve: content and page objects, then the Pages tree and the catalog.
    contents = [_content(text.split("\n") if text else []) for text in pages]
    first_page_object = len(objects) + 1
    pages_id = first_page_object + 2 * len(pages)
    for content in contents:
        stream = add(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        page_ids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] "
                b"/Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>" % (pages_id, font, stream)
            )
        )
    kids = b" ".join(b"%d 0 R" % pid for pid in page_ids)
    assert add(b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(pages))) == pages_id
    catalog = b"<< /Type /Catalog /Pages %d 0 R" % pages_id
    if labels:
        nums = []
        for index in sorted(labels):
            style, start, prefix = labels[index]
            entry = b"<<"
            if style:
                entry += b" /S /" + style.encode()
            if prefix:
                entry += b" /P (" + prefix.encode() + b")"
            entry += b" /St %d >>" % start
            nums.append(b"%d " % index + entry)
        catalog += b" /PageLabels << /Nums [" + b" ".join(nums) + b"] >>"
    catalog_id = add(catalog + b" >>")

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n" % (len(objects) + 1)
    out += b"0000000000 65535 f \n"
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, catalog_id, xref)
    path.write_bytes(bytes(out))
    return path
