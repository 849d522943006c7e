"""Build Parket situations by hand: a board from a few named cells, a game started there,
then the play scripted as action strings.

    text = position({"d2": "9c", "d1": "Tc", ...}, side="r", phase="m")
    state = play(start(text), "8h c2")

Every move goes through `state.string_to_action`, so each is checked for legality.
"""

from __future__ import annotations

from koloda import games
from koloda.games.parket import from_position

CELLS = [f"{column}{row}" for row in range(1, 6) for column in "abcdefg"]

# The main phase with the cross built: black 9c under Tc above the centre and Js above Ts
# below it, red Ah Kh to its left and Ad 6d to its right.
CROSS = {"d1": "Tc", "d2": "9c", "c3": "Ah", "b3": "Kh", "e3": "Ad", "f3": "6d",
         "d4": "Js", "d5": "Ts"}


def position(cells: dict, side: str = "r", phase: str = "m", relocations: int = 0) -> str:
    """The position string of a board given as {cell: card}."""
    tokens = [cells.get(cell, "--") for cell in CELLS]
    rows = "/".join("".join(tokens[r * 7:(r + 1) * 7]) for r in range(5))
    return f"{rows} {side} {phase} {relocations}"


def load(**params):
    body = ",".join(f"{name}={value}" for name, value in params.items())
    return games.load_game(f"parket({body})" if body else "parket")


def start(text: str = "", **params):
    return from_position(text, **params) if text else load(**params).new_initial_state()


def play(state, *moves: str):
    for text in moves:
        state.apply_action(state.string_to_action(text))
    return state


def legal(state) -> set[str]:
    player = state.current_player()
    return {state.action_to_string(player, a) for a in state.legal_actions()}


def cells_for(state, card: str) -> set[str]:
    """The cells `card` may be placed on now."""
    return {text.split()[1] for text in legal(state)
            if not text.startswith("move") and text.split()[0] == card}
