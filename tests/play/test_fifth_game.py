"""A game the terminal does not know is drawn from its view's fields: exact lines for views
of shapes no koloda game has, Quintet (tests/play/quintet.py, a fifth game on the kit) drawn
at every step and played to the end by `koloda play`, every koloda game drawn as if it were
unknown, and nothing drawn that the seat has not seen."""

import io
import json
import random
import re

import pytest

from koloda import games
from koloda.cli.main import main
from koloda.play import view as terminal
from koloda.play.table import PlayOptions, Table
from koloda.play.view import Style, position_lines
from koloda.protocol.client import Client
from koloda.protocol.record import load_record, replay

from . import quintet

PLAIN = Style(colour=False, unicode=True)
COLOUR = Style(colour=True, unicode=True)
ASCII = Style(colour=False, unicode=False)
UNKNOWN = {"game": "mystery", "seat": 1, "hand": ["7s", "Ah"],
           "players": [{"seat": 0, "cards": 3, "score": 12, "bonus": True},
                       {"seat": 1, "cards": 2, "score": 4, "bonus": False}],
           "round": 2, "pot": 0.5, "last": None, "pile": ["Kd", "9c"], "taken": [],
           "trick": [{"lead": "Qs", "follow": None}], "melds": [["7s", "8s"], ["Jd"]],
           "bids": {"p0": 3, "p1": None}, "to_move": 1, "phase": "bid"}


@pytest.fixture(autouse=True)
def _quintet_is_a_koloda_game():
    with quintet.registered():
        yield


def _view(seen: dict, status: str = "play", turn: str = "p1 to bid") -> dict:
    return {"status": status, "to_move": seen.get("to_move"), "turn": turn,
            "seats": [{"seat": seen["seat"], "view": seen}]}


def test_an_unknown_view_is_drawn_field_by_field():
    lines = position_lines(_view(UNKNOWN), ["x", "you"], 1, PLAIN, 10_000)
    assert lines == [
        "  p0 3 cards, score 12, bonus yes  ·  p1 score 4, bonus no  ·  round 2  ·  "
        "pot 0.5  ·  last -  ·  pile K♦ 9♣  ·  taken -  ·  trick Q♠/-  ·  melds 7♠/8♠ J♦  ·  "
        "bids p0 3, p1 -",
        "  your hand:  7♠ A♥",
        "  p1 (you) to bid"]
    narrow = position_lines(_view(UNKNOWN), ["x", "you"], 1, PLAIN, 50)
    assert all(len(line) <= 50 for line in narrow) and narrow[-2:] == lines[-2:]
    over = position_lines(_view(UNKNOWN, "over", "over: p0 won"), ["x", "you"], 1, PLAIN, 10_000)
    assert over[0].endswith("  ·  over: p0 won") and over[-1] == "  your hand:  7♠ A♥"


def test_a_board_in_the_view_is_drawn_as_a_grid_over_the_table():
    seen = {"game": "mystery", "seat": 0, "hand": ["Th"], "stock": 3,
            "board": [["Ks", None, 7], [None, "10", "Ad"]], "to_move": 0}
    lines = position_lines(_view(seen, turn="p0 to lay"), ["you", "random"], 0, PLAIN, 100)
    assert lines == ["        a   b   c",
                     "    1  K♠   ·   7",
                     "    2   ·  10  A♦",
                     "",
                     "  stock 3",
                     "  your hand:  10♥",
                     "  p0 (you) to lay"]
    coloured = position_lines(_view(seen), ["you", "random"], 0, COLOUR, 100)
    assert [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in coloured[:3]] == lines[:3]
    assert "\x1b[31;1mA♦\x1b[0m" in coloured[2]
    assert position_lines(_view(seen), ["you", "random"], 0, ASCII, 100)[2] == \
        "    2   .  10  Ad"


def _views_along(game_string: str, seed: int, seats: list[int]):
    """The protocol's view after every decision of a game between random players."""
    client = Client.in_process()
    new = client.request("new", game=game_string, seats=seats, seed=seed)
    session, view, rng = new["session"], new["view"], random.Random(seed)
    while True:
        yield view
        if view["status"] == "over":
            return
        if view["to_move"] in seats:
            reply = client.request("observe", session=session, actions=[rng.choice(view["legal"])])
        else:
            reply = client.request("move", session=session, agent="random")
        view = reply["view"]


@pytest.mark.parametrize("game_string, seats", [
    ("quintet", [0]), ("quintet(players=3)", [2]), ("quintet(columns=0,players=3)", [1]),
    ("quintet(columns=4)", [0, 1])])
