"""Drawing for the terminal: cards with suit symbols (red ones red on a terminal, no
colour codes elsewhere), Parket's board with its coordinates, events, moves, hints."""

import io
import random
import re

import pytest

from koloda.games.parket.board import CROSS_CELLS
from koloda.play.cardtext import card_spans, plain_notation
from koloda.play.view import (
    Style,
    card_table_lines,
    event_lines,
    hint_line,
    legal_lines,
    parket_lines,
    result_lines,
)

PLAIN = Style(colour=False, unicode=True)
COLOUR = Style(colour=True, unicode=True)
ASCII = Style(colour=False, unicode=False)
ESC = "\x1b["


class _Stream(io.StringIO):
    def __init__(self, tty: bool, encoding: str = "utf-8"):
        super().__init__()
        self._tty, self._encoding = tty, encoding

    def isatty(self):
        return self._tty

    @property
    def encoding(self):
        return self._encoding


def test_cards_get_suit_symbols_and_colours():
    assert card_spans("attack 7s") == [("attack ", None), ("7♠", "black")]
    assert card_spans("table Th/Ks 9d/-") == [
        ("table ", None), ("10♥", "red"), ("/", None), ("K♠", "black"), (" ", None),
        ("9♦", "red"), ("/-", None)]
    # rank-only cards, counts, seats and hidden cards stay as written
    assert card_spans("p1 6 cards | hand 7 7 X | deal ?") == [
        ("p1 6 cards | hand 7 7 X | deal ?", None)]
    assert PLAIN.cards("beat Ah with Tc") == "beat A♥ with 10♣"
    assert COLOUR.cards("Ah Ac") == f"{ESC}31mA♥{ESC}0m A♣"
    assert ASCII.cards("beat Ah") == "beat Ah"


def test_typed_symbols_read_back_as_notation():
    assert plain_notation("attack 7♠") == "attack 7s"
    assert plain_notation("10♥ d2") == "Th d2"
    assert plain_notation("move 10s e4") == "move Ts e4"
    assert plain_notation("take") == "take"


