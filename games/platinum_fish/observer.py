"""What a Platinum Fish player sees: information-state strings (perfect recall: every ask
and who gave, every card drawn, the discard pile, the matches), observation strings (the
position now, every public fact the legal actions depend on included), the seat's view as
data, and tensors."""

from __future__ import annotations

from koloda.games.kit.cards import cards_of
from koloda.games.kit.observer import (
    ALL,
    KitObserver,
    card_list,
    mask_cards,
    to_move_string,
    turn_view,
)
from koloda.games.kit.tensors import EventLog
from koloda.games.platinum_fish.engine import (
    ASK,
    CHOOSE,
    EV_ASK,
    EV_AVAILABLE,
    EV_CHOOSE,
    EV_DEAL,
    EV_DICE,
    EV_DRAW,
    EV_GIVE,
    EV_HAND,
    EV_LAY,
    EV_MATCH,
    EV_NOBODY,
    EV_NONE_AVAILABLE,
    EV_NOTHING,
    EV_ROLL,
    EV_STOCK,
    EV_TAKE,
    EV_TO_DISCARD,
    EV_TO_HAND,
    EV_TURN,
    OVER,
    PHASE_NAMES,
    PLAY,
)
from koloda.games.platinum_fish.rules import DICE

_WORDS = {EV_LAY: "lays", EV_TAKE: "takes the discard", EV_STOCK: "draws", EV_CHOOSE: "chooses",
          EV_ASK: "asks for", EV_GIVE: "gives", EV_NOBODY: "gets nothing for",
          EV_MATCH: "matches", EV_TO_DISCARD: "discards", EV_TO_HAND: "keeps"}


HIDDEN = -2                  # a dealt card the viewer did not see
_KINDS = 19                  # event kinds (engine.EV_*)
_MASKS = frozenset((EV_AVAILABLE, EV_NONE_AVAILABLE))   # events whose value is a rank mask


def seen_events(core, viewer) -> list[tuple[int, int, int]]:
    """The event log as `viewer` saw it, (kind, seat, value) with other players' dealt
    cards HIDDEN; None sees no private card, ALL sees all."""
    out = []
    for kind, seat, value in core.events:
        if kind == EV_DEAL and not (viewer == ALL or seat == viewer):
            value = HIDDEN
        out.append((kind, seat, value))
    return out


def event_tokens(core, viewer) -> list[str]:
    """The event log as `viewer` saw it; None sees no private card, ALL sees all."""
    deck = core.rules.deck
    return [event_token(deck, *event) for event in seen_events(core, viewer)]


def event_token(deck, kind: int, seat: int, value: int) -> str:
    """One event as the logs write it (`p1 deal 7`, `dice 3 4`, a HIDDEN card as `?`)."""
    names = deck.names
    if kind == EV_DEAL:
        return f"p{seat} deal {names[value] if value != HIDDEN else '?'}"
    if kind == EV_HAND:
        return f"p{seat} hand {value}"
    if kind == EV_TURN:
        return f"turn {names[value]}"
    if kind == EV_DRAW:
        return f"p{seat} draw"
    if kind == EV_ROLL:
        return f"p{seat} roll"
    if kind == EV_DICE:
        return "dice {} {}".format(*DICE[value])
    if kind == EV_NOTHING:
        return f"p{seat} nothing offered"
    if kind == EV_AVAILABLE:
        return f"stock holds {deck.mask_names(value)}"
    if kind == EV_NONE_AVAILABLE:
        return f"stock holds none of {deck.mask_names(value)}"
    return f"p{seat} {_WORDS[kind]} {names[value]}"


