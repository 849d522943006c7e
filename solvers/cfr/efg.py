"""A miniature's tree copied once into OpenSpiel's C++ extensive-form game (`efg_game`).

OpenSpiel's C++ solvers accept our Python games, but then every clone, move and
information-state string of every iteration is a call back into Python.  Written out as a
Gambit .efg tree (one line per history) and loaded with `pyspiel.load_efg_game`, the same
tree is a C++ game: the solvers and best responses run on it without Python, 30 times
faster for CFR+ and 16 times for outcome-sampling MCCFR (training.py), with the same
numbers (CFR+ on durak-open: exploitability 0.65417, 0.38492, 0.19246, 0.11548 after 1 to
4 iterations on both).  Information states are numbered per player in the
file; this module keeps the map between those numbers and our information-state strings,
and between the file's action ids and ours.  The efg game gives a node's actions the ids
of their labels in order of first appearance in the file, sorted, while its children stay
in the file's order: its i-th smallest id leads to the i-th child written, which is our
i-th legal action.  So the ids are matched per information state, by rank.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import pyspiel

from koloda.solvers.cfr.tree import MAX_HISTORIES, check_size, walk


@dataclass
class EfgTree:
    """The C++ copy of a game and the maps back to the game's own names."""

    game: pyspiel.Game
    histories: int
    keys: dict = field(default_factory=dict)      # efg infostate string -> ours
    legal: dict = field(default_factory=dict)     # our infostate string -> legal actions
    efg_legal: dict = field(default_factory=dict)  # our infostate string -> efg ids, sorted

    def to_ours(self, efg_table: dict) -> dict:
        """An efg policy table in our information states and action ids."""
        out = {}
        for efg_key, probs in efg_table.items():
            key = self.keys[efg_key]
            ours = dict(zip(self.efg_legal[key], self.legal[key]))
            out[key] = sorted((ours[a], p) for a, p in probs)
        return out

    def to_efg(self, table: dict) -> dict:
        """Our table, completed (uniform where a state is missing, zero where an action
        is), in the efg game's names, ready for its best responses."""
        out = {}
        for efg_key, key in self.keys.items():
            legal = self.legal[key]
            given = dict(table.get(key) or ())
            if not any(given.get(a, 0) > 0 for a in legal):
                given = {a: 1.0 / len(legal) for a in legal}
            out[efg_key] = [(efg, float(given.get(a, 0.0)))
                            for efg, a in zip(self.efg_legal[key], legal)]
        return out

    def missing(self, table: dict) -> int:
        """How many information states `table` lacks."""
        return sum(1 for key in self.legal if not table.get(key))


def export(game, limit: int = MAX_HISTORIES) -> EfgTree:
    """Walk the whole tree once and load it as a C++ efg game; its size is checked first,
    since the copy holds a line per history until it is loaded."""
    check_size(game, limit)
    players = game.num_players()
    lines = ['EFG 2 R "' + str(game).replace('"', "'") + '" { '
             + " ".join(f'"p{p}"' for p in range(players)) + " }", '""']
    numbers = [{} for _ in range(players)]      # our key -> efg infoset number, per player
    legal, efg_legal, action_ids, histories = {}, {}, {}, 0
    for state in walk(game, limit):
        histories += 1
        if state.is_terminal():
            returns = " ".join(repr(float(r)) for r in state.returns())
            lines.append(f't "" 1 "" {{ {returns} }}')
        elif state.is_chance_node():
            outcomes = " ".join(f'"c{a}" {p!r}' for a, p in state.chance_outcomes())
            lines.append(f'c "" 1 "" {{ {outcomes} }} 0')
        else:
            player = state.current_player()
            key = state.information_state_string(player)
            number = numbers[player].setdefault(key, len(numbers[player]) + 1)
            actions = state.legal_actions(player)
            for a in actions:                   # the file's ids: labels in first appearance
                action_ids.setdefault(a, len(action_ids))
            if key not in legal:
                legal[key] = tuple(actions)
                efg_legal[key] = tuple(sorted(action_ids[a] for a in actions))
            labels = " ".join(f'"a{a}"' for a in actions)
            lines.append(f'p "" {player + 1} {number} {{ {labels} }} 0')
    efg_game = pyspiel.load_efg_game("\n".join(lines) + "\n")
    tree = EfgTree(efg_game, histories, legal=legal, efg_legal=efg_legal)
    for player, by_key in enumerate(numbers):
        for key, number in by_key.items():
            tree.keys[f"{player}-{player}-{number}-"] = key
    return tree


@lru_cache(maxsize=4)
def _cached(game_string: str) -> EfgTree:
    return export(pyspiel.load_game(game_string))


def efg_tree(game) -> EfgTree:
    """The C++ copy of `game`, made once per process."""
    return _cached(str(game))
