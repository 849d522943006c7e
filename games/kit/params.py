"""One grammar for `name(key=value,...)` and one parameter type, for game strings and agent
specs alike.

    durak(players=4,ranks=13)        ismcts(sims=2000,seed=7)        cfr(policy="a,b.json")

A value is an int (`-12`, ASCII digits only), a float (`0.5`, `1e-3`), a boolean (`true`,
`false`) or a string: bare (letters, digits and `_ . / : -`) or quoted with `"` or `'` to
hold anything else.  Keys appear once; empty items (`a=1,,b=2`) are refused.  A `Param`
declares a name, a type, a default, an allowed range or set of choices and a help line;
`validate` checks a parsed dict against a tuple of them and fills in the defaults.

Errors are raised as the caller's error class (GameParameterError for game strings,
AgentSpecError for agent specs) with a message that names the text and what is wrong; a
long text or value is cut in the message, so a careless input never makes a huge one.
Integers have at most 20 digits, floats are finite, and text values are valid UTF-8
without NUL and of bounded length, so nothing unbounded reaches OpenSpiel's C++ layer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_INT = re.compile(r"-?[0-9]+\Z", re.ASCII)
_FLOAT = re.compile(r"-?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+(?=[eE]))(?:[eE][-+]?[0-9]+)?\Z",
                    re.ASCII)
_BARE = re.compile(r"[A-Za-z0-9_./:+-]+\Z", re.ASCII)
_SPECIAL = frozenset(",()=\"' ")

MAX_INT_DIGITS = 20      # more than any bound of a parameter; int() refuses 4300+
MAX_TEXT = 500           # characters of a text parameter unless it sets its own limit
SHOWN_TEXT = 200         # characters of an input text that a message repeats
SHOWN_VALUE = 20         # characters of one value that a message repeats


def shown(text, limit: int = SHOWN_TEXT) -> str:
    """`repr(text)` for a message, cut after `limit` characters (then `...`)."""
    if isinstance(text, str):
        return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."
    written = repr(text)
    return written if len(written) <= limit else written[:limit] + "..."


def cut(text: str, limit: int = SHOWN_TEXT) -> str:
    """`text` itself, cut after `limit` characters (then `...`)."""
    return text if len(text) <= limit else text[:limit] + "..."


def parse_call(text, what: str, error: type[Exception]) -> tuple[str, dict]:
    """`name(key=value,...)` -> (name, {key: typed value}); `what` names the text in errors
    ("game string", "agent spec")."""
    if not isinstance(text, str):
        raise error(f"{what} must be a string like name(key=value,...), not {shown(text)}")
    stripped = text.strip()
    name, paren, rest = stripped.partition("(")
    name = name.strip()
    if not _NAME.match(name) or (paren and not rest.endswith(")")):
        raise error(f"{what} {shown(text)}: expected name or name(key=value,...)")
    params: dict = {}
    if not paren:
        return name, params
    for item in _split_items(rest[:-1], text, what, error):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not _NAME.match(key):
            raise error(f"{what} {shown(text)}: {shown(item.strip(), SHOWN_VALUE)} is not "
                        f"key=value")
        if key in params:
            raise error(f"{what} {shown(text)}: {cut(key, SHOWN_VALUE)} is given twice")
        params[key] = _read_value(key, value.strip(), text, what, error)
    return name, params


def format_call(name: str, params: dict) -> str:
    """The canonical text of a name and parameters (keys sorted); parses back to the same."""
    if not params:
        return name
    items = ",".join(f"{key}={format_value(params[key])}" for key in sorted(params))
    return f"{name}({items})"


def format_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str) and (not value or not _BARE.match(value)
                                   or _INT.match(value) or _FLOAT.match(value)
                                   or value.lower() in ("true", "false")):
        quote = "'" if '"' in value else '"'
        return quote + value + quote
    return str(value)


def _split_items(body: str, text: str, what: str, error) -> list[str]:
    """The comma-separated items of a parameter list, commas inside quotes kept."""
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
            raise error(f"{what} {shown(text)}: unexpected {ch!r}; quote the value")
        else:
            current.append(ch)
    if quote:
        raise error(f"{what} {shown(text)}: unterminated quote")
    last = "".join(current)
    if last.strip() or items:
        items.append(last)
    if any(not item.strip() for item in items):
        raise error(f"{what} {shown(text)}: empty parameter between commas")
    return items


def _read_value(key: str, token: str, text: str, what: str, error):
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "\"'":
        return token[1:-1]
    lowered = token.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if _INT.match(token):
        return _read_int(key, token, text, what, error)
    if _FLOAT.match(token):
        return _read_float(key, token, text, what, error)
    if not _BARE.match(token):
        raise error(f"{what} {shown(text)}: cannot read the value "
                    f"{shown(token, SHOWN_VALUE)}; quote a text value")
    return token


def _read_int(key: str, token: str, text: str, what: str, error) -> int:
    """An integer literal; a longer one than any parameter takes is refused before int()
    spends time on it (or refuses it past 4300 digits)."""
    digits = len(token.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise error(f"{what} {shown(text, 40)}: {cut(key, SHOWN_VALUE)}="
                    f"{cut(token, SHOWN_VALUE)} has too many digits ({digits}); an integer "
                    f"has at most {MAX_INT_DIGITS}")
    return int(token)


def _read_float(key: str, token: str, text: str, what: str, error) -> float:
    """A float literal; one beyond the range of floats (1e400) is refused, not read as inf."""
    value = float(token)
    if not math.isfinite(value):
        raise error(f"{what} {shown(text, 40)}: {cut(key, SHOWN_VALUE)}="
                    f"{cut(token, SHOWN_VALUE)} is too large for a number")
    return value


@dataclass(frozen=True)
class Param:
    """One parameter of a game or an agent: what `koloda games` and `agent_kinds` list and
    what `validate` checks.  `low`/`high` bound numbers (inclusive); `choices` lists the
    allowed values; `max_length` bounds a text's characters; `allowed` overrides the
    wording of the range in messages."""

    name: str
    type: Any           # int, float, bool or str (Any: narrowing by it would lose the value's type)
    default: object
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple | None = None
    allowed: str | None = None
    max_length: int = MAX_TEXT

    def describe_range(self) -> str:
        if self.allowed:
            return self.allowed
        if self.choices is not None:
            return " or ".join(format_value(c) for c in self.choices)
        if self.low is not None and self.high is not None:
            return f"{self.low}..{self.high}"
        if self.low is not None:
            return f"at least {self.low}"
        if self.high is not None:
            return f"at most {self.high}"
        return f"any {self.type.__name__}"

    def check(self, value: Any, owner: str, error: Callable[[str], Exception]):
        """`value` as this parameter's type, or `error` naming the parameter and the range."""
        if self.type is float and type(value) is int:
            value = _as_float(value)
        if type(value) is not self.type:
            raise error(f"{owner} parameter {self.name} must be {self.type.__name__} "
                        f"(like {self.name}={format_value(self.default)}), not "
                        f"{shown(value, SHOWN_VALUE)}")
        if self.type is float and not math.isfinite(value):
            raise error(f"{owner} parameter {self.name} must be a finite number, not {value!r}")
        if self.type is str:
            self._check_text(value, owner, error)
        out_of_range = (
            (self.choices is not None and value not in self.choices)
            or (self.low is not None and value < self.low)
            or (self.high is not None and value > self.high))
        if out_of_range:
            raise error(f"{owner} parameter {self.name} must be {self.describe_range()}, "
                        f"not {cut(format_value(value), SHOWN_VALUE)}")
        return value

    def _check_text(self, value: str, owner: str, error) -> None:
        """Text that OpenSpiel can carry: bounded, valid UTF-8 (no lone surrogate), no NUL."""
        if len(value) > self.max_length:
            raise error(f"{owner} parameter {self.name} must be at most {self.max_length} "
                        f"characters, not {len(value)} ({shown(value, SHOWN_VALUE)})")
        if "\x00" in value or not _encodable(value):
            raise error(f"{owner} parameter {self.name} must be text that UTF-8 can write, "
                        f"without NUL or lone surrogates, not {shown(value, SHOWN_VALUE)}")


def _as_float(number: int) -> float:
    """An int as a float; one beyond the range of floats becomes an infinity, refused."""
    try:
        return float(number)
    except OverflowError:
        return math.inf if number > 0 else -math.inf


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def validate(params: tuple[Param, ...], raw: dict, owner: str,
             error: type[Exception]) -> dict:
    """Every parameter's value (defaults filled in), checked; unknown names are refused
    with the list of known ones."""
    by_name = {p.name: p for p in params}
    unknown = [key for key in raw if key not in by_name]
    if unknown:
        known = ", ".join(f"{p.name} ({p.help})" for p in params) or "none"
        raise error(f"{owner} has no parameter {_names(unknown)}; its parameters: {known}")
    return {p.name: p.check(raw[p.name], owner, error) if p.name in raw else p.default
            for p in params}


def _names(keys: list, most: int = 5) -> str:
    """The first few `keys`, each cut, for a message."""
    names = ", ".join(shown(key, SHOWN_VALUE) for key in keys[:most])
    return names + (f" and {len(keys) - most} more" if len(keys) > most else "")
