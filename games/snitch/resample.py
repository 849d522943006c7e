"""Resampling a Snitch history from one player's information state, on the kit's card-log
resampler (games/kit/cardlog.py), one deal at a time (each deal is a fresh shuffle).

Snitch's card log: dealt and drawn cards go face down to their seat; discards and the cards
of sets and extensions are played in view of all (a discard set takes the top discard,
which everybody saw).  Nothing else is known about a hand: laying is never compulsory and a
pass tells nothing, so the kit's forced cards and shuffle are all the game needs.
"""

from __future__ import annotations

from koloda.games.kit.cardlog import DEALT, PLAYED, CardLogResampler, CardMove
from koloda.games.kit.engine import Determinizer as _Determinizer
from koloda.games.snitch.engine import (
    EV_DEAL, EV_DISCARD, EV_DRAW, EV_EXTEND, EV_NEW_DEAL, EV_PASS, EV_PICK, EV_SET, EV_STOP,
    TURN, SnitchCore,
)


def deal_logs(core: SnitchCore) -> list[list[CardMove]]:
    """The card log of each deal so far, in order (the last is the deal in play)."""
    logs = [[]]
    for index, (kind, seat, card, other) in enumerate(core.events):
        moves = logs[-1]
        if kind == EV_DEAL or kind == EV_DRAW:
            moves.append(CardMove(DEALT, seat, card, index))
        elif kind == EV_DISCARD or kind == EV_PICK:
            moves.append(CardMove(PLAYED, seat, card, index))
        elif kind == EV_SET or kind == EV_EXTEND:
            moves.append(CardMove(PLAYED, seat, card, index))
            moves.append(CardMove(PLAYED, seat, other, index))
        elif kind == EV_NEW_DEAL:
            logs.append([])
    return logs


def resample_history(core: SnitchCore, player: int, rng) -> list[int]:
    """Action ids of a random history `player` cannot tell from `core`'s."""
    copies = core.rules.deck.copies
    drawn = {}
    # The deal in play first, so the Determinizer's worlds are these histories' positions.
    for moves in reversed(deal_logs(core)):
        log = CardLogResampler(moves, copies, player)
        assigned, _, _ = log.draw(rng)
        drawn.update(log.event_cards(assigned))
    rules = core.rules
    out = []
    for index, (kind, _, card, other) in enumerate(core.events):
        if kind == EV_DEAL or kind == EV_DRAW:
            out.append(drawn.get(index, card))
        elif kind == EV_DISCARD:
            out.append(rules.discard_base + card)
        elif kind == EV_SET:
            which = 0 if other == card else (1 if other == rules.two else 2)
            out.append(rules.set_base + 3 * card + which)
        elif kind == EV_PICK:
            out.append(rules.pick_base + card)
        elif kind == EV_EXTEND:
            out.append(rules.extend_base + 2 * card + (0 if other == rules.two else 1))
        elif kind == EV_STOP:
            out.append(rules.stop_action)
        elif kind == EV_PASS:
            out.append(rules.pass_action)
    return out


class Determinizer(_Determinizer):
    """Many resamples of the deal in play for one player, for search: engine positions with
    the other hands and the reserve redrawn as `resample_history` would, without replaying."""

    def __init__(self, core: SnitchCore, player: int):
        self._log = CardLogResampler(deal_logs(core)[-1], core.rules.deck.copies, player)
        self._template = core.copy()
        self._template.events = []
        self._template._legal = None     # the hands change: legal actions cached on the
                                         # position would be the old hands'
        self._kinds = core.rules.num_kinds

    def sample(self, rng) -> SnitchCore:
        assigned, free, leftover = self._log.draw(rng)
        world = self._template.copy()
        for seat, slots in free.items():
            hand = [0] * self._kinds
            for slot in slots:
                hand[assigned[slot]] += 1
            world.hands[seat] = hand
        reserve = [0] * self._kinds
        for card in leftover:
            reserve[card] += 1
        world.reserve = reserve
        return world