def max_events(rules) -> int:
    """The most events a game logs: a hand size, its cards and its pairs per player, the
    first discard, and at most six per turn (roll, dice, stock searched, ask, give, and
    where the card went)."""
    n, hand = rules.num_players, rules.max_hand
    return n * (1 + hand + hand // 2) + 1 + 6 * rules.max_turns


def event_log(rules) -> EventLog:
    """A row per event: its kind, its seat (none for the first discard and the dice) and
    its value, one column of a rank, hand size or throw, or a column per rank of a mask
    (the ranks the stock held); a hidden card has no value column."""
    n, r = rules.num_players, rules.num_ranks
    values = max(r, rules.max_hand + 1, len(DICE))
    radix = max(1 << r, len(DICE) + 1)

    def columns(event):
        kind, seat, value = event
        out = [kind]
        if seat >= 0:
            out.append(_KINDS + seat)
        if kind in _MASKS:
            out += [_KINDS + n + rank for rank in cards_of(value)]
        elif value >= 0:
            out.append(_KINDS + n + value)
        return out

    def code(event):
        kind, seat, value = event
        digit = value if kind in _MASKS else max(value + 1, 0)
        return 1 + (kind * (n + 1) + seat + 1) * radix + digit

    return EventLog(max_events(rules), _KINDS + n + values, columns, code,
                    max_code=1 + _KINDS * (n + 1) * radix)


_NARRATED = frozenset((EV_LAY, EV_GIVE, EV_NOBODY, EV_MATCH, EV_TO_DISCARD, EV_TO_HAND,
                       EV_AVAILABLE, EV_NONE_AVAILABLE, EV_NOTHING))


def narration(core, since: int) -> list[str]:
    """What followed from the last actions: matches, where a card went, what the stock
    held, who gave."""
    deck = core.rules.deck
    return [event_token(deck, *event) for event in core.events[since:]
            if event[0] in _NARRATED]



def turn_string(core) -> str:
    if core.phase == OVER:
        best = max(core.matches)
        top = [f"p{s}" for s, m in enumerate(core.matches) if m == best]
        return f"over: {', '.join(top)} with {best} matches"
    return to_move_string(core, PHASE_NAMES)


def hand_size(core, seat: int) -> int:
    """The cards `seat` holds as everybody sees it: during the deal, every card dealt so
    far, since nobody sees which of them pair until the deal is done and pairs are laid."""
    pending = sum(1 for holder, _ in core.pairs if holder == seat)
    return core.hands[seat].bit_count() + 2 * pending


def stock_holds(core) -> int:
    """The offered ranks the stock holds (a rank mask), public once the dice are thrown:
    the stock is searched in view of all, and they are what the player may choose."""
    if core.phase != CHOOSE:
        return 0
    return core.offer & sum(1 << rank for rank, count in enumerate(core.stock) if count)


def _public_lines(core) -> list[str]:
    deck = core.rules.deck
    parts = [f"stock {core.stock_size}",
             f"discard {' '.join(deck.names[r] for r in core.discard) or '-'}"]
    for seat in range(core.rules.num_players):
        laid = " ".join(deck.names[r] for r in core.laid[seat]) or "-"
        parts.append(f"p{seat} {core.matches[seat]} matches ({laid})")
    if core.phase == CHOOSE:
        parts.append(f"offered {deck.mask_names(core.offer)}, "
                     f"stock holds {deck.mask_names(stock_holds(core))}")
    elif core.phase == ASK:
        parts.append(f"offered {deck.mask_names(core.offer)}, stock holds none")
    return parts


def observation_string(core, player: int, show_own_hand: bool = True) -> str:
    """The position as `player` sees it now (not perfect recall)."""
    deck = core.rules.deck
    parts = [f"p{player}"]
    if show_own_hand:
        parts.append(f"hand {deck.mask_names(core.hands[player])}")
    for seat in range(core.rules.num_players):
        if seat != player:
            known = core.known[seat]
            extra = f" (known {deck.mask_names(known)})" if known else ""
            parts.append(f"p{seat} {hand_size(core, seat)} cards{extra}")
    return " | ".join(parts + _public_lines(core) + [turn_string(core)])


def full_string(core) -> str:
    """Everything, hidden cards included: for logs and debugging, never for agents."""
    deck = core.rules.deck
    parts = [f"p{seat} {deck.mask_names(hand)}" for seat, hand in enumerate(core.hands)]
    stock = " ".join(f"{deck.names[r]}:{n}" for r, n in enumerate(core.stock) if n)
    parts.append(f"stock {core.stock_size} ({stock})" if stock else "stock -")
    return " | ".join(parts + _public_lines(core)[1:] + [f"turns {core.turns}",
                                                         turn_string(core)])


def dice_shown(core) -> list[int] | None:
    """The dice of this turn's throw while their offer stands (choose, ask), else None."""
    if core.phase not in (CHOOSE, ASK):
        return None
    value = next(value for kind, _, value in reversed(core.events) if kind == EV_DICE)
    return list(DICE[value])


def seat_view(core, player: int) -> dict:
    """What `player` sees now, as data: their hand (ranks), every seat's card count, the
    ranks known to be in it and the matches laid, the stock's size, the discard pile (top
    last), and while the dice's offer stands the dice, the ranks offered and those of
    them the stock holds; whose turn."""
    deck = core.rules.deck
    players = [{"seat": seat, "cards": hand_size(core, seat),
                "known": mask_cards(deck, core.known[seat]), "matches": core.matches[seat],
                "laid": card_list(deck, core.laid[seat])}
               for seat in range(core.rules.num_players)]
    offered = core.phase in (CHOOSE, ASK)
    return {
        "game": "platinum_fish", "seat": player, "hand": mask_cards(deck, core.hands[player]),
        "players": players, "stock": core.stock_size,
        "discard": card_list(deck, core.discard),
        "top_discard": deck.names[core.discard[-1]] if core.discard else None,
        "dice": dice_shown(core),
        "offered": mask_cards(deck, core.offer) if offered else None,
        "stock_holds": mask_cards(deck, stock_holds(core)) if offered else None,
        **turn_view(core, PHASE_NAMES),
    }


class PlatinumFishObserver(KitObserver):
    """The tensor: whose view and whose turn, the phase, the hand (or all hands), what is
    known of every hand, hand sizes, matches laid per rank, the discard pile (counts and
    top), the stock size, the ranks the dice offer and which of them the stock holds;
    with perfect recall, the seat and the whole event log instead."""

    game_name = "platinum_fish"

    def pieces(self, rules):
        n, r = rules.num_players, rules.num_ranks
        pieces = [("player", (n,)), ("current_player", (n,)), ("phase", (3,))]
        if self.own_hand:
            pieces.append(("hand", (r,)))
        elif self.all_hands:
            pieces.append(("hands", (n, r)))
        return pieces + [("known", (n, r)), ("hand_sizes", (n,)), ("laid", (n, r)),
                         ("discard", (r,)), ("discard_top", (r,)), ("stock_size", (1,)),
                         ("offer", (r,)), ("stock_holds", (r,))]

    def fill(self, core, player, d):
        d["player"][player] = 1
        current = core.current_player()
        if current >= 0:
            d["current_player"][current] = 1
            d["phase"][(PLAY, CHOOSE, ASK).index(core.phase)] = 1
        if self.own_hand:
            d["hand"][cards_of(core.hands[player])] = 1
        if self.all_hands:
            for seat, hand in enumerate(core.hands):
                d["hands"][seat][cards_of(hand)] = 1
        for seat in range(core.rules.num_players):
            d["known"][seat][cards_of(core.known[seat])] = 1
            d["hand_sizes"][seat] = hand_size(core, seat)
            for rank in core.laid[seat]:
                d["laid"][seat][rank] += 1
        for rank in core.discard:
            d["discard"][rank] += 1
        if core.discard:
            d["discard_top"][core.discard[-1]] = 1
        d["stock_size"][0] = core.stock_size
        if core.phase in (CHOOSE, ASK):
            d["offer"][cards_of(core.offer)] = 1
            d["stock_holds"][cards_of(stock_holds(core))] = 1

    event_log = staticmethod(event_log)
    seen_events = staticmethod(seen_events)
    event_tokens = staticmethod(event_tokens)
    observation_string = staticmethod(observation_string)
    full_string = staticmethod(full_string)
    seat_view = staticmethod(seat_view)