def test_colour_only_on_a_terminal_and_symbols_only_where_encodable(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert Style.for_stream(_Stream(tty=True)) == Style(colour=True, unicode=True)
    assert Style.for_stream(_Stream(tty=False)) == Style(colour=False, unicode=True)
    assert Style.for_stream(_Stream(tty=False, encoding="ascii")) == Style(False, False)
    monkeypatch.setenv("NO_COLOR", "1")
    assert Style.for_stream(_Stream(tty=True)).colour is False


def test_a_durak_position_for_its_player():
    seen = {"game": "durak", "seat": 0, "hand": ["6d", "8d", "9s", "Qd", "Qh", "As"],
            "trump": "9c", "stock": 24,
            "players": [{"seat": 0, "cards": 6, "known": []},
                        {"seat": 1, "cards": 5, "known": []}],
            "attacker": 1, "defender": 0, "table": [{"attack": "Ks", "defence": None}],
            "discard": [], "to_move": 0, "phase": "defend", "durak": None}
    view = {"status": "play", "to_move": 0, "turn": "p0 to defend",
            "seats": [{"seat": 0, "view": seen}]}
    lines = card_table_lines(view, ["you", "ismcts"], 0, PLAIN, 120)
    assert lines == [
        "  trump 9♣  ·  stock 24  ·  p1 5 cards  ·  attacker p1 defender p0  ·  table K♠/-  ·  "
        "discard -",
        "  your hand:  6♦ 8♦ 9♠ Q♦ Q♥ A♠"]
    coloured = "\n".join(card_table_lines(view, ["you", "ismcts"], 0, COLOUR, 120))
    assert f"{ESC}31;1mQ♥{ESC}0m" in coloured and f"{ESC}1mA♠{ESC}0m" in coloured
    narrow = card_table_lines(view, ["you", "ismcts"], 0, PLAIN, 60)
    assert all(len(line) <= 60 for line in narrow) and len(narrow) == 3


def test_watching_shows_every_hand():
    def seen(seat, hand):
        return {"game": "snitch", "seat": seat, "hand": hand,
                "players": [{"seat": s, "cards": 2, "total": 0, "points": 0, "sets": []}
                            for s in (0, 1)],
                "deal": 1, "dealer": 1, "reserve": 90, "discard": [], "top_discard": None,
                "to_move": 1, "phase": "play"}
    view = {"status": "play", "to_move": 1, "turn": "p1 to play", "seats": [
        {"seat": 0, "view": seen(0, ["4", "T"])}, {"seat": 1, "view": seen(1, ["X", "7"])}]}
    lines = card_table_lines(view, ["heuristic", "random"], None, PLAIN, 100)
    assert lines == ["  p1 2 cards  ·  deal 1 dealer p1  ·  reserve 90  ·  discard -  ·  "
                     "p0 0+0 sets -  ·  p1 0+0 sets -", "  p0 heuristic:  4 T",
                     "  p1 random:  X 7"]


def _parket_rows():
    rows = [[None] * 7 for _ in range(5)]
    for cell, card in (("d1", "7d"), ("d2", "6d"), ("c3", "6s"), ("e3", "6h"), ("d4", "7c"),
                       ("d5", "8c")):
        rows[int(cell[1]) - 1]["abcdefg".index(cell[0])] = card
    return rows


PARKET = {"game": "parket", "seat": 0, "colour": "red", "hand": ["7h", "8d"],
          "colours": ["red", "black"], "hands": {"red": ["7h", "8d"], "black": ["6c", "7s"]},
          "board": _parket_rows(), "side": "red", "phase": "cross", "relocations": 0,
          "to_move": 0, "verb": "place", "over": False, "winner": None}


def test_the_parket_board_has_its_coordinates():
    view = {"status": "play", "to_move": 0, "turn": "p0 (red) to place",
            "seats": [{"seat": 0, "view": PARKET}]}
    lines = parket_lines(view, ["you", "solver"], 0, PLAIN)
    assert lines[:6] == [
        "        a   b   c   d   e   f   g",
        "    1   ·   ·   ·  7♦   ·   ·   ·",
        "    2   ·   ·   ·  6♦   ·   ·   ·",
        "    3   ·   +  6♠   ·  6♥   +   ·",      # empty cross cells marked in the cross
        "    4   ·   ·   ·  7♣   ·   ·   ·",
        "    5   ·   ·   ·  8♣   ·   ·   ·"]
    assert lines[7:] == ["  red (you):  7♥ 8♦", "  black (p1 solver):  6♣ 7♠",
                         "  cross phase, relocations in a row 0"]
    coloured = parket_lines(view, ["you", "solver"], 0, COLOUR)
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured[3]) == lines[3]   # columns still align
    assert ESC not in "".join(parket_lines(view, ["you", "solver"], 0, ASCII))


def test_events_read_one_line_each():
    events = [{"player": None, "action": "deal 8d", "seen_by": [0]},
              {"player": None, "action": "deal ?", "seen_by": [1]},
              {"player": None, "action": "deal 6d", "seen_by": [0]},
              {"player": None, "action": "deal ?", "seen_by": [1]},
              {"player": None, "action": "trump 9c", "seen_by": [0, 1]},
              {"player": 1, "action": "attack Ks"},
              {"player": 0, "action": "take"},
              {"player": None, "action": "dice 3 4", "seen_by": [0, 1], "then": ["p1 lays T"]}]
    assert event_lines(events, ["you", "random"], 0, PLAIN, 2) == [
        "      chance  deal 8♦ 6♦ → you   ?×2 → p1",
        "      chance  trump 9♣",
        "    p1  attack K♠",
        "   you  take",
        "      chance  dice 3 4",
        "        = p1 lays T"]


def test_legal_moves_are_numbered_in_columns():
    legal = [f"attack {c}" for c in ("6d", "8d", "9s", "Qd", "Qh", "As")] + ["take"]
    lines = legal_lines(legal, PLAIN, 50)
    assert lines == ["   1 attack 6♦    4 attack Q♦    7 take",
                     "   2 attack 8♦    5 attack Q♥",
                     "   3 attack 9♠    6 attack A♠"]
    assert legal_lines(["take"], PLAIN, 40) == ["   1 take"]


def test_a_hint_shows_the_top_of_the_policy():
    reply = {"action": "take", "agent": "ismcts(sims=500)", "policy_kind": "visits",
             "policy": {"beat As": 0.012, "take": 0.988}}
    assert hint_line(reply, PLAIN) == ("  hint from ismcts(sims=500): take   (of the search's "
                                       "visits: take 98.8%, beat A♠ 1.2%)")


