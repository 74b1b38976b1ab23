"""A minimal PDF writer for tests: text pages, blank pages, page labels, pictures without
text (a scan), ligature glyphs without a Unicode mapping, and encryption with a password;
nothing else.

Real filings are made by many producers; what evfind needs from a test PDF is text that
pdfium extracts line by line, in page order, with empty pages where a page is blank. Standard
Helvetica (no embedded font) in WinAnsi encoding is enough for that.

Encryption is the PDF standard security handler, revision 2 (RC4, 40-bit key; ISO 32000-1,
7.6.3, algorithms 1 to 4): small enough to write here, and every PDF reader opens it. It is
not security, only a way to make a PDF that needs its password.
"""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

# ISO 32000-1, 7.6.3.3: the padding that makes a password 32 bytes long.
_PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")
_PERMISSIONS = -4  # every permission granted (the low two bits must be 0)


def rc4(key: bytes, data: bytes) -> bytes:
    """RC4, the stream cipher of the revision-2 security handler (encrypts and decrypts)."""
    box = list(range(256))
    j = 0
    for i in range(256):
        j = (j + box[i] + key[i % len(key)]) % 256
        box[i], box[j] = box[j], box[i]
    out = bytearray()
    i = j = 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + box[i]) % 256
        box[i], box[j] = box[j], box[i]
        out.append(byte ^ box[(box[i] + box[j]) % 256])
    return bytes(out)


def _padded(password: str) -> bytes:
    return (password.encode("latin-1") + _PAD)[:32]


class _Security:
    """The /Encrypt dictionary and the per-object keys of one encrypted file."""

    def __init__(self, user: str, owner: str | None, file_id: bytes):
        owner_key = hashlib.md5(_padded(owner or user)).digest()[:5]  # algorithm 3
        self.owner_entry = rc4(owner_key, _padded(user))
        self.key = hashlib.md5(  # algorithm 2
            _padded(user) + self.owner_entry + struct.pack("<i", _PERMISSIONS) + file_id
        ).digest()[:5]
        self.user_entry = rc4(self.key, _PAD)  # algorithm 4

    def encrypt(self, number: int, data: bytes) -> bytes:  # algorithm 1, generation 0
        key = hashlib.md5(self.key + number.to_bytes(3, "little") + b"\x00\x00").digest()[:10]
        return rc4(key, data)

    def dictionary(self) -> bytes:
        return b"<< /Filter /Standard /V 1 /R 2 /O <%s> /U <%s> /P %d >>" % (
            self.owner_entry.hex().encode(), self.user_entry.hex().encode(), _PERMISSIONS
        )


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


# The ligatures U+FB00..U+FB04 (ff, fi, fl, ffi, ffl), drawn with codes 1..5 of the font when
# make_pdf(unmapped=True): glyphs whose ToUnicode entry is <0000>, as some producers write a
# ligature they cannot map. pdfium returns U+FFFE for each (FPDFText_GetUnicode is 0).
_UNMAPPED = {0xFB00 + n: chr(1 + n) for n in range(5)}
_UNMAPPED_CMAP = b"""/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CMapName /Unmapped-Ligatures def
/CMapType 2 def
1 begincodespacerange
<00> <FF>
endcodespacerange
5 beginbfchar
<01> <0000>
<02> <0000>
<03> <0000>
<04> <0000>
<05> <0000>
endbfchar
endcmap
CMapName currentdict /CMap defineresource pop
end
end"""


def _content(lines: list[str], unmapped: bool = False, size: float = 9, leading: float = 11) -> bytes:
    if not lines:
        return b""
    parts = ["BT", f"/F1 {size:g} Tf", f"{leading:g} TL", "50 760 Td"]
    for line in lines:
        parts.append(f"({_escape(line.translate(_UNMAPPED) if unmapped else line)}) Tj T*")
    parts.append("ET")
    return "\n".join(parts).encode("cp1252", errors="replace")


def _placed(fragments: list[tuple[float, float, str]], size: float = 9, leading: float = 11) -> bytes:
    """Text fragments drawn where they are placed ((x, y, text), y from the foot of the page), in
    the order given: how a PDF writer may draw a table, cell by cell down each column."""
    parts = ["BT", f"/F1 {size:g} Tf"]
    parts += [f"1 0 0 1 {x:g} {y:g} Tm ({_escape(text)}) Tj" for x, y, text in fragments]
    parts.append("ET")
    return "\n".join(parts).encode("cp1252", errors="replace")


