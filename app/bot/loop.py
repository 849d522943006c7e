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
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field

PROTOCOL = 1


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
    the end of input; returns 0, for `sys.exit(run(...))`."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    name = name or getattr(bot, "name", None) or getattr(bot, "__name__", None) or "bot"
    game = None
    for line in stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            _send(stdout, {"type": "hello", "name": str(name)[:100]})
        elif kind == "new_game":
            game = Game(message["game"], message["seat"], message["players"],
                        message["seed"])
            if hasattr(bot, "new_game"):
                bot.new_game(game)
        elif kind == "go":
            events = message["events"]
            game.events.extend(events)
            game.view = message.get("view")
            if callable(getattr(bot, "go", None)):
                action = bot.go(events, message["legal"], message["budget"], game)
            else:
                action = bot(message["legal"], events, message["budget"], game)
            _send(stdout, {"type": "move", "action": action})
        elif kind == "game_over":
            game.events.extend(message["events"])
            if hasattr(bot, "game_over"):
                bot.game_over(message["events"], message["returns"], game)
            game = None
        elif kind == "quit":
            break
    return 0


def _send(stdout, message: dict) -> None:
    stdout.write(json.dumps(message) + "\n")
    stdout.flush()
