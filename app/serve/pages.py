"""The page that plays in the browser, served by `koloda serve --http`: `GET /` from a
client that prefers HTML, and its files at `/static/NAME`, only those of its own folder."""

from __future__ import annotations

from pathlib import Path

#: the page's folder, and the types of the files it holds
WEB = Path(__file__).resolve().parent / "web"
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}


def prefers_html(accept: str) -> bool:
    """Whether an Accept header ranks HTML above JSON, as a browser's does (`text/html,
    ...,*/*;q=0.8`); no header, `*/*`, `application/json`, or a tie keep the JSON `hello`.
    Each type takes the quality of its most specific range (`text/html`, then `text/*`,
    then `*/*`)."""
    ranges = {}
    for item in accept.split(","):
        kind, *params = [part.strip() for part in item.split(";")]
        quality = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        ranges[kind.lower()] = quality

    def quality_of(kind: str) -> float:
        family = kind.split("/")[0] + "/*"
        for name in (kind, family, "*/*"):
            if name in ranges:
                return ranges[name]
        return 0.0

    html, json = quality_of("text/html"), quality_of("application/json")
    return html > 0 and html > json


def web_file(name: str):
    """One file of the page (`index.html`, `app.js`, `style.css`), or a plain 404: only
    the files in the folder itself, by their exact names, are served."""
    from starlette.responses import Response
    path = WEB / name
    kind = CONTENT_TYPES.get(path.suffix)
    hidden = "/" in name or "\\" in name or name.startswith(".")
    if kind is None or hidden or not path.is_file():
        return no_file(name)
    return Response(path.read_bytes(), media_type=kind, headers={"Cache-Control": "no-cache"})


def no_file(name: str):
    from starlette.responses import Response
    return Response(f"no file {name!r} here\n", status_code=404, media_type="text/plain")
