"""A game's spec and its registration: with OpenSpiel (so `pyspiel.load_game` and every
OpenSpiel algorithm see it) and in koloda's own list (for `load_game` and `koloda games`)."""

from __future__ import annotations

from dataclasses import dataclass

import pyspiel

from koloda.games.kit.params import Param

#: The budgets `GameSpec.strongest` names: `quick`, tens of milliseconds a move, what the
#: default tournament affords (configs/default.toml); `full`, the game's strongest level
#: once its goal gauntlet (configs/top-<game>.toml) has measured it, up to a second a move.
BUDGETS = ("quick", "full")


@dataclass(frozen=True)
class GameSpec:
    """What the rest of koloda needs to know of a game, so that no caller names games.

    `opponent` is the agent spec a person plays against when they choose none (the
    terminal, the page, an app reading `hello`); `strongest` the strongest agent the
    reports document at each of `BUDGETS`, as (budget, spec) pairs.  Specs are strings,
    built by the solvers' registry: the games know no agents."""
    game_type: pyspiel.GameType
    game_class: type
    parameters: tuple[Param, ...]
    summary: str
    opponent: str
    strongest: tuple[tuple[str, str], ...]

    @property
    def name(self) -> str:
        return self.game_type.short_name

    @property
    def long_name(self) -> str:
        return self.game_type.long_name

    def strongest_at(self, budget: str) -> str:
        """The strongest documented agent's spec at `budget` (one of BUDGETS)."""
        return dict(self.strongest)[budget]


SPECS: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Register `spec` with OpenSpiel and with koloda; returns it."""
    budgets = tuple(budget for budget, _ in spec.strongest)
    if budgets != BUDGETS:
        raise ValueError(f"{spec.name}: strongest names the budgets {budgets}, not {BUDGETS}")
    pyspiel.register_game(spec.game_type, spec.game_class)
    SPECS[spec.name] = spec
    return spec
