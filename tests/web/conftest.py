"""One `koloda serve --http` for the page's tests, and a headless chromium to drive it.

The browser is Debian's chromium (`/usr/bin/chromium`), driven by the `playwright` package
with `executable_path`; no browser is ever downloaded.  .ci/run installs chromium and sets
KOLODA_REQUIRE_BROWSER=1, so there a missing browser fails the browser tests instead of
skipping them.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from koloda.serve.soak import start_server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "reports" / "screenshots"


#: the token of the server started with one; a `+` and a `/`, as the fragment escapes them
TOKEN = "page+token/0123456789abcdef"


@pytest.fixture(scope="session")
def web_url():
    process, url = start_server(workers=1, extra=("--max-ms", "2000"))
    yield url
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="session")
def web_token() -> str:
    return TOKEN


@pytest.fixture(scope="session")
def token_web_url():
    """A server started with --token: its URL is the page's, the token in the fragment."""
    process, url = start_server(workers=1, extra=("--max-ms", "2000", "--token", TOKEN))
    yield url
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="session")
def quintet_url():
    """A server that also knows Quintet, the tests' fifth game (tests/web/quintet_server.py):
    the page meets a game it has no drawing of its own for."""
    launcher = Path(__file__).with_name("quintet_server.py")
    process = subprocess.Popen([sys.executable, str(launcher), "serve", "--http", "--port", "0",
                                "--workers", "1", "--max-ms", "2000"],
                               stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if "http://" not in line:
        process.kill()
        raise RuntimeError(f"the Quintet server did not start: {line!r}")
    yield line.split()[-1]
    process.terminate()
    process.wait(timeout=30)


def _missing_browser() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install '.[test]')"
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)"
    return None


@pytest.fixture(scope="session")
def browser():
    missing = _missing_browser()
    if missing:
        if os.environ.get("KOLODA_REQUIRE_BROWSER") == "1":
            pytest.fail(f"a browser is required (KOLODA_REQUIRE_BROWSER=1): {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _open_page(browser, url: str):
    """The page at `url`, ready; after the test, no script error and nothing fetched from
    another server."""
    server = url.split("#")[0].rstrip("/")
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors, elsewhere = [], []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: None if request.url.startswith((server, "blob:", "data:"))
            else elsewhere.append(request.url))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    yield page
    context.close()
    assert errors == [], errors
    assert elsewhere == [], f"the page fetched from elsewhere: {elsewhere}"


@pytest.fixture
def page(browser, web_url):
    yield from _open_page(browser, web_url)


@pytest.fixture
def token_page(browser, token_web_url):
    """The page of the server with a token, opened at /#token=TOKEN as it prints it."""
    yield from _open_page(browser, token_web_url)


@pytest.fixture
def quintet_page(browser, quintet_url):
    yield from _open_page(browser, quintet_url)


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
