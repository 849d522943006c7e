"""The games the conformance suite runs on: every registered game, as its default string
when `GAMES` names none of its strings, and every string `GAMES` lists; add one line to
`GAMES` and every test covers it."""

from __future__ import annotations

from dataclasses import dataclass

import pyspiel

from koloda import games


@dataclass(frozen=True)
class GameCase:
    """One game string under test.

    `small`: the game is small enough that every world a player cannot tell from the true
    one can be enumerated; the resampling tests then check that resampling reaches exactly
    those worlds, instead of only checking that hidden cards vary right after the deal.
    `perfect_information`: nothing is hidden, so a resample is the state itself and there
    are no hidden cards to vary.
    `tree`: the whole game tree is walked in seconds; the perfect-recall and public
    observation tests then visit every history instead of random ones.
    """

    game_string: str
    small: bool = False
    perfect_information: bool = False
    tree: bool = False

    @property
    def short_name(self) -> str:
        return self.game_string.split("(", 1)[0]

    def __str__(self) -> str:  # the pytest id
        return self.game_string


GAMES = [
    GameCase("durak()"),                                     # 2 players, 36 cards
    GameCase("durak(players=3)"),
    GameCase("durak(players=4,ranks=13)"),
    GameCase("durak(players=6)"),                            # 6 x 6 = 36: no stock, trump shown
    GameCase("durak(players=6,ranks=13)"),
    GameCase("durak(players=5,ranks=13,suits=4)"),
    GameCase("durak(ranks=4,suits=2,hand_size=3)", small=True),
    GameCase("durak(players=3,ranks=3,suits=2,hand_size=2,max_attack_cards=2)", small=True),
    GameCase("durak(players=4,previous_fool=2,lead=from_under)"),  # a game of a series
    GameCase("durak(players=3,max_moves=30)"),               # the move cap ends most games
    GameCase("platinum_fish()"),                             # 2 players, 104 cards
    GameCase("platinum_fish(players=4)"),
    GameCase("platinum_fish(players=6)"),
    GameCase("platinum_fish(ranks=6,copies=3)"),             # 18 cards: the dice offer unused ranks
    GameCase("platinum_fish(ranks=2,copies=7,max_turns=6)", small=True),
    GameCase("platinum_fish(ranks=3,copies=2,min_hand=2,max_hand=2,max_turns=2)",
             small=True, tree=True),                         # the miniature for exact methods
    GameCase("platinum_fish(players=3,max_turns=12)"),       # the turn cap ends the game
    GameCase("snitch(target_score=0)"),                      # one deal, 3 players
    GameCase("snitch(players=5,target_score=0)"),
    GameCase("snitch"),                                      # the whole match to 1000
    GameCase("snitch(ranks=2,copies=2,hand_size=2,target_score=0)", small=True,
             tree=True),                                     # 37,217 histories
    GameCase("snitch(target_score=300,max_deals=2)"),        # the deal cap ends the match
    GameCase("parket", perfect_information=True),            # red first, corners as a path
    GameCase("parket(first_color=black,corner_order=any)", perfect_information=True),
    GameCase("parket(corner_order=any,max_relocations=1)", perfect_information=True),
    GameCase("parket(first_color=black)", perfect_information=True),
    GameCase('parket(position="------Tc------/------9c------/--KhAh--Ad6d--/------Js------/'
             '------Ts------ b m 0")', perfect_information=True),   # from a main-phase position
    GameCase('parket(position="--TsJhTc7h6cAh/--7cQd9c8h7d8d/--8c9d8s9sTh9h/AsJcTdAdKcJs--/'
             'KhQhKs6d7s---- b m 0")', perfect_information=True,
             tree=True),                                     # six empty cells: 11,439 histories
]



def _every_registered_game(cases: list[GameCase]) -> list[GameCase]:
    """`cases` and, for each registered game they do not name, its default string: a new
    game runs the whole suite before any line here names it."""
    named = {case.short_name for case in cases}
    perfect = pyspiel.GameType.Information.PERFECT_INFORMATION
    return cases + [GameCase(name, perfect_information=games.load_game(name).get_type()
                             .information == perfect)
                    for name in games.GAMES if name not in named]


GAMES = _every_registered_game(GAMES)

# The games whose trees the perfect-recall and observation tests walk whole.  durak-open
# (22,766 histories) hides nothing once the deal is done, which the resampling tests need,
# so it is walked but not in GAMES.
DURAK_OPEN = GameCase("durak(hand_size=2,ranks=5,suits=1)", tree=True)
TREE_GAMES = [DURAK_OPEN] + [case for case in GAMES if case.tree]

# Games on which OpenSpiel's own ISMCTS bot must be able to search (it checks that every
# resampled state has the searching player's information state).
ISMCTS_GAMES = ["durak()", "platinum_fish()"]

# Action strings that no state accepts.  Every game gets the generic ones; a game family
# may add strings that look like its own notation but are broken.
GENERIC_MALFORMED_ACTIONS = ("", "   ", "xyzzy", "\n")
MALFORMED_ACTIONS = {
    "durak": ("attack", "attack 1z", "beat Zz", "take 7s", "throw", "beat 7s 8s", "pass pass",
              "beat 7", "attack 7s8s", "deal"),
    "snitch": ("discard", "set 7", "set 22", "set 2X", "set 78", "extend 77", "pick",
               "draw", "stop now", "pass 7", "set 7Z", "discard 7s"),
    "platinum_fish": ("take", "take discard now", "choose", "ask Z", "ask 7 8", "dice 7 1",
                      "dice 3", "hand 9", "stock", "draw 7", "roll 2", "choose 7s"),
    "parket": ("9h", "9h d6", "9h h2", "Zz d2", "5h d2", "move 9h", "move", "9h d2 e4",
               "place 9h d2", "move 9h d22", "d2 9h", "9x d2", "move move 9h d2"),
}


def malformed_actions(case: GameCase) -> tuple[str, ...]:
    return GENERIC_MALFORMED_ACTIONS + MALFORMED_ACTIONS.get(case.short_name, ())