def test_the_result():
    view = {"status": "over", "returns": [-1.0, 1.0], "winners": [1]}
    assert result_lines(view, ["you", "random"], 0, PLAIN) == [
        "game over: you lose: p1 random won", "  returns: you -1, p1 +1"]
    assert result_lines({"returns": [0.0, 0.0], "winners": []}, ["a", "b"], None, PLAIN)[0] \
        == "game over: a draw"
    several = {"returns": [-1.0, 0.5, 0.5], "winners": [1, 2]}
    assert result_lines(several, ["a", "you", "b"], 1, PLAIN)[0] == \
        "game over: you win, as do p2 b"
    assert result_lines(several, ["a", "b", "c"], None, PLAIN)[0] == \
        "game over: p1 b, p2 c win"


# --- drawn from the view, as the observation string shows it ------------------------------

def _observation_parts(view: dict) -> list[str]:
    """The public parts of the first seat's observation string, as the terminal drew
    them before views were data: what the view's fields must draw the same."""
    first = view["seats"][0]
    parts = [part for part in first["observation"].split(" | ")
             if not part.startswith("hand ") and part != f"p{first['seat']}"]
    return parts if view["status"] == "over" else parts[:-1]


def _sliced(entry: dict, key: str) -> str | None:
    """The `hand ...` or `table ...` part of a seat's observation string."""
    for part in entry["observation"].split(" | "):
        word, _, rest = part.partition(" ")
        if word == key:
            return rest
    return None


def _parket_from_observation(observation: str) -> tuple[list[str], list[str], str, str]:
    position, *hands = observation.split(" | ")
    rows, _, phase, relocations = position.split()
    cells = [row[i:i + 2] for row in rows.split("/") for i in range(0, 14, 2)]
    return cells, hands, phase, relocations


def _views_along(game_string: str, seed: int, seats):
    """The protocol's view after every decision of a random game, for `seats`."""
    from koloda import games
    from koloda.protocol.session import seat_view
    state = games.load_game(game_string).new_initial_state()
    rng = random.Random(seed)
    while True:
        if not state.is_chance_node():
            status = "over" if state.is_terminal() else "play"
            yield {"status": status, "turn": state.turn_string(),
                   "seats": [seat_view(state, seat) for seat in seats]}
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))



@pytest.mark.parametrize("game_string, seats", [
    ("durak", [0]), ("durak(players=3)", [1]), ("platinum_fish(players=3)", [2]),
    ("platinum_fish", [0, 1]), ("snitch(target_score=0)", [0]), ("snitch(players=4)", [3])])
def test_a_card_game_draws_its_view_as_its_observation_reads(game_string, seats):
    names = ["a", "b", "c", "d"]
    for view in _views_along(game_string, 5, seats):
        lines = card_table_lines(view, names, seats[0], PLAIN, 10_000)
        assert lines[0] == "  " + "  ·  ".join(PLAIN.cards(p) for p in _observation_parts(view))
        for entry, line in zip(view["seats"], lines[1:]):
            hand = _sliced(entry, "hand")
            assert line.split(":  ", 1)[1] == PLAIN.cards(hand)
            assert entry["hand"] == ([] if hand == "-" else hand.split())
            assert entry.get("table") == _sliced(entry, "table")


def test_the_parket_board_draws_its_view_as_its_observation_reads():
    for view in _views_along("parket(first_color=black)", 3, [1]):
        cells, hands, phase, relocations = _parket_from_observation(
            view["seats"][0]["observation"])
        lines = parket_lines(view, ["a", "b"], 1, ASCII)
        drawn = [cell for line in lines[1:6] for cell in line.split()[1:]]
        marks = ["+" if phase == "x" and cell in CROSS_CELLS else "."
                 for cell in range(len(cells))]
        assert drawn == [mark if card == "--" else card for card, mark in zip(cells, marks)]
        assert [line.split(":  ")[1] for line in lines[7:9]] == \
            [part.partition(" ")[2] for part in hands]
        assert lines[-1] == (f"  {'cross' if phase == 'x' else 'main'} phase, relocations "
                             f"in a row {relocations}")
