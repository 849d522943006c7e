"""Agent spec strings: `name` or `name(key=value,...)`, for example `ismcts(sims=2000,seed=7)`.

Values are ints, floats, booleans (`true`/`false`) or bare strings; a value may be quoted
to keep commas or parentheses in it (`cfr(policy="reports/a,b.json")`).
"""

from __future__ import annotations

import re

from koloda.solvers.errors import AgentSpecError

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


def parse_spec(spec: str) -> tuple[str, dict]:
    """Split a spec into its agent name and a dict of typed parameters."""
    text = spec.strip()
    if "(" not in text:
        if not _NAME.match(text):
            raise AgentSpecError(f"agent spec {spec!r}: expected name or name(key=value,...)")
        return text, {}
    name, _, rest = text.partition("(")
    name = name.strip()
    if not _NAME.match(name) or not rest.endswith(")"):
        raise AgentSpecError(f"agent spec {spec!r}: expected name or name(key=value,...)")
    params = {}
    for item in _split_args(rest[:-1], spec):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not _NAME.match(key):
            raise AgentSpecError(f"agent spec {spec!r}: {item.strip()!r} is not key=value")
        if key in params:
            raise AgentSpecError(f"agent spec {spec!r}: {key} is given twice")
        params[key] = _value(value.strip())
    return name, params


def format_spec(name: str, params: dict) -> str:
    """The canonical spec string of a name and parameters (sorted keys)."""
    if not params:
        return name
    items = ",".join(f"{k}={_format_value(v)}" for k, v in sorted(params.items()))
    return f"{name}({items})"


def _split_args(body: str, spec: str) -> list[str]:
    items, current, quote = [], [], None
    for ch in body:
        if quote:
            current.append(ch)
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
            current.append(ch)
        elif ch == ",":
            items.append("".join(current))
            current = []
        elif ch in "()":
            raise AgentSpecError(f"agent spec {spec!r}: unexpected {ch!r}; quote the value")
        else:
            current.append(ch)
    if quote:
        raise AgentSpecError(f"agent spec {spec!r}: unterminated quote")
    last = "".join(current)
    if last.strip() or items:
        items.append(last)
    return [item for item in items if item.strip() or _raise_empty(spec)]


def _raise_empty(spec: str) -> bool:
    raise AgentSpecError(f"agent spec {spec!r}: empty parameter between commas")


def _value(text: str):
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def _format_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and (set(value) & set(",()=\"' ") or not value):
        return '"' + value.replace('"', "") + '"'
    return str(value)
