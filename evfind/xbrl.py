"""Inline XBRL: the contexts and units of a filing's ``ix:header``, its facts as plain records, and
the notes its text blocks mark.

An inline-XBRL filing (Inline XBRL 1.1, https://www.xbrl.org/Specification/inlineXBRL-part1/REC-2013-11-18/inlineXBRL-part1-REC-2013-11-18.html)
tags every figure it shows with its standard concept (``ix:nonFraction name="us-gaap:Revenues"``),
the period and dimensions of an ``xbrli:context`` (``contextRef``) and a unit (``unitRef``), and
wraps each note in a text block (``ix:nonNumeric name="us-gaap:IncomeTaxDisclosureTextBlock"``)
whose text may go on in ``ix:continuation`` elements (``continuedAt``). Here the elements are
read as lxml gives them from its HTML parser: tags and attribute names in lower case, prefixes
kept (``ix:nonfraction``, ``contextref``); elements are told apart by their local names.

Ingest side (htmlread.py hands it the elements); nothing here knows SQLite or questions.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from ._data import rows

INLINE_XBRL_NAMESPACES = frozenset({"http://www.xbrl.org/2013/inlineXBRL", "http://www.xbrl.org/2008/inlineXBRL"})
# The longest value kept of a non-numeric fact other than a text block (a date, a name, a
# flag, a sentence): a fact is evidence a reader checks on its page, not the page again.
MAX_TEXT_VALUE = 1000


@dataclass(frozen=True)
class Context:
    """The period of an ``xbrli:context`` and its dimensions (explicit and typed members)."""

    start: str | None
    end: str | None
    instant: str | None
    dimensions: tuple[tuple[str, str], ...] = ()

    @property
    def dimensions_json(self) -> str | None:
        """The dimensions as the facts table keeps them: a JSON object {axis: member}."""
        return json.dumps(dict(self.dimensions)) if self.dimensions else None


@dataclass
class Fact:
    """One fact as the filing shows it, on its page (the first, for one that runs across a
    page break). ``kind`` is numeric (``ix:nonFraction``) or text (``ix:nonNumeric``)."""

    page: int
    concept: str
    kind: str
    context: str | None
    period_start: str | None
    period_end: str | None
    instant: str | None
    dimensions: str | None  # JSON object {axis: member}, in the context's order; None: none
    unit: str | None
    scale: int | None
    sign: str | None  # "-" where the value shown is the negative of the fact
    decimals: str | None
    format: str | None
    value: str  # as shown on the page
    row_label: str | None = None  # the first cell of the table row that shows it
    fact_id: str | None = None

    def row(self) -> dict:
        return dict(self.__dict__)


@dataclass(frozen=True)
class TextBlock:
    """Where a text block runs: its concept, its first and last page (counting its
    continuations) and its first line (the note's heading)."""

    concept: str
    first_page: int
    last_page: int
    heading: str


def local(tag: str) -> str:
    return tag.rpartition(":")[2]


def prefixes(root_attributes) -> set[str]:
    """The prefixes the document declares for the inline-XBRL namespace (``xmlns:ix``), or
    {"ix"} where it declares none (lxml's HTML parser keeps the declarations as attributes)."""
    found = {name.partition(":")[2] for name, value in root_attributes.items()
             if name.startswith("xmlns:") and value in INLINE_XBRL_NAMESPACES}
    return found or {"ix"}


# --------------------------------------------------------------------------------------------
# The header: contexts and units


class Resources:
    """The contexts and units of the inline-XBRL header, read from its events as the parser
    gives them (``start``, ``data``, ``end``, from the header's own start to its end):
    {context id: (Context, its dimensions as JSON)} in ``contexts`` and {unit id: measure} in
    ``units``. They are the ``xbrli:context`` and ``xbrli:unit`` elements with an id that are
    children of an ``ix:resources`` child of the header. A context's period is the text of its
    ``startDate``, ``endDate`` or ``instant`` (the last of each), its dimensions its
    ``explicitMember`` and ``typedMember`` elements (axis: the text inside), in order; a unit is
    its measure ("iso4217:USD"), a ratio as numerator/denominator ("iso4217:USD/xbrli:shares").
    """

    _HEADER, _RESOURCES, _RECORD = 1, 2, 3

    def __init__(self) -> None:
        self.contexts: dict[str, tuple[Context, str | None]] = {}
        self.units: dict[str, str] = {}
        self._open: list[tuple[str, int]] = []  # the open elements: (local name, role)
        self._records: list[tuple[int, str, str, dict]] = []  # the open contexts and units: (depth, name, id, parts)
        self._texts: list[tuple[int, list[str]]] = []  # the open elements whose text is read: (depth, text)
        self._encoded: dict[tuple, str] = {}  # dimensions -> their JSON: the same members recur

    def start(self, tag: str, attrib, header: bool) -> None:
        """An element starts (``header``: an inline-XBRL header)."""
        name = tag.rpartition(":")[2]
        above = self._open[-1][1] if self._open else 0
        role = 0
        if header:
            role = self._HEADER
        elif above == self._HEADER and name == "resources":
            role = self._RESOURCES
        elif above == self._RESOURCES and name in ("context", "unit") and attrib.get("id"):
            role = self._RECORD
            self._records.append((len(self._open) + 1, name, attrib.get("id"), {"dimensions": [], "measures": []}))
        if self._records:
            _, kind, _, parts = self._records[-1]
            text: list[str] | None = None
            if kind == "context":
                if name in ("startdate", "enddate", "instant"):
                    text = parts[name] = []
                elif name in ("explicitmember", "typedmember") and attrib.get("dimension"):
                    text = []
                    parts["dimensions"].append((attrib.get("dimension"), text))
            elif name == "measure":
                text = []
                parts["measures"].append((self._open[-1][0] if self._open else "", text))
            if text is not None:
                self._texts.append((len(self._open) + 1, text))
        self._open.append((name, role))

    def data(self, text: str) -> None:
        for _, inside in self._texts:
            inside.append(text)

    def end(self) -> bool:
        """An element ends; whether it was the header's own (its last)."""
        depth = len(self._open)
        self._open.pop()
        while self._texts and self._texts[-1][0] == depth:
            self._texts.pop()
        if self._records and self._records[-1][0] == depth:
            _, kind, ident, parts = self._records.pop()
            if kind == "context":
                self._context(ident, parts)
            else:
                self.units[ident] = _unit(parts["measures"])
        return not self._open

    def _context(self, ident: str, parts: dict) -> None:
        period = [_joined(parts[name]) if name in parts else None for name in ("startdate", "enddate", "instant")]
        dimensions = tuple((axis, _joined(member)) for axis, member in parts["dimensions"])
        context = Context(*period, dimensions)
        if not dimensions:
            self.contexts[ident] = (context, None)
            return
        text = self._encoded.get(dimensions)
        if text is None:
            text = self._encoded[dimensions] = context.dimensions_json
        self.contexts[ident] = (context, text)


def _joined(text: list[str]) -> str:
    return "".join(text).strip()


def _unit(measures: list[tuple[str, list[str]]]) -> str:
    """A unit's measure from its measures and the local names of their parents."""
    numerator, denominator, plain = [], [], []
    for parent, text in measures:
        {"unitnumerator": numerator, "unitdenominator": denominator}.get(parent, plain).append(_joined(text))
    if numerator or denominator:
        return "*".join(numerator) + "/" + "*".join(denominator)
    return "*".join(plain)


# --------------------------------------------------------------------------------------------
# Facts


def fact(attributes, page: int, numeric: bool) -> Fact:
    """The Fact of an ``ix:nonFraction`` (``numeric``) or ``ix:nonNumeric`` element, from its
    attributes, shown on ``page``: its value is set when its element ends (``shown_value``),
    its period, dimensions and unit once every context and unit is read (``resolve``)."""
    get = attributes.get
    scale = get("scale")
    try:
        scale_value = int(scale) if scale is not None else None
    except ValueError:
        scale_value = None
    return Fact(page, get("name") or "", "numeric" if numeric else "text", get("contextref"), None, None, None, None,
                get("unitref") or None, scale_value, get("sign"), get("decimals"), get("format"), "", None, get("id"))


def shown_value(text: str, numeric: bool) -> str:
    """A fact's value as shown: the text inside its element, white space made single (a text
    value cut at MAX_TEXT_VALUE)."""
    if "\n" in text or "  " in text or "\t" in text or "\r" in text:
        text = _WHITE.sub(" ", text)
    value = text.strip()
    if not numeric and len(value) > MAX_TEXT_VALUE:
        value = value[: MAX_TEXT_VALUE - 1].rstrip() + "\u2026"
    return value


def resolve(facts: list[Fact], contexts: dict[str, tuple[Context, str | None]], units: dict[str, str]) -> None:
    """Each fact's period and dimensions (its context's) and its unit's measure."""
    for found in facts:
        context_id = found.context
        context, dimensions = contexts.get(context_id, _NO_CONTEXT) if context_id else _NO_CONTEXT
        if context is not None:
            found.period_start, found.period_end, found.instant = context.start, context.end, context.instant
        found.dimensions = dimensions
        if found.unit:
            found.unit = units.get(found.unit, found.unit)


_WHITE = re.compile(r"[ \t\n\r\f\v]+")
_NO_CONTEXT: tuple[Context | None, None] = (None, None)


def is_text_block(concept: str) -> bool:
    """A text block: a concept whose name ends in TextBlock (a note, a policy, a table)."""
    return concept.endswith("TextBlock")


# --------------------------------------------------------------------------------------------
# Text blocks -> note sections


@lru_cache(maxsize=1)
def text_block_labels() -> dict[str, tuple[str, ...]]:
    """{concept: section labels} from evfind/data/textblocks.tsv (a row per concept and label,
    each with its source)."""
    table: dict[str, list[str]] = {}
    for concept, label in rows("textblocks.tsv", 2):  # (the loader checks every row's source)
        table.setdefault(concept, []).append(label)
    return {concept: tuple(labels) for concept, labels in table.items()}


_INSIDE_A_NOTE = ("Policy", "Table", "Schedule")


def block_labels(concept: str, heading: str) -> tuple[str, ...]:
    """The section labels a text block marks: those of textblocks.tsv for a standard concept;
    for a filer's own note-level concept (``nke:EmployeeBenefitPlansDisclosureTextBlock``: not
    a policy, a table or a schedule, which lie inside a note), the topic its heading names in
    data/sections.tsv (``structure.topic_of``). None for anything else."""
    known = text_block_labels().get(concept)
    if known is not None:
        return known
    prefix, _, name = concept.partition(":")
    if prefix in ("us-gaap", "dei", "srt", "cyd", "ecd", "ifrs-full") or any(part in name for part in _INSIDE_A_NOTE):
        return ()
    from .structure import topic_of

    label = topic_of(_note_title(heading)) if heading else None
    return (label,) if label else ()


def _note_title(heading: str) -> str:
    """ "NOTE 9 - EMPLOYEE BENEFIT PLANS" -> "EMPLOYEE BENEFIT PLANS"; "9. Leases" -> "Leases"."""
    return re.sub(r"^(?:note\s*)?(?:\d{1,2}|[a-z])?\s*[.:\-—–]?\s*", "", heading.strip(), flags=re.I) or heading


def block_sections(blocks: list[dict], page_count: int) -> dict[int, list[tuple[str, str, str]]]:
    """{page number: [(label, heading, origin)]} the text blocks (dicts: concept, first_page,
    last_page, heading) add to page_sections: origin started on a block's first page, carried
    on the pages it goes on to."""
    added: dict[int, list[tuple[str, str, str]]] = {}
    for block in blocks:
        heading = " ".join(block["heading"].split())[:200]
        first, last = block["first_page"], block["last_page"]
        for label in block_labels(block["concept"], heading):
            for page in range(max(first, 1), min(last, page_count) + 1):
                added.setdefault(page, []).append((label, heading, "started" if page == first else "carried"))
    return added


def add_block_sections(pages: list[dict], blocks: list[dict]) -> None:
    """Add the text blocks' sections to the rows ingest writes (``sections`` of each page, as
    structure.py found them): a label the page lacks is added; one the structure found only
    carried onto the page is marked started where a text block starts on it."""
    for number, found in block_sections(blocks, len(pages)).items():
        sections = pages[number - 1]["sections"]
        where = {label: index for index, (label, _, _) in enumerate(sections)}
        for label, heading, origin in found:
            if label not in where:
                where[label] = len(sections)
                sections.append((label, heading, origin))
            elif origin == "started" and sections[where[label]][2] == "carried":
                sections[where[label]] = (label, heading, origin)
