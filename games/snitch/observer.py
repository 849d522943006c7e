"""What a Snitch player sees: information-state strings (perfect recall: running totals,
every set laid and extended, every discard, the reserve's size), observation strings (the
position now), the seat's view as data, and tensors."""

from __future__ import annotations

from koloda.games.kit.observer import (
    ALL,
    KitObserver,
    card_list,
    count_cards,
    to_move_string,
    turn_view,
)
from koloda.games.kit.tensors import EventLog
from koloda.games.snitch.engine import (
    EV_DEAL,
    EV_DISCARD,
    EV_DRAW,
    EV_EXTEND,
    EV_NEW_DEAL,
    EV_PASS,
    EV_PICK,
    EV_SCORE,
    EV_SET,
    EV_STOP,
    OVER,
    PHASE_NAMES,
    SETS,
    TURN,
)

HIDDEN = -2                  # a card the viewer did not see
_KINDS = 10                  # event kinds (engine.EV_*)


def seen_events(core, viewer) -> list[tuple[int, int, int, int]]:
    """The event log as `viewer` saw it, (kind, seat, card, other) with other players'
    dealt and drawn cards HIDDEN; None sees no private card, ALL sees all."""
    out = []
    for kind, seat, card, other in core.events:
        if (kind == EV_DEAL or kind == EV_DRAW) and not (viewer == ALL or seat == viewer):
            card = HIDDEN
        out.append((kind, seat, card, other))
    return out


def event_tokens(core, viewer) -> list[str]:
    """The event log as `viewer` saw it; None sees no private card, ALL sees all.  A deal's
    scores are written out when it ends (`score 40 15 30`)."""
    names = core.rules.deck.names
    out = []
    totals = [0] * core.rules.num_players
    points = [0] * core.rules.num_players
    for kind, seat, card, other in seen_events(core, viewer):
        if kind == EV_DEAL or kind == EV_DRAW:
            verb = "deal" if kind == EV_DEAL else "draw"
            out.append(f"p{seat} {verb} {names[card] if card != HIDDEN else '?'}")
        elif kind == EV_DISCARD:
            out.append(f"p{seat} discard {names[card]}")
        elif kind == EV_SET or kind == EV_EXTEND:
            verb = "set" if kind == EV_SET else "extend"
            out.append(f"p{seat} {verb} {names[card]}{names[other]}")
            points[seat] += _points(core, card, other)
        elif kind == EV_PICK:
            out.append(f"p{seat} pick {names[card]} with {names[other]}")
            points[seat] += _points(core, card, other)
        elif kind == EV_STOP:
            out.append(f"p{seat} stop")
        elif kind == EV_PASS:
            out.append(f"p{seat} pass")
        elif kind == EV_SCORE:
            totals = [t + p for t, p in zip(totals, points)]
            points = [0] * len(points)
            out.append(f"deal {card} scores {' '.join(map(str, totals))}")
        elif kind == EV_NEW_DEAL:
            out.append(f"p{seat} deals")
    return out


