"""`evfind show` and `evfind info`: read back what a database stores, so that any citation can be
checked. `show` prints pages (their text, lines, a PNG of a PDF page, an HTML page as filed);
`info` the documents, revisions and sections (describe.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .cli_app import (
    DocumentOption,
    ReadDbArgument,
    ShaOption,
    TextFormat,
    app,
    counted_pages,
    database_of,
    emit,
    errors_to_exit,
    page_list,
    plural,
    pp,
    ranges,
    use_colour,
)


SHOW_MAX = 50  # pages one `evfind show` prints


@app.command()
@errors_to_exit
def show(
    db: ReadDbArgument,
    page: Annotated[Optional[str], typer.Argument(help=f"Physical page number (1 is the first page of the PDF), a range 37-39 or a list 37,39 (at most {SHOW_MAX} pages).", show_default=False)] = None,
    document: DocumentOption = None,
    sha: ShaOption = None,
    label: Annotated[Optional[str], typer.Option("--label", help="The page that prints this folio (its page label, e.g. 109 or F-12) instead of a physical page; every such page where several do.", show_default=False)] = None,
    number: Annotated[bool, typer.Option("--number", "-n", help="Number the lines, from 1, as the evidence lines of `evfind query` are numbered.")] = False,
    lines: Annotated[Optional[str], typer.Option("--lines", help="Only these lines of each page: 17 or 17-19, numbered as -n numbers them.", show_default=False)] = None,
    raw: Annotated[bool, typer.Option("--raw", help="The text exactly as extracted, before normalisation.")] = False,
    fmt: Annotated[TextFormat, typer.Option("--format", "-f", help="Output: text or json.")] = TextFormat.text,
    highlight: Annotated[Optional[str], typer.Option("--highlight", help="Mark the terms a query for this question would match (on a terminal; with --format json, as \"marks\").", show_default=False)] = None,
    png: Annotated[Optional[Path], typer.Option("--png", help="Write the page as it looks in the source PDF to this PNG file instead.", show_default=False)] = None,
    html: Annotated[bool, typer.Option("--html", help="Print the pages of an HTML filing as filed instead: their own HTML, sanitised (no script, nothing loaded), the --highlight terms marked.")] = False,
) -> None:
    """Print the stored text of physical pages, so any citation can be checked.

    Standard output holds the page text alone, so its line N is the page's line N (`evfind
    show DB 49 | sed -n 18p` is line 18, the line an evidence entry "line": 18 names); the
    header (page, printed folio, document, SHA-256, heading) goes to standard error. Pages of a
    range are separated by a form feed, as in a text filing. --format json is unchanged: one
    object for one page, a list for several; --lines adds "lines": [[number, text], ...].
    """
    from .errors import UsageError
    from .finder import Finder

    if (page is None) == (label is None):
        raise UsageError("give a physical page number or --label FOLIO, not both" if page else "give a physical page number, or --label FOLIO")
    wanted = _line_range(lines) if lines is not None else None
    db, document, sha = database_of(db, document, sha, ingest=False)
    numbers = _page_numbers(page) if page is not None else []

    if html:
        _show_html(db, numbers, document, sha, highlight, png is not None or raw or fmt is not TextFormat.text)
        return

    if png is not None:
        from .pageimage import page_png, png_size

        if label is not None:
            with Finder(db, document=document, sha=sha) as finder:
                numbers = finder.pages_labelled(label)
        if len(numbers) != 1 or (page is not None and not page.strip().isdigit()):
            raise UsageError("--png writes one page: give one page number")
        image = page_png(db, numbers[0], document=document, sha=sha, question=highlight)
        _write_png(png, image)
        width, height = png_size(image)
        typer.echo(f"{png}: page {numbers[0]}, {width} x {height} pixels")
        return

    json_out = fmt is TextFormat.json
    with Finder(db, document=document, sha=sha) as finder:
        if label is not None:
            numbers = finder.pages_labelled(label)[:SHOW_MAX]
            if len(numbers) > 1:
                typer.echo(f"Note: {plural(len(numbers), 'page')} print the folio {label.strip()}: {page_list(numbers)}", err=True)
        pages = [finder.page(number) for number in numbers]  # every page checked before any is printed
        if wanted is not None and not any(_selected(p.text, wanted) for p in pages):
            most = max(len(p.text.split("\n")) for p in pages)
            raise UsageError(f"--lines {lines.strip()}: {'the page has' if len(pages) == 1 else 'the pages have'} {plural(most, 'line')}" + ("" if len(pages) == 1 else " at most"))
        marks = None
        if highlight is not None:  # JSON's marks are in `text`; printed, in the text printed
            marks = [finder.highlights(highlight, p.raw_text if raw and not json_out else p.text) for p in pages]
            if finder.parse(highlight).empty:
                typer.echo("Warning: the question has no searchable content words; nothing to highlight", err=True)
            elif not any(marks):
                typer.echo("Warning: none of the question's terms is on " + ("this page" if len(pages) == 1 else "these pages"), err=True)
    if json_out:
        import json

        objects = [p.to_dict() for p in pages]
        for data, found in zip(objects, marks or ()):
            data["marks"] = [list(span) for span in found]
        if wanted is not None:
            for data, stored in zip(objects, pages):
                data["lines"] = [list(line) for line in _selected(stored.text, wanted)]
        single = len(pages) == 1 and (label is not None or page.strip().isdigit())  # one page: one object, as always
        emit(json.dumps(objects[0] if single else objects, ensure_ascii=False, indent=2))
        return
    from .present import CONTINUES
    from .render import highlighted_text

    colour = use_colour()
    for index, stored in enumerate(pages):
        doc = stored.document
        folio = f" (printed {stored.page_label})" if stored.page_label else ""
        head = [f"Page {stored.page_number}{folio} of {doc.page_count} · {doc.document_id} · sha256 {doc.document_sha256}"]
        where = stored.heading or (f"{CONTINUES}{stored.section_heading}" if stored.section_heading else "")
        if where:
            head.append(f"Heading: {where}")
        text = stored.raw_text if raw else stored.text
        if marks and colour:
            text = highlighted_text(text, marks[index])
        if wanted is not None or number:
            selected = _selected(text, wanted)
            width = len(str(selected[-1][0])) if selected else 1
            text = "\n".join(f"{n:>{width}}  {line}" if number else line for n, line in selected)
        if index:
            emit("\f")
        typer.echo("\n".join(head), err=True)
        emit(text, 0, colour and bool(marks))


def _line_range(spec: str) -> tuple[int, int]:
    """ "17" -> (17, 17); "17-19" -> (17, 19): lines of a page, counted from 1."""
    from .errors import UsageError

    first, dash, last = spec.strip().partition("-")
    if not first.strip().isdigit() or (dash and not last.strip().isdigit()) or int(first) < 1:
        raise UsageError(f"--lines {spec!r}: give a line 17 or a range 17-19 (lines count from 1)")
    low, high = int(first), int(last) if dash else int(first)
    if high < low:
        raise UsageError(f"--lines {spec.strip()} runs backwards: write {high}-{low}")
    return low, high


def _selected(text: str, wanted: tuple[int, int] | None) -> list[tuple[int, str]]:
    """(number, line) of the page's lines, numbered from 1 on the text split on newlines, as the
    evidence numbers them; only those in ``wanted`` (first, last) when given."""
    numbered = list(enumerate(text.split("\n"), start=1))
    if wanted is None:
        return numbered
    return numbered[wanted[0] - 1 : wanted[1]]


def _show_html(db: Path, numbers: list[int], document: Optional[str], sha: Optional[str], highlight: Optional[str],
               other: bool) -> None:
    """`evfind show --html`: the pages' own HTML, as one document on stdout."""
    from .errors import UsageError
    from .finder import Finder
    from .pagehtml import document as html_document
    from .pagehtml import filing_bytes, cut_page
    from .store import reading

    if other:
        raise UsageError("--html prints the pages as filed; give it without --png, --raw or --format json")
    with Finder(db, document=document, sha=sha) as finder:
        pages = [finder.page(number) for number in numbers]  # every page checked before any is cut
        with reading(db):
            data = filing_bytes(finder.conn, finder.revision, db)
        phrases = finder.match_terms(highlight) if highlight and highlight.strip() else ()
        doc = pages[0].document
    fragments = [(p.page_number, p.page_label, cut_page(data, p.page_number, phrases)) for p in pages]
    emit(html_document(fragments, f"{doc.document_id}, page {ranges(numbers)}", doc.document_sha256), 0)


def _page_numbers(spec: str) -> list[int]:
    """ "38" -> [38]; "37-39" -> [37, 38, 39]; "37,39" -> [37, 39]; ranges and pages may be mixed
    ("37-39,41"), at most SHOW_MAX pages, each once, in the order given."""
    from .errors import UsageError

    numbers: list[int] = []
    for part in spec.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
            raise UsageError(f"{spec!r} is not a page, a range 37-39 or a list 37,39 of physical pages")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise UsageError(f"the range {part.strip()} runs backwards: write {high}-{low}")
        if high - low + 1 + len(numbers) > SHOW_MAX:
            raise UsageError(f"{spec} asks for more than {SHOW_MAX} pages; show at most {SHOW_MAX} at a time")
        numbers += [n for n in range(low, high + 1) if n not in numbers]
    return numbers


@app.command()
@errors_to_exit
def info(
    db: ReadDbArgument,
    fmt: Annotated[TextFormat, typer.Option("--format", "-f", help="Output: text or json.")] = TextFormat.text,
) -> None:
    """Documents, revisions, page counts, blank pages and the sections found on which pages."""
    from .describe import describe

    db, _, _ = database_of(db, None, None, ingest=False)
    summary = describe(db)
    if fmt is TextFormat.json:
        import json

        emit(json.dumps(summary, ensure_ascii=False, indent=2))
        return
    lines = [f"Database: {db}  (evfind schema {summary['schema_version']})"]
    if not summary["revisions"]:
        lines.append(f"No pages are loaded yet: run `evfind ingest REPORT.pdf --db {db}`")
    for rev in summary["revisions"]:
        newest = "  [newest]" if rev["newest"] else ""
        labelled = rev["labelled_pages"]
        lines += [
            "",
            f"{rev['document_id']}  revision {rev['revision_id']}{newest}",
            f"  sha256       {rev['sha256']}",
            f"  source       {rev['source_name']} ({rev['source_kind']}), ingested {rev['ingested_at']}",
            f"  form         {rev['form'] or 'not read'}",
            f"  pages        {rev['page_count']}",
            f"  blank pages  {counted_pages(rev['blank_pages'])}",
            "  page labels  "
            + (f"{labelled} of {plural(rev['page_count'], 'page')} (printed folios stored)" if labelled else "none"),
        ]
        for group in ("statements", "sections"):
            if rev[group]:
                lines.append(f"  {group}")
                for item in rev[group]:
                    lines.append(f"    {item['label']:<24} {pp(item['pages']):<12}  {item['heading']}".rstrip())
        if rev["exhibits"]:
            lines.append("  exhibits")
            for item in rev["exhibits"]:
                pages = pp(range(item["first_page"], item["last_page"] + 1))
                lines.append(f"    {item['number']:<8} {item['kind']:<24} {pages:<12}  {item['title']}".rstrip())
    emit("\n".join(lines))


def _write_png(path: Path, data: bytes) -> None:
    from .errors import InputError

    try:
        path.write_bytes(data)
    except OSError as exc:
        raise InputError(f"{path}: cannot write the image ({exc.strerror})") from None
