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
    # simulations; at 30000, level 8 until it took a learned value, 88.0% against the
    # heuristic over 400 games (reports/experiments/top-durak-30000.md), about 0.3 s a
    # move.  The learned level 8 replaces it here once configs/top-durak.toml has measured
    # it.
    strongest=(("quick", "ismcts(sims=200)"), ("full", "ismcts(sims=30000)")),
))

__all__ = ["GAME_TYPE", "PARAMETERS", "SPEC", "DurakGame", "DurakRules", "DurakState"]
