"""The protocol loop of a bot for koloda's agent protocol (docs/agents.md), for a bot
written as one function or as a class.  Standard library only: a bot may copy this file
instead of installing koloda.

A function:

    from koloda.bot import run

    def choose(legal, events, budget, game):
        return legal[0]                      # one of `legal`, exactly as written

    run(choose, name="first-legal")

`legal` is this turn's legal actions, `events` what happened since the bot last heard
(its own moves included), `budget` its time ({"ms": 200} or {"remaining_ms": ...,
"increment_ms": ...}) and `game` a `Game`: the game string, the seat, the number of
players, the seed, every event so far, and the seat's `view` (what the seat sees now:
hand, table, counts) as the last `go` gave it.

A class, for a bot that keeps its own state:

    class MyBot:
        name = "mine"
        def new_game(self, game): ...            # a Game, no events yet
        def go(self, events, legal, budget, game): return legal[0]
        def game_over(self, events, returns, game): ...

`new_game` and `game_over` are optional.  The loop answers `hello` with the bot's name,
ends at `quit` or at the end of its input, and lets an exception in the bot end the
program (koloda records the game as the bot's loss, `crashed`).  Messages of types it
does not know are skipped, so a newer koloda's additions do not break an older bot.
Input that breaks the protocol (a line that is not a JSON object, one longer than
MAX_LINE_BYTES, a `go` before `new_game` or with no legal action) ends the loop with one
line on stderr naming the line and what is wrong, and `run` returns 2.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field

PROTOCOL = 1
#: the longest line read: a `go` carries the events since the bot last moved and the
#: seat's view, a few kilobytes in koloda's largest games
MAX_LINE_BYTES = 1024 * 1024


class ProtocolBreak(Exception):
    """A line of input the protocol does not allow (the message says what is wrong)."""


@dataclass
class Game:
    """One game as the bot has heard it."""
    game: str
    seat: int
    players: int
    seed: int
    events: list = field(default_factory=list)   # every event so far, as the seat saw it
    view: dict | None = None                     # the seat's view at the last `go`


def run(bot, name: str | None = None, stdin=None, stdout=None) -> int:
    """Speak the protocol for `bot` (a function or an object, as above) until `quit` or
    the end of input; returns 0, for `sys.exit(run(...))`, or 2 after input that breaks
    the protocol (said in one line on stderr)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    name = name or getattr(bot, "name", None) or getattr(bot, "__name__", None) or "bot"
    loop = _Loop(bot, str(name), stdout)
    number = 0
    try:
        for number, message in _messages(stdin):  # noqa: B007  (read after the loop)
            if not loop.answer(message):
                break
    except ProtocolBreak as err:
        print(f"{name}: input line {number + 1}: {err}", file=sys.stderr, flush=True)
        return 2
    return 0


def _messages(stdin):
    """(line number from 0, message) of every line of input that is not blank;
    ProtocolBreak for one that is too long or not a JSON object."""
    number = 0
    while True:
        try:
            line = stdin.readline(MAX_LINE_BYTES + 1)
        except UnicodeDecodeError:
            raise ProtocolBreak("it is not UTF-8 text") from None
        if not line:
            return
        if len(line) > MAX_LINE_BYTES:
            raise ProtocolBreak(f"it is longer than {MAX_LINE_BYTES} bytes")
        if line.strip():
            try:
                message = json.loads(line)
            except RecursionError:
                raise ProtocolBreak("its JSON is nested too deeply") from None
            except ValueError as err:
                raise ProtocolBreak(f"it is not JSON ({err})") from None
            if not isinstance(message, dict):
                raise ProtocolBreak(f"a message is a JSON object, not "
                                    f"{type(message).__name__}")
            yield number, message
        number += 1


#: message type -> its fields a bot needs, and their types
_FIELDS = {"new_game": {"game": str, "seat": int, "players": int, "seed": int},
           "go": {"events": list, "legal": list, "budget": dict},
           "game_over": {"events": list, "returns": list}}


class _Loop:
    """One bot's side of the protocol: the game as heard so far."""

    def __init__(self, bot, name: str, stdout):
        self.bot, self.name, self.stdout = bot, name, stdout
        self.game: Game | None = None

    def answer(self, message: dict) -> bool:
        """Act on one message (ProtocolBreak when it breaks the protocol); False at
        `quit`.  The bot's own exceptions go through."""
        kind = message.get("type")
        for name, kind_of in _FIELDS.get(kind, {}).items():
            if not isinstance(message.get(name), kind_of) or \
                    isinstance(message.get(name), bool):
                raise ProtocolBreak(f"a {kind}'s {name} must be a {kind_of.__name__}")
        bot, game = self.bot, self.game
        if kind in ("go", "game_over") and game is None:
            raise ProtocolBreak(f"a {kind} before any new_game")
        if kind == "hello":
            _send(self.stdout, {"type": "hello", "name": self.name[:100]})
        elif kind == "new_game":
            self.game = Game(message["game"], message["seat"], message["players"],
                             message["seed"])
            if hasattr(bot, "new_game"):
                bot.new_game(self.game)
        elif kind == "go":
            events, legal = message["events"], message["legal"]
            if not legal or not all(isinstance(action, str) for action in legal):
                raise ProtocolBreak("a go's legal must list one or more action strings")
            game.events.extend(events)
            game.view = message.get("view")
            if callable(getattr(bot, "go", None)):
                action = bot.go(events, legal, message["budget"], game)
            else:
                action = bot(legal, events, message["budget"], game)
            _send(self.stdout, {"type": "move", "action": action})
        elif kind == "game_over":
            game.events.extend(message["events"])
            if hasattr(bot, "game_over"):
                bot.game_over(message["events"], message["returns"], game)
            self.game = None
        elif kind == "quit":
            return False
        return True


def _send(stdout, message: dict) -> None:
    stdout.write(json.dumps(message) + "\n")
    stdout.flush()
