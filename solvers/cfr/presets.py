"""The miniatures: games small enough for exact equilibrium methods.

For each game, the smallest meaningful two-player variant (full-tree CFR in minutes) and a
larger one for the sampling methods (MCCFR); Durak also has `durak-open`, smaller still but
without hidden cards once dealt, where every agent's policy can be read off at every
search budget.  Snitch needs three players, so its miniature has three, and there
`exploitability` (OpenSpiel's, NashConv over the number of players) is NashConv / 3; the
next larger Snitch (a third rank) has more than the 5,000,000 histories the tree walks
take, so Snitch has no MCCFR preset.  Sizes count every history of the tree
(chance, decision and terminal nodes) and the information states of all players; they are
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
    Preset("snitch-mini", "snitch(copies=2,hand_size=2,ranks=2,target_score=0)", 37_217, 4_252,
           "cfr", "three players, seven cards (two each of 3 and 4, two 2s, a joker), hands "
           "of two, a reserve of one, a single deal"),
)}


def resolve(game: str) -> str:
    """A preset's game string for its name; any other text is taken as a game string."""
    preset = PRESETS.get(game)
    return preset.game if preset else game
