"""Agents made ready before any clock starts, as a UCI engine answers `isready` first.

`prepare(game, spec)` makes koloda's agent `spec` ready to play `game` in this process:
it rehearses copies of the agent (solvers/rehearsal.py), so that numba compiles every
kernel its moves run, or loads it from its cache, before a real move is timed.  Once per
process for each game and spec; a second call costs nothing.  A tournament's workers,
`koloda match`, the protocol server and `koloda agent` call it before an agent's first
move, never on its clock.  `prepare_everything(games)` prepares what `koloda warm`
compiles ahead: each game with its levels and its documented agents.

numba caches what it compiles next to the code (in `__pycache__`), in a folder of the
user's where the installation is not writable, or in `NUMBA_CACHE_DIR` where that is
set; `cache_folder()` says which.  The first preparation of a process on an empty cache
compiles (about 20 s for the four games and their agents); later processes load.
"""

from __future__ import annotations

import os
import threading
import time

from koloda.games import game_string_of, load_game
from koloda.games.kit.registration import SPECS
from koloda.solvers.interrupts import stops_the_program
from koloda.solvers.levels import LEVELS
from koloda.solvers.registry import load_agent
from koloda.solvers.rehearsal import rehearse

_prepared: set[tuple[str, str]] = set()
#: one preparation at a time in a process: a server's threads asking for two agents of
#: one game would compile the same kernels twice
_lock = threading.Lock()


def prepare(game, spec: str) -> float:
    """Make koloda's agent `spec` ready to play `game` here; the seconds it took (0 when
    it already was).  A spec the registry refuses, or an agent that fails in its
    rehearsal, is left to fail in the game it plays, where the failure is recorded as
    that agent's: preparing never raises for it."""
    key = (game_string_of(game), spec)
    with _lock:
        if key in _prepared:
            return 0.0
        started = time.perf_counter()
        try:
            rehearse(game, [load_agent(game, spec, seed=seat)
                            for seat in range(game.num_players())])
        except BaseException as err:    # the real game meets the fault, and records it
            if stops_the_program(err):
                raise
        _prepared.add(key)
        return time.perf_counter() - started


def prepare_game(game) -> float:
    """Make the game itself ready (its rules, chance and the resampling of views, all
    compiled): what every seat of it runs, an external program's seat included."""
    return prepare(game, "random")


def warm_specs(name: str) -> list[str]:
    """The agents `koloda warm` prepares for the game `name`: random, the heuristic, the
    game's opponent and strongest agents, and its levels."""
    spec = SPECS[name]
    specs = ["random", "heuristic", spec.opponent, *dict(spec.strongest).values(),
             *LEVELS.get(name, ())]
    return list(dict.fromkeys(specs))


def prepare_everything(names=None, report=None) -> float:
    """Prepare every game of `names` (default all) with `warm_specs`; `report(name,
    seconds)` after each game.  The seconds it all took."""
    started = time.perf_counter()
    for name in names or list(SPECS):
        began = time.perf_counter()
        game = load_game(name)
        prepare_game(game)
        for spec in warm_specs(name):
            prepare(game, spec)
        if report is not None:
            report(name, time.perf_counter() - began)
    return time.perf_counter() - started


def cache_folder() -> str:
    """Where numba keeps what koloda compiles, in words: `NUMBA_CACHE_DIR` when set, else
    where numba put the kit's kernels (the `__pycache__` folders next to the code, or the
    user's cache folder when the installation is not writable)."""
    from koloda.games.kit import kernel
    locator = getattr(getattr(kernel.below, "_cache", None), "_impl", None)
    locator = getattr(locator, "locator", None)
    if locator is None:
        return "nowhere: numba's cache is off"
    path = locator.get_cache_path()
    if type(locator).__name__.startswith("InTree"):
        package = os.path.dirname(os.path.dirname(os.path.dirname(path)))
        return f"next to the code, in the __pycache__ folders of {package}"
    if type(locator).__name__.startswith("UserProvided"):
        return os.environ.get("NUMBA_CACHE_DIR") or path
    return path
