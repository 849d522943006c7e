"""`koloda play --watch` for every game (agents on every seat, every hand shown, the
record saved and replayable), `koloda play` with its input piped (no colour codes, quit
saves the game so far), and the command line's refusals."""

import json
import re
import subprocess

import pytest

from koloda.cli.main import main
from koloda.protocol.record import load_record, replay

from .tmux import KOLODA

WATCHED = [
    ("durak(ranks=6,suits=2,hand_size=3)", ["random"], 2),
    ("durak(players=3,ranks=6)", ["heuristic"], 3),
    ("platinum_fish(ranks=5,copies=4)", ["heuristic", "random"], 2),
    ("snitch(target_score=0)", ["heuristic"], 3),
    ("parket", ["random"], 2),
]


@pytest.mark.parametrize("game, agents, players", WATCHED)
def test_watching_a_whole_game(game, agents, players, tmp_path, capsys):
    path = tmp_path / "watched.json"
    args = ["play", game, "--watch", "--seed", "4", "--delay", "0", "--record", str(path)]
    for spec in agents:
        args += ["--vs", spec]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "\x1b[" not in out, "no colour codes when the output is not a terminal"
    names = agents * players if len(agents) == 1 else agents
    assert out.splitlines()[0].endswith(", ".join(f"p{s} {n}" for s, n in enumerate(names)))
    if game.startswith("parket"):
        assert re.search(r"^\s+a\s+b\s+c\s+d\s+e\s+f\s+g$", out, re.M)
        assert "red (p0 random):" in out and "black (p1 random):" in out
        # The solver's verdict at the end: how far it reached, then each thrown value.
        verdict = out[out.index("replays it\n") + len("replays it\n"):].splitlines()
        assert verdict[1].startswith("solved from move ")
        assert verdict[2:] and all(
            re.fullmatch(r"p[01] \(random\), move \d+ \(.+\), turned a (win|draw) into a "
                         r"(draw|loss); .+ kept it", line) for line in verdict[2:]) \
            or verdict[2:] == ["no move within reach threw a win or a draw away"]
    else:
        for seat in range(players):               # every hand, at every move
            assert f"  p{seat} {names[seat]}:  " in out
    moves = len(re.findall(r"^\s+p\d  \S", out, re.M))
    record = json.loads(path.read_text())
    assert record["players"] == names and record["seed"] == 4
    assert moves == sum(1 for action in record["actions"] if action.startswith("p"))
    assert re.search(r"^game over: .*(wins?|a draw)$", out, re.M)
    assert f"koloda show --record {path} replays it" in out
    _, state = replay(load_record(path))
    assert state.is_terminal() and list(state.returns()) == record["returns"]


