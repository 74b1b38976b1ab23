"""Take the Datasette screenshots of the README and docs/datasette.md: `evfind serve`, headless Chromium, a question.

    python scripts/screenshot.py          # writes docs/datasette-ask.png and docs/datasette-page.png
    python scripts/screenshot.py --out /tmp/shots   # the same two files, elsewhere

Both are taken at 1280 px, the width the page view is laid out for (image and text side by side).

The ask page is sample.db's. sample.db is ingested from text, so its pages have no image; the
page view is taken from the same report printed as a PDF here (sample/halden_2025_10k.txt, each
page in Courier, so its tables keep their columns), ingested with --embed-source, and opened
from the answer to the same question, so the question's terms are boxed on the image.

Needs `pip install -e '.[test]'` and Debian's chromium and chromium-driver packages.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from urllib.parse import urlencode

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.browser import chromium, missing  # noqa: E402
from tests.pdfgen import make_pdf  # noqa: E402

QUESTION = "What were capital expenditures in 2025? Use the cash flow statement."
SOURCE = REPO / "sample" / "halden_2025_10k.txt"
DOCUMENT_ID = "HALDEN_2025_10K"
WRAP = 100  # characters: a longer line (a paragraph) is wrapped; table rows are shorter
WIDTH, HEIGHT = 512, 700  # points of the page the lines may take
IMAGE_LOADED = "const img = document.querySelector('td.col-image img'); return !!img && img.complete && img.naturalWidth > 0;"


def sample_pdf(path: Path) -> Path:
    """The sample report as a PDF: its pages in Courier, paragraphs wrapped, each page's type
    as large as its longest line and its number of lines let it be (at most 9 points)."""
    pages, sizes = [], []
    for page in SOURCE.read_text(encoding="utf-8").split("\f"):
        lines = []
        for line in page.splitlines():
            indent = line[: len(line) - len(line.lstrip())]
            lines.extend(textwrap.wrap(line, WRAP, subsequent_indent=indent) or [""])
        pages.append("\n".join(lines).strip("\n"))
        longest = max((len(line) for line in lines), default=1) or 1
        size = min(9.0, WIDTH / (0.6 * longest), HEIGHT / (1.2 * max(len(lines), 1)))  # Courier: 0.6 em wide
        sizes.append((round(size, 2), round(size * 1.2, 2)))
    if pages and not pages[-1].strip():
        pages.pop()
        sizes.pop()
    return make_pdf(path, pages, font="Courier", sizes=sizes)


class Server:
    def __init__(self, db: Path):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "evfind", "serve", str(db), "--port", "0"],
            stdout=subprocess.PIPE, text=True, cwd=db.parent,
        )
        self.database_url = self.process.stdout.readline().rsplit(" at ", 1)[1].strip()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait()


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs", help="folder to write the two PNGs to (default docs/)")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    why = missing()
    if why:
        sys.exit(f"Error: {why}")
    from selenium.webdriver.support.ui import WebDriverWait

    from evfind.ingest import ingest

    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "sample.db"
        shutil.copyfile(REPO / "sample.db", db)
        pdf_db = Path(folder) / "pdf" / "sample.db"
        pdf_db.parent.mkdir()
        ingest(sample_pdf(Path(folder) / "halden_2025_10k.pdf"), pdf_db, DOCUMENT_ID, embed_source=True)
        browser = chromium(Path(folder) / "chromium-profile", width=1280, height=1000)
        try:
            server = Server(db)
            try:
                browser.get(f"{server.database_url}/ask?" + urlencode({"question": QUESTION}))
                browser.save_screenshot(str(out / "datasette-ask.png"))
            finally:
                server.stop()
            server = Server(pdf_db)
            try:
                browser.set_window_size(1280, 1400)  # taller: the page's image and text side by side
                browser.get(f"{server.database_url}/ask?" + urlencode({"question": QUESTION}))
                browser.find_element("css selector", "td.col-page a").click()
                WebDriverWait(browser, 30).until(lambda b: b.execute_script(IMAGE_LOADED))
                browser.save_screenshot(str(out / "datasette-page.png"))
            finally:
                server.stop()
        finally:
            browser.quit()
    print(f"wrote {out / 'datasette-ask.png'} and {out / 'datasette-page.png'}")


if __name__ == "__main__":
    main()
