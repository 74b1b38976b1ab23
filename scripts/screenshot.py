"""Take the README's Datasette screenshots: `evfind serve sample.db`, headless Chromium, a question.

    python scripts/screenshot.py          # writes docs/datasette-ask.png and docs/datasette-page.png

Needs `pip install -e '.[test]'` and Debian's chromium and chromium-driver packages.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.browser import chromium, missing  # noqa: E402

QUESTION = "What were capital expenditures in 2025? Use the cash flow statement."


def main() -> None:
    why = missing()
    if why:
        sys.exit(f"Error: {why}")
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "sample.db"
        shutil.copyfile(REPO / "sample.db", db)
        server = subprocess.Popen(
            [sys.executable, "-m", "evfind", "serve", str(db), "--port", "0"],
            stdout=subprocess.PIPE, text=True, cwd=folder,
        )
        try:
            database_url = server.stdout.readline().rsplit(" at ", 1)[1].strip()
            browser = chromium(width=1280, height=1000)
            try:
                browser.get(f"{database_url}/ask?" + urlencode({"question": QUESTION}))
                browser.save_screenshot(str(REPO / "docs" / "datasette-ask.png"))
                browser.find_element("css selector", "td.col-page a").click()
                browser.save_screenshot(str(REPO / "docs" / "datasette-page.png"))
            finally:
                browser.quit()
        finally:
            server.terminate()
            server.wait()
    print("wrote docs/datasette-ask.png and docs/datasette-page.png")


if __name__ == "__main__":
    main()