class HeuristicOpponentsDeterminizer(_Determinizer):
    """Worlds weighted by how well they explain the other players' recent moves, read as
    the heuristic agent's (solvers/heuristics/snitch.py) with a small chance of anything
    else: for search against players who lay what is worth laying and discard safely.

    A pool of `pool` worlds is drawn as `Determinizer` draws them, and each is replayed from
    the start of the deal with its cards; at every decision of another player's last
    `recent` turns the heuristic's move in that world is compared with the move made.  A
    world's weight is `eps` to the power of its misses (fewest misses: weight 1), and each
    `sample` copies a world drawn from the pool by weight.  Whatever the other players
    really are, every world stays one they cannot tell apart from the true position."""

    def __init__(self, core: SnitchCore, player: int, pool: int = 64, eps: float = 0.05,
                 recent: int = 1):
        self._base = Determinizer(core, player)
        self._player = player
        self._pool_size, self._eps, self._recent = pool, eps, recent
        start = 0
        for index, event in enumerate(core.events):
            if event[0] == EV_NEW_DEAL:
                start = index + 1
        self._events = list(enumerate(core.events))[start:]
        first = core.copy()
        first.events = []
        first._legal = None
        first._start_deal()                 # the same totals and dealer: the deal's start
        self._start = first
        self._checked = None
        self._pool = self._weights = None
        self.misses = None

    def sample(self, rng) -> SnitchCore:
        if self._pool is None:
            self._fill(rng)
        return rng.choices(self._pool, self._weights)[0].copy()

    def _fill(self, rng) -> None:
        worlds, misses = [], []
        for _ in range(self._pool_size):
            world, miss = self._replay(rng)
            worlds.append(world)
            misses.append(miss)
        fewest = min(misses)
        self._pool, self.misses = worlds, misses
        self._weights = [self._eps ** (miss - fewest) for miss in misses]

    def _replay(self, rng):
        """A world drawn and replayed from the deal's start; its misses."""
        from koloda.solvers.heuristics.snitch import RULES_OF_THUMB

        log = self._base._log
        assigned, _, _ = log.draw(rng)
        cards = log.event_cards(assigned)
        world = self._start.copy()
        rules = world.rules
        if self._checked is None:
            self._checked = _recent_decisions(world.copy(), self._events, cards, self._player,
                                              self._recent)
        checked = self._checked
        choose = RULES_OF_THUMB.action
        miss = 0
        for index, (kind, seat, card, other) in self._events:
            if kind == EV_DEAL or kind == EV_DRAW:
                world.apply(cards.get(index, card))
                continue
            action = _action(rules, kind, card, other)
            if action is None:
                continue
            if index in checked and len(world.legal_actions()) > 1 \
                    and choose(world, seat) != action:
                miss += 1
            world.apply(action)
        world.events = []
        return world, miss


def _recent_decisions(world, events, cards, player: int, recent: int) -> set:
    """The event indices of the other players' decisions in their last `recent` turns (the
    phases follow from the actions, so any world's cards tell them)."""
    rules = world.rules
    turn_of, count = {}, {}
    for index, (kind, seat, card, other) in events:
        if kind == EV_DEAL or kind == EV_DRAW:
            world.apply(cards.get(index, card))
            continue
        action = _action(rules, kind, card, other)
        if action is None:
            continue
        if seat != player:
            if world.phase == TURN:
                count[seat] = count.get(seat, 0) + 1
            turn_of[index] = (seat, count.get(seat, 0))
        world.apply(action)
    return {index for index, (seat, turn) in turn_of.items() if turn > count[seat] - recent}


def _action(rules, kind: int, card: int, other: int):
    """The action id of a decision event; None for other events."""
    if kind == EV_DISCARD:
        return rules.discard_base + card
    if kind == EV_SET:
        which = 0 if other == card else (1 if other == rules.two else 2)
        return rules.set_base + 3 * card + which
    if kind == EV_PICK:
        return rules.pick_base + card
    if kind == EV_EXTEND:
        return rules.extend_base + 2 * card + (0 if other == rules.two else 1)
    if kind == EV_STOP:
        return rules.stop_action
    if kind == EV_PASS:
        return rules.pass_action
    return None
