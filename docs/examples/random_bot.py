"""A bot for koloda's agent protocol (docs/agents.md) that plays a random legal action,
written with koloda's helper, which runs the protocol loop.

    koloda tournament configs/mine.toml      with, in the config:

    [agents.random_bot]
    command = ["python3", "docs/examples/random_bot.py"]

The seed of each game comes with new_game, so the bot replays a game alike.
"""

import random

from koloda.bot import run


class RandomBot:
    name = "random_bot.py"

    def new_game(self, game):
        self.rng = random.Random(game.seed)

    def go(self, events, legal, budget, game):
        return self.rng.choice(legal)


if __name__ == "__main__":
    raise SystemExit(run(RandomBot()))
