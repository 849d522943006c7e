"""The koloda games as OpenSpiel Python games.  Importing this package registers them.

`load_game` is `pyspiel.load_game` with errors a user can act on; `catalog` lists the
games and their parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyspiel

from games import durak
from games.errors import GameParameterError, KolodaError

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
            summary=(module.__doc__ or "").strip().splitlines()[0],
            parameters=tuple(Parameter(p, d, h) for p, (d, h) in module.PARAMETERS.items()),
        )
        for name, module in GAMES.items()
    ]


def load_game(game_string: str) -> pyspiel.Game:
    """`pyspiel.load_game`, raising GameParameterError that names what is wrong."""
    text = game_string.strip()
    name = text.split("(", 1)[0].strip()
    if name not in GAMES:
        raise GameParameterError(
            f"unknown game {name!r}; koloda games are {', '.join(GAMES)}")
    try:
        return pyspiel.load_game(text)
    except KolodaError:
        raise
    except pyspiel.SpielError as err:
        message = str(err).split(". Available", 1)[0]
        raise GameParameterError(f"cannot load {text!r}: {message}") from None


__all__ = ["GAMES", "GameEntry", "Parameter", "catalog", "load_game", "KolodaError"]
