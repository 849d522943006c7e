"""Integer scores that hold a value and a distance, for negamax: a win in d plies is
`BIG - d`, a loss in d plies `-(BIG - d)`, a draw 0.  Higher is better for the side to
move, so the fastest win and the slowest loss come out of one maximum.  A draw's length is
found apart (every draw scores 0).

Scores are relative to the node, so a table entry holds wherever the node is reached.
"""

BIG = 10_000
INFINITY = BIG + 1
BEST_NONTERMINAL = BIG - 1            # a move that ends the game: win in 1
WORST_NONTERMINAL = -(BIG - 2)        # the opponent's reply ends it: loss in 2


def to_parent(child: int) -> int:
    """The parent's score of a move whose child scores `child` (one ply more)."""
    if child < 0:
        return -child - 1
    if child > 0:
        return -child + 1
    return 0


def to_child(bound: int) -> int:
    """The child score that gives the parent the score `bound` (the inverse of
    to_parent); a parent window (alpha, beta) is the child window
    (to_child(beta), to_child(alpha))."""
    if bound > 0:
        return -bound - 1
    if bound < 0:
        return -bound + 1
    return 0


def value_of(score: int) -> str:
    return "win" if score > 0 else "loss" if score < 0 else "draw"


def distance_of(score: int) -> int:
    """Plies to the end of a win or loss score (a draw's is kept apart)."""
    return BIG - abs(score) if score else 0


def score_of(value: str, distance: int) -> int:
    return BIG - distance if value == "win" else -(BIG - distance) if value == "loss" else 0
