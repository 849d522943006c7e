"""Time controls: read from the config (top level and per agent), carried in the seat's
spec, held by every agent (koloda's search stops within them), a move past its time and
the margin a timeout; configs without one play exactly as before."""

import time

import pytest

from koloda import games
from koloda.solvers.agent import Agent
from koloda.solvers.clock import (
    MARGIN_MS,
    TimeControl,
    TimeControlError,
    aim_ms,
    check_budget,
    deadline_ms,
)
from koloda.tournament.config import ConfigError, load_config
from koloda.tournament.match import play_game
from koloda.tournament.runner import run_tournament
from koloda.tournament.schedule import build_schedule
from koloda.tournament.seating import load_seat_agent, split_time_control

from .conftest import ROOT, TINY, bot, tiny_config


def test_a_time_per_move_allows_its_time_and_the_margin():
    clock = TimeControl.per_move(200).start()
    assert clock.budget() == {"ms": 200} and deadline_ms({"ms": 200}) == 200 + MARGIN_MS
    assert clock.charge(249) is None
    assert "took 251 ms" in clock.charge(251)
    assert deadline_ms({"ms": 2000}) == 2200          # a tenth, when that is more than 50 ms
    assert aim_ms({"ms": 200}) == 200


def test_a_game_clock_counts_down_and_adds_its_increment():
    control = TimeControl.parse_clock("1+0.5")
    assert control.text() == "clock=1+0.5" and TimeControl.parse_clock("60").text() == \
        "clock=60+0"
    clock = control.start()
    assert clock.budget() == {"remaining_ms": 1000, "increment_ms": 500}
    assert clock.charge(400) is None
    assert clock.budget() == {"remaining_ms": 1100, "increment_ms": 500}
    assert aim_ms(clock.budget()) == min(550, 1100 / 20 + 500)
    assert clock.charge(1150) is None                 # within the margin of 110 ms
    assert clock.budget()["remaining_ms"] == 450
    assert "with 450 ms left on the clock" in clock.charge(600)
    assert aim_ms({"remaining_ms": 0, "increment_ms": 0}) == 1.0


@pytest.mark.parametrize("text", ["1:00", "0+1", "-1", "1+", "+1", "1e3", "100000+0", 60])
def test_a_clock_that_does_not_read_is_refused(text):
    with pytest.raises(TimeControlError):
        TimeControl.parse_clock(text)


@pytest.mark.parametrize("ms", [0, -5, 3_600_001, True, 1.5, "200"])
def test_a_time_per_move_must_be_whole_milliseconds_in_range(ms):
    with pytest.raises(TimeControlError):
        TimeControl.per_move(ms)


def test_budgets_are_checked():
    assert check_budget({"ms": 5}) == {"ms": 5}
    for bad in ({}, {"ms": -1}, {"ms": "5"}, {"remaining_ms": 5}, {"ms": 5, "x": 1}):
        with pytest.raises(TimeControlError):
            check_budget(bad)


def test_the_config_gives_every_agent_a_time_control_and_an_agent_its_own(tmp_path):
    config = tiny_config(tmp_path, {
        "random": "random", "h": {"default": "heuristic", "clock": "5+0.1"},
        "p": {"command": bot("python", "legal"), "move_ms": 300}}, move_ms=200)
    assert config.spec("random", TINY) == "random @ move_ms=200"
    assert config.spec("h", TINY) == "heuristic @ clock=5+0.1"
    spec = config.spec("p", TINY)
    assert spec.endswith(" @ move_ms=300") and spec.startswith("external(command=")
    assert spec.log == str(tmp_path / "x.logs" / "p.log")
    assert split_time_control(spec)[1] == TimeControl.per_move(300)
    first = next(iter(build_schedule(config)))
    assert first.seats == ("random", "h")
    assert first.specs == ("random @ move_ms=200", "heuristic @ clock=5+0.1")


