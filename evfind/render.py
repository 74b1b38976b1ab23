"""Render answers for people (table, Markdown) and programs (JSON): pure functions of values.

Labels follow the answer's language (``Answer.lang``: en, or zh for a Chinese question, with
their text in evfind/zh.py); JSON keys are always English. The JSON objects themselves are
built by ``Answer.to_dict`` and ``Plan.to_dict`` (evfind/finder.py), the one builder the CLI,
batch mode and the Datasette plugin share.
"""

from .finder import Answer, Hit, Plan
from .zh import LABELS

SHORT_SHA = 12  # hex digits of a SHA-256 shown to people (table, Markdown, Datasette's lists)
EXPLAIN_LIST = 20  # pages of each ranked list the text of --explain shows (its JSON shows all)


def page_cell(hit: Hit, lang: str = "en") -> str:
    """The physical page, with the printed folio beside it where the PDF has page labels."""
    if hit.page_label and hit.page_label != str(hit.page_number):
        return LABELS[lang]["printed"].format(page=hit.page_number, label=hit.page_label)
    return str(hit.page_number)


def width(text: str) -> int:
    """Columns the text takes in a terminal: wide (CJK) characters take two."""
    if text.isascii():
        return len(text)
    import unicodedata  # only a cell that is not ASCII needs it (a Chinese note)

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _ljust(text: str, size: int) -> str:
    return text + " " * (size - width(text))


def _rjust(text: str, size: int) -> str:
    return " " * (size - width(text)) + text


def to_json(answer: Answer | Plan) -> str:
    import json  # only the json format pays for it

    return json.dumps(answer.to_dict(), ensure_ascii=False, indent=2)


def _documents(answer: Answer) -> list[str]:
    """The header's document line: the revision read, or one line for each of several."""
    labels = LABELS[answer.lang]
    documents = answer.documents or (answer.document,)
    label = labels["documents"] if answer.documents else labels["document"]
    ids = max(width(doc.document_id) for doc in documents)
    lines = []
    for doc in documents:
        pages = labels["one_page" if doc.page_count == 1 else "pages"].format(count=doc.page_count)
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


def to_table(answer: Answer) -> str:
    labels = LABELS[answer.lang]
    lines = [f"{labels['question']}{answer.question.strip()}", *_documents(answer)]
    above, below = _messages(answer)
    if above:
        lines += ["", above]
    if answer.results:
        header = labels["header"]
        rows = [
            (str(h.rank), page_cell(h, answer.lang), h.document_id, h.document_sha256[:SHORT_SHA], h.note)
            for h in answer.results
        ]
        widths = [max(width(r[i]) for r in [header, *rows]) for i in range(4)]
        lines.append("")
        for row in [header, *rows]:
            cells = [_rjust(row[0], widths[0])] + [_ljust(row[i], widths[i]) for i in range(1, 4)] + [row[4]]
            lines.append("  ".join(cells).rstrip())
    if below:
        lines.append("")
        lines.append(below)
    return "\n".join(lines)


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(answer: Answer) -> str:
    above, below = _messages(answer)
    lines = []
    if answer.results:
        lines.append("| " + " | ".join(LABELS[answer.lang]["md_header"]) + " |")
        lines.append("| ---: | ---: | --- | --- |")
        for h in answer.results:
            document = f"{h.document_id} (sha256 {h.document_sha256[:SHORT_SHA]})"
            lines.append(f"| {h.rank} | {_md(page_cell(h, answer.lang))} | {_md(document)} | {_md(h.note)} |")
    blocks = [above, "\n".join(lines), below]
    return "\n\n".join(block for block in blocks if block)


def render(answer: Answer, fmt: str = "table") -> str:
    if fmt == "json":
        return to_json(answer)
    if fmt == "markdown":
        return to_markdown(answer)
    return to_table(answer)


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
    lines += ["", "fused: " + " ".join(f"{n}({s:.4f})" for n, s in plan.fused)]
    return "\n".join(lines)


def render_plan(plan: Plan, fmt: str = "text") -> str:
    return to_json(plan) if fmt == "json" else plan_text(plan)
