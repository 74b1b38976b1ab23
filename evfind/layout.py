"""The reading order of a page's printed lines: columns of text read one after the other, a
table's stacked column headings read as its cells, a cell that wraps kept whole.

``group_lines`` makes a page's words (placed by ``printed.py``) into lines, the words that
share a baseline. That is how the eye reads a single column of text and a table's rows, but
not three other things a page prints, and ``read`` puts them right:

1. **Columns of text.** Two columns of prose (an annual report's letter, a plan's list of
   criteria, boxes side by side in an earnings release) share baselines across their gutter, so
   one printed line holds half a sentence of each. A gutter is found where, over a run of lines,
   the words on its right start at one x (a column's left edge, as left-aligned and justified
   text sets it), no word crosses it, and the space before it is wider than the spaces between
   the words of its lines. Both sides must be text: lines of words, not a table's cells or
   figures, nor a list's marks. Where both sides are prose (wide, many words a line, most lines
   running to the column's edge), the left column is read top to bottom, then the right one.
   Otherwise the run is a table of text (a term beside its definition, a name beside a title):
   its rows end at blank space across both sides and where a left cell starts anew, and a row
   whose cells wrap so that reading by lines would interleave them is read cell by cell, left
   cell first; rows of one line a cell stay as printed. A table of figures is never split.
2. **Stacked column headings.** A table's headings are often several lines of words in narrow
   columns, set so that each stack ends on the same baseline: read by baselines, the stacks
   interleave ("Cost of Gross administrative" / "sales profit expenses"). Above a table's first
   row of figures the headings are read as cells, each stack top to bottom, the cells left to
   right, on one line of their own: "Cost of sales Gross profit Selling, general and
   administrative expenses". A heading that spans several columns ("Three Months Ended") stays
   a line above them, and a title printed beside the headings, over the row labels, goes on a
   line of its own before them, so the period header row is a line of its own above the rows.
3. **A cell that wraps.** Where a table's cell (not its first) wraps onto the next line while
   the cells right of it sit on its first line ("Consent of Independent Registered Public x" /
   "Accounting Firm"), the wrapped words join their cell: "... Public Accounting Firm x". A line
   is taken for a wrapped cell's only where it lies under that cell alone and its first word
   would not have fitted in the cell's column on the line above.

Pure: lines of words in, lines of words out. Every measure is relative to the height of the
page's text or to its word spaces, so the same rules read any type size.
"""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple


class Word(NamedTuple):
    bottom: float
    top: float
    left: float
    right: float
    start: int  # its index in pdfium's text
    text: str


Line = list[Word]  # left to right

SAME_LINE = 0.5  # two words on one line share at least this share of the smaller one's height

# Measures are in heights of the page's text (the median height of its lines' boxes) or in
# its word spaces (the median space between two words of a line).
CELL_GAP = 0.7  # a wider space between two words of a line separates two cells of a table
SAMPLED_LINES = 40  # the page's word space is read off this many of its lines

# 1. columns of text
ALIGNED = 0.06  # words whose left edges are this close start at one x (a column's edge)
EDGE_LINES = 4  # a column's edge is where at least this many lines start a word
CLEARANCE = 0.15  # the least space between a column's edge and a word left of it (heights) ...
GUTTER_LEAST = 1.3  # ... or word spaces, the more of the two, on every line of the run
GUTTER = 2.0  # on most lines, the gutter is this many of the line's own word spaces
APART = 1.5  # a line of one side only this far from the run (a folio, a note) is not part of it
SIDE_LINES = 3  # each side of a gutter has text on at least this many lines
NARROWEST = 6  # the lines of a column of text are mostly at least this wide (not a list's marks)
TEXT_WORDS = 0.8  # at least this share of a side's words are not figures
FIGURE_LINES = 0.1  # and no more than this share of its lines are figures alone
PROSE_WIDTH = 12  # a column of prose is at least this wide
PROSE_WORDS = 4  # with at least this many words a line on average
FILLED = 0.5  # and at least this share of its lines reach its right edge
NEAR_EDGE = 0.2  # within this share of its width
ROW_GAP = 0.35  # more blank space than this between two lines ends a row of a table
CENTRED = 0.5  # lines whose middles are this close are centred one under the other

