"""A game's spec and its registration: with OpenSpiel (so `pyspiel.load_game` and every
OpenSpiel algorithm see it) and in koloda's own list (for `load_game` and `koloda games`)."""

from __future__ import annotations

from dataclasses import dataclass

import pyspiel

from koloda.games.kit.params import Param


@dataclass(frozen=True)
class GameSpec:
    game_type: pyspiel.GameType
    game_class: type
    parameters: tuple[Param, ...]
    summary: str

    @property
    def name(self) -> str:
        return self.game_type.short_name

    @property
    def long_name(self) -> str:
        return self.game_type.long_name


SPECS: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Register `spec` with OpenSpiel and with koloda; returns it."""
    pyspiel.register_game(spec.game_type, spec.game_class)
    SPECS[spec.name] = spec
    return spec
