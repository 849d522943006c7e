"""What a solve is asked: an engine position, handed over as a state of `parket` (or its
ParketCore) or read by the game itself from a position text.  The rules (corner order,
relocation cap) are the engine's; every input is checked here, where it enters.
"""

from __future__ import annotations

from dataclasses import dataclass

from koloda.games.errors import ArgumentError, GameParameterError
from koloda.games.kit.params import shown
from koloda.games.parket import PositionError, from_position
from koloda.games.parket.engine import ParketCore
from koloda.games.parket.position import FORM, RED, format_position, start_position
from koloda.games.parket.rules import CORNER_ORDERS
from koloda.solvers.parket.limits import check_max_relocations

METHODS = ("fast", "reference", "minimax")


@dataclass(frozen=True)
class Problem:
    """An engine position and the text a result names it by."""

    position: str
    core: ParketCore


def check_method(method) -> None:
    if method not in METHODS:
        raise GameParameterError(f"method is one of {', '.join(METHODS)}, not {method!r}")


def state_problem(state) -> Problem:
    """The problem of a state of parket or its ParketCore, under the state's own rules;
    ArgumentError for anything else, GameParameterError for a relocation cap beyond the
    solver's.  The state is only read."""
    core = getattr(state, "core", state)
    if not isinstance(core, ParketCore):
        raise ArgumentError(f"a parket solve takes a state of parket or its ParketCore, "
                            f"not {shown(state, 60)}")
    check_max_relocations(core.rules.max_relocations)
    return Problem(core.position(), core)


def read_problem(position: str, corner_order: str = "path",
                 max_relocations: int = 4) -> Problem:
    """The problem `position` states, read by the game (from_position); PositionError (a
    GameParameterError) when it cannot be read or cannot occur, GameParameterError for a
    bad parameter."""
    if corner_order not in CORNER_ORDERS:
        raise GameParameterError(f"corner_order is path or any, not {corner_order!r}")
    check_max_relocations(max_relocations)
    check_position_text(position, max_relocations)
    params = {"corner_order": corner_order, "max_relocations": max_relocations}
    try:
        state = from_position(position, **params)
    except PositionError as error:
        # The solver does not know who began; a cross position may fit black beginning.
        if " x " not in position:
            raise
        try:
            state = from_position(position, first_color="black", **params)
        except PositionError:
            raise error from None
    return Problem(position.strip(), state.core)


def check_position_text(position, max_relocations: int) -> None:
    """PositionError for texts the game reads otherwise than a solve needs: no string
    (the game would read its repr), a blank one (the game's start position, a solve that
    never ends) and a relocation count of thousands (refused without repeating it)."""
    if not isinstance(position, str):
        raise PositionError(f"a position is a string in the notation {FORM} "
                            f"(docs/rules/parket.md), not {shown(position, 40)}")
    if not position.strip():
        raise PositionError(f"the position is empty; write one as {FORM}, like the start "
                            f"position {format_position(start_position(RED))!r}")
    fields = position.split()
    count = fields[-1]
    if len(fields) == 4 and count.isascii() and count.isdigit() \
            and len(count.lstrip("0")) > 3:
        raise PositionError(f"position {shown(' '.join(fields[:3]), 40)}: relocations "
                            f"must be a number 0..{max_relocations} (max_relocations), "
                            f"not a number of {len(count)} digits")