# 2. stacked column headings
STACK_GAP = 0.6  # the most blank space between two lines of a stack of headings
SPAN_REACH = 0.3  # a heading reaching this far past halfway to the next column spans both

# 3. a cell that wraps
WRAPPING_WORDS = 3  # a cell of text that wraps has at least this many words on its first line

_FIGURE = re.compile(r"^[($€£¥]*[-–—+]?[$€£¥]?\d[\d,.]*%?\)?%?[,;]?$|^\(?[-–—]+\)?$")  # an amount, a nil
_YEAR = re.compile(r"^\(?(19|20)\d\d[,.)]?$")
_DAY = re.compile(r"^\d{1,2},?$")  # a day of the month, or a count of weeks or months
_MONTH = re.compile(r"^(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?$", re.IGNORECASE)
_NOTE = re.compile(r"^\(\d{1,2}\)$")  # a note's mark: (1)
_SPAN = re.compile(r"^(weeks?|months?|years?|days?|quarters?)\b", re.IGNORECASE)


def read(lines: list[Line]) -> list[Line]:
    """The page's lines in reading order (top of the page first, each line left to right)."""
    if len(lines) < 2:
        return lines
    height = _median(_height(line) for line in lines)
    if height <= 0:
        return lines
    space = _word_space(lines, height)
    known: dict[int, tuple[Line, list[Line]]] = {}  # each line's cells, worked out once

    def cells(block: list[Line]) -> list[list[Line]]:
        for line in block:
            if id(line) not in known:
                known[id(line)] = (line, _segments(line, height))
        return [known[id(line)][1] for line in block]

    out: list[Line] = []
    for block in _columns(lines, height, space):
        block = _stacked_headings(block, cells(block), height)
        out.extend(_wrapped_cells(block, cells(block), height, space))
    return out


def group_lines(words: list[Word]) -> list[Line]:
    """The words grouped into lines, top of the page first, each line left to right: a word
    joins the line above it when it shares most of its height with that line's first word."""
    order = sorted(words, key=lambda w: -(w.bottom + w.top))
    lines: list[Line] = []
    band_bottom = band_top = 0.0
    for word in order:
        bottom, top = word.bottom, word.top
        if lines:
            shared = min(top, band_top) - max(bottom, band_bottom)
            if shared >= SAME_LINE * min(top - bottom, band_top - band_bottom):
                lines[-1].append(word)
                continue
        lines.append([word])
        band_bottom, band_top = bottom, top
    for line in lines:
        line.sort(key=lambda w: w.left)
    return lines


# -- geometry ---------------------------------------------------------------------------------


def _median(values) -> float:
    """The middle value (the upper one of an even count): cheaper than statistics.median."""
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def _height(line: Line) -> float:
    return line[0].top - line[0].bottom


def _bottom(line: Line) -> float:
    return min(w.bottom for w in line)


def _top(line: Line) -> float:
    return max(w.top for w in line)


def _gap_above(upper: Line, lower: Line) -> float:
    """The blank space between two lines (negative where their boxes overlap)."""
    return _bottom(upper) - _top(lower)


def _word_space(lines: list[Line], height: float) -> float:
    """The usual space between two words of a line (read off at most SAMPLED_LINES lines)."""
    widest = CELL_GAP * height
    step = 1 + len(lines) // SAMPLED_LINES
    gaps = [gap for line in lines[::step] for a, b in zip(line, line[1:]) if 0 < (gap := b.left - a.right) < widest]
    return _median(gaps) if gaps else 0.25 * height


def _segments(line: Line, height: float) -> list[Line]:
    """A line's cells: its runs of words with no space wider than CELL_GAP between them."""
    cells: list[Line] = [[line[0]]]
    for before, word in zip(line, line[1:]):
        if word.left - before.right >= CELL_GAP * height:
            cells.append([word])
        else:
            cells[-1].append(word)
    return cells


