"""Bots for koloda's agent protocol (docs/agents.md): `run` plays the protocol for a bot
written as a function or a class (`loop.py`, standard library only), and `koloda agent
SPEC` plays one of koloda's own agents as such a program (`koloda_agent.py`, which keeps
the game as its seat was told it: `track.py`)."""

from koloda.bot.loop import Game, run

__all__ = ["Game", "run"]