def max_events(rules) -> int:
    """The most events a game logs: per deal, the rules' bound on its actions (one event
    each) and its score and next dealer; one deal when `target_score` is 0."""
    deals = rules.max_deals if rules.target_score else 1
    return deals * (rules.max_game_length // rules.max_deals + 2)


def event_log(rules) -> EventLog:
    """A row per event: its kind, its seat (none for a deal's score) and its one or two
    cards (none when hidden).  A score row needs no more: the deal's number counts the
    score rows before it, and its totals add up the sets laid."""
    n, k = rules.num_players, rules.num_kinds

    def cards(event):
        kind, _, card, other = event
        return (-1 if kind == EV_SCORE else card), other

    def columns(event):
        kind, seat = event[:2]
        card, other = cards(event)
        out = [kind]
        if seat >= 0:
            out.append(_KINDS + seat)
        if card >= 0:
            out.append(_KINDS + n + card)
        if other >= 0:
            out.append(_KINDS + n + k + other)
        return out

    def code(event):
        kind, seat = event[:2]
        card, other = cards(event)
        head = (kind * (n + 1) + seat + 1) * (k + 1) + max(card + 1, 0)
        return 1 + head * (k + 1) + other + 1

    return EventLog(max_events(rules), _KINDS + n + 2 * k, columns, code,
                    max_code=1 + _KINDS * (n + 1) * (k + 1) * (k + 1))


def narration(core, since: int) -> list[str]:
    """The end of a deal with the running totals, and who deals next."""
    tokens = event_tokens(core, ALL)
    return [tokens[i] for i in range(since, len(core.events))
            if core.events[i][0] in (EV_SCORE, EV_NEW_DEAL)]


def _points(core, card: int, other: int) -> int:
    return core.rules.points[card] + core.rules.points[other]



def turn_string(core) -> str:
    if core.phase == OVER:
        best = max(core.totals)
        top = [f"p{s}" for s, total in enumerate(core.totals) if total == best]
        return f"over: {', '.join(top)} with {best}"
    return to_move_string(core, PHASE_NAMES)


def _sets(core, seat: int) -> str:
    names = core.rules.deck.names
    return " ".join(names[rank] + names[other] for rank, other in core.laid[seat]) or "-"


def _public_parts(core) -> list[str]:
    names = core.rules.deck.names
    parts = [f"deal {core.deals + 1} dealer p{core.dealer}", f"reserve {core.reserve_size}",
             f"discard {' '.join(names[c] for c in core.discard) or '-'}"]
    for seat in range(core.rules.num_players):
        parts.append(f"p{seat} {core.totals[seat]}+{core.points[seat]} sets {_sets(core, seat)}")
    return parts


def observation_string(core, player: int, show_own_hand: bool = True) -> str:
    """The position as `player` sees it now (not perfect recall)."""
    deck = core.rules.deck
    parts = [f"p{player}"]
    if show_own_hand:
        parts.append(f"hand {deck.count_names(core.hands[player])}")
    parts += [f"p{seat} {core.held[seat]} cards" for seat in range(core.rules.num_players)
              if seat != player]
    return " | ".join(parts + _public_parts(core) + [turn_string(core)])


def full_string(core) -> str:
    """Everything, hidden cards included: for logs and debugging, never for agents."""
    deck = core.rules.deck
    parts = [f"p{seat} {deck.count_names(hand)}" for seat, hand in enumerate(core.hands)]
    return " | ".join(parts + _public_parts(core) + [turn_string(core)])


def seat_view(core, player: int) -> dict:
    """What `player` sees now, as data: their hand (a card string per copy), every
    seat's card count, running total, points this deal and sets laid (each its two cards),
    the deal's number and dealer, the reserve's size, the discard pile (top last), whose
    turn."""
    deck = core.rules.deck
    names = deck.names
    players = [{"seat": seat, "cards": core.held[seat], "total": core.totals[seat],
                "points": core.points[seat],
                "sets": [[names[rank], names[other]] for rank, other in core.laid[seat]]}
               for seat in range(core.rules.num_players)]
    return {
        "game": "snitch", "seat": player, "hand": count_cards(deck, core.hands[player]),
        "players": players, "deal": core.deals + 1, "dealer": core.dealer,
        "reserve": core.reserve_size, "discard": card_list(deck, core.discard),
        "top_discard": names[core.discard[-1]] if core.discard else None,
        **turn_view(core, PHASE_NAMES),
    }


class SnitchObserver(KitObserver):
    """The tensor: whose view and whose turn, the phase, the hand (or all hands), hand
    sizes, each player's sets (cards per kind) and points, the totals, the discard pile
    (counts and top), the reserve's size and the sets laid this turn; with perfect recall,
    the seat and the whole event log instead."""

    game_name = "snitch"

    def pieces(self, rules):
        n, k = rules.num_players, rules.num_kinds
        pieces = [("player", (n,)), ("current_player", (n,)), ("phase", (2,))]
        if self.own_hand:
            pieces.append(("hand", (k,)))
        elif self.all_hands:
            pieces.append(("hands", (n, k)))
        return pieces + [("hand_sizes", (n,)), ("sets", (n, k)), ("points", (n,)),
                         ("totals", (n,)), ("discard", (k,)), ("discard_top", (k,)),
                         ("reserve_size", (1,)), ("sets_this_turn", (1,))]

    def fill(self, core, player, d):
        d["player"][player] = 1
        current = core.current_player()
        if current >= 0:
            d["current_player"][current] = 1
            d["phase"][(TURN, SETS).index(core.phase)] = 1
        if self.own_hand:
            d["hand"][:] = core.hands[player]
        if self.all_hands:
            for seat, hand in enumerate(core.hands):
                d["hands"][seat][:] = hand
        for seat in range(core.rules.num_players):
            d["hand_sizes"][seat] = core.held[seat]
            for rank, other in core.laid[seat]:
                d["sets"][seat][rank] += 1
                d["sets"][seat][other] += 1
            d["points"][seat] = core.points[seat]
            d["totals"][seat] = core.totals[seat]
        for card in core.discard:
            d["discard"][card] += 1
        if core.discard:
            d["discard_top"][core.discard[-1]] = 1
        d["reserve_size"][0] = core.reserve_size
        d["sets_this_turn"][0] = core.sets_this_turn

    event_log = staticmethod(event_log)
    seen_events = staticmethod(seen_events)
    event_tokens = staticmethod(event_tokens)
    observation_string = staticmethod(observation_string)
    full_string = staticmethod(full_string)
    seat_view = staticmethod(seat_view)