def _is_figure(word: Word) -> bool:
    """An amount or a nil (a dash), not a year."""
    return bool(_FIGURE.match(word.text)) and not _YEAR.match(word.text)


def _has_figures(line: Line, height: float) -> bool:
    """Whether a line holds an amount: a figure that is not a year, a day beside its month or a
    count of weeks or months ("12 Weeks Ended", "June 30"), a note's mark after a word
    ("Effect (1)"), or a dash within words (the hyphen of "share - diluted", not a nil)."""
    gap = CELL_GAP * height
    for k, word in enumerate(line):
        if not _is_figure(word):
            continue
        after_word = k and word.left - line[k - 1].right < gap and not _is_figure(line[k - 1])
        if _DAY.match(word.text) and (
            (k and _MONTH.match(line[k - 1].text)) or (k + 1 < len(line) and _SPAN.match(line[k + 1].text))
        ):
            continue
        if _NOTE.match(word.text) and after_word:
            continue
        if not any(ch.isdigit() for ch in word.text) and (
            after_word or (k + 1 < len(line) and line[k + 1].left - word.right < gap)
        ):
            continue
        return True
    return False


# -- 1. columns of text -------------------------------------------------------------------------


def _columns(lines: list[Line], height: float, space: float) -> list[list[Line]]:
    """The page cut into blocks read one after the other: runs of lines split at a gutter into
    their columns (or a text table's rows into cells), and the lines between them as they are."""
    found = _gutter(lines, height, space)
    if found is None:
        return [lines]
    first, last, edge, by_rows = found
    blocks = _columns(lines[:first], height, space) if first else []
    run = lines[first : last + 1]
    left, right = _sides(run, edge, height)
    if by_rows:  # each row cell by cell, where its lines interleave its cells
        for a, b, framed in _rows(run, left, edge, height, space):
            cells = _interleaved(left[a:b], right[a:b], framed)
            blocks.append([line for line in left[a:b] if line] + [line for line in right[a:b] if line] if cells else run[a:b])
    else:
        for side in (left, right):
            words = [w for line in side for w in line]
            blocks.extend(_columns(group_lines(words), height, space) if words else [])
    if last + 1 < len(lines):
        blocks.extend(_columns(lines[last + 1 :], height, space))
    return blocks


def _sides(run: list[Line], edge: float, height: float) -> tuple[list[Line], list[Line]]:
    """Each line's words left of a column's edge, and those at it or right of it."""
    at = edge - ALIGNED * height
    return [[w for w in line if w.left < at] for line in run], [[w for w in line if w.left >= at] for line in run]


def _rows(run: list[Line], left: list[Line], edge: float, height: float, space: float) -> list[tuple[int, int, bool]]:
    """The run's rows (first index, index after the last, and whether blank space frames the
    row): a row ends at blank space wider than ROW_GAP between lines and, given the left
    cells, where a left cell starts below lines of the right cell alone, or starts anew below
    the left cell above (``_new_cell``)."""
    gaps = {0, len(run)} | {i for i in range(1, len(run)) if _gap_above(run[i - 1], run[i]) > ROW_GAP * height}
    framed = len(gaps) > 2
    widest = max((line[-1].right for line in left if line), default=edge)
    limit = min(edge - _clearance(height, space), widest + ALIGNED * height)  # the left cells' right edge
    rows, start, cell = [], 0, None  # cell: the last line of the row's left cell so far
    for i in range(len(run) + 1):
        new = i in gaps
        if not new and left[i] and cell is not None:
            new = i - cell > 1 or _new_cell(left[cell], left[i], limit, height, space)
        if new and i:
            rows.append((start, i, framed and start in gaps and i in gaps))
            start, cell = i, None
        if i < len(run) and left[i]:
            cell = i
    return rows