def make_pdf(
    path: str | Path,
    pages: list[str],
    labels: dict | None = None,
    *,
    pictures: bool = False,
    password: str | None = None,
    owner_password: str | None = None,
    unmapped: bool = False,
    font: str = "Helvetica",
    sizes: list[tuple[float, float]] | None = None,
    page_size: tuple[int, int] = (612, 792),
) -> Path:
    """Write a PDF with one page per string (lines split on newlines; "" is a blank page), or
    per list of (x, y, text) fragments drawn at those places in that order (``_placed``).

    ``labels`` are PDF page label ranges: {first_page_index: (style, start, prefix)}, style "D"
    (decimal), "r" (roman) or None, e.g. {0: ("r", 1, ""), 2: ("D", 1, "")}.
    ``pictures`` draws a grey picture on every page (with pages of "", a scan without text).
    ``password`` encrypts the file: it opens only with that password ("" opens without one, as
    many filings do that restrict printing or copying with an ``owner_password``).
    ``unmapped`` draws the ligature characters U+FB00..U+FB04 of the pages' text ("\ufb01nancial")
    with glyphs that have no Unicode mapping: pdfium extracts U+FFFE for each.
    ``font`` is a standard font (Courier lines up the columns of a table written with spaces);
    ``sizes`` gives each page its (font size, leading) in points (default 9 and 11), and
    ``page_size`` every page its (width, height) in points (US Letter by default).
    """
    path = Path(path)
    objects: list[bytes] = []
    streams: set[int] = set()  # objects whose stream data is encrypted

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    base_font = font.encode()
    if unmapped:
        cmap = add(b"<< /Length %d >>\nstream\n" % len(_UNMAPPED_CMAP) + _UNMAPPED_CMAP + b"\nendstream")
        streams.add(cmap)
        font = add(
            b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding << /Type /Encoding "
            b"/BaseEncoding /WinAnsiEncoding /Differences [1 /g1 /g2 /g3 /g4 /g5] >> "
            b"/ToUnicode %d 0 R >>" % (base_font, cmap)
        )
    else:
        font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >>" % base_font)
    image = None
    if pictures:
        pixels = bytes((x * 7 + y * 13) % 256 for y in range(16) for x in range(16))
        image = add(
            b"<< /Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceGray "
            b"/BitsPerComponent 8 /Length %d >>\nstream\n" % len(pixels) + pixels + b"\nendstream"
        )
        streams.add(image)
    pages_id = len(objects) + 1 + 2 * len(pages) + 1  # placeholder, fixed below
    page_ids = []
    # Reserve: content and page objects, then the Pages tree and the catalog.
    sizes = sizes or [(9, 11)] * len(pages)
    contents = [
        _placed(text, *size) if isinstance(text, list) else _content(text.split("\n") if text else [], unmapped, *size)
        for text, size in zip(pages, sizes)
    ]
    if image is not None:
        contents = [b"q 400 0 0 500 100 150 cm /Im1 Do Q\n" + content for content in contents]
    resources = b"/Font << /F1 %d 0 R >>" % font
    if image is not None:
        resources += b" /XObject << /Im1 %d 0 R >>" % image
    first_page_object = len(objects) + 1
    pages_id = first_page_object + 2 * len(pages)
    for content in contents:
        stream = add(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        streams.add(stream)
        page_ids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %d %d] "
                b"/Resources << %s >> /Contents %d 0 R >>" % (pages_id, *page_size, resources, stream)
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
    trailer = b"/Size %d /Root %d 0 R" % (len(objects) + 1, catalog_id)
    security = None
    if password is not None:
        if labels and any(prefix for _, _, prefix in labels.values()):
            raise ValueError("label prefixes are strings, which this writer does not encrypt")
        file_id = hashlib.md5(b"evfind test pdf %d" % len(pages)).digest()
        security = _Security(password, owner_password, file_id)
        encrypt_id = add(security.dictionary())
        trailer = b"/Size %d /Root %d 0 R /Encrypt %d 0 R /ID [<%s> <%s>]" % (
            len(objects) + 1, catalog_id, encrypt_id, file_id.hex().encode(), file_id.hex().encode()
        )

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        if security is not None and number in streams:
            head, _, rest = body.partition(b"\nstream\n")
            data = rest[: -len(b"\nendstream")]
            body = head + b"\nstream\n" + security.encrypt(number, data) + b"\nendstream"
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n" % (len(objects) + 1)
    out += b"0000000000 65535 f \n"
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< %s >>\nstartxref\n%d\n%%%%EOF\n" % (trailer, xref)
    path.write_bytes(bytes(out))
    return path
