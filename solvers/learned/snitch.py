"""A learned value of a Snitch position for search: what each player's deal is still worth.

Search (`ismcts(rollout=learned)`) plays a simulation on from its new leaf by the heuristic
agent's rules only to the searcher's next turn, and asks this model for every seat's value
there instead of playing the deal out: one playout's
result varies far more (a standard deviation of about 0.4) than the few hundredths that
separate sensible moves, so a prediction learned from many deals is a steadier guide.

* **The value** is the one search uses at the end of a deal (`SnitchCore.returns` after
  `end_at_deal`): a player's points in the deal less the mean of the others', over a fair
  share of the deck's points.  The model predicts how much that still changes from the
  position to the end of the deal; the points already laid count as they stand.
* **Features** (`features`) describe the position from one seat: its hand (points,
  natural pairs, wilds, high naturals, cards that extend its own sets, a card that pairs
  the top discard), the same for the other hands (mean), how much of the reserve is left
  (alone and times the hand features: a card in hand is worth less as the deal runs out),
  whose turn it is and the score race.  In search they read a sampled world, so the other
  hands are a guess consistent with what the searcher knows.
* **The model** is linear, fitted by least squares on positions of heuristic self-play
  (snitch_fit.py).  The weights ship as `snitch_weights.json`; refit them with
  `python -m koloda.solvers.learned.snitch_fit --deals 10000 --seed 1` (seeded: the same
  file).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from koloda.games.snitch.engine import OVER, TURN, SnitchCore
from koloda.solvers.playouts.snitch import heuristic_step

PACKAGE = "koloda.solvers.learned"
WEIGHTS_FILE = "snitch_weights.json"

FEATURE_NAMES = (
    "bias",
    "hand_points", "hand_pairs", "hand_wilds2", "hand_jokers", "hand_high", "hand_extend",
    "hand_cards", "pick_top",
    "others_points", "others_pairs", "others_wilds2", "others_jokers", "others_cards",
    "reserve", "reserve_sq", "reserve_empty",
    "r_hand_points", "r_hand_pairs", "r_hand_wilds2", "r_hand_jokers", "r_hand_high",
    "r_others_points", "r_others_jokers", "r_others_wilds2",
    "e_hand_points", "e_hand_pairs", "e_hand_wilds2", "e_hand_jokers",
    "to_move", "next_to_move", "laid_diff", "race",
)


def _hand_features(rules, hand, own_sets: int, top: int) -> tuple:
    points = rules.points
    two, joker = rules.two, rules.joker
    total = 0
    pairs = 0
    high = 0
    extend = 0
    pick = 0
    for card in range(rules.num_ranks):
        count = hand[card]
        if count:
            total += points[card] * count
            if count >= 2:
                pairs += (count // 2) * 2 * points[card]
            if points[card] >= 10:
                high += count
            if own_sets >> card & 1:
                extend += count
    total += points[two] * hand[two] + points[joker] * hand[joker]
    if top >= 0:
        if top >= two:
            pick = 1 if any(hand[c] for c in range(rules.num_ranks)) else 0
        elif hand[top] or hand[two] or hand[joker]:
            pick = 1
    return total, pairs, hand[two], hand[joker], high, extend, sum(hand), pick


class _Fields:
    """The engine fields the features read, read once for all seats (each read of an
    engine field builds a fresh list from its state)."""

    __slots__ = ("rules", "hands", "set_ranks", "points", "totals", "discard",
                 "reserve_size", "player")

    def __init__(self, core: SnitchCore):
        self.rules = core.rules
        self.hands, self.set_ranks, self.points = core.hands, core.set_ranks, core.points
        self.totals, self.discard = core.totals, core.discard
        self.reserve_size, self.player = core.reserve_size, core.player


def features(core: SnitchCore, seat: int) -> list[float]:
    """The features of `core` for `seat` (any phase; the model was fitted at turns)."""
    return _features(_Fields(core), seat)


def _features(fields: _Fields, seat: int) -> list[float]:
    """`features` from the fields read once."""
    rules = fields.rules
    n = rules.num_players
    share = rules.deck_points / n
    hands, set_ranks, points, reserve_size = (fields.hands, fields.set_ranks, fields.points,
                                              fields.reserve_size)
    discard = fields.discard
    top = discard[-1] if discard and reserve_size else -1
    own = _hand_features(rules, hands[seat], set_ranks[seat], top)
    others = [0.0] * 8
    for other in range(n):
        if other != seat:
            f = _hand_features(rules, hands[other], set_ranks[other], -1)
            for i in range(8):
                others[i] += f[i]
    others = [x / (n - 1) for x in others]
    r = reserve_size / rules.num_cards
    empty = 1.0 if not reserve_size else 0.0
    hp, hpairs, h2, hx = own[0] / share, own[1] / share, own[2], own[3]
    total = sum(points)
    laid = (n * points[seat] - total) / (n - 1) / share
    mover = fields.player
    to_move = 1.0 if mover == seat else 0.0
    next_to_move = 1.0 if (seat - mover) % n == 1 else 0.0
    race = 0.0
    if rules.target_score:
        totals = fields.totals
        mine = totals[seat] + points[seat]
        best = max(totals[o] + points[o] for o in range(n) if o != seat)
        race = (mine - best) / rules.target_score
    return [
        1.0,
        hp, hpairs, h2, hx, own[4], own[5], own[6], own[7],
        others[0] / share, others[1] / share, others[2], others[3], others[6],
        r, r * r, empty,
        r * hp, r * hpairs, r * h2, r * hx, r * own[4],
        r * others[0] / share, r * others[3], r * others[2],
        empty * hp, empty * hpairs, empty * h2, empty * hx,
        to_move, next_to_move, laid, race,
    ]


def laid_value(core) -> list[float]:
    """Each seat's deal score difference from the points laid so far (`core` an engine,
    or its `_Fields`)."""
    rules = core.rules
    n = rules.num_players
    share = rules.deck_points / n
    points = core.points
    total = sum(points)
    return [(n * p - total) / (n - 1) / share for p in points]


class ValueModel:
    """Linear weights over `features`: the predicted change of a seat's deal value."""

    def __init__(self, weights, names=FEATURE_NAMES):
        if list(names) != list(FEATURE_NAMES):
            raise ValueError("the weights were fitted on other features")
        self.weights = [float(w) for w in weights]

    def values(self, core: SnitchCore) -> list[float]:
        """Every seat's predicted deal value (they sum to zero, like the score difference)."""
        n = core.rules.num_players
        fields = _Fields(core)
        now = laid_value(fields)
        w = self.weights
        out = []
        for seat in range(n):
            f = _features(fields, seat)
            out.append(now[seat] + sum(a * b for a, b in zip(w, f)))
        mean = sum(out) / n
        return [v - mean for v in out]

    def to_json(self) -> str:
        return json.dumps({"features": list(FEATURE_NAMES),
                           "weights": [round(w, 6) for w in self.weights]}, indent=1)


@lru_cache(maxsize=1)
def load_model() -> ValueModel:
    """The shipped model (solvers/learned/snitch_weights.json)."""
    text = resources.files(PACKAGE).joinpath(WEIGHTS_FILE).read_text()
    data = json.loads(text)
    return ValueModel(data["weights"], data["features"])


# ----- search: on to the searcher's next turn by the heuristic, then the model ----------

def truncated_values(core: SnitchCore, random, player: int, turns: int = 1,
                     model: ValueModel | None = None):
    """Play `core` on, every seat by the heuristic agent's rules (chance by `random`),
    until `player`'s turn begins for the `turns`-th time (counting a turn beginning now),
    then every seat's value by the model; None if the game ends first (then its returns
    stand).  The other seats move as the heuristic would, so the search sees what its
    moves leave them: a discard they can pick up, a set they can lay."""

    model = model or load_model()
    begun = 0
    while core.phase != OVER:
        if core.phase == TURN and core.player == player:
            begun += 1
            if begun >= turns:
                return model.values(core)
        heuristic_step(core, random)
    return None