@pytest.mark.parametrize("changes, message", [
    ({"move_ms": 100, "clock": "1+0"}, "move_ms and clock are both given"),
    ({"move_ms": 0}, "move_ms must be a whole number"),
    ({"clock": "fast"}, "clock must read SECONDS"),
    ({"agents": {"a": "random", "b": {"default": "random", "move_ms": 10, "clock": "1"}}},
     "agents.b.move_ms and agents.b.clock"),
    ({"agents": {"a": "random", "b": {"move_ms": 10}}}, "agents.b gives no spec"),
    ({"agents": {"a": "random", "b": {"default": "random", "cwd": "x"}}},
     "agents.b.cwd is for an external program"),
    ({"agents": {"a": "random", "b": {"command": []}}}, "agents.b.command must be a list"),
    ({"agents": {"a": "random", "b": {"command": ["x"], "durak": "random"}}},
     "runs a program \\(command\\), so it has no 'durak'"),
    ({"agents": {"a": "random", "b": {"command": ["x"], "start_ms": "1"}}},
     "agents.b.start_ms must be an integer"),
    ({"agents": {"a": "random", "b": {"command": ["x"], "env": {"A": 1}}}},
     "each variable a string"),
    ({"agents": {"a": "random", "b": {"command": ["no-such-program-koloda"]}}},
     "the program 'no-such-program-koloda' is not found on PATH"),
    ({"agents": {"a": "random", "b": {"command": ["bots/none.py"]}}},
     "is not found in ."),
    ({"agents": {"a": "random", "b": {"command": ["python3"], "cwd": "/no/such/dir"}}},
     "does not exist"),
    ({"agents": {"a": "random", "b": "random @ move_ms=0"}}, "agents.b: .*move_ms"),
    ({"agents": {"a": "random", "b": "random @ move_ms=10"}, "clock": "1+0"},
     "agents.b: it has a time control in its spec \\(move_ms=10\\) and the config"),
])
def test_bad_time_controls_and_external_tables_are_refused_by_name(tmp_path, changes,
                                                                     message):
    agents = changes.pop("agents", {"a": "random", "b": "heuristic"})
    with pytest.raises(ConfigError, match=message):
        tiny_config(tmp_path, agents, **changes)


def test_configs_without_a_time_control_schedule_the_same_specs():
    config = load_config(str(ROOT / "configs" / "default.toml"))
    specs = {spec for task in build_schedule(config) for spec in task.specs}
    written = {spec for entry in config.agents.values()
               for spec in ([entry] if isinstance(entry, str) else entry.values())}
    assert specs <= written and not any(" @ " in s or type(s) is not str for s in specs)


class _Slow(Agent):
    def choose(self, view, player):
        time.sleep(0.15)
        return view.legal_actions()[0]


def test_an_in_process_agent_past_its_time_loses_by_timeout():
    game = games.load_game(TINY)
    record = play_game(game, [_Slow(game), load_seat_agent(game, "random")], seed=1,
                       specs=["slow", "random"],
                       time_controls=[TimeControl.per_move(50), None])
    assert record.error["reason"] == "timeout" and record.error["seat"] == 0
    assert "took 1" in record.error["message"] and record.returns == [-1.0, 1.0]


@pytest.mark.parametrize("control, first_aim", [("move_ms=120", 0.12),
                                                 ("clock=1.5+0.05", 1.5 / 20 + 0.05)])
def test_koloda_search_is_handed_the_time_it_aims_at(control, first_aim):
    """The search's own budget is replaced, for each move, by what the time control lets it
    aim at (a time per move in full; from a clock a share of what is left), and then
    restored; whether a loaded machine keeps to it is the benchmark's business, not a
    test's."""
    game = games.load_game(TINY)
    searcher = load_seat_agent(game, f"ismcts(sims=1000000) @ {control}")
    aims, choose = [], searcher.choose

    def spy(view, player):
        aims.append((searcher.budget.seconds, searcher.time_budget))
        return choose(view, player)

    searcher.choose = spy
    play_game(game, [searcher, load_seat_agent(game, "random")], seed=2)
    assert aims and aims[0][0] == pytest.approx(first_aim)
    assert all(seconds == pytest.approx(aim_ms(budget) / 1000.0) for seconds, budget in aims)
    assert searcher.last_simulations is None or searcher.last_simulations < 1_000_000
    assert searcher.budget.seconds == 0          # its own budget is as its spec gave it


def test_a_changed_time_control_is_a_changed_agent_on_resume(tmp_path):
    agents = {"r": "random", "h": "heuristic"}
    run_tournament(tiny_config(tmp_path, agents, move_ms=1000), progress=False)
    with pytest.raises(ConfigError, match="was played by .* @ move_ms=1000"):
        run_tournament(tiny_config(tmp_path, agents, move_ms=500), progress=False)
