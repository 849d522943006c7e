"""`koloda agent SPEC`: one of koloda's own agents as a program of the agent protocol, so
that it can play in another tournament runner, and so that the protocol is tested
against koloda itself (an agent through the protocol plays the moves it plays in
process, for the same seed).

The agent is built once per game from `new_game`'s seed, as a tournament builds it in
process; each `go` brings the events the seat heard, which the tracker (track.py) turns
into a state that agrees with them, and the agent moves from that state as it would
from the true one (it only ever looks at a resample of the seat's information state).
Its time is the `go`'s budget, less what tracking took.  The agent is prepared for its
game (for every game it plays, without --game) before the program says hello, so its
start, within the runner's `start_ms`, pays for compiling, never a move
(solvers/prepare.py).  When no state agrees with the
events (the tracker gives up within its bounds), the bot says so on stderr and answers a
random legal action, so the game goes on, for the rest of that game (the tracker is not
asked again: it would spend its bounds on every move).  An agent that exits or raises its
own KeyboardInterrupt in its move ends the program with one line naming that failure
(solvers/interrupts.py), not as a person's Ctrl-C.
"""

from __future__ import annotations

import random
import sys
import time

from koloda import games, solvers
from koloda.bot.loop import run
from koloda.bot.track import Tracker, TrackError
from koloda.solvers.interrupts import exits_as_agent_error, signals_noted
from koloda.solvers.prepare import prepare


class KolodaAgentBot:
    """The bot of one agent spec; `game`, when given, the one game it plays."""

    def __init__(self, spec: str, game: str | None = None, name: str | None = None):
        self.spec = spec
        self.only = None
        if game is not None:
            self.only = games.normalize_game_string(game)
        solvers.check_spec(games.load_game(game or _a_game_of(spec)), spec)
        for played in [game] if game is not None else _games_of(spec):
            prepare(games.load_game(played), spec)     # before hello: within start_ms
        self.name = name or f"koloda {spec}"
        self.agent = None
        self.tracker = None
        self.seat = None

    def new_game(self, game) -> None:
        normal = games.normalize_game_string(game.game)
        if self.only is not None and normal != self.only:
            raise SystemExit(f"koloda agent: this agent plays {self.only}, and new_game "
                             f"names {normal}")
        loaded = games.load_game(game.game)
        self.agent = solvers.load_agent(loaded, self.spec, seed=game.seed)
        self.agent.start_game(game.seat)
        self.seat = game.seat
        self.tracker = Tracker(loaded, game.seat, random.Random(f"{game.seed}/track"))
        self._fallback = random.Random(f"{game.seed}/fallback")
        self.lost = False

    def go(self, events, legal, budget, game) -> str:
        received = time.perf_counter()
        if self.lost:
            return self._fallback.choice(legal)
        try:
            self.tracker.tell(events)
            state = self.tracker.position(legal)
        except TrackError as err:
            print(f"koloda agent: {err}; random legal actions for the rest of this game",
                  file=sys.stderr, flush=True)
            self.lost = True
            return self._fallback.choice(legal)
        self.agent.time_budget = _less(budget, (time.perf_counter() - received) * 1000.0)
        with exits_as_agent_error(self.spec):     # its failure, not a person's Ctrl-C
            action = self.agent.step(state)
        return state.action_to_string(self.seat, action)

    def game_over(self, events, returns, game) -> None:
        self.agent = self.tracker = None


def _a_game_of(spec: str) -> str:
    """A game the spec's agent kind plays, to check its spec in before any new_game."""
    name, _ = solvers.parse_spec(spec)
    kind = next((k for k in solvers.agent_kinds() if k.name == name), None)
    played = [g for g in kind.games() if g != "*"] if kind is not None else []
    return played[0] if played else "durak"


def _games_of(spec: str) -> list[str]:
    """The games (at their defaults) the spec's agent kind plays: what `koloda agent`
    without --game prepares."""
    name, _ = solvers.parse_spec(spec)
    kind = next(k for k in solvers.agent_kinds() if k.name == name)
    return [g.name for g in games.catalog() if kind.for_game(games.load_game(g.name).get_type())]


def _less(budget: dict, spent_ms: float) -> dict:
    """The budget left after `spent_ms`."""
    if "ms" in budget:
        return {"ms": max(1, budget["ms"] - spent_ms)}
    return {"remaining_ms": max(0, budget["remaining_ms"] - spent_ms),
            "increment_ms": budget["increment_ms"]}


def run_agent(spec: str, game: str | None = None, name: str | None = None) -> int:
    """Play the protocol on stdin/stdout until `quit`; anything else koloda prints goes
    to stderr, so stdout carries protocol lines only."""
    with signals_noted():      # an agent's own KeyboardInterrupt is not a person's Ctrl-C
        bot = KolodaAgentBot(spec, game, name)
        out, sys.stdout = sys.stdout, sys.stderr
        try:
            return run(bot, name=bot.name, stdin=sys.stdin, stdout=out)
        finally:
            sys.stdout = out
