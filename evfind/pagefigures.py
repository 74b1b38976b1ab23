"""The figures a page prints, read as facts: what a hit lists where its page tags no fact that
matches the question (most pages tag none: an MD&A table, a note's schedule, a sentence of the
business section, every page of a filing without inline XBRL).

A page's text (one table row to a line, cells apart, as ingest writes it) is read line by line:

- a **table row** (``evidence.is_table_row``: a short label, then its figures) gives one printed
  figure per cell: the row label (the text before the first figure, footnote markers left out),
  the value as printed (its sign, parentheses, dollar sign, percent sign), the scale the page
  states for its tables ("(In millions)", where it states one only: ``printedfacts.declared_scale``)
  and the period of its column, read from the table's column headings as the evidence reads them
  (``evidence.column_headings``): the heading line naming the years gives the columns ("June 30,
  2025 2024"), a line of spans above it ("Three Months Ended Six Months Ended") each span its
  share of them; the n-th figure of the row is of the n-th column, a figure past the last column
  (a change, a percent of sales) of none;
- a **sentence** gives each figure with the words around it (back to the figure before it, on to
  the next, within the sentence, at most ``REACH`` words each side) as its label, and as its period
  the date or year the sentence names nearest before it (else after it); "4.8% and 4.9% in fiscal
  2025 and 2024, respectively" pairs them in order.

Not figures: years, days of dates, the numbers of items, notes, parts, sections, pages and
exhibits ("Item 3. Legal Proceedings"), footnote markers ("(1)", "Combined ratio (2)"), a page's
folio, a bare number of one or two digits outside a table's row.

A printed figure is listed as the tagged facts are (``pagefacts.listed``): its words (the row
label's, or those around it) scored against the question's line items by ``pagefacts.phrase_score``
(the filing's word rarity, the lexicon's expansions at their weight), listed at ``pagefacts.LEAST``
or more and at the page's best score (``pagefacts.NEAR``) read against the whole question (the same F1, of all its line items' own words), where the question names years only
those of its years (a figure of no known period kept), where it names a span ("three months",
"six months") those of that span if any; best first, at most ``pagefacts.SHOWN``. Nothing is
computed: a figure is listed as printed, with the line printing it. Pure: a page's text in,
``concepts.FactHit`` out (``tagged`` False, no concept, dimensions or tagging page).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import NamedTuple

from .concepts import FactHit
from .evidence import column_headings, is_table_row
from .pagefacts import LEAST, NEAR, SHOWN, Asked, phrase_score, stems_of
from .printedfacts import WORD, declared_scale

from .answer import PRINTED_FOR  # noqa: F401  (the source kinds whose hits list printed figures)
REACH = 10  # words read on each side of a sentence's figure
_SCALE_NAMES = {3: "in thousands", 6: "in millions", 9: "in billions"}

_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?")  # a month's name, whole or short ("decreased" is none)
# A figure as printed: "(1,234)", "$ 0.88", "-3.1 %", "$17.33 billion", "—" (a cell left empty).
_FIGURE = re.compile(
    r"(?<![\w.,/-])(?P<open>\(\s?)?(?P<minus>[-\u2212]\s?)?(?P<dollar>\$\s?)?(?P<open2>\(\s?)?"
    r"(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w]|[.,]\d|/\d)"
    r"(?P<close>\s?\))?(?P<percent>\s?%|\s+percent\b)?(?:\s+(?P<scale>thousand|million|billion|trillion)s?\b)?",
    re.I,
)
_EMPTY_CELL = re.compile(r"(?<!\S)[\u2014\u2013-](?!\S)")
# Numbers that are not figures: references (items, notes, pages...), dates' days, quarters.
_NOT_FIGURES = re.compile(
    r"\b(?:items?|notes?|parts?|sections?|pages?|exhibits?|schedules?|rules?|articles?|forms?|chapters?|"
    r"levels?|tiers?|phases?|nos?\.|numbers?|ASC|ASU|Topic)\s+\(?[\dIVX]+[A-Z]?(?:[-.]\d+)*\)?"
    r"|\b" + _MONTH + r"\s+\d{1,2}\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)\b|\b[1-4]Q\b|\bQ[1-4]\b|\b\d{1,2}[ -](?:weeks?|months?|days?|years?)\b",
    re.I,
)
_MARKER = re.compile(r"\(\s?\d{1,2}\s?\)|\(\s?[a-z]\s?\)|\*+")  # footnote markers: "(1)", "(a)", "*"
_YEAR = re.compile(r"(?:19|20)\d\d")
_DIGIT = re.compile(r"\d")
_TOKEN = re.compile(r"\S+")
_INNER = re.compile(r"(?<=[$(])\s+|\s+(?=[)%])")  # the spaces inside a figure as printed: "$ (0.12)" is "$(0.12)"
_SENTENCE = re.compile(r"(?<=[.;!?])\s+(?=[A-Z(\"\u201c])")
# A heading's column: an optional month and day (or "fiscal"), then a year.
_COLUMN = re.compile(r"(?:(?:" + _MONTH + r"\s+\d{1,2},?\s+)|"
                     r"(?:fiscal\s+|fy\s?))?(?<!\d)(?:19|20)\d\d(?!\d)", re.I)
_SPAN = re.compile(r"(?:(?:three|six|nine|twelve|thirteen|twenty-six|thirty-nine|fifty-two|\d{1,2})[ -]"
                   r"(?:months?|weeks?)|(?:fiscal\s+)?years?|quarters?|periods?)\s+(?:ended|ending)"
                   r"(?:\s+" + _MONTH + r"\s+\d{1,2}(?!\d),?)?"
                   r"|(?:first|second|third|fourth)\s+quarter|first\s+(?:six|nine)\s+months|first\s+half", re.I)
_DATED = re.compile(r"(?:(?:(?:\d{1,2}|three|six|nine|twelve)[ -](?:week|month)s?\s+(?:fiscal\s+)?(?:quarters?|periods?|years?)?\s*)?"
                    r"(?:as of|at|through|ended|ending)\s+)?(?:" + _MONTH + r"\s+(?:\d{1,2},?\s+)?)?"
                    r"(?:(?:fiscal|fy)\s?)?(?<!\d)(?:19|20)\d\d(?!\d)", re.I)
_LENGTH_WORDS = {3: re.compile(r"\b(?:three|3|thirteen|13)[ -](?:months?|weeks?)|\bquarters?\b", re.I),
                 6: re.compile(r"\b(?:six|6|twenty-six|26)[ -](?:months?|weeks?)", re.I),
                 9: re.compile(r"\b(?:nine|9|thirty-nine|39)[ -](?:months?|weeks?)", re.I),
                 12: re.compile(r"\b(?:twelve|12|fifty-two|52)[ -](?:months?|weeks?)|\byears?\s+ended", re.I)}


# Words of when, not of what: a sentence's period is read apart (its dates), not as its line item;
_PERIOD_WORDS = frozenset({"fiscal", "year", "years", "quarter", "quarters", "month", "months", "week", "weeks", "end",
                           "ended", "ending", "period", "periods", "first", "second", "third", "fourth",
                           # and the hedges of a figure's size ("approximately 77,800 employees"), not of what it is
                           "approximately", "approximate", "about", "nearly", "almost", "roughly", "over", "around",
                           "including"})


class Printed(NamedTuple):
    """A figure a page prints: its line (from 1), its label (a row's, or the words around it in
    a sentence), its value as printed, its period as the page names it (None where it names
    none), the scale the page states for it, and the words that name it (as stems)."""

    line: int
    label: str
    value: str
    period: str | None
    scale: str | None
    words: frozenset[str]


class _Found(NamedTuple):
    start: int
    end: int
    value: str
    bare: bool  # no $, %, decimals, thousands separator or scale word: a count, or a reference


def _figures(line: str, masked: str | None = None) -> list[_Found]:
    """The figures of a line, in order (the references, dates' days and markers left out);
    ``masked``: the line with those blanked already (``_blanked``)."""
    masked = masked or _NOT_FIGURES.sub(lambda m: " " * len(m.group(0)), line)
    found, marker = [], False
    for match in _FIGURE.finditer(masked):
        number = match["number"]
        bare = not (match["dollar"] or match["percent"] or match["scale"] or "," in number or "." in number)
        if bare and _YEAR.fullmatch(number):
            continue  # a year
        opened = match["open"] or match["open2"]
        if bare and opened and match["close"] and len(number) <= 2 and not found and not marker and re.search(
                r"(?:^|[^\W\d_]|\))\s*$", masked[:match.start()]):
            marker = True
            continue  # a footnote marker: "(1)" after a label, before the row's figures ("(9)" among them is one)
        end = match.end()
        value = line[match.start():end].strip()
        if " " in value or "\u00a0" in value or "\t" in value:
            value = _INNER.sub("", " ".join(value.split()))
        if opened and not match["close"]:
            value = value.lstrip("( ")
        if match["close"] and not opened:
            value = value.rstrip(") ")
        found.append(_Found(match.start(), end, value, bare))
    return found


def _label(text: str) -> str:
    return " ".join(_MARKER.sub(" ", text).replace("$", " ").split()).strip(" :,.-\u2014")


def _columns(lines: list[str], headings: tuple[int, ...]) -> list[str]:
    """The periods of a table's columns, in order, from its heading lines: the line naming the
    most years gives the columns, a line of spans ("Three Months Ended Six Months Ended") above
    it each span its share of them; a bare year takes the month and day of the column before it."""
    above = headings[0] - 1  # a line of spans the evidence does not read as headings ("(millions of dollars) Three Months Ended June 30,")
    if above >= 0 and not _SPAN.search(" ".join(lines[i] for i in headings)) and _SPAN.search(lines[above]) and not _figures(lines[above]):
        headings = (above, *headings)
    texts = [lines[i] for i in headings]
    dated = max(texts, key=lambda t: len(_COLUMN.findall(t)))
    columns = [" ".join(c.split()).rstrip(",") for c in (m.group(0) for m in _COLUMN.finditer(dated))]
    for n in range(1, len(columns)):
        if _YEAR.fullmatch(columns[n]) and not _YEAR.fullmatch(columns[n - 1]) and not columns[n - 1].lower().startswith(("fiscal", "fy")):
            columns[n] = columns[n - 1][:-4] + columns[n]
    spans = [" ".join(m.group(0).split()) for t in texts for m in _SPAN.finditer(t)]
    if spans and len(columns) % len(spans) == 0:
        share = len(columns) // len(spans)
        columns = [_joined(spans[n // share], c) for n, c in enumerate(columns)]
    return columns


def _joined(span: str, column: str) -> str:
    """A span and a column's date: "Three Months Ended June 30," and "2025" -> "Three Months Ended June 30, 2025"."""
    dated = re.search(r"\s+[A-Za-z]+\.?\s+\d{1,2},?$", span)
    if dated and not _YEAR.fullmatch(column):
        span = span[:dated.start()]  # the column names its own date
    span = span.rstrip(",")
    return f"{span}, {column}" if span[-1:].isdigit() else f"{span} {column}"


def _row(lines: list[str], i: int, scale: str | None, per_share: bool = False) -> list[Printed]:
    line = lines[i]
    found = _figures(line)
    if not found:
        return []
    label = _label(line[:found[0].start])
    if not WORD.search(label):
        return []
    cells = sorted([(f.start, f) for f in found] + [(m.start(), None) for m in _EMPTY_CELL.finditer(line, found[0].start)],
                   key=lambda c: c[0])
    headings = column_headings(lines, i)
    columns = _columns(lines, headings) if headings else []
    words = stems_of(label)
    printed = []
    for n, (_, figure) in enumerate(cells):
        if figure is None:
            continue
        period = columns[n] if n < len(columns) else None
        if columns and period is None:
            continue  # past the last column: a change, a share of a total, not a period's figure
        own_scale = None if re.search(r"%|percent|thousand|million|billion", figure.value, re.I) or (
            per_share and "." in figure.value) else scale  # a per-share amount of a table "in thousands, except per share"
        printed.append(Printed(i + 1, label, figure.value, period, own_scale, words))
    return printed


def _sentence_figures(number: int, line: str, wanted: re.Pattern | None = None) -> list[Printed]:
    printed = []
    for sentence in _SENTENCE.split(line):
        if not _DIGIT.search(sentence) or (wanted is not None and not wanted.search(sentence)):
            continue  # no figure, or no word of the question: nothing of it can be listed
        masked = _blanked(sentence)
        found = [f for f in _figures(sentence, masked) if not (f.bare and len(f.value) <= 2)]
        if not found:
            continue
        dates = list(_DATED.finditer(sentence))
        paired = _respectively(sentence, found, dates)
        run_of = {n: run for run in _runs([(f.start, f.end) for f in found], sentence) for n in run}
        for n, figure in enumerate(found):
            first, last = run_of[n][0], run_of[n][-1]  # "4.8% and 4.9%": the words around the run are each one's
            start = found[first - 1].end if first else 0
            end = found[last + 1].start if last + 1 < len(found) else len(sentence)
            before = _reach(sentence, start, found[first].start, REACH, masked, backward=True)
            after = _reach(sentence, found[last].end, end, REACH // 2, masked)
            words = _words([blank for _, blank in before + after])
            if not words:
                continue
            label = " ".join([w for w, _ in before] + [figure.value] + [w for w, _ in after]).strip(" ,;:")
            period = paired.get(n) or _nearest(dates, figure, sentence)
            printed.append(Printed(number, label, figure.value, period, None, words))
    return printed


@lru_cache(maxsize=1)
def _stop() -> frozenset[str]:
    from .question import stopwords

    return stopwords() | _PERIOD_WORDS


def _words(blanked: list[str]) -> frozenset[str]:
    """The content words of a sentence's stretch (its words with dates and references blanked) as
    stems: no dates, years or numbers, no stopwords."""
    stop = _stop()
    return stems_of(" ".join(w for w in blanked if WORD.search(w) and w.lower().strip(".,;:()\"'") not in stop))


def _blanked(sentence: str) -> str:
    """The sentence with its dates and references blanked (the same length)."""
    return _NOT_FIGURES.sub(lambda m: " " * len(m.group(0)), _DATED.sub(lambda m: " " * len(m.group(0)), sentence))


def _reach(sentence: str, start: int, end: int, most: int, masked: str, backward: bool = False) -> list[tuple[str, str]]:
    """The words of a stretch nearest a figure, ``most`` of them not counting dates and references,
    each as printed and as ``masked`` (``_blanked``) has it."""
    spans = list(_TOKEN.finditer(sentence, start, end))
    kept, counted = [], 0
    for match in reversed(spans) if backward else spans:
        if counted == most:
            break
        blank = masked[match.start():match.end()].strip()
        kept.append((match.group(0), blank))
        counted += bool(blank)
    return kept[::-1] if backward else kept


_COMPARED = re.compile(r"\b(?:compared (?:with|to)|from|versus|vs\.?)\s", re.I)


def _nearest(dates, figure: _Found, sentence: str) -> str | None:
    """The date nearest before a figure, else after it; after it where the figure is the other
    side of a comparison ("..., compared with $1.04 for the third quarter of fiscal 2023")."""
    before = [d for d in dates if d.end() <= figure.start]
    after = [d for d in dates if d.start() >= figure.end]
    compared = before and after and _COMPARED.search(sentence, before[-1].end(), figure.start)
    chosen = after[0] if compared or (after and not before) else (before[-1] if before else None)
    return " ".join(chosen.group(0).split()) if chosen else None


def _runs(spans: list[tuple[int, int]], sentence: str) -> list[list[int]]:
    """Consecutive stretches of a sentence joined by "and", "or" or commas only, as runs of indexes."""
    runs: list[list[int]] = []
    for n, (start, _) in enumerate(spans):
        between = sentence[spans[n - 1][1]:start].strip(" ,").lower() if n else None
        if runs and between in ("", "and", "or"):
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs


def _respectively(sentence: str, found: list[_Found], dates) -> dict[int, str]:
    """Figures of a run paired in order with the dates of a run as long: "X and Y in 2025 and
    2024, respectively" (the dates after them), "During 2024 and 2023, ... by $2,002 and $309"
    (the dates before them): figure n -> its date."""
    if len(found) < 2 or len(dates) < 2:
        return {}
    respectively = "respectively" in sentence.lower()
    date_runs = [[dates[n] for n in run] for run in _runs([(d.start(), d.end()) for d in dates], sentence) if len(run) >= 2]
    paired = {}
    for run in _runs([(f.start, f.end) for f in found], sentence):
        if len(run) < 2:
            continue
        first, last = found[run[0]].start, found[run[-1]].end
        same = [r for r in date_runs if len(r) == len(run)]
        after = [r for r in same if r[0].start() >= last]
        before = [r for r in same if r[-1].end() <= first]
        chosen = after[0] if respectively and after else (before[-1] if before and not respectively else None)
        if chosen:
            paired.update({n: " ".join(d.group(0).split()) for n, d in zip(run, chosen)})
    return paired


def read(text: str) -> tuple[Printed, ...]:
    """Every figure a page prints, as facts (see the module's docstring), in page order."""
    return _read(text, None)


@lru_cache(maxsize=64)
def _read(text: str, wanted: re.Pattern | None) -> tuple[Printed, ...]:
    """The figures of a page's lines, or only of those ``wanted`` finds a word in (see ``listed``)."""
    lines = text.split("\n")
    scale = _SCALE_NAMES.get(declared_scale(text) or 0)
    per_share = bool(re.search(r"\bexcept (?:for )?per[- ](?:share|unit)", text, re.I))
    printed: list[Printed] = []
    for i, line in enumerate(lines):
        if wanted is not None and not wanted.search(line):
            continue
        if not line.strip() or not re.search(r"\d", line) or re.fullmatch(r"\s*(?:page\s+)?[A-Z]?-?\d{1,3}\s*", line, re.I):
            continue
        if is_table_row(line) and len(line.split()) < 40:
            printed += _row(lines, i, scale, per_share)
        else:
            printed += _sentence_figures(i + 1, line, wanted)
    return tuple(printed)


@lru_cache(maxsize=256)
def _wanted(said: frozenset[str]) -> re.Pattern:
    """A line a figure of it can match has a word starting as one of the question's stems do (its
    first four letters: a Porter stem need not be a prefix, "employ" is "emploi"): only those
    lines are read (most of a page's are not)."""
    starts = sorted({w[:min(4, len(w) - 1)] if w.endswith("i") and len(w) > 2 else w[:4] for w in said if w})  # "pai": "pay"
    return re.compile(r"\b(?:" + "|".join(map(re.escape, starts)) + ")", re.I) if starts else re.compile(r"(?!)")


def _length_of(period: str) -> int | None:
    return next((months for months, pattern in _LENGTH_WORDS.items() if pattern.search(period)), None)


def _whole(words: frozenset[str], question: Asked, rarity: Mapping[str, float]) -> float:
    """The F1 of how much of a figure's words the question says and how much of all the
    question's own words (its line items' wording, not the expansions) they say, by rarity."""
    weight = lambda w: rarity.get(w, 1.0)  # noqa: E731
    own = [w for w, factor in question.said.items() if factor >= 1.0]
    whole, asked = sum(weight(w) for w in words), sum(weight(w) for w in own)
    if not whole or not asked:
        return 0.0
    said = sum(weight(w) * question.said[w] for w in words if w in question.said) / whole
    covered = sum(weight(w) for w in own if w in words) / asked
    return 2 * said * covered / (said + covered) if said and covered else 0.0


def listed(question: Asked, text: str, rarity: Mapping[str, float], least: float = LEAST, near: float = NEAR,
           most: int = SHOWN, page_id: int = 0, page_number: int = 0) -> tuple[FactHit, ...]:
    """The figures a page prints that match the question (``pagefacts.Asked``), best first, at
    most ``most``, each a FactHit of that page (``tagged`` False, ``line`` the line printing it)."""
    if not question.ideas:
        return ()
    scored = []
    for order, figure in enumerate(_read(text, _wanted(frozenset(question.said)))):
        if question.said.keys().isdisjoint(figure.words):
            continue
        score = phrase_score(figure.words, question, rarity)
        if score >= least:
            scored.append((figure, score, order, _whole(figure.words, question, rarity)))
    if not scored:
        return ()
    if question.years:  # a figure of another year is not the one asked
        scored = [s for s in scored if s[0].period is None or set(_YEAR.findall(s[0].period)) & question.years]
    if question.length in (3, 6, 9, 12):
        scored = [s for s in scored if s[0].period and _length_of(s[0].period) == question.length] or scored
    if not scored:
        return ()
    best = max(s[3] for s in scored)  # read against the whole question: a row's label says one line item or several
    kept = sorted((s for s in scored if s[3] >= near * best - 1e-9), key=lambda s: (-round(s[3], 6), s[2]))
    found, seen = [], set()
    for figure, score, *_ in kept:
        told = (figure.label, figure.value, figure.period)
        if told in seen:
            continue
        seen.add(told)
        found.append(FactHit(page_id, page_number, None, figure.period, figure.value, round(score, 6), (), figure.label,
                             None, None, figure.line, tagged=False, scale=figure.scale))
        if len(found) >= most:
            break
    return tuple(found)
