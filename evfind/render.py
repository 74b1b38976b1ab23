"""Render answers for people (table, Markdown) and programs (JSON): pure functions of values.

Labels follow the answer's language (``Answer.lang``: en, or zh for a Chinese question, whose
labels are in evfind/zh.py with the rest of evfind's Chinese); JSON keys are always English. The
JSON objects themselves are built by ``Answer.to_dict`` and ``Plan.to_dict`` (evfind/answer.py),
the one builder the CLI, batch mode and the Datasette plugin share.
"""

from .answer import Answer, Hit, Plan

SHORT_SHA = 12  # hex digits of a SHA-256 shown to people (table, Markdown, Datasette's lists)
EXPLAIN_LIST = 20  # pages of each ranked list the text of --explain shows (its JSON shows all)
ELLIPSIS = "…"  # where a shortened evidence line was cut
# The matched terms on a terminal: reverse video on and off (ECMA-48 SGR 7 and 27), which
# leaves the terminal's own colours and weight alone and stands out in a page of text.
ANSI = ("\x1b[7m", "\x1b[27m")
MARKDOWN = ("**", "**")
WORD_REACH = 12  # columns left over, past which a shortened line is filled up to mid-word
MIN_EVIDENCE_COLUMNS = 20  # an evidence line keeps this much however narrow the terminal

# The labels of an English answer's table and Markdown (a Chinese answer's: zh.LABELS).
LABELS = {
    "question": "Question: ",
    "document": "Document: ",
    "documents": "Documents: ",
    "pages": "({count} pages)",
    "one_page": "(1 page)",
    "header": ("Rank", "Page", "Conf", "Document", "SHA-256", "What matched"),
    "md_header": ("Rank", "Physical page", "Confidence", "Document", "What matched", "Evidence"),
    "printed": "{page} (printed {label})",
    "evidence": "line {line}: ",  # before a hit's best evidence line (its line on the page)
    "columns": "columns, line {line}: ",  # before the column headings of its table (one header line)
    "columns_lines": "columns, lines {first}-{last}: ",  # (several, in a row)
    "fact": "fact: ",  # before the best inline-XBRL fact of the page that matches the question
    "more_facts": " (+{count} more)",
    "tagged_on": ", tagged on page {page}",  # after a fact the hit's page prints and another page tags
    "untagged": " (printed, not tagged)",  # after a figure the hit's page prints and no page tags
}


def labels(lang: str) -> dict:
    """The labels in ``lang``: a Chinese answer's from zh.py, which only it imports."""
    if lang == "zh":
        from .zh import LABELS as chinese

        return chinese
    return LABELS


def page_cell(hit: Hit, lang: str = "en") -> str:
    """The physical page, with the printed folio beside it where the PDF has page labels."""
    if hit.page_label and hit.page_label != str(hit.page_number):
        return labels(lang)["printed"].format(page=hit.page_number, label=hit.page_label)
    return str(hit.page_number)


def confidence_cell(hit: Hit) -> str:
    """The hit's confidence as a short figure (two decimals: "0.87"), "-" where the rules ranked."""
    return "-" if hit.confidence is None else f"{hit.confidence:.2f}"


def width(text: str) -> int:
    """Columns the text takes in a terminal: wide (CJK) characters take two."""
    if text.isascii() or text.replace(ELLIPSIS, "").isascii():  # no ASCII character is wide, nor the
        return len(text)  # ellipsis a shortened line ends in: unicodedata (a shared library) only for the others
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def is_control(ch: str) -> bool:
    """Is the character a control character (Unicode category Cc, a set fixed by the standard:
    U+0000-U+001F and U+007F-U+009F)? A terminal would act on it."""
    return "\x00" <= ch <= "\x1f" or "\x7f" <= ch <= "\x9f"


def _ljust(text: str, size: int) -> str:
    return text + " " * (size - width(text))


def _rjust(text: str, size: int) -> str:
    return " " * (size - width(text)) + text


# ---------------------------------------------------------------------------------------------
# Evidence lines and highlighted text: a line as cells (character, marked), tidied, shortened
# around its marks, then written with the marks of a medium (ANSI, Markdown, HTML).

