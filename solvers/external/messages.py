"""The messages of koloda's agent protocol, version 1 (docs/agents.md): what koloda sends,
and the agent's answers read and checked field by field.

koloda sends one JSON object per line, ASCII only:

    {"type": "hello", "protocol": 1}
    {"type": "new_game", "game": "durak", "seat": 1, "players": 2, "seed": 123}
    {"type": "go", "events": [...], "legal": ["beat 9s", "take"], "budget": {"ms": 200},
     "view": {...}}
    {"type": "game_over", "events": [...], "returns": [-1.0, 1.0]}
    {"type": "quit"}

and reads, to `hello` and `go` only:

    {"type": "hello", "name": "my bot"}
    {"type": "move", "action": "take"}

An answer is bounded (MAX_LINE_BYTES), UTF-8, strict JSON (no NaN), an object with exactly
its fields: anything else is `BadMessage`; a move that is not one of `legal`, exactly as
written there, is `IllegalMove`.  Neither error's message repeats what the agent wrote
(that goes, cut, to the agent's own log only: `excerpt`).
"""

from __future__ import annotations

import json

PROTOCOL = 1
#: the longest answer line read, newline included; a longer one is a bad message
MAX_LINE_BYTES = 64 * 1024
#: the longest name an agent may give in its hello
MAX_NAME_CHARS = 100
#: how much of a bad answer an agent's log repeats
EXCERPT_CHARS = 200


class BadMessage(ValueError):
    """An answer that is not the message expected (the text says what is wrong with it)."""


class IllegalMove(ValueError):
    """A `move` whose action is not one of the legal actions sent."""


def encode(message: dict) -> bytes:
    """One line: compact strict JSON, ASCII, and the newline."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False).encode("ascii") + b"\n"


def hello() -> dict:
    return {"type": "hello", "protocol": PROTOCOL}


def new_game(game: str, seat: int, players: int, seed: int) -> dict:
    return {"type": "new_game", "game": game, "seat": seat, "players": players, "seed": seed}


def go(events: list[dict], legal: list[str], budget: dict, view: dict | None = None) -> dict:
    message = {"type": "go", "events": events, "legal": legal, "budget": budget}
    if view is not None:
        message["view"] = view
    return message


def game_over(events: list[dict], returns: list[float]) -> dict:
    return {"type": "game_over", "events": events, "returns": [float(r) for r in returns]}


def quit_message() -> dict:
    return {"type": "quit"}


def read_hello(line: bytes) -> str:
    """The name of a `hello` answer, or BadMessage."""
    answer = _object(line, "hello")
    _fields(answer, {"type", "name"}, "hello")
    name = answer["name"]
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME_CHARS \
            or not name.isprintable():
        raise BadMessage(f"the hello's name must be printable text of 1 to "
                         f"{MAX_NAME_CHARS} characters")
    return name


def read_move(line: bytes, legal: list[str]) -> str:
    """The action of a `move` answer, one of `legal`; BadMessage or IllegalMove."""
    answer = _object(line, "move")
    _fields(answer, {"type", "action"}, "move")
    action = answer["action"]
    if not isinstance(action, str):
        raise BadMessage(f"a move's action must be a string, not {_kind(action)}")
    if action not in legal:
        raise IllegalMove(f"answered an action that is not one of the {len(legal)} legal "
                          f"actions sent")
    return action


def excerpt(line: bytes) -> str:
    """A bad answer as a log may repeat it: cut, one line, control characters escaped."""
    text = line[:EXCERPT_CHARS * 4].decode("utf-8", "replace")
    cut = text[:EXCERPT_CHARS]
    shown = cut.encode("unicode_escape").decode("ascii")
    return shown + ("..." if len(text) > EXCERPT_CHARS or len(line) > EXCERPT_CHARS * 4
                    else "")


def _object(line: bytes, expected: str) -> dict:
    if len(line) > MAX_LINE_BYTES:
        raise BadMessage(f"the answer line is longer than {MAX_LINE_BYTES} bytes")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise BadMessage("the answer is not UTF-8 text") from None
    try:
        answer = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise BadMessage("the answer is JSON nested too deeply") from None
    except ValueError as err:                   # JSONDecodeError, NaN, 4300+ digits
        reason = err.msg if isinstance(err, json.JSONDecodeError) else str(err)
        raise BadMessage(f"the answer is not JSON ({reason})") from None
    if not isinstance(answer, dict):
        raise BadMessage(f"the answer is {_kind(answer)}, not a JSON object")
    if answer.get("type") != expected:
        kind = answer.get("type")
        shown = repr(kind) if isinstance(kind, str) and len(kind) <= 20 else _kind(kind)
        raise BadMessage(f"expected a {expected!r} message, got type {shown}")
    return answer


def _fields(answer: dict, fields: set, kind: str) -> None:
    missing = fields - set(answer)
    if missing:
        raise BadMessage(f"a {kind} message needs {', '.join(sorted(missing))}")
    extra = set(answer) - fields
    if extra:
        raise BadMessage(f"a {kind} message has only {', '.join(sorted(fields))}; it had "
                         f"{len(extra)} other field{'s' * (len(extra) > 1)}")


def _no_constant(name: str):
    raise ValueError(f"{name} is not strict JSON")


def _kind(value) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            type(None): "null", int: "a number", float: "a number"}.get(type(value),
                                                                        "a value")
