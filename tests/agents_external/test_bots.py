"""Writing a bot: the Python helper runs the protocol loop for a function or a class; the
example bots in Python and plain Node.js play legally and replay a game alike; `koloda
agent` refuses what it cannot play; the benchmark measures the exchange."""

import io
import json
import subprocess
import sys

from koloda import games
from koloda.bench.external import format_external_bench, run_external_bench
from koloda.bot import run
from koloda.tournament.runner import run_tournament

from .conftest import EXAMPLES, KOLODA, NODE, TINY, needs_node, tiny_config

MESSAGES = [
    {"type": "hello", "protocol": 1},
    {"type": "new_game", "game": "durak", "seat": 1, "players": 2, "seed": 5},
    {"type": "go", "events": [{"player": None, "action": "deal ?"}], "legal": ["a", "b"],
     "budget": {"ms": 200}, "view": {"hand": ["7s"]}},
    {"type": "something_newer", "x": 1},
    {"type": "go", "events": [{"player": 0, "action": "take"}], "legal": ["c"],
     "budget": {"remaining_ms": 900, "increment_ms": 0}},
    {"type": "game_over", "events": [{"player": 1, "action": "c"}], "returns": [1.0, -1.0]},
    {"type": "quit"},
    {"type": "go", "events": [], "legal": ["never"], "budget": {"ms": 1}},
]


def _exchange(bot, **options) -> list[dict]:
    stdin = io.StringIO("".join(json.dumps(m) + "\n" for m in MESSAGES))
    stdout = io.StringIO()
    assert run(bot, stdin=stdin, stdout=stdout, **options) == 0
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


def test_the_helper_plays_a_bot_written_as_one_function():
    calls = []

    def choose(legal, events, budget, game):
        calls.append((list(legal), events, budget, game.seat, len(game.events), game.view))
        return legal[-1]
    answers = _exchange(choose, name="last")
    assert answers == [{"type": "hello", "name": "last"}, {"type": "move", "action": "b"},
                       {"type": "move", "action": "c"}]          # nothing after quit
    assert calls[0] == (["a", "b"], [{"player": None, "action": "deal ?"}], {"ms": 200}, 1,
                        1, {"hand": ["7s"]})
    assert calls[1][3:] == (1, 2, None)


def test_the_helper_plays_a_bot_written_as_a_class():
    class Bot:
        name = "keeper"

        def __init__(self):
            self.log = []

        def new_game(self, game):
            self.log.append(("new", game.game, game.seat, game.players, game.seed))

        def go(self, events, legal, budget, game):
            return legal[0]

        def game_over(self, events, returns, game):
            self.log.append(("over", returns, len(game.events)))
    bot = Bot()
    answers = _exchange(bot)
    assert answers[0] == {"type": "hello", "name": "keeper"}
    assert [a["action"] for a in answers[1:]] == ["a", "c"]
    assert bot.log == [("new", "durak", 1, 2, 5), ("over", [1.0, -1.0], 3)]


def _examples() -> dict:
    agents = {"random": "random",
              "py": {"command": [sys.executable,
                                 str(EXAMPLES / "random_bot.py")]}}
    if NODE:
        agents["js"] = {"command": [NODE, str(EXAMPLES / "random_bot.js")]}
    return agents


def test_the_example_bots_play_legally_and_replay_a_game_alike(tmp_path):
    first = tiny_config(tmp_path / "a", _examples(), games_per_pairing=4)
    second = tiny_config(tmp_path / "b", _examples(), games_per_pairing=4, jobs=2)
    run = run_tournament(first, progress=False)
    run_tournament(second, progress=False)
    assert all(result.error is None for result in run.results.values())
    assert len(run.results) == (12 if NODE else 4)
    def lines(config):
        return [{k: v for k, v in json.loads(x).items() if k != "specs"}
                for x in config.results_path.read_text().splitlines()]
    assert lines(first) == lines(second)


@needs_node
def test_the_node_example_needs_no_package():
    text = (EXAMPLES / "random_bot.js").read_text()
    assert [line for line in text.splitlines() if "require(" in line] == [
        'const readline = require("readline");']


def test_koloda_agent_refuses_a_spec_or_a_game_it_cannot_play():
    done = subprocess.run([*KOLODA, "agent", "no_such_agent"], input="", text=True,
                          capture_output=True, timeout=60)
    assert done.returncode == 2 and "unknown agent" in done.stderr and done.stdout == ""
    lines = [json.dumps(m) for m in (
        {"type": "hello", "protocol": 1},
        {"type": "new_game", "game": "parket", "seat": 0, "players": 2, "seed": 1})]
    done = subprocess.run([*KOLODA, "agent", "random", "--game", "durak"],
                          input="\n".join(lines) + "\n", text=True, capture_output=True,
                          timeout=60)
    assert done.returncode != 0 and "this agent plays durak" in done.stderr
    assert json.loads(done.stdout.splitlines()[0]) == {"type": "hello",
                                                       "name": "koloda random"}


def test_the_benchmark_times_each_move_of_every_program():
    figures = run_external_bench(games.load_game(TINY), games=2)
    names = [f.agent for f in figures]
    assert names[0] == "random (in process)" and "koloda agent random" in names
    assert ("random_bot.js (node)" in names) == bool(NODE)
    assert all(f.move_ms and f.errors == 0 for f in figures)
    assert all(f.percentile(0.5) <= f.percentile(0.99) for f in figures)
    assert "p99 ms/move" in format_external_bench(figures)
