"""Parket's position notation: every state prints as a position that starts the same game
again, and every kind of impossible position is refused, saying what is wrong."""

import random

import pytest

from koloda import games
from koloda.games.errors import GameParameterError
from koloda.games.parket import (
    PositionError,
    format_position,
    from_position,
    parse_position,
)

from .helpers import CROSS, legal, load, play, position, start

START = "--------------/--------------/--------------/--------------/-------------- r x 0"


def test_the_start_position_is_the_rules_files():
    state = start()
    assert state.position() == START
    assert str(state).startswith(START + " | red 6d 6h 7d 7h")
    assert state.observation_string(1).startswith(START + " | red ")
    assert from_position(START).position() == START


@pytest.mark.parametrize("params", [{}, {"first_color": "black", "corner_order": "any"}])
def test_every_state_of_a_game_restarts_from_its_position(params):
    game = load(**params)
    state = game.new_initial_state()
    rng = random.Random(3)
    while True:
        again = from_position(state.position(), **params)
        assert again.core.key() == state.core.key()
        assert again.legal_actions() == state.legal_actions()
        assert again.is_terminal() == state.is_terminal()
        assert again.returns() == state.returns()
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


def test_parse_and_format_are_inverse():
    text = position({**CROSS, "c2": "8h"}, side="b", relocations=2)
    parsed = parse_position(text)
    assert parsed.to_move == 1 and parsed.main and parsed.relocations == 2
    assert format_position(parsed) == text


def test_a_position_is_a_game_parameter():
    text = position(CROSS)
    game = games.load_game(f'parket(position="{text}")')
    assert game.new_initial_state().position() == text
    assert "8h c2" in legal(game.new_initial_state())
    assert play(from_position(text), "8h c2").position().endswith(" b m 0")


BAD = [
    ("nonsense", "has 1 fields"),
    (START.replace("/", "", 1), "has 4 rows"),
    (START.replace("--------------", "------------", 1), "row 1 '------------' has 12"),
    (START.replace("--", "Zz", 1), "cell a1 holds 'Zz'"),
    (START.replace("--", "5h", 1), "cell a1 holds '5h'"),
    (START.replace(" r ", " w "), "side to move is r or b, not 'w'"),
    (START.replace(" x ", " q "), "phase is x (cross) or m (main), not 'q'"),
    (position(CROSS, relocations=5), "relocations must be a number 0..4"),
    (START.replace(" 0", " -1"), "relocations must be a number 0..4"),
    (position({**CROSS, "a1": "Tc"}), "Tc is on the board twice (a1 and d1)"),
    (position({"d2": "9h", "d3": "Tc"}, side="r", phase="x"),
     "the centre d3 is filled in the cross phase"),
    (position({"d2": "9h", "a1": "Tc"}, side="r", phase="x"),
     "a1 is filled in the cross phase (x)"),
    (position({"d1": "9h", "c3": "Tc"}, side="r", phase="x"),
     "d1 is filled but its inner cell d2 is empty"),
    (position({"d2": "9h", "d1": "Jc"}, side="r", phase="x"),
     "d1 (Jc) is not adjacent in rank to d2 (9h)"),
    (position(CROSS, phase="x"), "the cross is complete, so the game is in the main phase"),
    (position({"d2": "9h", "d1": "Tc"}, phase="x", relocations=1),
     "1 relocations in the cross phase"),
    (position({"d2": "9h"}, side="r", phase="x"),
     "after 1 cards red has placed 1 and black 0, with black to move"),
    (position({"d2": "9h", "c3": "8h"}, side="r", phase="x"), "here red has placed 2, black 0"),
    (position({"d2": "9h", "d1": "Tc", "c3": "Ah"}, phase="m"), "phase m with 3 cards"),
    (position({**CROSS, "c3": "As", "b3": "Ks", "e3": "Ac"}, phase="m"),
     "phase m with 1 red cards on the board"),
]


@pytest.mark.parametrize("text, message", BAD)
def test_an_impossible_or_unreadable_position_is_refused_saying_why(text, message):
    with pytest.raises(PositionError, match=_literal(message)):
        parse_position(text)
    with pytest.raises(GameParameterError, match=_literal(message)):
        from_position(text)


def test_a_position_where_the_winner_is_to_move_is_refused():
    red = ["6h", "6d", "7h", "7d", "8h", "8d", "9h", "9d", "Th", "Td", "Jh", "Jd", "Qh", "Qd",
           "Kh", "Kd", "Ah", "Ad"]
    cells = {"a1": "6c", "c1": "7c", "e1": "8c", "g1": "Kc"}
    free = ["a3", "b3", "c3", "d3", "e3", "f3", "g3", "a4", "c4", "d4", "e4", "f4", "g4",
            "c5", "d5", "e5", "f5", "g5"]
    board = {**cells, **dict(zip(free, red))}
    with pytest.raises(PositionError, match="red has placed every card, so the game ended"):
        parse_position(position(board, side="r"))
    with pytest.raises(PositionError, match="no relocation can have followed"):
        parse_position(position(board, side="b", relocations=1))
    finished = from_position(position(board, side="b"))
    assert finished.is_terminal() and finished.returns() == [1.0, -1.0]


def test_relocations_are_checked_against_max_relocations():
    text = position(CROSS, relocations=6)
    assert parse_position(text, max_relocations=6).relocations == 6
    with pytest.raises(PositionError, match="0..5"):
        from_position(text, max_relocations=5)


def test_a_cross_position_follows_first_color():
    text = position({"d2": "9c"}, side="r", phase="x")
    assert parse_position(text, first_color="black").to_move == 0
    with pytest.raises(PositionError, match="alternate from red"):
        parse_position(text)


def _literal(message: str) -> str:
    import re
    return re.escape(message)
