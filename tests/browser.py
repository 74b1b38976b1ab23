"""Headless Chromium driven by Selenium, using Debian's chromium and chromium-driver packages
(nothing is downloaded at run time). Used by the browser test and scripts/screenshot.py."""

from __future__ import annotations

import shutil
from pathlib import Path

CHROMIUM_NAMES = ("chromium", "chromium-browser")
# The closed network here refuses the connections Chromium makes in the background; as root,
# Chromium needs --no-sandbox.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


def missing() -> str | None:
    """Why no browser can be started here, or None when one can."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed: pip install '.[test]'"
    if not any(shutil.which(name) for name in CHROMIUM_NAMES):
        return "no Chromium: apt-get install chromium chromium-driver (bash .ci/run does this as root)"
    if not shutil.which("chromedriver"):
        return "no chromedriver: apt-get install chromium-driver (bash .ci/run does this as root)"
    return None


def chromium(profile: Path, width: int = 1280, height: int = 900):
    """A new headless Chromium session with an empty profile in the folder `profile` (the
    caller's temporary folder, so nothing is left behind); call .quit() when done."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = next(shutil.which(n) for n in CHROMIUM_NAMES if shutil.which(n))
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--window-size={width},{height}")
    options.add_argument(f"--user-data-dir={profile}")
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
