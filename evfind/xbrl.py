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


def read_resources(header) -> tuple[dict[str, tuple[Context, str | None]], dict[str, str]]:
    """{context id: (Context, its dimensions as JSON)} and {unit id: measure} of an
    ``ix:header`` element (its ``ix:resources``). A unit is its measure ("iso4217:USD"), a
    ratio as numerator/denominator ("iso4217:USD/xbrli:shares")."""
    contexts: dict[str, tuple[Context, str | None]] = {}
    units: dict[str, str] = {}
    for resources in header:
        if not isinstance(resources.tag, str) or local(resources.tag) != "resources":
            continue
        for element in resources:
            tag = element.tag
            if not isinstance(tag, str) or not element.get("id"):
                continue
            name = local(tag)
            if name == "context":
                context = _context(element)
                contexts[element.get("id")] = (context, context.dimensions_json)
            elif name == "unit":
                units[element.get("id")] = _unit(element)
    return contexts, units


def _text(element) -> str:
    return "".join(element.itertext()).strip()


def _context(element) -> Context:
    start = end = instant = None
    dimensions: list[tuple[str, str]] = []
    for child in element.iter():
        if not isinstance(child.tag, str):
            continue
        name = local(child.tag)
        if name == "startdate":
            start = _text(child)
        elif name == "enddate":
            end = _text(child)
        elif name == "instant":
            instant = _text(child)
        elif name in ("explicitmember", "typedmember") and child.get("dimension"):
            dimensions.append((child.get("dimension"), _text(child)))
    return Context(start, end, instant, tuple(dimensions))


def _unit(element) -> str:
    numerator, denominator, plain = [], [], []
    for child in element.iter():
        if not isinstance(child.tag, str) or local(child.tag) != "measure":
            continue
        parent = local(child.getparent().tag) if child.getparent() is not None else ""
        {"unitnumerator": numerator, "unitdenominator": denominator}.get(parent, plain).append(_text(child))
    if numerator or denominator:
        return "*".join(numerator) + "/" + "*".join(denominator)
    return "*".join(plain)


# --------------------------------------------------------------------------------------------
# Facts


def fact(element, page: int, contexts: dict[str, tuple[Context, str | None]], units: dict[str, str], value: str,
         numeric: bool, row_label: str | None = None) -> Fact:
    """The Fact of an ``ix:nonFraction`` (``numeric``) or ``ix:nonNumeric`` element shown on
    ``page`` as ``value`` (its displayed text)."""
    get = element.get
    context_id = get("contextref")
    context, dimensions = contexts.get(context_id, _NO_CONTEXT) if context_id else _NO_CONTEXT
    scale = get("scale")
    try:
        scale_value = int(scale) if scale is not None else None
    except ValueError:
        scale_value = None
    if not numeric and len(value) > MAX_TEXT_VALUE:
        value = value[: MAX_TEXT_VALUE - 1].rstrip() + "\u2026"
    unit = get("unitref")
    return Fact(
        page=page,
        concept=get("name") or "",
        kind="numeric" if numeric else "text",
        context=context_id,
        period_start=context.start if context else None,
        period_end=context.end if context else None,
        instant=context.instant if context else None,
        dimensions=dimensions,
        unit=units.get(unit, unit) if unit else None,
        scale=scale_value,
        sign=get("sign"),
        decimals=get("decimals"),
        format=get("format"),
        value=value,
        row_label=row_label,
        fact_id=get("id"),
    )


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
    import re

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
