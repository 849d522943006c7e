"""Game records: written from a state's history, replayed action by action, refused with a
message naming what is wrong, and the same log from `koloda show --record` as from the game
it records."""

import json
import random
import re

import pytest
from named_pipes import pipe, without_waiting_on

from koloda import games
from koloda.cli.main import main
from koloda.games.kit.random_play import choose
from koloda.play.show import show_game, show_record
from koloda.protocol.record import RecordError, load_record, record_of, replay, save_record

GAMES = ["durak", "platinum_fish", "snitch(target_score=0)", "parket"]


def random_game(game_string: str, seed: int, stop: int | None = None):
    """The state after a seeded random game (or its first `stop` actions)."""
    state = games.load_game(game_string).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and (stop is None or len(state.history()) < stop):
        state.apply_action(choose(state, rng))
    return state


@pytest.mark.parametrize("game_string", GAMES)
def test_a_record_replays_to_the_same_history_and_returns(game_string, tmp_path):
    state = random_game(game_string, seed=5)
    record = record_of(state, game_string, seed=5, players=["you", "random"])
    loaded = load_record(save_record(record, tmp_path / "r.json"))
    assert loaded == json.loads(json.dumps(record))
    _, replayed = replay(loaded)
    assert replayed.history() == state.history()
    assert replayed.returns() == state.returns()
    assert any(a.startswith("p") for a in record["actions"])       # decisions carry a seat


@pytest.mark.parametrize("game_string", GAMES)
def test_show_record_logs_the_game_as_show_does(game_string):
    game = games.load_game(game_string)
    seed = 11
    from_seed = show_game(game, seed)
    state = random_game(game_string, seed)
    from_record = show_record(record_of(state, game_string, seed=seed), "r.json")
    assert from_record.splitlines()[1:] == from_seed.splitlines()[1:]
    assert from_record.splitlines()[0] == from_seed.splitlines()[0]


def test_a_record_of_a_game_in_progress_is_logged_as_far_as_it_went():
    state = random_game("durak", seed=2, stop=30)
    record = record_of(state, "durak")
    assert "returns" not in record
    log = show_record(record, "r.json")
    assert log.endswith("before the game's end")


def test_player_names_appear_in_the_title():
    state = random_game("durak", seed=2)
    log = show_record(record_of(state, "durak", 2, ["you", "ismcts(ms=500)"]), "r.json")
    assert "p0 you, p1 ismcts(ms=500)" in log.splitlines()[0]


def edited(change):
    record = record_of(random_game("durak", seed=3), "durak", seed=3)
    change(record)
    return record


@pytest.mark.parametrize("change, message", [
    (lambda r: r["actions"].insert(12, "p0 take"), "actions[12] 'p0 take': chance is to act"),
    (lambda r: r["actions"].__setitem__(13, r["actions"][13][3:]), "p1 is to move here; a "
     "decision is written with its seat"),
    (lambda r: r["actions"].__setitem__(13, "p0" + r["actions"][13][2:]), "p1 is to move "
     "here, not p0"),
    (lambda r: r["actions"].__setitem__(13, "p1 attack Zz"), "actions[13] 'p1 attack Zz'"),
    (lambda r: r["actions"].__setitem__(0, "deal"), "actions[0] 'deal'"),
    (lambda r: r["returns"].reverse(), "the record's returns [-1.0, 1.0] are not the game's"),
    (lambda r: r["actions"].pop(), "the record gives returns, but its game is not over"),
    (lambda r: r["actions"].append("p0 take"), "the game is already over"),
    (lambda r: r.update(game="durak(ranks=99)"), "game 'durak(ranks=99)'"),
])
def test_a_wrong_record_is_refused_naming_the_action(change, message):
    with pytest.raises(RecordError, match="^r.json: .*" + re.escape(message)):
        replay(edited(change), "r.json")


