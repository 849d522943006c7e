"""Parket (`parket`): two players lay the red and the black cards into a 5 x 7 rectangle,
by the cross and the corner rules of docs/rules/parket.md.  Perfect information, no chance.

`from_position(text, **params)` starts a game at any position; `parse_position` and
`format_position` read and write the notation.
"""

from koloda.games.kit.params import format_call
from koloda.games.kit.registration import GameSpec, register
from koloda.games.parket.game import GAME_TYPE, ParketGame, ParketState
from koloda.games.parket.position import (
    Position,
    PositionError,
    format_position,
    read_position,
)
from koloda.games.parket.rules import PARAMETERS, ParketRules

SPEC = register(GameSpec(
    game_type=GAME_TYPE,
    game_class=ParketGame,
    parameters=PARAMETERS,
    summary="Parket: lay your colour's cards into a 5 x 7 rectangle, each next to a corner "
            "of two cards it continues in rank; place your last card to win",
    opponent="solver",
    # Quick: search, 88.3% in reports/default--parket.md (with nothing hidden ismcts is
    # mcts's tree).  Full: level 8, exact play from 16 empty cells and search before,
    # 61.0% [59.0, 63.0] against the same search without the solver, level 7, over 400
    # games (reports/top-parket.md), about 0.3 s a move.
    strongest=(("quick", "ismcts(sims=200)"), ("full", "solver(reach=16,sims=10000)")),
))


def parse_position(text: str, first_color: str = "red", max_relocations: int = 4) -> Position:
    """The position `text` names, checked against the game's rules (PositionError, a
    GameParameterError, says what is wrong)."""
    first = ("red", "black").index(first_color) if first_color in ("red", "black") else None
    if first is None:
        raise PositionError(f"first_color is red or black, not {first_color!r}")
    return read_position(text, first, max_relocations)


def from_position(text: str, **params) -> ParketState:
    """A new game of parket (with `params`) starting at the position `text`."""
    from koloda import games
    return games.load_game(format_call("parket", {**params, "position": text})) \
        .new_initial_state()


__all__ = ["GAME_TYPE", "PARAMETERS", "SPEC", "ParketGame", "ParketRules", "ParketState",
           "Position", "PositionError", "format_position", "from_position", "parse_position"]
