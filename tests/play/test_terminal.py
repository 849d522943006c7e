"""`koloda play` in a real terminal (tmux): whole games of Durak and Parket typed move by
move from the moves the screen lists, with bad input, a hint, the result and the record
that `koloda show --record` replays; Ctrl-C and Ctrl-D end a game without a traceback."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from koloda.play.cardtext import plain_notation

from .tmux import EXITED, KOLODA, Pane

PROMPT = "your move ("
SMALL_DURAK = "durak(ranks=6,suits=2,hand_size=3)"


@pytest.fixture
def pane_for(tmp_path):
    panes = []

    def start(*args) -> Pane:
        pane = Pane([KOLODA, "play", *args], tmp_path)
        panes.append(pane)
        return pane
    yield start
    for pane in panes:
        pane.close()


def listed_moves(screen: str) -> list[str]:
    """The numbered moves above the last prompt, in number order, as shown (symbols)."""
    block = screen[:screen.rindex(PROMPT)]
    block = block[block.rindex("──"):]
    moves = {}
    for line in block.splitlines():
        for item in re.split(r"\s{2,}", line.strip()):
            found = re.fullmatch(r"(\d+) (\S.*)", item)
            if found and not item.startswith(("p0", "p1")):
                moves[int(found.group(1))] = found.group(2)
    return [moves[n] for n in sorted(moves)]


def after_prompt(pane: Pane, prompts: int, timeout: float = 60.0) -> str:
    """The screen once a new prompt (more than `prompts` of them) or the end is shown."""
    return pane.wait_for(lambda s: s.count(PROMPT) > prompts or EXITED in s, timeout)


def last_reply(screen: str) -> str:
    """What the program printed after the last-but-one prompt and the input typed there
    (the terminal echoes it): its answer to the input."""
    return screen.split(PROMPT)[-2].split("): ", 1)[1].split("\n", 1)[1]


def play_out(pane: Pane, screen: str, first: list[str]) -> str:
    """Type `first` (inputs), then `1` at every prompt, to the end of the game."""
    inputs = list(first)
    while EXITED not in screen:
        prompts = screen.count(PROMPT)
        pane.type(inputs.pop(0) if inputs else "1")
        screen = after_prompt(pane, prompts)
    return screen


def check_record(tmp_path, name: str, players: list[str]) -> dict:
    path = tmp_path / name
    record = json.loads(path.read_text())
    assert record["players"] == players and "returns" in record
    shown = subprocess.run([KOLODA, "show", "--record", str(path)], capture_output=True,
                           text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert "game over after" in shown.stdout
    return record


def test_a_whole_game_of_durak_in_a_terminal(pane_for, tmp_path):
    pane = pane_for(SMALL_DURAK, "--vs", "random", "--seed", "3", "--delay", "0",
                    "--hint", "ismcts(sims=200)", "--record", "durak.json")
    screen = after_prompt(pane, 0)
    assert "your hand:" in screen and "trump " in screen
    assert re.search(r"[0-9TJQKA]{1,2}[♣♦]", screen), "cards are drawn with suit symbols"
    assert "\x1b[31m" in pane.screen(colours=True), "red cards are red on a terminal"

    # A number that is no move: a one-line message, and the prompt again.
    pane.type("99")
    screen = after_prompt(pane, 1)
    assert last_reply(screen).strip() == "no move 99: type a number from 1 to " \
        f"{len(listed_moves(screen))}, or a move as listed"

    # Words that are no move.
    pane.type("fly away")
    screen = after_prompt(pane, 2)
    assert "'fly away' is not a durak action" in last_reply(screen)

    # A card of the deck the person does not hold: illegal, whatever the turn.
    hand = re.findall(r"your hand:\s+(.*)", screen)[-1].split()
    stranger = next(f"{rank}{suit}" for rank in "9TJQKA" for suit in "cd"
                    if plain_notation(f"{rank}{suit}") not in map(plain_notation, hand))
    pane.type(f"attack {stranger}")
    screen = after_prompt(pane, 3)
    assert "is not legal here" in last_reply(screen)

    # A hint: the agent's move and its policy.
    pane.type("hint")
    screen = after_prompt(pane, 4)
    hint = last_reply(screen)
    assert "hint from ismcts(sims=200):" in hint and "%" in hint

    # A move typed in notation, copied from the list: it is played.
    move = listed_moves(screen)[0]
    pane.type(plain_notation(move))
    screen = after_prompt(pane, 5)
    assert re.search(rf"you\s+{re.escape(move)}", screen)

    screen = play_out(pane, screen, [])
    assert "[exited 0]" in screen and "Traceback" not in screen
    assert re.search(r"game over: (you win|you lose: p1 random won|a draw)", screen)
    assert re.search(r"returns: you [+-]\d", screen)
    assert "koloda show --record durak.json replays it" in screen
    record = check_record(tmp_path, "durak.json", ["you", "random"])
    assert record["game"] == SMALL_DURAK.replace("ranks=6,suits=2,hand_size=3",
                                                 "hand_size=3,ranks=6,suits=2")


def test_a_whole_game_of_parket_in_a_terminal(pane_for, tmp_path):
    pane = pane_for("parket", "--vs", "heuristic", "--seed", "2", "--delay", "0",
                    "--hint", "heuristic", "--record", "parket.json")
    screen = after_prompt(pane, 0)
    board = screen[screen.rindex("──"):]
    assert re.search(r"a\s+b\s+c\s+d\s+e\s+f\s+g", board)
    assert re.search(r"^\s+3\s+·\s+\+\s+\+\s+·\s+\+\s+\+\s+·\s*$", board, re.M), board
    assert "red (you):" in board and "black (p1 heuristic):" in board
    moves = listed_moves(screen)
    assert len(moves) == 72 and moves[0] == "6♦ d2"

    pane.type("6d a1")                    # not a cross cell
    screen = after_prompt(pane, 1)
    assert "is not legal here" in last_reply(screen)
    assert len(last_reply(screen).strip().splitlines()) == 1

    pane.type("hint")
    screen = after_prompt(pane, 2)
    assert "hint from heuristic:" in last_reply(screen)

    pane.type(plain_notation(moves[5]))   # 6♥ c3, in notation
    screen = after_prompt(pane, 3)
    assert re.search(r"you\s+6♥ c3", screen)
    board = screen[screen.rindex("──"):]
    assert re.search(r"^\s+3\s+·\s+\S+\s+6♥", board, re.M), board

    screen = play_out(pane, screen, [])
    assert "[exited 0]" in screen and "Traceback" not in screen
    assert re.search(r"game over: (you win|you lose: p1 heuristic won|a draw)", screen)
    assert "koloda show --record parket.json replays it" in screen
    assert re.search(r"^(solved from move \d+ on, the first position within 2 s; |"
                     r"no position of this game was solved)", screen, re.M), screen
    check_record(tmp_path, "parket.json", ["you", "heuristic"])


@pytest.mark.parametrize("key, code, said", [
    ("C-c", 130, "koloda: interrupted; the game so far is saved in"),
    ("C-d", 0, "you quit; the game so far is saved in"),
])
def test_ctrl_c_and_ctrl_d_save_the_game_so_far(pane_for, tmp_path, key, code, said):
    pane = pane_for(SMALL_DURAK, "--vs", "random", "--seed", "5", "--delay", "0",
                    "--record", "stopped.json")
    after_prompt(pane, 0)
    pane.key(key)
    screen = pane.wait_for(lambda s: EXITED in s, 30)
    assert f"[exited {code}]" in screen and said in screen and "Traceback" not in screen
    record = json.loads((tmp_path / "stopped.json").read_text())
    assert record["players"] == ["you", "random"] and "returns" not in record
    shown = subprocess.run([KOLODA, "show", "--record", str(tmp_path / "stopped.json")],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and "the record stops after" in shown.stdout
