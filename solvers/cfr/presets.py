"""The miniatures: games small enough for exact equilibrium methods.

For each game, the smallest meaningful two-player variant (full-tree CFR in minutes) and a
larger one for the sampling methods (MCCFR); Durak also has `durak-open`, smaller still but
without hidden cards once dealt, where every agent's policy can be read off at every
search budget.  Sizes count every history of the tree
(chance, decision and terminal nodes) and the information states of both players; they are
counted by `tree.tree_size` (tests/cfr check the two smallest).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Preset:
    name: str
    game: str            # the game string, in its normal form
    histories: int
    infosets: int
    use: str             # "cfr" (full tree) or "mccfr" (sampling)
    note: str


PRESETS = {p.name: p for p in (
    Preset("durak-open", "durak(hand_size=2,ranks=5,suits=1)", 22_766, 5_988, "cfr",
           "five clubs (T J Q K A, all trumps), hands of two, one stock card: the turned-up "
           "trump, so after the deal each player can tell the other's hand"),
    Preset("durak-mini", "durak(hand_size=2,ranks=3,suits=2)", 1_202_789, 292_160, "cfr",
           "six cards (Q K A of clubs and diamonds), hands of two, a stock of two under "
           "the turned-up trump: the smallest Durak with a hidden hand"),
    Preset("durak-mccfr", "durak(hand_size=2,ranks=6,suits=1)", 2_183_461, 550_296, "mccfr",
           "six clubs (9..A, all trumps), hands of two, a stock of two"),
    Preset("platinum_fish-mini",
           "platinum_fish(copies=2,max_hand=2,max_turns=2,min_hand=2,ranks=3)",
           60_851, 13_638, "cfr", "six cards (two each of A 2 3), hands of two, two turns"),
    Preset("platinum_fish-mccfr",
           "platinum_fish(copies=3,max_hand=2,max_turns=2,min_hand=2,ranks=3)",
           255_686, 54_540, "mccfr", "nine cards (three each of A 2 3), hands of two, "
           "two turns"),
)}


def resolve(game: str) -> str:
    """A preset's game string for its name; any other text is taken as a game string."""
    preset = PRESETS.get(game)
    return preset.game if preset else game
