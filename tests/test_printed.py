"""Lines as printed (evfind/printed.py): words placed by their boxes read back into lines, on
pages written here, and through pdfium on a PDF that draws a table cell by cell."""

from __future__ import annotations

from evfind.extract import extract
from evfind.printed import MARK, page_text

from .pdfgen import make_pdf


def boxes_of(placed: list[tuple[float, float, str]], size: float = 9.0):
    """pdfium-like text and a box per character for words placed at (x, baseline y): the text
    in the order given, each fragment on a line of its own (as pdfium breaks a jump)."""
    text, boxes = [], []
    for x, y, fragment in placed:
        for ch in fragment:
            boxes.append((x, y - 0.2 * size, x + 0.5 * size, y + 0.9 * size))
            text.append(ch)
            x += 0.5 * size
        text.append("\n")
        boxes.append((0.0, 0.0, 0.0, 0.0))  # pdfium's generated line break has no box
    return "".join(text), boxes.__getitem__


def test_words_on_one_baseline_are_one_line_left_to_right_whatever_the_drawing_order():
    # a table drawn column by column: the heading cells, then each column's figures
    text, box = boxes_of([
        (300, 700, "2024"), (300, 688, "812.4"), (380, 700, "2023"), (380, 688, "760.1"),
        (50, 688, "Net sales"), (50, 676, "Cost of sales"), (300, 676, "499.6"), (380, 676, "476.2"),
    ])
    rebuilt, kinds = page_text(text, box)
    assert rebuilt == "2024 2023\nNet sales 812.4 760.1\nCost of sales 499.6 476.2"
    assert kinds is None


def test_a_page_of_vertical_text_is_not_rebuilt():
    placed = []
    for column, word in enumerate(["Revenue", "Expenses", "Margin"]):
        for row, ch in enumerate(word):
            placed.append((50 + 20 * column, 700 - 12 * row, ch))
    text = "".join(ch for _, _, ch in placed)
    boxes = [(x, y - 2, x + 5, y + 8) for x, y, _ in placed]
    chunks = " ".join(["Revenue", "Expenses", "Margin"])  # pdfium's text: the words, spaced
    positions, i = [], 0
    for word in chunks.split(" "):
        positions += boxes[i : i + len(word)] + [(0, 0, 0, 0)]
        i += len(word)
    assert page_text(chunks, positions.__getitem__) is None
    assert text  # (the letters were placed one under another)


def test_the_facts_about_each_u_fffe_follow_it_to_its_new_place():
    # drawn bottom line first: "e<glyph>ects" then a line ending in a hyphen pdfium marked
    text, box = boxes_of([(50, 688, f"e{MARK}ects"), (50, 700, f"forward{MARK}")])
    rebuilt, kinds = page_text(text, box, "gh")
    assert rebuilt == f"forward{MARK}\ne{MARK}ects"
    assert kinds == "hg"


def test_an_empty_page():
    assert page_text("", (lambda i: (0.0, 0.0, 0.0, 0.0))) == ("", None)


def test_pdfium_text_of_a_table_drawn_cell_by_cell_becomes_lines_as_printed(tmp_path):
    table = [
        (50, 720, "Segment results"),
        # the headings drawn column by column, each heading on two lines
        (300, 700, "Year ended"), (300, 689, "2024"), (400, 700, "Year ended"), (400, 689, "2023"),
        (50, 670, "Data Center and AI"), (300, 670, "(518)"), (400, 670, "1,393"),
        (50, 655, "Gaming"), (300, 655, "212"), (400, 655, "190"),
    ]
    pdf = make_pdf(tmp_path / "TABLE.pdf", [table])
    extraction = extract(pdf)
    raw = extraction.texts[0].replace("\r\n", "\n")
    assert "Year ended\n2024\nYear ended" in raw  # pdfium: one cell per line, in drawing order
    assert extraction.lines[0].split("\n") == [
        "Segment results",
        "Year ended Year ended",
        "2024 2023",
        "Data Center and AI (518) 1,393",
        "Gaming 212 190",
    ]