@pytest.mark.parametrize("text, message", [
    ("{oops", "not a koloda record: line 1"),
    ("[1, 2]", "not a koloda record"),
    ('{"record": 2, "game": "durak", "actions": []}', "not a koloda record"),
    ('{"record": 1, "actions": []}', "the field 'game' is missing"),
    ('{"record": 1, "game": "durak", "actions": [], "moves": []}', "unknown field 'moves'"),
    ('{"record": 1, "game": "durak", "actions": "deal 8d"}', "'actions' must be a list"),
    ('{"record": 1, "game": "durak", "actions": [7]}', "actions[0] must be a string"),
])
def test_a_file_that_is_not_a_record_is_refused(tmp_path, text, message):
    path = tmp_path / "r.json"
    path.write_text(text)
    with pytest.raises(RecordError, match=re.escape(message)):
        load_record(path)


def test_koloda_show_record_prints_the_game_and_refuses_bad_use(tmp_path, capsys):
    path = save_record(record_of(random_game("parket", 4), "parket", 4), tmp_path / "p.json")
    assert main(["show", "--record", str(path)]) == 0
    assert "game over after" in capsys.readouterr().out
    assert main(["show", "--record", str(tmp_path / "missing.json")]) == 2
    assert "missing.json: cannot read the record" in capsys.readouterr().err
    assert main(["show", "durak", "--record", str(path)]) == 2
    assert "give no game" in capsys.readouterr().err
    assert main(["show"]) == 2
    assert "needs a game" in capsys.readouterr().err


def _with_seat(seat: str) -> str:
    """A record whose first decision names `seat` instead of its own."""
    record = record_of(random_game("durak", seed=3), "durak", seed=3)
    first = next(i for i, action in enumerate(record["actions"]) if action.startswith("p"))
    record["actions"][first] = seat + record["actions"][first][2:]
    return json.dumps(record, ensure_ascii=False)


@pytest.mark.parametrize("text, message", [
    (_with_seat("p¹"), "'p¹' is no seat; a seat is p and at most three ASCII digits"),
    (_with_seat("p١"), "'p١' is no seat"),
    ('{"record": 1, "game": "durak", "actions": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "not a koloda record: its JSON is nested too deeply"),
    ('{"record": 1, "game": "durak", "actions": [], "returns": ["x", "y"]}',
     "returns[0] must be a finite number, not 'x'"),
    ('{"record": 1, "game": "durak", "actions": [], "returns": [NaN, 1]}',
     "returns[0] must be a finite number, not nan"),
    ('{"record": 1, "game": "durak", "actions": [], "seed": ' + "9" * 5000 + "}",
     "a number has too many digits"),
    ('{"record": true, "game": "durak", "actions": []}', "not a koloda record"),
    ('{"record": 1, "game": "durak", "actions": ["' + "x" * 10_000 + '"]}',
     "actions[0] is 10,000 characters long; an action has at most 200"),
])
def test_a_malformed_record_is_one_line_naming_what(tmp_path, capsys, text, message):
    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    assert main(["show", "--record", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"koloda: error: {path}: ") and err.count("\n") == 1, err[:300]
    assert message in err and len(err) < 400


@pytest.mark.parametrize("write, message", [
    (lambda path: path.write_bytes(b'{"record": 1, "game": "durak", "actions": ["\xff"]}'),
     "not a koloda record: not UTF-8 text (byte 44)"),
    (lambda path: path.open("wb").truncate(16 * 2**20 + 1),
     "not a koloda record: larger than 16 MiB"),
])
def test_a_file_too_large_or_not_text_is_one_line_without_reading_it_all(
        tmp_path, capsys, write, message):
    path = tmp_path / "r.json"
    write(path)
    assert main(["show", "--record", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"koloda: error: {path}: ") and err.count("\n") == 1
    assert message in err


def test_a_device_that_never_ends_is_refused_after_the_largest_record():
    assert main(["show", "--record", "/dev/zero"]) == 2


def test_a_pipe_is_refused_at_once_not_waited_on(tmp_path):
    fifo = pipe(tmp_path / "r.json")
    failure = [without_waiting_on(fifo, lambda: _refusal(fifo), "load_record")]
    assert failure == [f"{fifo}: cannot read the record: it is not a regular file (a "
                       f"device, a pipe or a socket)"]


def _refusal(path) -> str | None:
    try:
        load_record(path)
    except RecordError as err:
        return str(err)
    return None
