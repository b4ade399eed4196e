"""Debian's Chromium, driven by Playwright's sync API, for every browser test.

While Playwright's sync API is open its asyncio loop counts as running in this
thread. Django's ORM refuses to run beside a running loop unless told it is safe
(it is: the loop only drives the browser), and Django then keeps its database
connections per async context, not per thread (asgiref's Local): what a test asks
of the ORM inside the browser's lifetime goes through a connection of its own.
Nothing closed that connection, so it outlived the run, and on PostgreSQL
pytest-django could not drop the test database at the end ("being accessed by
other users", a warning in every CI run). launched() closes it with the browser.
"""

import os
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connections

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
#: Every wait on a page, unless a step says otherwise: Playwright's own 5 s for an
#: `expect` was short for an autosave's "Saved" with a whole suite running beside it.
STEP_TIMEOUT_MS = 20_000
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextmanager
def launched():
    """A running Chromium (skips the test where Chromium or Playwright is missing)."""
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="browser tests need Playwright (pip install playwright)"
    )
    with sync_api.sync_playwright() as playwright:
        sync_api.expect.set_options(timeout=STEP_TIMEOUT_MS)
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
            connections.close_all()  # inside the loop's context: the connections opened there
