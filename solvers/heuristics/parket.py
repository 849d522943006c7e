"""`heuristic` for Parket: win at once, never hand the opponent the win, then keep room.

Parket is lost by running out of moves and won by running out of cards, so what matters
after a move is how many placements each side will have.  Nothing is hidden: the heuristic
reads the whole position.

* A move that places my last card wins: play it.  A move after which the opponent has no
  legal move wins too (the opponent loses); a move that draws by the relocation cap is
  taken only when nothing better is left.
* A move after which the opponent, holding one card, can place it loses at once: avoid it.
  When I must relocate, or the board is nearly full (four empty cells or fewer), every
  reply is tried, which also finds the replies that leave me without any move (a card
  dropped into the cell my relocation emptied, say).
* Otherwise keep room: my placements in the position after the move (as if it were my
  turn again) less the opponent's placements there.  Corners whose two cards are both
  mine are closed to me and open to the opponent (the colour rule), so laying my cards
  next to each other tends to feed the opponent; the count sees that.
* Ties go to the move that leaves my hardest cards in hand least stuck: the cards with the
  fewest places, placed first while they have one; then the lowest action id.
"""

from __future__ import annotations

from koloda.games.parket.board import EMPTY, NUM_CELLS
from koloda.solvers.agent import Agent
from koloda.solvers.registry import register

WIN, LOSS, STUCK = 100_000, -100_000, 10_000
CARD_WEIGHT = 10             # a card that can go somewhere counts as ten more places
FULL_BOARD_EMPTIES = 4       # from here on every reply is tried: few cells, few moves


@register("heuristic", "wins at once, never hands over the win, keeps more room than "
          "the opponent", game="parket")
class ParketHeuristic(Agent):
    def choose(self, view, player: int) -> int:
        core = view.core
        return max(core.legal_actions(), key=lambda action: (self.score(core, action, player),
                                                             -action))

    def score(self, core, action: int, player: int) -> int:
        place_actions = core.rules.num_actions // 2
        after = core.copy()
        after.apply(action)
        if after.is_terminal():
            won = after.winners()
            return WIN if player in won else (LOSS if won else 0)
        opponent = 1 - player
        theirs = _placements(after.legal_actions(), after)
        if theirs and after.hands[opponent] & (after.hands[opponent] - 1) == 0:
            return LOSS + 1                       # their last card goes down next
        if (action >= place_actions or after.board.count(EMPTY) <= FULL_BOARD_EMPTIES) \
                and _a_reply_wins(after, opponent):
            return LOSS + 1                       # they can leave me without a move
        mine = _placements(after.legal_actions_of(player), after)
        if not theirs:
            return STUCK + _room(mine)            # they must relocate: a tempo for me
        return _room(mine) - _room(theirs)


def _a_reply_wins(core, opponent: int) -> bool:
    for reply in core.legal_actions():
        after = core.copy()
        after.apply(reply)
        if opponent in after.winners():
            return True
    return False


def _placements(legal, core) -> list[int]:
    place_actions = core.rules.num_actions // 2
    return [a for a in legal if a < place_actions]


def _room(placements) -> int:
    """How free a side is: the cards it can place, then the places for them."""
    cells = len(placements)
    cards = len({a // NUM_CELLS for a in placements})
    return CARD_WEIGHT * cards + cells
