"""End to end in a real browser: `evfind serve sample.db`, a question typed into the ask page,
the expected page listed first, and a click through to that page's stored text."""

from __future__ import annotations

import shutil

import pytest

from evfind import Finder

from . import browser as chromium
from .conftest import REPO
from .test_serve import server_for  # noqa: F401  (the fixture)

QUESTION = "What were capital expenditures in 2025? Use the cash flow statement."
EXPECTED_PAGE = 38  # `evfind query sample.db QUESTION` lists it first; `evfind show sample.db 38`


@pytest.fixture
def browser(tmp_path_factory):
    why = chromium.missing()
    if why:
        pytest.skip(why)
    driver = chromium.chromium(tmp_path_factory.mktemp("chromium-profile"))
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def test_ask_in_the_browser_and_click_through_to_the_page(browser, server_for, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as until
    from selenium.webdriver.support.ui import WebDriverWait

    db = tmp_path / "sample.db"  # a copy: the committed file stays untouched
    shutil.copyfile(REPO / "sample.db", db)
    with Finder(db) as finder:
        sha = finder.document.document_sha256
        cited = finder.page(EXPECTED_PAGE)
    server = server_for(db)
    wait = WebDriverWait(browser, 30)

    browser.get(server.database_url)
    assert browser.find_element(By.TAG_NAME, "h1").text == "HALDEN_2025_10K"
    browser.find_element(By.LINK_TEXT, "Ask a question").click()
    question = wait.until(until.presence_of_element_located((By.NAME, "question")))
    assert browser.find_element(By.TAG_NAME, "h1").text == "Ask a question"
    question.send_keys(QUESTION)
    question.submit()

    first = wait.until(until.presence_of_element_located((By.CSS_SELECTOR, "table.rows-and-columns tbody tr")))
    assert first.find_element(By.CSS_SELECTOR, "td.col-rank").text == "1"
    assert first.find_element(By.CSS_SELECTOR, "td.col-page").text == str(EXPECTED_PAGE)
    assert first.find_element(By.CSS_SELECTOR, "td.col-note").text.startswith("CONSOLIDATED STATEMENTS OF CASH FLOWS")
    # The best evidence line, its number on the page and the question's terms marked.
    assert first.find_element(By.CSS_SELECTOR, "td.col-line").text == "29"
    assert first.find_element(By.CSS_SELECTOR, "td.col-evidence").text == "Purchases of property, plant and equipment (96.4) (88.7) (82.1)"
    assert [m.text for m in first.find_elements(By.CSS_SELECTOR, "td.col-evidence mark")] == ["Purchases of property, plant and equipment"]

    first.find_element(By.CSS_SELECTOR, "td.col-page a").click()
    text = wait.until(until.presence_of_element_located((By.CSS_SELECTOR, "td.col-text")))
    assert "/page?page=38&sha=" in browser.current_url
    row = browser.find_element(By.CSS_SELECTOR, "table.rows-and-columns tbody tr")
    assert row.find_element(By.CSS_SELECTOR, "td.col-document_id").text == "HALDEN_2025_10K"
    assert row.find_element(By.CSS_SELECTOR, "td.col-sha256").text == sha
    shown = text.text
    assert "CONSOLIDATED STATEMENTS OF CASH FLOWS" in shown
    assert "Purchases of property, plant and equipment" in shown
    assert shown.split() == cited.text.split()  # the whole stored page, word for word


def test_the_page_view_shows_the_page_as_it_looks(browser, server_for, filing_pdf, tmp_path):  # noqa: F811
    """A filing ingested from its PDF: from an answer to the page, whose image loads beside the
    text and is the PNG of that page with the question's terms boxed."""
    import urllib.request
    from urllib.parse import urlencode

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as until
    from selenium.webdriver.support.ui import WebDriverWait

    from evfind.ingest import ingest
    from evfind.pageimage import page_png, png_size

    question = "What were capital expenditures in 2024? Use the cash flow statement."
    db = ingest(filing_pdf).db_path
    sha = Finder(db).document.document_sha256
    server = server_for(db)
    wait = WebDriverWait(browser, 30)

    browser.get(f"{server.database_url}/ask?" + urlencode({"question": question}))
    link = wait.until(until.presence_of_element_located((By.CSS_SELECTOR, "td.col-page a")))
    assert link.text == "10"
    link.click()
    image = wait.until(until.presence_of_element_located((By.CSS_SELECTOR, "td.col-image img")))
    wait.until(lambda b: b.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
    natural = browser.execute_script("return [arguments[0].naturalWidth, arguments[0].naturalHeight]", image)
    assert natural == [918, 1188]  # the page, 612 x 792 points, at 1.5 pixels a point
    assert "Purchases of property, plant and equipment" in browser.find_element(By.CSS_SELECTOR, "td.col-text").text
    # The image beside the text: left of it, on the same row.
    text_cell = browser.find_element(By.CSS_SELECTOR, "td.col-text")
    assert image.location["x"] + image.size["width"] <= text_cell.location["x"]
    assert abs(image.location["y"] - text_cell.location["y"]) < 40

    with urllib.request.urlopen(image.get_attribute("src"), timeout=30) as response:
        assert response.headers["Content-Type"] == "image/png"
        png = response.read()
    assert png_size(png) == (918, 1188)
    assert png == page_png(db, 10, sha=sha, question=question)  # that page, the question's terms boxed


def test_the_page_view_at_1280_px_has_a_readable_image_beside_the_text(browser, server_for, filing_pdf, tmp_path):  # noqa: F811
    """At 1280 px (the browser's window here) the page image takes about half the width beside
    the text, and nothing runs off the right edge; a screenshot of it is kept with the test's
    files (tmp_path) to look at."""
    from urllib.parse import urlencode

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as until
    from selenium.webdriver.support.ui import WebDriverWait

    from evfind.ingest import ingest
    from evfind.pageimage import png_size

    db = ingest(filing_pdf).db_path
    sha = Finder(db).document.document_sha256
    server = server_for(db)
    wait = WebDriverWait(browser, 30)
    assert browser.execute_script("return window.innerWidth") <= 1280
    browser.get(f"{server.database_url}/page?" + urlencode({"page": 10, "sha": sha}))
    image = wait.until(until.presence_of_element_located((By.CSS_SELECTOR, "td.col-image img")))
    wait.until(lambda b: b.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
    window = browser.execute_script("return document.documentElement.clientWidth")
    overflow = browser.execute_script("return document.documentElement.scrollWidth")
    assert overflow <= window, f"the page is {overflow} px wide in a window of {window}"
    text = browser.find_element(By.CSS_SELECTOR, "td.col-text")
    assert image.size["width"] >= 0.4 * window  # readable: not a thumbnail
    assert image.location["x"] + image.size["width"] <= text.location["x"]  # beside the text
    assert abs(image.location["y"] - text.location["y"]) < 40
    assert text.location["x"] + text.size["width"] <= window
    printed = browser.find_element(By.CSS_SELECTOR, "td.col-printed")
    assert printed.text == "8"  # the printed folio beside the physical page, named by its label:
    label = "return getComputedStyle(arguments[0], '::before').content"
    assert browser.execute_script(label, printed) == '"printed folio "'
    assert browser.execute_script(label, browser.find_element(By.CSS_SELECTOR, "td.col-page")) == '"physical page "'

    shot = tmp_path / "page-view-1280.png"
    assert browser.save_screenshot(str(shot))
    assert png_size(shot.read_bytes())[0] >= window
