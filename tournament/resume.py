"""Resuming: the games already in a results file must be games the config still schedules.

A rerun into the same output plays only the missing games, so each line already there has
to be the very game the config schedules under its id: the same game string (normalised),
the same agents in the same seats, each with the same spec, and the same deal seed.
Otherwise the old games would be reported as the new config's, so the rerun is refused
with what changed named.  A config that schedules more games (a larger games_per_pairing,
more games for a match) keeps the games already played and adds the others.
"""

from __future__ import annotations

from pathlib import Path

from koloda.tournament.config import ConfigError
from koloda.tournament.results import GameResult
from koloda.tournament.schedule import Schedule, Task

_ADVICE = ("move the file away, or give the config another name or output, so that the "
           "results of two configs are not mixed")


def check_resumable(path: Path, found: dict[str, GameResult], schedule: Schedule) -> None:
    """Raise ConfigError unless every game in `found` is scheduled, unchanged."""
    stray = []
    for key, result in found.items():
        task = schedule.find(key)
        if task is None:
            stray.append(key)
            continue
        change = what_changed(result, task)
        if change:
            raise ConfigError(f"{path}: game {key} {change}; {_ADVICE}")
    if stray:
        raise ConfigError(
            f"{path} holds {len(stray)} games this config does not schedule (game {stray[0]} "
            f"first): an agent renamed or removed, a match changed, fewer games? {_ADVICE}")


def what_changed(result: GameResult, task: Task) -> str | None:
    """How the game of a results line differs from the scheduled game, or None."""
    if result.game != task.game:
        return (f"was played in {result.game}, and the config has {task.game} there "
                f"(games changed or reordered)")
    if list(result.seats) != list(task.seats):
        return (f"was played by {', '.join(result.seats)}, and the config seats "
                f"{', '.join(task.seats)}")
    for name, old, new in zip(result.seats, result.specs, task.specs):
        if old != new:
            return f"was played by {name} = {old!r}, and the config has {name} = {new!r}"
    if len(result.specs) != len(task.specs):
        return f"names {len(result.specs)} specs for {len(task.specs)} seats"
    if (result.seed, result.deal) != (task.seed, task.deal):
        return (f"was dealt from seed {result.seed}, and the config deals it from seed "
                f"{task.seed} (the tournament seed changed)")
    return None
