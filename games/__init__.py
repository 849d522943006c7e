"""The koloda games as OpenSpiel Python games.  Importing this package registers them.

`load_game` is `pyspiel.load_game` with errors a user can act on; `catalog` lists the
games and their parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyspiel

from koloda.games import durak
from koloda.games.errors import GameParameterError, KolodaError

# short name -> module; each module registers itself and exposes GAME_TYPE and PARAMETERS.
GAMES = {"durak": durak}


@dataclass(frozen=True)
class Parameter:
    name: str
    default: object
    help: str


@dataclass(frozen=True)
class GameEntry:
    name: str
    long_name: str
    summary: str
    parameters: tuple[Parameter, ...]


def catalog() -> list[GameEntry]:
    """The koloda games with their parameters and defaults, in a stable order."""
    return [
        GameEntry(
            name=name,
            long_name=module.GAME_TYPE.long_name,
            summary=module.SUMMARY,
            parameters=tuple(Parameter(p, d, h) for p, (d, h) in module.PARAMETERS.items()),
        )
        for name, module in GAMES.items()
    ]


def load_game(game_string: str) -> pyspiel.Game:
    """`pyspiel.load_game` for koloda games, raising GameParameterError that names what is
    wrong (unknown game, unknown parameter, wrong type) and what would be right."""
    text = game_string.strip()
    name, params = _parse_game_string(text)
    module = GAMES.get(name)
    if module is None:
        raise GameParameterError(f"unknown game {name!r}; koloda games are {', '.join(GAMES)}")
    for key, value in params.items():
        if key not in module.PARAMETERS:
            raise GameParameterError(
                f"{name} has no parameter {key!r}; its parameters are "
                f"{', '.join(module.PARAMETERS)}")
        default = module.PARAMETERS[key][0]
        if type(value) is not type(default):
            raise GameParameterError(
                f"{name} parameter {key} must be {type(default).__name__} "
                f"(like {key}={default}), not {value!r}")
    return pyspiel.load_game(name, params)


def _parse_game_string(text: str) -> tuple[str, dict]:
    """`name(key=value,...)` split like OpenSpiel does, without its stderr message."""
    name, paren, rest = text.partition("(")
    name = name.strip()
    if not paren:
        return name, {}
    if not rest.endswith(")") or rest.count("(") != rest.count(")") - 1:
        raise GameParameterError(f"cannot read game string {text!r}: unbalanced parentheses")
    params = {}
    for item in filter(None, (part.strip() for part in rest[:-1].split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise GameParameterError(f"cannot read game string {text!r}: {item!r} is not key=value")
        params[key.strip()] = _typed(value.strip())
    return name, params


def _typed(value: str):
    if value in ("true", "True", "false", "False"):
        return value.lower() == "true"
    for convert in (int, float):
        try:
            return convert(value)
        except ValueError:
            pass
    return value


__all__ = ["GAMES", "GameEntry", "Parameter", "catalog", "load_game", "KolodaError"]
