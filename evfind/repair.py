"""U+FFFE in extracted text: a hyphen, or a ligature glyph that has no Unicode mapping.

pdfium returns U+FFFE for two different things (core/fpdftext/cpdf_textpage.cpp):

- a hyphen that ends a line and joins a word to the next line's: "forward\\ufffelooking". For
  these ``FPDFText_IsHyphen`` is true (pdfium stores the character as 0x2);
- a glyph whose Unicode mapping is empty. Some PDFs draw "fi", "fl", "ff", "ffi" and "ffl" as one
  ligature glyph and map it to nothing (a ToUnicode entry of <0000>): "\\ufffenancial",
  "e\\ufffeects", "cash \\ufffeow". For these ``FPDFText_GetUnicode`` is 0.

Extraction records, for every U+FFFE of a page in order, which of the two pdfium says it is (a
string of ``HYPHEN``, ``GLYPH`` or ``UNKNOWN``, one letter a U+FFFE); text read back from a
database or from JSONL has no such facts and is all ``UNKNOWN``. ``repair_pages`` then gives the
pages whose U+FFFE need more than a hyphen, each U+FFFE replaced:

- HYPHEN: a hyphen, always.
- GLYPH: fi, fl, ff, ffi, ffl or a hyphen, whichever forms a known word: a word of the filing's
  own text that came through intact (most filings spell "financial" right somewhere), else a word
  of the shipped English list (data/ligature_words.txt); the more frequent in the filing wins.
  A hyphen counts only where the filing writes the hyphenated word intact. A word known in no
  form gets the ligature most often restored in the filing (fi where none was).
- UNKNOWN: the ligature where it forms a known word, else a hyphen.

A U+FFFE with no letter on either side, or in a run of letters a digit touches ("E\ufffe3"),
stays a hyphen. Pure: values in, values out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import product

MARK = "\ufffe"
HYPHEN = "h"  # pdfium: a hyphen at a line break (FPDFText_IsHyphen)
GLYPH = "g"  # pdfium: a glyph without a Unicode mapping (FPDFText_GetUnicode is 0)
UNKNOWN = "?"  # no facts from pdfium: stored or JSONL text
LIGATURES = ("fi", "ff", "fl", "ffi", "ffl")  # in the order ties are broken when nothing else does
_PAIRS = ("fi", "fl", "ff")
_MAX_MARKS = 3  # U+FFFE in one word whose every combination is tried; beyond, one choice for all

# A word holding a U+FFFE: letters and U+FFFE (hyphens given by pdfium are written first).
_WORD = re.compile(r"[A-Za-z\ufffe]*\ufffe[A-Za-z\ufffe]*")
# A word of the filing's vocabulary, hyphenated words whole; tokens touching a U+FFFE are skipped.
_TOKEN = re.compile(r"[a-z\ufffe]+(?:-[a-z\ufffe]+)*")


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """The shipped English words holding fi, fl or ff (data/ligature_words.txt, from SCOWL)."""
    from ._data import words

    return frozenset(words("ligature_words.txt"))


def vocabulary(texts: Sequence[str]) -> Counter:
    """How often the filing writes each word that a repair could produce, lower case: the words
    holding fi, fl or ff and the hyphenated words. Words touching a U+FFFE are left out: only
    text that came through intact counts."""
    counts = Counter()
    for text in texts:
        counts.update(_TOKEN.findall(text.lower()))
    return Counter(
        {w: n for w, n in counts.items() if MARK not in w and ("-" in w or any(p in w for p in _PAIRS))}
    )


def repair_pages(texts: Sequence[str], kinds: Sequence[str | None] = ()) -> dict[int, str]:
    """The pages whose U+FFFE need more than a hyphen, each U+FFFE replaced: {page index: text}.

    ``kinds[i]`` says what pdfium found for each U+FFFE of ``texts[i]`` (one letter each, in
    order); None, a missing entry or one of the wrong length means no facts (UNKNOWN). Pages
    whose U+FFFE are all hyphens are left out: normalising already writes a hyphen there.
    """
    todo: dict[int, str] = {}
    for index, text in enumerate(texts):
        if MARK not in text:
            continue
        marks = kinds[index] if index < len(kinds) else None
        if marks is None or len(marks) != text.count(MARK):
            marks = UNKNOWN * text.count(MARK)
        if marks.strip(HYPHEN):
            todo[index] = marks
    if not todo:
        return {}
    known = _Known(vocabulary(texts), english_words())
    words = {index: _words(texts[index], marks) for index, marks in todo.items()}
    # First the words one known form settles; their ligatures rank the choice for the rest.
    restored: Counter = Counter()
    for found in words.values():
        for word in found:
            word.choose(known)
            if word.choice is not None:
                restored.update(c for c in word.choice if c != "-")
    order = sorted(LIGATURES, key=lambda lig: (-restored[lig], LIGATURES.index(lig)))
    result = {}
    for index, found in words.items():
        result[index] = _rewrite(texts[index], found, order)
    return result


class _Known:
    """Is a candidate word known, and how strongly: (times in the filing, in the English list)."""

    def __init__(self, filing: Counter, english: frozenset[str]):
        self.filing = filing
        self.english = english

    def rank(self, word: str) -> tuple[int, int] | None:
        word = word.lower()
        count = self.filing.get(word, 0)
        listed = "-" not in word and word in self.english
        return (count, int(listed)) if count or listed else None


class _Word:
    """One word holding U+FFFE to restore: where it is, what pdfium said of each, what is chosen."""

    __slots__ = ("start", "end", "text", "kinds", "choice", "tied")

    def __init__(self, start: int, end: int, text: str, kinds: str):
        self.start, self.end, self.text, self.kinds = start, end, text, kinds
        self.choice: tuple[str, ...] | None = None
        self.tied: list[tuple[str, ...]] = []

    def options(self) -> list[tuple[str, ...]]:
        if len(self.kinds) > _MAX_MARKS:
            return [(c,) * len(self.kinds) for c in (*LIGATURES, "-")]
        return list(product((*LIGATURES, "-"), repeat=len(self.kinds)))

    def spell(self, choice: tuple[str, ...]) -> str:
        pieces = iter(choice)
        return "".join(next(pieces) if ch == MARK else ch for ch in self.text)

    def choose(self, known: _Known) -> None:
        """The best known form; where several share the best rank, all of them, to be settled by
        the filing's ligature order."""
        best, ranks = None, []
        for choice in self.options():
            rank = known.rank(self.spell(choice))
            if rank is not None:
                ranks.append((rank, choice))
                best = rank if best is None or rank > best else best
        tied = [choice for rank, choice in ranks if rank == best]
        if len(tied) == 1:
            self.choice = tied[0]
        self.tied = tied


