"""Durak with same-rank-or-suit throw-ins (`durak`), as docs/rules/durak.md plays it."""

from koloda.games.durak.game import GAME_TYPE, DurakGame, DurakState
from koloda.games.durak.rules import PARAMETERS, DurakRules
from koloda.games.kit.registration import GameSpec, register

SPEC = register(GameSpec(
    game_type=GAME_TYPE,
    game_class=DurakGame,
    parameters=PARAMETERS,
    summary="Durak: throw in cards of the same rank or suit; the last player holding cards loses",
    opponent="ismcts(ms=500)",
    # ismcts tops every Durak report: 83.3% in reports/default--durak.md at 200
    # simulations.  The full budget is level 8, valued by the learned durak-v2: 87.2%
    # against the heuristic over 400 games (reports/top-durak.md), 167 ms a move, and
    # 70.5% against the level 8 before it, ismcts(sims=30000), which scored 88.0% there
    # (reports/experiments/top-durak-30000.md; reports/learned.md).
    strongest=(("quick", "ismcts(sims=200)"), ("full", "ismcts(sims=22000,value=durak-v2)")),
))

__all__ = ["GAME_TYPE", "PARAMETERS", "SPEC", "DurakGame", "DurakRules", "DurakState"]
