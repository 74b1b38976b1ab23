"""The extracted text of a page as stored: packed against the normalised text beside it.

Pure functions over strings and bytes; nothing here knows SQLite. The format is described in
schema.sql (``pages.raw_text``).
"""

from __future__ import annotations


def _dictionaries(text: str) -> list[bytes]:
    """The preset dictionaries raw text is packed against: the normalised text with pdfium's
    CRLF line breaks (the closest to what pdfium extracts), and the normalised text itself."""
    plain = text.encode("utf-8")
    return [plain.replace(b"\n", b"\r\n"), plain]


def pack_text(raw: str, text: str) -> bytes | None:
    """The extracted text as stored: None when it equals the normalised text, else zlib with a
    preset dictionary made from the normalised text (the one that packs smaller). The two differ
    only in line breaks, spaces and a few characters, so the raw text costs a few percent of
    the page instead of some forty."""
    if raw == text:
        return None
    import zlib

    data = raw.encode("utf-8")
    packed = []
    for zdict in _dictionaries(text) if "\r\n" in raw else _dictionaries(text)[1:]:
        packer = zlib.compressobj(9, zdict=zdict)
        packed.append(packer.compress(data) + packer.flush())
    return min(packed, key=len)


def unpack_text(blob: bytes | None, text: str) -> str:
    """The extracted text back. The zlib header names its dictionary by Adler-32 checksum;
    raw text packed without one (by the first evfind release) reads as well."""
    if blob is None:
        return text
    import zlib

    zdict = b""
    if len(blob) >= 6 and blob[1] & 0x20:  # FDICT: a preset dictionary, DICTID follows
        wanted = int.from_bytes(blob[2:6], "big")
        zdict = next((d for d in _dictionaries(text) if zlib.adler32(d) == wanted), b"")
    unpacker = zlib.decompressobj(zdict=zdict) if zdict else zlib.decompressobj()
    return (unpacker.decompress(blob) + unpacker.flush()).decode("utf-8")
