"""`level(n=1..8)` and `level(elo=...)`: opponents an app can tune, as chess engines' skill
levels are.

Each level is a fixed spec per game (`LEVELS`), with a budget of simulations, never of time,
so a faster machine plays each level as strongly and only sooner.  Weak levels search less
and choose among their search's moves with a temperature (solvers/search/move_choice.py):
they play what looks plausible to a short search, not uniformly random moves.

A level's strength is measured, not asserted: `configs/levels-<game>.toml` plays the ladder
(paired deals, seats rotated) and `koloda levels calibrate` writes each level's Elo, its 95%
interval and its time per move into `levels.json` beside this module, with the spec it
measured.  An entry whose spec is no longer the level's is stale and not used.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from koloda.games.kit.params import Param, validate
from koloda.solvers.agent import Agent
from koloda.solvers.errors import AgentSpecError
from koloda.solvers.registry import load_agent, register

#: the temperatures of levels 1 to 3; the others play their search's most visited move
TEMPERATURES = (1.0, 0.5, 0.25)


def _searches(kind: str, sims: tuple[int, ...],
              temperatures: tuple[float, ...] = TEMPERATURES) -> tuple[str, ...]:
    """Searches of `kind` with these budgets, the first ones choosing warmer the less
    they search."""
    warmth = tuple(temperatures) + (0.0,) * len(sims)
    return tuple(f"{kind}(sims={n},temperature={t})" if t else f"{kind}(sims={n})"
                 for n, t in zip(sims, warmth))


#: the levels, weakest first, per game short name; level n is LEVELS[game][n - 1].  The
#: budgets grow about threefold a level; Platinum Fish's are lower, its games being about
#: twice as long in moves.  Its search gains little above a few thousand simulations: in
#: its first full ladder 10000 stood 69 Elo [30, 110] above 1500 and 500 80 [45, 114] above
#: 270 (reports/experiments/platinum_fish-levels-first.md), so its levels 6 and 7 search 320 and
#: 900 and its four weakest share the wide steps below 150 (placed by paired pilots against
#: the measured levels, and levels 3 and 4 by the later ladders, reports/strength-levers.md).
#: Durak's search with random playouts gains little above 10000 simulations (30000 scored
#: 56.0% against 10000 over 200 ladder games, reports/experiments/durak-levels-10000.jsonl);
#: its top level values its leaves with the learned model durak-v2 instead, at 22000
#: simulations, about nine tenths of the time of 30000 playouts, where it scored 70.5%
#: [64.5, 76.5] against ismcts(sims=30000) over 200 games (reports/learned.md).  Its
#: level 1 searches four simulations.
#: Snitch's search gains little above a few hundred random playouts (500 stood about 70
#: Elo above 300 in one fit of its pilots on matches to 1000, reports/strength-levers.md), and
#: little
#: below ten (level 1's two simulations stand about 20 Elo above random, four about 40),
#: so its eight levels share about 650 Elo: levels 1 to 5 search 2 to 100 simulations
#: played warm, 6 and 7 search 150 and 500, and its top level values its leaves with the
#: learned model and keeps the heuristic's move in view
#: (`prior=0.5`: +7.7 points [+0.9, +14.5] against two heuristic players over 100 shared
#: deals); ten times its 3000 simulations lost to it (reports/experiments/snitch-top-pilot.md).
#: Its levels are placed by those pilots and its ladders, about 95 Elo a step.
#: Reading the hidden cards from play (`infer`) is no level's: in Durak's ladder
#: `ismcts(infer=200,sims=40000)` scored 47.5% over 101 games against 10000 plain
#: simulations (reports/experiments/durak-level8-infer.jsonl), and in Snitch it did not pay
#: (reports/strength-levers.md).
LEVELS: dict[str, tuple[str, ...]] = {
    "durak": _searches("ismcts", (4, 10, 30, 100, 300, 1000, 3000),
                       temperatures=(1.0,) + TEMPERATURES)
    + ("ismcts(sims=22000,value=durak-v2)",),
    "platinum_fish": _searches("ismcts", (5, 12, 35, 80, 150, 320, 900, 10000),
                               temperatures=(1.0, 0.5)),
    "snitch": _searches("ismcts", (2, 16, 30, 60, 100, 150, 500),
                        temperatures=(1.0, 1.0, 0.5, 0.3, 0.2))
    + ("ismcts(prior=0.5,rollout=learned,sims=3000,uct_c=0.1)",),
    "parket": _searches("mcts", (10, 30, 100, 300, 1000, 3000, 10000))
    + ("solver(reach=16,sims=10000)",),
}
COUNT = 8
#: the game string each game's ladder is played on (its Elo is measured there).  Snitch's
#: is its own whole match to 1000: on matches to 300 luck decides so much that its levels
#: spanned about 450 Elo from random to the top, too little for eight levels with gaps
#: that show (reports/strength-levers.md)
LADDER_GAMES = {"durak": "durak", "platinum_fish": "platinum_fish", "snitch": "snitch",
                "parket": "parket"}
#: the agent at Elo 0 of every ladder
ANCHOR = "heuristic"
CALIBRATION = Path(__file__).with_name("levels.json")

#: the level `level` plays when neither n nor elo is given
MIDDLE = 4
N = Param("n", int, 0, f"the level, 1 (weakest) to {COUNT}; 0: chosen by elo, or {MIDDLE} "
          "without it", low=0, high=COUNT)
ELO = Param("elo", int, 0, "the level whose measured Elo (the heuristic's is 0) is nearest; "
            "0: not used", low=-5000, high=5000)


@dataclass(frozen=True)
class Level:
    """One level of one game as `hello` lists it: its spec, and where its ladder measured
    it, its Elo against the heuristic (0) with the 95% interval and its time per move."""
    n: int
    spec: str
    elo: float | None = None
    low: float | None = None
    high: float | None = None
    ms_per_move: float | None = None

    def entry(self) -> dict:
        return {"level": self.n, "spec": self.spec, "elo": _rounded(self.elo),
                "low": _rounded(self.low), "high": _rounded(self.high),
                "ms_per_move": _rounded(self.ms_per_move, 1)}


def _rounded(value, digits=0):
    return None if value is None else round(value, digits) if digits else round(value)


def levels_of(game_name: str, data: dict | None = None) -> list[Level]:
    """The levels of a game (its short name), with their measured strength where the
    calibration (levels.json, or `data` read from such a file) measured this very spec on
    the game its ladder plays today."""
    specs = LEVELS.get(game_name)
    if specs is None:
        raise AgentSpecError(f"no levels for {game_name}; levels exist for "
                             f"{', '.join(sorted(LEVELS))}")
    entry = calibration_of(game_name, data) or {}
    measured = {row["n"]: row for row in entry.get("levels", [])}
    levels = []
    for n, spec in enumerate(specs, 1):
        row = measured.get(n)
        if row is None or row.get("spec") != spec:
            levels.append(Level(n, spec))
        else:
            levels.append(Level(n, spec, row["elo"], row["low"], row["high"],
                                row.get("ms_per_move")))
    return levels


def level_entries(game_name: str) -> list[dict]:
    """A game's levels as `hello` lists them (docs/protocol.md): each level's spec, and
    its Elo (the heuristic at 0), 95% interval and milliseconds a move as its ladder on
    `LADDER_GAMES[game_name]` measured them, or null where not measured."""
    return [level.entry() for level in levels_of(game_name)] if game_name in LEVELS else []


def nearest_level(game_name: str, elo: float) -> Level:
    """The calibrated level whose Elo is nearest `elo` (the weaker one on a tie)."""
    measured = [level for level in levels_of(game_name) if level.elo is not None]
    if not measured:
        raise AgentSpecError(f"the levels of {game_name} have no measured Elo yet; choose "
                             f"one by n=1..{COUNT}")
    return min(measured, key=lambda level: (abs(level.elo - elo), level.n))


def calibration_of(game_name: str, data: dict | None = None) -> dict | None:
    """The game's entry in levels.json (or in `data`, read from such a file) if its ladder
    was played on the game it plays today: a measurement on another variant places the
    same specs elsewhere on the scale."""
    entry = (_calibration() if data is None else data).get(game_name)
    return entry if entry and entry.get("game") == LADDER_GAMES[game_name] else None


@cache
def _calibration() -> dict:
    if not CALIBRATION.exists():
        return {}
    return json.loads(CALIBRATION.read_text())


@register("level", "one of eight levels of strength, weakest 1 to strongest 8, each a "
          "fixed search budget with its measured Elo (docs/levels.md)", params=(N, ELO))
class LevelAgent(Agent):
    """The agent of one level: the level's spec, built by the registry, plays every move."""

    def __init__(self, game, seed=0, n=0, elo=0):
        super().__init__(game, seed)
        self.level = self.chosen(game, n, elo)
        self.inner = load_agent(game, self.level.spec, seed=seed)

    @staticmethod
    def chosen(game, n: int, elo: int) -> Level:
        """Level n, or the one nearest `elo`, or without either the middle one."""
        name = game.get_type().short_name
        if n and elo:
            raise AgentSpecError(f"give the level n or an elo to choose it by, not both "
                                 f"(n={n}, elo={elo})")
        if elo:
            return nearest_level(name, elo)
        return levels_of(name)[(n or MIDDLE) - 1]

    @classmethod
    def plays(cls, game, raw: dict) -> str:
        """The spec that `level` with these parameters (as a spec gives them, no seed)
        plays: a server holds it to its limits of work."""
        values = validate((N, ELO), raw, "agent level", AgentSpecError)
        return cls.chosen(game, values["n"], values["elo"]).spec

    @classmethod
    def check(cls, game, params) -> None:
        """What building would refuse (a game without levels, an Elo not yet measured),
        refused where a server's request arrives."""
        cls.chosen(game, params["n"], params["elo"])

    def step(self, state) -> int:
        self.inner.time_budget = self.time_budget
        try:
            return self.inner.step(state)
        finally:
            self.last_visits = self.inner.last_visits

    def choose(self, view, player: int) -> int:
        return self.inner.choose(view, player)

    @property
    def last_simulations(self):
        """The simulations of the last move, for a level that searches (else None)."""
        return getattr(self.inner, "last_simulations", None)

    def prepare_kernels(self) -> None:
        self.inner.prepare_kernels()

    def restart(self) -> None:
        self.inner.restart()

    def start_game(self, seat: int) -> None:
        self.inner.start_game(seat)

    def game_over(self, state, returns) -> None:
        self.inner.game_over(state, returns)