def _new_cell(above: Line, line: Line, limit: float, height: float, space: float) -> bool:
    """Whether ``line`` starts a new left cell rather than continuing the cell whose last line
    is ``above``: it does unless it starts where ``above`` starts and its first word would not
    have fitted on it (a wrapped line), or it is centred under it (a centred cell's next line)."""
    word, tolerance = line[0], ALIGNED * height
    if abs(word.left - above[0].left) <= tolerance:
        return above[-1].right + space + word.right - word.left <= limit
    centre, centre_above = (line[0].left + line[-1].right) / 2, (above[0].left + above[-1].right) / 2
    return abs(centre - centre_above) > CENTRED * height


def _interleaved(left: list[Line], right: list[Line], framed: bool = False) -> bool:
    """Whether reading a row by lines would put words of its right cell before words of its
    left one (a line of the left cell lies below a line of the right one), where the row is
    one for certain: framed by blank space, or with a cell that wraps (a line with words on one
    side only). Rows of one line a cell are read by lines, as printed."""
    lowest_left = max((i for i, line in enumerate(left) if line), default=-1)
    highest_right = min((i for i, line in enumerate(right) if line), default=len(right))
    return lowest_left > highest_right and (framed or any(bool(a) != bool(b) for a, b in zip(left, right)))