def test_quintet_is_drawn_from_its_view_at_every_step(game_string, seats):
    names = ["a", "b", "c"]
    steps = 0
    for view in _views_along(game_string, 3, seats):
        seen = view["seats"][0]["view"]
        text = "\n".join(position_lines(view, names, seats[0], ASCII, 10_000))
        assert f"stock {seen['stock']}" in text and f"last {seen['last'] or '-'}" in text
        for player in seen["players"]:
            count = "" if player["seat"] == seen["seat"] else f"{player['cards']} cards, "
            assert f"p{player['seat']} {count}score {player['score']}" in text
        for entry in view["seats"]:
            hand = " ".join(entry["view"]["hand"]) or "-"
            assert re.search(rf"^  (your hand|p{entry['seat']} \w+):  {hand}$", text, re.M)
        if "board" in seen:
            rows = [line.split()[1:] for line in text.splitlines()[1:3]]
            assert rows == [[card or "." for card in row] for row in seen["board"]]
        else:
            assert f"pile {' '.join(seen['pile']) or '-'}" in text
        if view["status"] != "over":
            assert text.splitlines()[-1] == "  " + terminal.turn_text(view["turn"], seats[0])
        steps += 1
    assert view["turn"] in text and steps > 5


def test_koloda_play_plays_quintet_to_the_end_against_random(tmp_path):
    typed = iter(["help", "hint", "Kd z9", "2"] + ["1"] * 50)
    out, path = io.StringIO(), tmp_path / "quintet.json"
    options = PlayOptions("quintet", ["random"], seed=5, record=path, delay=0)
    assert Table(options, out, lambda prompt: next(typed)).run() == 0
    text = out.getvalue()
    assert re.search(r"^\s+a\s+b\s+c$", text, re.M) and "  your hand:  " in text
    assert "hint from random:" in text and "'Kd z9' is not a quintet action" in text
    assert "game over: " in text and "  returns: you " in text
    record = load_record(path)
    assert record["players"] == ["you", "random"]
    _, state = replay(record)
    assert state.is_terminal() and min(state.core.cells) >= 0    # the board is full


def test_koloda_play_watches_quintet_with_every_hand_shown(tmp_path, capsys):
    path = tmp_path / "watched.json"
    args = ["play", "quintet(columns=0,players=3)", "--watch", "--seed", "2", "--delay", "0",
            "--vs", "random", "--record", str(path)]
    assert main(args) == 0
    out = capsys.readouterr().out
    for seat in range(3):
        assert re.search(rf"^  p{seat} random:  ", out, re.M)
    assert "  pile " in out and "game over: " in out
    assert replay(load_record(path))[1].is_terminal()


@pytest.mark.parametrize("game_string, seats", [
    ("durak(players=3)", [1]), ("platinum_fish", [0, 1]), ("snitch(target_score=0)", [2]),
    ("parket", [0])])
def test_every_koloda_game_draws_as_an_unknown_one_too(game_string, seats, monkeypatch):
    """Without their entries in the tables of particular drawings the four games are drawn
    from their views' fields: every field, a board as a grid, every shown hand."""
    monkeypatch.setattr(terminal, "PUBLIC_PARTS", {})
    monkeypatch.setattr(terminal, "PICTURES", {})
    for view in _views_along(game_string, 4, seats):
        seen = view["seats"][0]["view"]
        lines = position_lines(view, ["a", "b", "c"], seats[0], ASCII, 10_000)
        text = "\n".join(lines)
        shown = [name for name in seen if name not in terminal.DRAWN_ELSEWHERE]
        assert all(f"{name} " in text for name in shown if name != "players")
        assert ("board" in seen) == bool(re.match(r"^\s+a\s+b", lines[0]))
        assert len([line for line in lines if ":  " in line]) == len(view["seats"])


def test_the_drawing_holds_nothing_the_seat_did_not_see():
    """Two deals that differ only in p1's cards (its hand, its draw) draw alike for p0,
    and no card p0 never saw is drawn, in any style."""
    first, second = quintet.views_of_two_deals()
    names = ["you", "random"]
    for style in (PLAIN, ASCII, COLOUR):
        assert position_lines(first, names, 0, style, 100) == \
            position_lines(second, names, 0, style, 100)
    text = "\n".join(position_lines(first, names, 0, ASCII, 100))
    assert "  p1 2 cards, score 4" in text
    assert set(re.findall(r"\b[2-9TJQKA][cdhs]\b", text)) == set(quintet.SEEN_BY_P0)
    sent = json.dumps(first)                      # all the protocol told the app
    assert [card for card in sorted(quintet.unseen_by_p0()) if card in sent] == []


def test_quintet_is_a_koloda_game_only_while_registered():
    assert "quintet" in games.GAMES and games.load_game("quintet").num_players() == 2
    quintet.uninstall()
    try:
        assert "quintet" not in games.GAMES
        with pytest.raises(games.KolodaError, match="unknown game 'quintet'"):
            games.load_game("quintet")
    finally:
        quintet.install()
