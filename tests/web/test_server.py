"""The page's side of `koloda serve --http`: GET / gives browsers the page and every other
client the JSON `hello` (docs/protocol.md), the page's files under /static/, and the files
shipped in the package."""

import http.client
import json
import re
import tomllib
from importlib import resources
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest

from koloda.protocol.handler import FIELDS, VERSION
from koloda.serve.pages import prefers_html

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "app" / "serve" / "web"
BROWSER_ACCEPT = ("text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,"
                  "image/webp,*/*;q=0.8")


def _get(url: str, path: str, accept: str | None = None, headers=None):
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    headers = {**({"Accept": accept} if accept is not None else {}), **(headers or {})}
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, response.getheader("content-type"), body


def test_a_browser_gets_the_page_at_the_root(web_url):
    status, kind, body = _get(web_url, "/", BROWSER_ACCEPT)
    assert status == 200 and kind == "text/html; charset=utf-8"
    page = body.decode()
    assert "<title>koloda" in page and 'src="static/app.js"' in page
    assert 'href="static/style.css"' in page


@pytest.mark.parametrize("accept", [None, "*/*", "application/json",
                                    "application/json, text/html;q=0.5"])
def test_other_clients_still_get_hello_as_json(web_url, accept):
    status, kind, body = _get(web_url, "/", accept)
    assert status == 200 and kind == "application/json"
    hello = json.loads(body)
    assert hello["type"] == "hello" and hello["protocol"] == VERSION


def test_the_page_opens_each_game_against_the_opponent_hello_names(web_url):
    """hello names each game's opponent; the page preselects it for the hint and every
    agent's seat and names no agent of its own, so the page and the terminal agree."""
    from koloda import games
    hello = json.loads(_get(web_url, "/", "application/json")[2])
    assert {g["name"]: g["opponent"] for g in hello["games"]} == \
        {spec.name: spec.opponent for spec in games.catalog()}
    script = (WEB / "app.js").read_text(encoding="utf-8")
    assert script.count("= game.opponent") == 1          # the hint
    assert "previous[i] : game.opponent" in script       # each seat, unless chosen there
    assert not re.search(r"""["'](ismcts|mcts|solver|pimc|heuristic)\b""", script)


@pytest.mark.parametrize("name, kind", [("app.js", "text/javascript; charset=utf-8"),
                                        ("style.css", "text/css; charset=utf-8")])
def test_the_static_files_are_served(web_url, name, kind):
    status, served, body = _get(web_url, f"/static/{name}")
    assert status == 200 and served == kind
    assert body == (WEB / name).read_bytes()


@pytest.mark.parametrize("path", ["/static/index.html", "/static/nope.js", "/static/",
                                  "/static/a/app.js",
                                  "/static/..%2Fserve_http.py", "/static/.hidden.css",
                                  "/static/__init__.py"])
def test_an_unknown_static_path_is_404(web_url, path):
    status, kind, body = _get(web_url, path)
    assert status == 404 and kind.startswith("text/plain")


def test_with_a_token_the_page_and_its_files_stay_public_but_hello_does_not(token_web_url,
                                                                           web_token):
    assert token_web_url.endswith("/#token=" + quote(web_token, safe=""))
    status, kind, body = _get(token_web_url, "/", BROWSER_ACCEPT)
    assert status == 200 and kind == "text/html; charset=utf-8"
    for name in ("app.js", "style.css"):
        assert _get(token_web_url, f"/static/{name}")[0] == 200
    status, kind, body = _get(token_web_url, "/")
    assert status == 401 and json.loads(body)["error"]["code"] == "unauthorized"
    status, kind, body = _get(token_web_url, "/", headers={"Authorization": f"Bearer {web_token}"})
    assert status == 200 and json.loads(body)["type"] == "hello"


def test_another_path_is_still_an_unknown_request(web_url):
    status, kind, body = _get(web_url, "/nope", BROWSER_ACCEPT)
    assert status == 400 and json.loads(body)["error"]["code"] == "unknown_request"


@pytest.mark.parametrize("accept, html", [
    ("", False), ("*/*", False), ("application/json", False), ("text/html", True),
    (BROWSER_ACCEPT, True), ("text/*", True), ("application/json;q=0.9, text/html", True),
    ("text/html;q=0.8, application/json", False), ("text/html;q=0", False),
    ("text/html;q=oops", False), ("text/html, application/json", False),
    ("text/html;q=0.9, */*", False), ("application/*;q=0.5, text/html;q=0.6", True)])
def test_the_accept_header_decides(accept, html):
    assert prefers_html(accept) is html


def test_the_package_ships_every_file_of_the_page():
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = setup["package-data"]["koloda.serve"]
    files = sorted(p.name for p in WEB.iterdir() if p.is_file())
    assert files == ["app.js", "index.html", "style.css"]
    for name in files:
        assert any(Path("web", name).match(pattern) for pattern in patterns), name
        assert (resources.files("koloda.serve") / "web" / name).is_file()


def test_the_page_fetches_nothing_from_elsewhere_and_speaks_only_the_protocol():
    for path in WEB.iterdir():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"https?://", text), path.name
    script = (WEB / "app.js").read_text(encoding="utf-8")
    used = set(re.findall(r'type: "(\w+)"', script))
    assert used and used <= set(FIELDS), used