def _words(text: str, marks: str) -> list[_Word]:
    """The words of a page that hold a U+FFFE other than a hyphen, with the kind of each. A
    U+FFFE with no letter on either side is no word's, nor is a run of letters that a digit
    touches ("E\ufffe3", "to\ufffe33"): those stay hyphens."""
    kind_at = {}
    position = -1
    for kind in marks:
        position = text.index(MARK, position + 1)
        kind_at[position] = kind
    # pdfium's hyphens split words: write them as hyphens before finding the words
    plain = "".join("-" if kind_at.get(i) == HYPHEN else ch for i, ch in enumerate(text)) if HYPHEN in marks else text
    found = []
    for match in _WORD.finditer(plain):
        start, end = match.start(), match.end()
        if not match.group().strip(MARK) or text[start - 1 : start].isdigit() or text[end : end + 1].isdigit():
            continue
        kinds = "".join(kind_at[i] for i in range(start, end) if i in kind_at)
        found.append(_Word(start, end, match.group(), kinds))
    return found


def _rewrite(text: str, words: list[_Word], order: list[str]) -> str:
    """The page with every U+FFFE replaced: hyphens where pdfium said so, each word's choice."""
    parts, last = [], 0
    for word in words:
        choice = word.choice
        if choice is None and word.tied:  # several forms known equally: the filing's ligature order
            choice = min(word.tied, key=lambda c: [order.index(x) if x in order else len(order) for x in c])
        if choice is None:  # known in no form
            fallback = order[0]
            choice = tuple(fallback if k == GLYPH else "-" for k in word.kinds)
        letters = [ch for ch in word.text if ch != MARK]
        if len(letters) >= 2 and all(ch.isupper() for ch in letters):
            choice = tuple(c.upper() for c in choice)
        parts.append(text[last : word.start])
        parts.append(word.spell(choice))
        last = word.end
    parts.append(text[last:])
    return "".join(parts).replace(MARK, "-")
