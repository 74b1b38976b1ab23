"""Render answers for people (table, Markdown) and programs (JSON): pure functions of values."""

from __future__ import annotations

import json

from .finder import Answer, Hit

SHORT_SHA = 12
FORMATS = ("table", "markdown", "json")


def page_cell(hit: Hit) -> str:
    """The physical page, with the printed folio beside it where the PDF has page labels."""
    if hit.page_label and hit.page_label != str(hit.page_number):
        return f"{hit.page_number} (printed {hit.page_label})"
    return str(hit.page_number)


def to_json(answer: Answer) -> str:
    return json.dumps(answer.to_dict(), ensure_ascii=False, indent=2)


def to_table(answer: Answer) -> str:
    doc = answer.document
    lines = [
        f"Question: {answer.question.strip()}",
        f"Document: {doc.document_id}  sha256 {doc.document_sha256[:SHORT_SHA]}  ({doc.page_count} pages)",
    ]
    if answer.results:
        header = ("Rank", "Page", "Document", "SHA-256", "What matched")
        rows = [
            (str(h.rank), page_cell(h), h.document_id, h.document_sha256[:SHORT_SHA], h.note)
            for h in answer.results
        ]
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]
        lines.append("")
        for row in [header, *rows]:
            cells = [row[0].rjust(widths[0])] + [row[i].ljust(widths[i]) for i in range(1, 4)] + [row[4]]
            lines.append("  ".join(cells).rstrip())
    if answer.message:
        lines.append("")
        lines.append(answer.message)
    return "\n".join(lines)


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(answer: Answer) -> str:
    lines = []
    if answer.results:
        lines.append("| Rank | Physical page | Document | What matched |")
        lines.append("| ---: | ---: | --- | --- |")
        for h in answer.results:
            document = f"{h.document_id} (sha256 {h.document_sha256[:SHORT_SHA]})"
            lines.append(f"| {h.rank} | {_md(page_cell(h))} | {_md(document)} | {_md(h.note)} |")
    if answer.message:
        if lines:
            lines.append("")
        lines.append(answer.message)
    return "\n".join(lines)


def render(answer: Answer, fmt: str = "table") -> str:
    if fmt == "json":
        return to_json(answer)
    if fmt == "markdown":
        return to_markdown(answer)
    return to_table(answer)
