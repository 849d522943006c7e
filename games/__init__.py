"""The koloda games as OpenSpiel Python games.  Importing this package registers them:
every package in this folder but the kit is a game, imported here, so a new game's folder
is all it takes.

`load_game` is `pyspiel.load_game` with errors a user can act on, each game built once
while it stays in use; `catalog` lists the games and their parameters.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections import OrderedDict

import pyspiel

from koloda.games.errors import GameParameterError, KolodaError
from koloda.games.kit.params import Param, format_call, parse_call, shown
from koloda.games.kit.registration import SPECS, GameSpec

for _package in pkgutil.iter_modules(__path__):      # in the order of their names
    if _package.ispkg and _package.name != "kit":
        importlib.import_module(f"{__name__}.{_package.name}")   # registers the game

#: short name -> GameSpec, in the order `koloda games` lists them
GAMES = SPECS


def catalog() -> list[GameSpec]:
    """The koloda games with their parameters (`Param`: name, type, default, range, help)."""
    return list(SPECS.values())


def parse_game_string(game_string: str) -> tuple[str, dict]:
    """A game string checked against its game: (name, every parameter with its value).

    GameParameterError names what is wrong: the string's form, an unknown game, an unknown
    parameter, a wrong type, a value out of range, values that do not fit together.
    """
    name, _, values = _checked(game_string)
    return name, values


def normalize_game_string(game_string: str) -> str:
    """The canonical form of a game string: parameters that differ from their defaults,
    sorted (`durak(players=2)` and `durak()` are both `durak`)."""
    name, values = parse_game_string(game_string)
    return _normal(name, values)


def game_string_of(game) -> str:
    """The normal string of a loaded game (`durak(players=2)` is `durak`).  Rules that write
    their own string write it (pyspiel's `str(game)` leaves a Parket position unquoted, which
    no game string reads back); any other game's `str`, normalized when it is a koloda game."""
    written = getattr(getattr(game, "rules", None), "game_string", None)
    if written is not None:
        return written()
    text = str(game)
    try:
        return normalize_game_string(text)
    except GameParameterError:
        return text


def _normal(name: str, values: dict) -> str:
    defaults = {p.name: p.default for p in SPECS[name].parameters}
    return format_call(name, {k: v for k, v in values.items() if v != defaults[k]})


#: games kept by `load_game`, the most recently used (a server or a tournament sees many)
MAX_GAMES_CACHED = 64
_GAMES: OrderedDict[str, pyspiel.Game] = OrderedDict()      # normal game string -> game
_GAMES_LOCK = threading.Lock()      # servers load games from several threads


def load_game(game_string: str) -> pyspiel.Game:
    """`pyspiel.load_game` for koloda games, raising GameParameterError that names what is
    wrong (unknown game, unknown parameter, wrong type, out of range, values that do not fit
    together) and what is right; no other error, whatever `game_string` is.

    Strings of one normal form share one game object, built once per process while it is
    among the last `MAX_GAMES_CACHED` used: a game never changes after it is built (what
    it keeps, its start engine, it computes from its own rules), and building one for
    every move or match is what callers would pay otherwise.  A bad string is refused
    before the cache is looked at, so it is never kept."""
    name, given, values = _checked(game_string)
    normal = _normal(name, values)
    with _GAMES_LOCK:
        game = _GAMES.get(normal)
        if game is not None:
            _GAMES.move_to_end(normal)
            return game
    game = _guarded(game_string, pyspiel.load_game, name, {key: values[key] for key in given})
    with _GAMES_LOCK:              # built outside the lock: loads of other games go on
        game = _GAMES.setdefault(normal, game)      # a load that raced this one wins
        _GAMES.move_to_end(normal)
        while len(_GAMES) > MAX_GAMES_CACHED:
            _GAMES.popitem(last=False)
    return game


def clear_game_cache() -> None:
    """Forget every game `load_game` keeps: the next load of each builds it afresh."""
    with _GAMES_LOCK:
        _GAMES.clear()


def _checked(game_string: str) -> tuple[str, dict, dict]:
    """(name, the parameters given, every parameter's value) of a valid game string: each
    value in range and, by building the game's rules, the values consistent together (a
    deck that can deal the hands), so a string that passes here loads."""
    name, given = parse_call(game_string, "game string", GameParameterError)
    spec = SPECS.get(name)
    if spec is None:
        raise GameParameterError(f"unknown game {shown(name, 40)}; koloda games are "
                                 f"{', '.join(SPECS)}")
    rules = _guarded(game_string, spec.game_class.rules_class, given)
    return name, given, rules.params


def _guarded(game_string: str, build, *args):
    """`build(*args)`, any error but GameParameterError turned into one that names the game
    string: a caller of load_game gets one kind of error for a bad string."""
    try:
        return build(*args)
    except GameParameterError:
        raise
    except Exception as err:
        raise GameParameterError(f"game string {shown(game_string)} cannot be played: "
                                 f"{shown(str(err))}") from err


__all__ = ["GAMES", "GameSpec", "Param", "catalog", "load_game", "normalize_game_string",
           "parse_game_string", "KolodaError"]