def test_piped_play_has_no_colour_and_quit_saves_the_game(tmp_path):
    done = subprocess.run([KOLODA, "play", "durak(ranks=6,suits=2,hand_size=3)", "--vs",
                           "random", "--seed", "3", "--delay", "0", "--record", "q.json"],
                          input="1\nhelp\nquit\n", capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "\x1b[" not in done.stdout and "♣" in done.stdout
    assert "hint   what an agent would play here" in done.stdout
    assert "you quit; the game so far is saved in q.json" in done.stdout
    record = json.loads((tmp_path / "q.json").read_text())
    assert record["players"] == ["you", "random"] and "p0 beat Jc" in record["actions"]


def test_level_seats_that_level_everywhere_koloda_plays(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["play", "durak(ranks=6,suits=2,hand_size=3)", "--watch", "--level", "2",
                 "--seed", "5", "--delay", "0", "--record", "w.json"]) == 0
    record = json.loads((tmp_path / "w.json").read_text())
    assert record["players"] == ["level(n=2)", "level(n=2)"]


def test_the_default_record_path_names_the_game_and_seed(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["play", "parket", "--watch", "--vs", "random", "--seed", "9",
                 "--delay", "0"]) == 0
    assert (tmp_path / "koloda-parket-9.json").is_file()
    assert "koloda show --record koloda-parket-9.json" in capsys.readouterr().out


@pytest.mark.parametrize("args, said", [
    (["durak", "--vs", "random", "--vs", "random"], "--vs gives 2 agents; give one for all "
     "or one per seat koloda plays (1: p1)"),
    (["durak", "--vs", "nosuch"], "unknown agent 'nosuch'"),
    (["parket", "--vs", "ismcts(sims=-1)"], "sims"),
    (["durak", "--seat", "2"], "--seat must be a seat of the game, 0..1, not 2"),
    (["durak", "--delay", "-1"], "--delay must be 0 or more seconds"),
    (["parket", "--analysis", "-1"], "--analysis must be from 0 (none) to 600000 ms"),
    (["parket", "--analysis", "600001"], "--analysis must be from 0 (none) to 600000 ms"),
    (["nosuch"], "nosuch"),
    (["durak", "--hint", "nosuch"], "unknown agent 'nosuch'"),
    (["durak", "--watch", "--seat", "1"], "give no --seat with it"),
    (["durak", "--watch", "--hint", "random"], "give no --hint with --watch"),
    (["durak", "--level", "9"], "--level must be 1 (weakest) to 8, not 9"),
    (["durak", "--level", "0"], "--level must be 1 (weakest) to 8, not 0"),
    (["durak", "--level", "2", "--vs", "random"], "give no --vs with it"),
])
def test_bad_options_are_one_line(args, said, capsys):
    assert main(["play", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("koloda: error:") and said in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("record, said", [
    ("{tmp}", "it is a folder; give a file name, e.g. game.json"),
    ("/dev/null/x", "/dev/null is not a folder"),
    ("{tmp}/file/x.json", "{tmp}/file is not a folder"),
])
def test_a_record_that_cannot_be_written_is_refused_before_the_game(tmp_path, capsys,
                                                                    record, said):
    (tmp_path / "file").write_text("")
    record, said = (text.replace("{tmp}", str(tmp_path)) for text in (record, said))
    assert main(["play", "parket", "--watch", "--vs", "random", "--delay", "0",
                 "--record", record]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""                                # no game played, none lost
    assert captured.err == f"koloda: error: cannot save the game's record in {record}: " \
        f"{said}\n"


def test_a_record_path_in_folders_still_to_make_or_on_a_file_is_taken(tmp_path):
    from koloda.play.table import PlayError, check_record_path

    (tmp_path / "old.json").write_text("{}")
    for fine in ("new/deeper/r.json", "old.json", "r.json"):
        check_record_path(tmp_path / fine)                  # save_record makes the folders
    with pytest.raises(PlayError, match="is a folder"):
        check_record_path(tmp_path)


def test_play_opens_against_the_games_opponent_and_asks_it_for_hints(monkeypatch):
    """The terminal reads the opponent from the game's spec (as the page and apps do from
    `hello`), so a game names its own and the terminal names none."""
    import dataclasses
    import io

    from koloda import games
    from koloda.play.table import PlayOptions, Table

    for spec in games.catalog():
        table = Table(PlayOptions(spec.name, []), out=io.StringIO())
        assert table.agents[0] is None and set(table.agents[1:]) == {spec.opponent}
        assert table.hint_agent == spec.opponent
    assert Table(PlayOptions("parket", []), out=io.StringIO()).agents == [None, "solver"]
    monkeypatch.setitem(games.GAMES, "durak",
                        dataclasses.replace(games.GAMES["durak"], opponent="heuristic"))
    table = Table(PlayOptions("durak", []), out=io.StringIO())
    assert table.agents == [None, "heuristic"] and table.hint_agent == "heuristic"
    assert Table(PlayOptions("durak", ["random"], hint_agent="random"),
                 out=io.StringIO()).hint_agent == "random"
