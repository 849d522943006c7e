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
    # ismcts tops both Durak reports: 83.3% in reports/default--durak.md at 200
    # simulations; at 1000, 57.0% against pimc(sims=1000,worlds=20) and 73.8% against the
    # heuristic (reports/durak-agents--durak.md).
    strongest=(("quick", "ismcts(sims=200)"), ("full", "ismcts(sims=1000)")),
))

__all__ = ["GAME_TYPE", "PARAMETERS", "SPEC", "DurakGame", "DurakRules", "DurakState"]
