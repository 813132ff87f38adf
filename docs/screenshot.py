"""Regenerate docs/preview.png, the README's picture of `lmsexport preview`:
.venv/bin/python docs/screenshot.py (needs `make browser`)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from lmsexport.commands.preview import write_site
from lmsexport.loader import load_quiz
from lmsexport.preview.site import build_site

DOCS = Path(__file__).resolve().parent


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        site = Path(folder)
        write_site(site, build_site([load_quiz(DOCS / "example" / "ring-all-reduce.json")]).files)
        browser = playwright.chromium.launch(executable_path=os.environ.get("LMSEXPORT_CHROMIUM", "/usr/bin/chromium"),
                                             args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        page = browser.new_page(viewport={"width": 960, "height": 1200}, device_scale_factor=1)
        page.goto((site / "ring-all-reduce.html").as_uri())
        card = page.locator("#q-neighbours")
        card.locator('input[value="two"]').check()
        card.locator("button.check").click()
        card.locator("details.platforms summary").click()
        box = card.bounding_box()  # relative to the viewport, which clicking scrolled
        bottom = box["y"] + box["height"] + page.evaluate("window.scrollY") + 24
        page.screenshot(path=str(DOCS / "preview.png"), full_page=True, clip={"x": 0, "y": 0, "width": 960, "height": bottom})
        browser.close()


if __name__ == "__main__":
    main()
