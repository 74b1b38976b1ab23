"""Lines as printed (evfind/printed.py): words placed by their boxes read back into lines, on
pages written here, and through pdfium on a PDF that draws a table cell by cell."""

from __future__ import annotations

import json

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
        "Year ended 2024 Year ended 2023",  # each column's heading read whole
        "Data Center and AI (518) 1,393",
        "Gaming 212 190",
    ]


# -- the reading order (evfind/layout.py) ----------------------------------------------------


def wrapped(text: str, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` characters, at spaces."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + [line]


LEFT_PROSE = (
    "Dear fellow shareholders, this was a year of steady growth for the company. Net sales rose in "
    "every region we serve, and our stores opened later into the evening across the country. We kept "
    "our prices low and invested in the people who serve our customers every day of the year."
)
RIGHT_PROSE = (
    "Looking ahead, we will open new distribution centres in the north and the west, and we expect "
    "capital expenditure to rise with them. Our balance sheet remains strong, and we returned cash to "
    "shareholders through dividends and the repurchase of our shares during the fourth quarter."
)


def two_columns(gutter_x: float = 300.0):
    """A title across the page, two columns of prose whose lines share baselines, a folio."""
    left, right = wrapped(LEFT_PROSE, 40), wrapped(RIGHT_PROSE, 40)
    placed = [(50, 740, "Letter to Shareholders")]
    for row in range(max(len(left), len(right))):
        y = 720 - 12 * row
        if row < len(left):
            placed.append((50, y, left[row]))
        if row < len(right):
            placed.append((gutter_x, y, right[row]))
    placed.append((50, 560, "Page 4"))
    return left, right, placed


def test_two_columns_of_prose_are_read_one_after_the_other():
    left, right, placed = two_columns()
    text, box = boxes_of(placed)
    rebuilt, _ = page_text(text, box)
    assert rebuilt.split("\n") == ["Letter to Shareholders", *left, *right, "Page 4"]


def test_two_columns_drawn_in_a_pdf_are_read_one_after_the_other(tmp_path):
    left, right, placed = two_columns()
    pdf = make_pdf(tmp_path / "LETTER.pdf", [placed])
    lines = extract(pdf).lines[0].split("\n")
    assert lines == ["Letter to Shareholders", *left, *right, "Page 4"]


def spaced(x: float, y: float, line: str, space: float, size: float = 9.0) -> list[tuple[float, float, str]]:
    """A line's words placed one by one, ``space`` points apart (boxes_of's characters are
    half the type size wide)."""
    placed = []
    for word in line.split():
        placed.append((x, y, word))
        x += 0.5 * size * len(word) + space
    return placed


def test_words_that_line_up_in_one_column_of_prose_do_not_split_it():
    # a paragraph set loosely justified, its spaces nearly three times the page's: its words
    # start at the same places on every line, as if at the edges of columns
    prose = wrapped(" ".join([LEFT_PROSE, RIGHT_PROSE] * 3), 90)
    placed = []
    for row, line in enumerate(prose):
        placed += spaced(50, 760 - 12 * row, line, 2.2)
    loose = "sales grew in each of our markets and our stores stayed open later into the evening"
    for row in range(6):
        placed += spaced(50, 500 - 12 * row, loose, 6.0)
    text, box = boxes_of(placed)
    rebuilt, _ = page_text(text, box)
    assert rebuilt.split("\n") == prose + [loose] * 6


def test_a_table_of_figures_stays_in_rows():
    placed = [(300, 700, "2024"), (380, 700, "2023")]
    labels = ["Net sales", "Cost of sales", "Gross profit", "Selling expenses", "Operating income", "Interest"]
    for row, label in enumerate(labels):
        y = 688 - 12 * row
        placed += [(50, y, label), (290, y, "$"), (300, y, f"{812 - row * 97}.4"), (370, y, "$"), (380, y, f"{760 - row * 93}.1")]
    text, box = boxes_of(placed)
    rebuilt, _ = page_text(text, box)
    lines = rebuilt.split("\n")
    assert lines[0] == "2024 2023"
    assert lines[1:] == [f"{label} $ {812 - row * 97}.4 $ {760 - row * 93}.1" for row, label in enumerate(labels)]


def test_a_table_of_text_whose_cells_wrap_is_read_row_by_row_cell_by_cell():
    rows = [
        ("Office products revenue growth for the year", "Revenue from office products and cloud services, including subscriptions and licences sold to businesses"),
        ("Search advertising revenue", "Revenue from search and news advertising, excluding traffic acquisition costs paid to partners"),
        ("Devices revenue growth", "Revenue from devices, including tablets and accessories sold through retail channels"),
    ]
    placed, y = [], 700
    for term, meaning in rows:
        terms, meanings = wrapped(term, 30), wrapped(meaning, 44)
        for k in range(max(len(terms), len(meanings))):
            if k < len(terms):
                placed.append((50, y - 11 * k, terms[k]))
            if k < len(meanings):
                placed.append((200, y - 11 * k, meanings[k]))  # a word more would not fit left
        y -= 11 * max(len(terms), len(meanings)) + 8  # blank space between rows
    text, box = boxes_of(placed)
    rebuilt, _ = page_text(text, box)
    assert rebuilt.split("\n") == [
        "Office products revenue growth",  # the cell on the left, whole, then the one beside it
        "for the year",
        "Revenue from office products and cloud",
        "services, including subscriptions and",
        "licences sold to businesses",
        "Search advertising revenue Revenue from search and news advertising,",  # as printed:
        "excluding traffic acquisition costs paid to",  # read by lines, the cells come in order
        "partners",
        "Devices revenue growth Revenue from devices, including tablets and",
        "accessories sold through retail channels",
    ]


def test_a_table_of_text_in_rows_of_one_line_stays_in_rows():
    # (below the longest name, the next would not have fitted beside it: only the lines, each
    # with both cells, say that a row ends with each)
    people = [("Jonathan Q. Livingston-Smith", "Chief Executive Officer and Director"), ("Johnathan B. Roe", "Chief Financial Officer"),
              ("Mary Catherine Poe", "Director"), ("Ann Dorothy Moe", "Vice President and Controller"), ("Thomas Edward Foe", "Director")]
    placed = []
    for row, (name, title) in enumerate(people):
        placed += [(50, 700 - 11 * row, name), (250, 700 - 11 * row, title)]
    text, box = boxes_of(placed)
    rebuilt, _ = page_text(text, box)
    assert rebuilt.split("\n") == [f"{name} {title}" for name, title in people]


def stacked_headings():
    """A table whose headings are stacks of words in narrow columns, each ending on one
    baseline, under a heading that spans them, with a title over the row labels."""
    return [
        (260, 724, "Year Ended December 31,"),
        (374, 712, "Selling, general"),
        (240, 701, "Cost of"), (310, 701, "Gross"), (370, 701, "and administrative"),
        (50, 690, "(in millions)"), (245, 690, "sales"), (312, 690, "profit"), (392, 690, "expenses"),
        (50, 666, "Reported"), (235, 666, "$"), (245, 666, "7,988"), (305, 666, "$"), (315, 666, "9,858"), (385, 666, "7,229"),
        (50, 654, "Core"), (235, 654, "$"), (245, 654, "7,975"), (305, 654, "$"), (315, 654, "9,871"), (385, 654, "7,069"),
    ]


def test_stacked_column_headings_are_read_as_cells_on_a_line_of_their_own():
    text, box = boxes_of(stacked_headings())
    rebuilt, _ = page_text(text, box)
    assert rebuilt.split("\n") == [
        "Year Ended December 31,",
        "(in millions)",
        "Cost of sales Gross profit Selling, general and administrative expenses",
        "Reported $ 7,988 $ 9,858 7,229",
        "Core $ 7,975 $ 9,871 7,069",
    ]


def test_period_headings_beside_a_title_are_a_line_of_their_own_above_the_rows():
    placed = [
        (50, 700, "Segment results"), (300, 700, "Three Months Ended"),
        (290, 688, "Dec. 31,"), (360, 688, "Sep. 30,"),
        (295, 676, "2020"), (365, 676, "2020"),
        (50, 664, "Cost of revenue"), (290, 664, "$"), (300, 664, "97"), (360, 664, "$"), (370, 664, "100"),
    ]
    text, box = boxes_of(placed)
    rebuilt, _ = page_text(text, box)
    assert rebuilt.split("\n") == [
        "Segment results Three Months Ended",
        "Dec. 31, 2020 Sep. 30, 2020",
        "Cost of revenue $ 97 $ 100",
    ]


def test_a_cell_that_wraps_is_kept_whole_before_the_cells_beside_it():
    placed = [
        (50, 700, "10.1"), (100, 700, "Credit Agreement between the Company and"), (400, 700, "x"), (450, 700, "8-K"),
        (100, 689, "the lenders named therein"),
        (50, 678, "21.1"), (100, 678, "Subsidiaries of the Company"), (400, 678, "x"),
        (50, 667, "23.1"), (100, 667, "Consent of the independent auditors"), (400, 667, "x"),
    ]
    text, box = boxes_of(placed)
    rebuilt, _ = page_text(text, box)
    assert rebuilt.split("\n") == [
        "10.1 Credit Agreement between the Company and the lenders named therein x 8-K",
        "21.1 Subsidiaries of the Company x",
        "23.1 Consent of the independent auditors x",
    ]


def test_a_row_label_alone_below_a_row_is_not_taken_for_a_wrapped_cell():
    placed = [
        (50, 700, "Net income"), (200, 700, "Total"), (300, 700, "100"), (380, 700, "200"),
        (200, 689, "Other"),
        (50, 678, "Taxes"), (200, 678, "Total"), (300, 678, "10"), (380, 678, "20"),
    ]
    text, box = boxes_of(placed)
    rebuilt, _ = page_text(text, box)
    assert rebuilt.split("\n") == ["Net income Total 100 200", "Other", "Taxes Total 10 20"]


def test_a_title_beside_one_heading_is_a_line_of_its_own():
    placed = [
        (50, 700, "($ million)"), (300, 700, "2022 2023"),
        (50, 688, "Net income"), (300, 688, "815"), (345, 688, "1,058"),
        (50, 676, "Interest"), (300, 676, "12"), (345, 676, "9"),
    ]
    text, box = boxes_of(placed)
    rebuilt, _ = page_text(text, box)
    assert rebuilt.split("\n") == ["($ million)", "2022 2023", "Net income 815 1,058", "Interest 12 9"]


def test_a_table_with_stacked_period_headings_in_a_pdf_is_stored_and_queried_as_printed(tmp_path, cli):
    # a statement drawn cell by cell: each column's heading a stack (Fiscal / Year / 2024)
    # ending on one baseline, then the rows; pdfium's own text has one heading word per line
    intro = "Results of operations. The table below shows net sales and gross profit by fiscal year."
    table = [(50, 740, "Consolidated Statements of Operations"), (50, 724, intro)]
    for x, year in ((300, "2024"), (380, "2023")):
        table += [(x, 704, "Fiscal"), (x, 693, "Year"), (x, 682, year)]
    table += [(50, 682, "(in millions)")]
    for y, label, a, b in ((664, "Net sales", "812.4", "760.1"), (652, "Gross profit", "312.8", "283.9")):
        table += [(50, y, label), (300, y, a), (380, y, b)]
    cover = [(50, 740, "Annual Report"), (50, 724, "Fiscal year 2024 of the Halden Company.")]
    pdf = make_pdf(tmp_path / "HALDEN_2024_10K.pdf", [cover, table])
    db = tmp_path / "HALDEN_2024_10K.db"
    assert cli("ingest", pdf, "--db", db).exit_code == 0
    shown = cli("show", db, 2, "-n")
    assert shown.exit_code == 0, shown.output
    assert [line.split(maxsplit=1)[1] for line in shown.stdout.splitlines()[2:]] == [
        "(in millions)",  # the title over the row labels on a line of its own
        "Fiscal Year 2024 Fiscal Year 2023",  # each stack read as one heading, the periods on one line
        "Net sales 812.4 760.1",
        "Gross profit 312.8 283.9",
    ]
    raw = cli("show", db, 2, "--raw").stdout
    assert "Fiscal\nYear\n2024" in raw.replace("\r\n", "\n")  # pdfium's own text, as extracted
    found = json.loads(cli("query", db, "What was gross profit in fiscal 2024?", "--format", "json").stdout)
    first = found["results"][0]
    assert first["page_number"] == 2
    assert "Gross profit 312.8 283.9" in [entry["text"] for entry in first["evidence"]]
