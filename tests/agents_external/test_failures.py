"""External bots that fail, in Python and in Node.js: every scheduled game is in the
results, each failure is the failing agent's loss with its reason, the others play on,
and each agent's stderr is in its own log beside the results."""

import pytest

from koloda import games
from koloda.tournament import main as tournament_main
from koloda.tournament.config import config_from_dict
from koloda.tournament.schedule import build_schedule

from .conftest import TINY, bot, needs_node

#: mode -> the reason its games end with (None: they end normally)
REASONS = {"legal": None, "crash3": "crashed", "hang": "timeout", "garbage": "bad_message",
           "illegal": "illegal_action", "silent": "no_start", "slow": "timeout"}


def _agents(language: str) -> dict:
    table = {name: {"command": bot(language, name)} for name in REASONS}
    table["hang"]["move_ms"] = 300                    # a time per move for this one only
    table["silent"]["start_ms"] = 400
    table["slow"] = {"command": bot(language, "slow", "120"), "clock": "0.3+0"}
    return {"random": "random", **table}


def _decisions(game, actions, seat) -> int:
    """How many times `seat` was asked to move in a game's actions."""
    state, count = game.new_initial_state(), 0
    for action in actions:
        count += state.current_player() == seat
        state.apply_action(action)
    return count + (not state.is_terminal() and state.current_player() == seat)


@pytest.mark.parametrize("language", ["python", pytest.param("node", marks=needs_node)])
def test_failing_bots_lose_their_games_with_the_reason_and_the_rest_play_on(tmp_path,
                                                                            language):
    agents = _agents(language)
    config = config_from_dict({
        "name": "bad", "schedule": "gauntlet", "games": [TINY], "seed": 4, "jobs": 2,
        "games_per_pairing": 4, "output": str(tmp_path), "bootstrap": 20,
        "move_ms": 2000, "agents": agents,
        "match": [{"agent": name, "opponent": "random"} for name in REASONS]})
    (summary, written), = tournament_main.run_and_report(config, progress=False)
    run_results = {line["id"]: line for line in _lines(config.results_path)}
    scheduled = [task.id for task in build_schedule(config)]
    assert sorted(run_results) == sorted(scheduled) and len(scheduled) == 4 * len(REASONS)
    game = games.load_game(TINY)
    for task in build_schedule(config):
        line = run_results[task.id]
        mode = task.match.agent
        seat = task.seats.index(mode)
        expected = REASONS[mode]
        if mode in ("crash3", "slow") and _decisions(game, line["actions"], seat) < 3:
            expected = None      # the game ended before its third move (or its clock ran out)
        if expected is None:
            assert "error" not in line, line["error"]
            continue
        error = line["error"]
        assert error["reason"] == expected and error["seat"] == seat and \
            error["agent"] == mode, (mode, error)
        assert line["returns"][seat] == -1.0 and line["returns"][1 - seat] == 1.0
    # each agent's stderr went to its own log, with koloda's notes on its processes
    logs = config.logs_path
    assert sorted(p.name for p in logs.iterdir()) == sorted(f"{m}.log" for m in REASONS)
    crash_log = (logs / "crash3.log").read_text()
    assert "RuntimeError" in crash_log or "Error: the third move" in crash_log
    assert "move 3:" in crash_log and "started:" in crash_log
    assert "this is not JSON" in (logs / "garbage.log").read_text()   # only the log repeats it
    assert all("this is not JSON" not in line.get("error", {}).get("message", "")
               for line in run_results.values())
    # the report lists each failure with its reason
    report = next(p for p in written if p.suffix == ".md").read_text()
    for reason in ("crashed", "timeout", "bad_message", "illegal_action", "no_start"):
        assert f"): {reason}: " in report
    assert summary.errors and {e.reason for e in summary.errors} == set(REASONS.values()) - {
        None}


def _lines(path):
    import json
    return [json.loads(line) for line in path.read_text().splitlines()]