def _gutter(lines: list[Line], height: float, space: float) -> tuple[int, int, float, bool] | None:
    """The first and last line of the longest run split by a column's edge, the edge's x, and
    whether the run is read row by row (a table of text); None where the page has none."""
    clear = _clearance(height, space)
    starts = sorted(w.left for line in lines for before, w in zip(line, line[1:]) if w.left - before.right >= clear)
    tolerance = ALIGNED * height
    candidates, i = [], 0
    while i < len(starts):  # x where at least EDGE_LINES words start, after a space wider than a word's
        j = i
        while j + 1 < len(starts) and starts[j + 1] - starts[i] <= tolerance:
            j += 1
        if j - i + 1 >= EDGE_LINES:
            candidates.append(starts[(i + j) // 2])
        i = j + 1
    if not candidates:
        return None
    lefts = [[w.left for w in line] for line in lines]
    best = None
    for edge in candidates:
        for first, last in _runs(lines, lefts, edge, height, space):
            if best is not None and last - first <= best[1] - best[0]:
                continue
            verdict = _split(lines[first : last + 1], edge, height, space)
            if verdict is not None:
                best = (first, last, edge, verdict)
    return best


def _clearance(height: float, space: float) -> float:
    """The least space between a column's edge and the end of a word on its left."""
    return max(CLEARANCE * height, GUTTER_LEAST * space)


def _runs(lines: list[Line], lefts: list[list[float]], edge: float, height: float, space: float) -> list[tuple[int, int]]:
    """The runs of lines (first, last index) that no word crosses at ``edge`` and where at
    least EDGE_LINES words start at it; a line at either end with words on one side only and
    far from the rest (a folio, a footnote) is left out. ``lefts``: each line's words' left
    edges."""
    tolerance, clear = ALIGNED * height, _clearance(height, space)
    runs, first, aligned = [], None, 0
    for i in range(len(lines) + 1):
        ok = False
        if i < len(lines):
            line, at = lines[i], lefts[i]
            k = bisect.bisect_left(at, edge - tolerance)  # line[k - 1]: the last word starting left of the edge
            ok = k == 0 or line[k - 1].right <= edge - clear
        if ok:
            if first is None:
                first, aligned = i, 0
            aligned += k < len(at) and at[k] <= edge + tolerance
        elif first is not None:
            last = i - 1
            if aligned >= EDGE_LINES:
                while last > first and _one_sided(lines[last], edge) and _gap_above(lines[last - 1], lines[last]) > APART * height:
                    last -= 1
                while first < last and _one_sided(lines[first], edge) and _gap_above(lines[first], lines[first + 1]) > APART * height:
                    first += 1
                runs.append((first, last))
            first = None
    return runs


def _one_sided(line: Line, edge: float) -> bool:
    return line[-1].left < edge or line[0].left >= edge


def _line_space(line: Line, space: float) -> float:
    """The usual space between the words of a line (its own, as justified text widens it), at
    least the page's, with the widest left out (a gutter's)."""
    gaps = sorted(b.left - a.right for a, b in zip(line, line[1:]))[:-1]
    return max(space, _median(gaps)) if gaps else space


def _split(run: list[Line], edge: float, height: float, space: float) -> bool | None:
    """Whether a run is read as a table of text, row by row (True), as columns (False), or not
    split (None): both sides must be text, with a gutter wider than a word space. Blank space
    across both sides between rows of cells that wrap makes a table of text; two columns of
    prose are read one after the other; any other text beside text is read row by row.
    (Two columns of prose whose paragraphs happen to end at one height twice are read as a
    table, paragraph by paragraph: each whole, in the order left, right, left, right.)"""
    left, right = _sides(run, edge, height)
    both = [(a, b) for a, b in zip(left, right) if a and b]
    if len(both) < SIDE_LINES:
        return None
    sides = [[line for line in left if line], [line for line in right if line]]
    gap = CELL_GAP * height
    for side in sides:
        if len(side) < SIDE_LINES:
            return None
        if any(b.left - a.right >= gap for line in side for a, b in zip(line, line[1:])):
            return None  # a side with cells of its own is a table's, not a column of text
        if _median([line[-1].right - line[0].left for line in side]) < NARROWEST * height:
            return None  # bullets, numbers: a list's marks, not a column of text
    for side in sides:
        words = [w for line in side for w in line]
        if sum(not _is_figure(w) for w in words) < TEXT_WORDS * len(words):
            return None
        if sum(all(_is_figure(w) for w in line) for line in side) > FIGURE_LINES * len(side):
            return None  # a column of figures beside their labels: a table's
    ratios = [(b[0].left - a[-1].right) / _line_space(a + b, space) for a, b in both]
    if _median(ratios) < GUTTER or min(ratios) < GUTTER_LEAST:
        return None  # no wider than the spaces of its lines: justified text's spaces lining up
    gapped = [(a, b, framed) for a, b, framed in _rows(run, [[]] * len(run), edge, height, space) if any(left[a:b]) and any(right[a:b])]
    if len(gapped) > 1 and any(_interleaved(left[a:b], right[a:b], framed) for a, b, framed in gapped):
        return True  # rows with cells on both sides, blank space between them: a table
    if all(_prose(side, height) for side in sides):
        return False
    rows = _rows(run, left, edge, height, space)
    return True if any(_interleaved(left[a:b], right[a:b], framed) for a, b, framed in rows) else None


def _prose(side: list[Line], height: float) -> bool:
    """A column of prose: wide, many words a line, most lines running to near its right edge."""
    lefts = min(line[0].left for line in side)
    rights = max(line[-1].right for line in side)
    width = rights - lefts
    if width < PROSE_WIDTH * height or sum(len(line) for line in side) < PROSE_WORDS * len(side):
        return False
    filled = sum(line[-1].right >= rights - NEAR_EDGE * width for line in side)
    return filled >= FILLED * len(side)


# -- 2. stacked column headings -----------------------------------------------------------------


def _stacked_headings(lines: list[Line], cells: list[list[Line]], height: float) -> list[Line]:
    """The lines (``cells``: each one's cells), with each table's headings above its first row
    of figures read as cells."""
    rows = [len(c) > 1 and _has_figures([w for cell in c[1:] for w in cell], height) for c in cells]
    out: list[Line] = []
    for i, line in enumerate(lines):
        if rows[i] and i and not rows[i - 1]:
            out = _restack(out, line, height)
        out.append(line)
    return out


def _restack(above: list[Line], row: Line, height: float) -> list[Line]:
    """``above`` (the lines before a table's first row of figures, ``row``) with the table's
    headings at its end read as cells: each stack of words top to bottom, one line of cells;
    a heading over several columns, and any title over the row labels, on lines of their own."""
    cells = _segments(row, height)
    labels_end = cells[1][0].left - CELL_GAP * height  # the row labels' column ends before here
    bottom = above[-1]
    if _has_figures(bottom, height) or bottom[-1].right <= labels_end or _gap_above(bottom, row) > 2 * height:
        return above
    titles: list[Line] = []
    columns: list[list[Word]] = []  # each column's words, top to bottom
    extents: list[tuple[float, float]] = []
    for cell in _segments(bottom, height):
        if cell[-1].right <= labels_end:
            titles.append(cell)
        else:
            columns.append(list(cell))
            extents.append((cell[0].left, cell[-1].right))
    if len(columns) < 2:  # one heading (a spanning one, or cells too close to tell apart): a title apart
        return above[:-1] + [[w for cell in titles for w in cell], columns[0]] if titles and columns else above
    # each column reaches halfway to its neighbours; a heading reaching further spans columns
    bounds = [
        ((extents[k - 1][1] + extents[k][0]) / 2 if k else labels_end,
         (extents[k][1] + extents[k + 1][0]) / 2 if k + 1 < len(extents) else float("inf"))
        for k in range(len(extents))
    ]
    reach = SPAN_REACH * height
    used = 1
    for upper in reversed(above[:-1]):
        below = above[len(above) - used]
        if _has_figures(upper, height) or _gap_above(upper, below) > STACK_GAP * height:
            break
        placed, spans, line_titles = [], [], []
        for cell in _segments(upper, height):
            if cell[-1].right <= labels_end:
                line_titles.append(cell)
                continue
            centre = (cell[0].left + cell[-1].right) / 2
            k = next((k for k, (lo, hi) in enumerate(bounds) if lo <= centre < hi), None)
            if k is None or cell[0].left < bounds[k][0] - reach or cell[-1].right > bounds[k][1] + reach:
                spans.append(cell)
            else:
                placed.append((k, cell))
        if spans or not placed:  # a heading over several columns stays a line above the stacks
            break
        for k, cell in placed:
            columns[k][:0] = cell
        titles[:0] = line_titles
        used += 1
    if used == 1 and not titles:
        return above
    heading = [w for column in columns for w in column]
    return above[: len(above) - used] + [[w for cell in titles for w in cell]] * bool(titles) + [heading]


# -- 3. a cell that wraps ----------------------------------------------------------------------


def _wrapped_cells(lines: list[Line], cells: list[list[Line]], height: float, space: float) -> list[Line]:
    """The lines (``cells``: each one's cells), with a cell's wrapped words joined to it where
    cells right of it sit on its first line."""
    out: list[Line] = []
    out_cells: list[list[Line]] = []
    for i, line in enumerate(lines):
        k = _continued(out_cells[-1], out[-1], line, cells, i, height, space) if out else None
        if k is None:
            out.append(line)
            out_cells.append(cells[i])
            continue
        above = out_cells[-1]
        joined = above[:k] + [above[k] + line] + above[k + 1 :]
        out[-1] = [w for cell in joined for w in cell]
        out_cells[-1] = joined
    return out


def _continued(above_cells: list[Line], above: Line, line: Line, cells: list[list[Line]], i: int, height: float, space: float) -> int | None:
    """The cell of ``above`` (not its first nor its last) of which ``line`` is the wrapped rest:
    it lies under that cell of text alone, close below it, and its first word would not have
    fitted in the cell's column (as wide as the widest cell starting where it starts, nearby)."""
    if len(above_cells) < 3 or len(cells[i]) > 1 or _gap_above(above, line) > ROW_GAP * height or _has_figures(line, height):
        return None
    left, right = line[0].left, line[-1].right
    for k in range(1, len(above_cells) - 1):
        cell, after = above_cells[k], above_cells[k + 1][0].left
        if abs(left - cell[0].left) <= 0.5 * height and right <= after - CELL_GAP * height:
            break
    else:
        return None
    if len(cell) < WRAPPING_WORDS or cell[-1].right - cell[0].left < NARROWEST * height:
        return None  # a word or two, a figure, a year: not a cell of text that wraps
    start = cell[0].left
    widest = max(
        (c[-1].right for row in cells[max(0, i - 12) : i + 12] for c in row if abs(c[0].left - start) <= ALIGNED * height),
        default=cell[-1].right,
    )
    first = line[0]
    return k if cell[-1].right + space + (first.right - first.left) > widest + ALIGNED * height else None