Cells = list[tuple[str, int]]  # (character, 0 unmarked | 1 marked | 2 the leading mark)


def cells(text: str, marks=(), lead: bool = False) -> Cells:
    """The text's characters, each with whether a mark ((start, end) offsets) covers it: 1, or
    2 for the first mark when ``lead`` (the one a shortened line keeps in view)."""
    marked = [0] * len(text)
    for index, (start, end) in enumerate(marks):
        start, end = max(start, 0), min(max(end, 0), len(text))
        marked[start:end] = [2 if lead and index == 0 else 1] * max(end - start, 0)
    return list(zip(text, marked))


def tidy(line: Cells) -> Cells:
    """One line for display: control characters read as spaces (a terminal would act on
    them), every run of spaces as one, none at either end."""
    out: Cells = []
    for ch, marked in line:
        if ch.isspace() or is_control(ch):
            if out and out[-1][0] != " ":
                out.append((" ", marked))
            continue
        out.append((ch, marked))
    while out and out[-1][0] == " ":
        out.pop()
    return out


def shorten(line: Cells, columns: int | None) -> Cells:
    """The line in at most ``columns`` terminal columns (None: whole), cut with an ellipsis at
    either end and kept around its marks: the stretch holding the most marks that fits (the
    earliest of equals), a few words before it, and as much after it as fits, so a line item
    keeps its figures. Cuts fall between words where a word boundary is near, and always
    between characters: a wide character is never halved."""
    from itertools import accumulate

    n = len(line)
    before = [0, *accumulate(width(ch) for ch, _ in line)]  # columns before each cell
    if columns is None or before[n] <= columns:
        return line
    columns = max(columns, 1 + 2 * width(ELLIPSIS))

    def cost(a: int, b: int) -> int:
        return before[b] - before[a] + width(ELLIPSIS) * ((a > 0) + (b < n))

    def clean(i: int) -> bool:  # a cut here splits no word
        return i in (0, n) or line[i - 1][0] == " " or line[i][0] == " " or width(line[i - 1][0] + line[i][0]) > 2

    def grow(a: int, b: int, left: bool, limit: int) -> tuple[int, int]:
        """Widen to the left or right, a word at a time while one fits in ``limit`` columns,
        then a character at a time when what is left would hold a long word."""
        step = -1 if left else 1
        for whole in (True, False):
            while True:
                i = a if left else b
                j = i + step
                while whole and 0 < j < n and not clean(j):
                    j += step
                if not 0 <= j <= n or j == i:
                    break
                if cost(*((j, b) if left else (a, j))) > limit:
                    break
                a, b = (j, b) if left else (a, j)
            if limit - cost(a, b) < WORD_REACH:
                break
        return a, b

    marked = [run for run in _runs(line) if run[2]]
    lead = next((i for i, run in enumerate(marked) if run[2] == 2), None)
    a = b = marked[lead or 0][0] if marked else 0
    most = 0
    for i, run in enumerate(marked):
        j = i
        while j + 1 < len(marked) and cost(run[0], marked[j + 1][1]) <= columns:
            j += 1
        if lead is not None and not i <= lead <= j:
            continue  # the stretch must show the leading mark
        if cost(run[0], marked[j][1]) <= columns and j - i + 1 > most:
            a, b, most = run[0], marked[j][1], j - i + 1
    a, b = grow(a, b, True, cost(a, b) + (columns - cost(a, b)) // 4)  # a few words before
    a, b = grow(a, b, False, columns)  # as much after as fits
    a, b = grow(a, b, True, columns)  # the line ended: the rest before
    while 0 < a < b and line[a][0] == " ":
        a += 1
    while a < b < n and line[b - 1][0] == " ":
        b -= 1
    return ([(ELLIPSIS, 0)] if a > 0 else []) + line[a:b] + ([(ELLIPSIS, 0)] if b < n else [])


def _runs(line: Cells) -> list[tuple[int, int, int]]:
    """(start, end, marked) of each run of equally marked cells."""
    runs: list[tuple[int, int, int]] = []
    for i, (_, marked) in enumerate(line):
        if runs and runs[-1][2] == marked:
            runs[-1] = (runs[-1][0], i + 1, marked)
        else:
            runs.append((i, i + 1, marked))
    return runs


def highlight(line: Cells, marks: tuple[str, str] | None) -> str:
    """The cells as text, each marked run between ``marks`` (on, off); plain for None."""
    out = []
    for start, end, marked in _runs([(ch, bool(marked)) for ch, marked in line]):
        text = "".join(ch for ch, _ in line[start:end])
        out.append(f"{marks[0]}{text}{marks[1]}" if marked and marks else text)
    return "".join(out)


def highlighted_text(text: str, marks, on_off: tuple[str, str] = ANSI) -> str:
    """A page's text with its marks set off, line by line (a mark that runs over a line break
    is closed at the end of the line and opened again on the next): for `evfind show
    --highlight` on a terminal, where control characters other than line breaks and tabs are
    shown as spaces so that none acts on the terminal."""
    lines = []
    for line in _split_lines(cells(text, marks)):
        shown = [(" " if ch != "\t" and is_control(ch) else ch, marked) for ch, marked in line]
        lines.append(highlight(shown, on_off))
    return "\n".join(lines)


def _split_lines(line: Cells) -> list[Cells]:
    out: list[Cells] = [[]]
    for ch, marked in line:
        if ch == "\n":
            out.append([])
        else:
            out[-1].append((ch, marked))
    return out


def evidence_line(hit: Hit, columns: int | None = None, marks: tuple[str, str] | None = None) -> str | None:
    """The hit's best evidence line for people: tidied, shortened to ``columns`` terminal
    columns around its matched terms, which ``marks`` (ANSI, MARKDOWN, or None) set off.
    None when the hit has no evidence line."""
    if not hit.evidence:
        return None
    _, text = hit.evidence[0]
    spans = hit.evidence_marks[0] if hit.evidence_marks else ()
    return highlight(shorten(tidy(cells(text, spans, lead=True)), columns), marks)


def columns_line(hit: Hit, lang: str = "en") -> tuple[str, str] | None:
    """The column headings of the hit's best evidence line, for people: (the label naming their
    lines, their text, " | "-joined and tidied); None when its table has none on the page."""
    headings = hit.evidence_columns[0] if hit.evidence_columns else ()
    if not headings:
        return None
    said = labels(lang)
    first, last = headings[0][0], headings[-1][0]
    label = said["columns"].format(line=first) if first == last else said["columns_lines"].format(first=first, last=last)
    text = " | ".join(highlight(tidy(cells(heading)), None) for _, heading in headings)
    return label, text


def fact_line(hit: Hit, lang: str = "en") -> str | None:
    """The best inline-XBRL fact of the hit's page that matches the question, for people:
    "fact: VALUE, CONCEPT, PERIOD", where another page tags it (the hit's page prints it
    untagged) ", tagged on page N"; for a figure it prints and no page tags, "fact: VALUE, ROW
    LABEL, PERIOD (printed, not tagged)" (the value first: a shortened line keeps it), and how many
    more the JSON lists; None when it lists none."""
    if not hit.facts:
        return None
    said = labels(lang)
    best = hit.facts[0]
    if not best.tagged:  # a figure the page prints: its row label (or the words around it) for a concept
        scale = f" ({best.scale})" if best.scale else ""
        text = f"{said['fact']}{best.value}{scale}, {best.row_label}, {best.period or '-'}{said['untagged']}"
    else:
        text = f"{said['fact']}{best.value}, {best.concept}, {best.period}"
    if best.tagged and best.page_number != hit.page_number:
        text += said["tagged_on"].format(page=best.page_number)
    if len(hit.facts) > 1:
        text += said["more_facts"].format(count=len(hit.facts) - 1)
    return text


def to_json(answer: Answer | Plan) -> str:
    import json  # only the json format pays for it

    return json.dumps(answer.to_dict(), ensure_ascii=False, indent=2)


def _documents(answer: Answer) -> list[str]:
    """The header's document line: the revision read, or one line for each of several."""
    said = labels(answer.lang)
    documents = answer.documents or (answer.document,)
    label = said["documents"] if answer.documents else said["document"]
    ids = max(width(doc.document_id) for doc in documents)
    lines = []
    for doc in documents:
        pages = said["one_page" if doc.page_count == 1 else "pages"].format(count=doc.page_count)
        lead = label if not lines else " " * width(label)
        name = doc.document_id if len(documents) == 1 else _ljust(doc.document_id, ids)
        lines.append(f"{lead}{name}  sha256 {doc.document_sha256[:SHORT_SHA]}  {pages}")
    return lines


def _messages(answer: Answer) -> tuple[str | None, str | None]:
    """What the table and Markdown print above the results (what of the question was not read)
    and below them (the outcome); the JSON ``message`` holds both, outcome first."""
    unread = answer.unread_note
    if not unread or answer.error is not None:
        return None, answer.message
    return unread, answer.outcome_note


def to_table(answer: Answer, columns: int | None = None, colour: bool = False) -> str:
    """The answer for a terminal: a row a hit, and under it, from the page column, its best
    evidence line shortened to ``columns`` (None: whole), the matched terms in reverse video
    when ``colour``."""
    said = labels(answer.lang)
    lines = [f"{said['question']}{answer.question.strip()}", *_documents(answer)]
    above, below = _messages(answer)
    if above:
        lines += ["", above]
    if answer.results:
        header = said["header"]
        rows = [
            (str(h.rank), page_cell(h, answer.lang), confidence_cell(h), h.document_id, h.document_sha256[:SHORT_SHA],
             h.note)
            for h in answer.results
        ]
        widths = [max(width(r[i]) for r in [header, *rows]) for i in range(5)]
        lines.append("")
        indent = " " * (widths[0] + 2)  # evidence lines start under the page
        lines.append(_table_row(header, widths))
        for hit, row in zip(answer.results, rows):
            lines.append(_table_row(row, widths))
            if hit.evidence:
                prefix = said["evidence"].format(line=hit.evidence[0][0])
                room = None if columns is None else max(columns - len(indent) - width(prefix), MIN_EVIDENCE_COLUMNS)
                lines.append(indent + prefix + evidence_line(hit, room, ANSI if colour else None))
                headings = columns_line(hit, answer.lang)
                if headings:
                    label, text = headings
                    room = None if columns is None else max(columns - len(indent) - width(label), MIN_EVIDENCE_COLUMNS)
                    lines.append(indent + label + highlight(shorten(cells(text), room), None))
            fact = fact_line(hit, answer.lang)
            if fact:
                room = None if columns is None else max(columns - len(indent), MIN_EVIDENCE_COLUMNS)
                lines.append(indent + highlight(shorten(tidy(cells(fact)), room), None))
    if below:
        lines.append("")
        lines.append(below)
    return "\n".join(lines)


def _table_row(row, widths) -> str:
    cells = ([_rjust(row[0], widths[0]), _ljust(row[1], widths[1]), _rjust(row[2], widths[2])]
             + [_ljust(row[i], widths[i]) for i in range(3, 5)] + [row[5]])
    return "  ".join(cells).rstrip()


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


_MD_SPECIAL = str.maketrans({ch: "\\" + ch for ch in "\\`*_~<[]|"})


def _md_evidence(hit: Hit, lang: str) -> str:
    """The best evidence line in a Markdown cell: whole, its terms in bold, the filing's own
    characters that Markdown reads (``*``, ``_``, ``|``, ...) escaped."""
    if not hit.evidence:
        return ""
    _, text = hit.evidence[0]
    line = tidy(cells(text, hit.evidence_marks[0] if hit.evidence_marks else ()))
    escaped = [(ch.translate(_MD_SPECIAL), marked) for ch, marked in line]
    shown = labels(lang)["evidence"].format(line=hit.evidence[0][0]) + highlight(escaped, MARKDOWN)
    headings = columns_line(hit, lang)
    if headings:
        label, text = headings
        shown += "<br>" + label + text.translate(_MD_SPECIAL)
    fact = fact_line(hit, lang)
    if fact:
        shown += "<br>" + fact.translate(_MD_SPECIAL)
    return shown


def to_markdown(answer: Answer) -> str:
    above, below = _messages(answer)
    lines = []
    if answer.results:
        lines.append("| " + " | ".join(labels(answer.lang)["md_header"]) + " |")
        lines.append("| ---: | ---: | ---: | --- | --- | --- |")
        for h in answer.results:
            document = f"{h.document_id} (sha256 {h.document_sha256[:SHORT_SHA]})"
            lines.append(
                f"| {h.rank} | {_md(page_cell(h, answer.lang))} | {confidence_cell(h)} | {_md(document)} | {_md(h.note)} "
                f"| {_md_evidence(h, answer.lang)} |"
            )
    blocks = [above, "\n".join(lines), below]
    return "\n\n".join(block for block in blocks if block)


def render(answer: Answer, fmt: str = "table", columns: int | None = None, colour: bool = False) -> str:
    """The answer as ``fmt`` (table, markdown or json); ``columns`` and ``colour`` are the
    table's (see ``to_table``)."""
    if fmt == "json":
        return to_json(answer)
    if fmt == "markdown":
        return to_markdown(answer)
    return to_table(answer, columns, colour)


def plan_text(plan: Plan) -> str:
    """What --explain prints: how the question was read, the SQL and each ranked list."""
    parsed = plan.parsed
    lines = []
    if parsed.reading is not None:  # a Chinese question: what the glossary made of it
        lines += [
            f"glossary: {'; '.join(str(m) for m in parsed.reading.matches) or '-'}",
            f"not in the glossary: {' '.join(parsed.reading.unknown) or '-'}",
            f"read as: {parsed.reading.english or '-'}",
        ]
    lines += [
        f"content words: {' '.join(parsed.words) or '-'}",
        f"cues: {', '.join(parsed.cues) or '-'}",
        f"statements: {' '.join(parsed.statements) or '-'} (named: {' '.join(parsed.named) or '-'})",
        f"sections: {' '.join(parsed.sections) or '-'}",
    ]
    if parsed.items or parsed.exhibits:
        items = [f"Part {part}, Item {number}" if part else f"Item {number}" for part, number in parsed.items]
        lines.append(f"named: {', '.join(items + [f'Exhibit {n}' for n in parsed.exhibits])}"
                     f" (first: {' '.join(str(n) for n in plan.named) or '-'})")
    lines += [
        f"match: {plan.match}",
        "",
        "lexical SQL:",
        plan.lexical_sql,
        "",
        "lexical: " + " ".join(f"{n}({s:.2f})" for n, s in plan.lexical[:EXPLAIN_LIST]),
    ]
    if plan.statement_sql:
        lines += ["", "statement SQL:", plan.statement_sql, "", "statements: " + " ".join(str(n) for n, _ in plan.statements)]
    if plan.section_sql:
        lines += ["", "section SQL:", plan.section_sql, "", "sections: " + " ".join(str(n) for n, _ in plan.sections[:EXPLAIN_LIST])]
    if plan.facts is not None and plan.facts.facts:
        fused = "" if plan.facts_list else " (not fused)"
        lines += ["", "facts: " + " ".join(f"{n}({s:.2f})" for _, n, s in plan.facts.pages[:EXPLAIN_LIST]) + fused]
        lines += [f"  p.{f.page_number} {f.concept} {f.period} = {f.value}  ({f.row_label or '-'}; {f.score:.2f})"
                  for f in plan.facts.facts[:EXPLAIN_FACTS]]
    lines += ["", "fused: " + " ".join(f"{n}({s:.4f})" for n, s in plan.fused)]
    if plan.confidence:  # the learned stage's (the rules give none)
        from .rank import doubt_threshold

        lines.append(f"confidence (doubtful under {doubt_threshold():g}): "
                     + " ".join(f"{n}({plan.confidence[n]:.2f})" for n, _ in plan.fused if n in plan.confidence))
    return "\n".join(lines)


EXPLAIN_FACTS = 5  # matching facts the text of --explain shows (its JSON: up to 20)


def render_plan(plan: Plan, fmt: str = "text") -> str:
    return to_json(plan) if fmt == "json" else plan_text(plan)
