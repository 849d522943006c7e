"""The example exchange of docs/agents.md, from a real game: koloda's heuristic in seat 0
against a random bot in seat 1 over the protocol, 200 ms a move (`python -m
tests.agents_external.exchange` prints it)."""

import sys
import tempfile
from pathlib import Path

from koloda import games, solvers
from koloda.solvers.clock import TimeControl
from koloda.solvers.external import external_spec, load_external
from koloda.solvers.external.process import pool
from koloda.tournament.match import play_game

GAME = "durak(ranks=4,suits=2,hand_size=3)"
SEED = 12
BOT = Path(__file__).resolve().parent / "bots" / "transcript_bot.py"


def example_exchange() -> str:
    game = games.load_game(GAME)
    with tempfile.TemporaryDirectory() as folder:
        transcript = Path(folder) / "transcript.txt"
        bot = load_external(game, external_spec([sys.executable, str(BOT), str(transcript)]),
                            seed=123)
        play_game(game, [solvers.load_agent(game, "heuristic", seed=1), bot], SEED,
                  time_controls=[None, TimeControl.per_move(200)])
        pool().close_all()
        return transcript.read_text().replace(str(transcript), "transcript.txt")


if __name__ == "__main__":
    sys.stdout.write(example_exchange())
