"""What a Durak player sees: information-state strings (perfect recall), observation
strings (the table as it stands), the seat's view as data, and tensors, through
OpenSpiel's observer interface."""

from __future__ import annotations

from koloda.games.durak.engine import (
    ATTACK,
    DEFEND,
    EV_ATTACK,
    EV_BEAT,
    EV_DEAL,
    EV_DRAW,
    EV_PASS,
    EV_TAKE,
    EV_THROW,
    EV_TRUMP,
    EV_TRUMP_SHOWN,
    OVER,
    PHASE_NAMES,
    THROW,
)
from koloda.games.kit.cards import cards_of
from koloda.games.kit.observer import (
    ALL,
    KitObserver,
    mask_cards,
    to_move_string,
    turn_view,
)
from koloda.games.kit.tensors import EventLog

_VERB = {EV_ATTACK: "attack", EV_THROW: "throw", EV_BEAT: "beat", EV_DEAL: "deal", EV_DRAW: "draw"}


HIDDEN = -2           # a card the viewer did not see
_KINDS = 9            # event kinds (engine.EV_*)


def seen_events(core, viewer: int | None) -> list[tuple[int, int, int]]:
    """The event log as `viewer` saw it, (kind, seat, card) with unseen cards HIDDEN;
    None sees no private card, ALL sees all."""
    trump = core.trump_card
    out = []
    for kind, seat, card in core.events:
        if kind == EV_DEAL or kind == EV_DRAW:
            if not (viewer == ALL or seat == viewer or (kind == EV_DRAW and card == trump)):
                card = HIDDEN
        out.append((kind, seat, card))
    return out


def event_tokens(core, viewer: int | None) -> list[str]:
    """The event log as `viewer` saw it; None sees no private card, ALL sees all."""
    names = core.rules.deck.names
    out = []
    for kind, seat, card in seen_events(core, viewer):
        if kind == EV_DEAL or kind == EV_DRAW:
            out.append(f"p{seat} {_VERB[kind]} {names[card] if card != HIDDEN else '?'}")
        elif kind == EV_TAKE:
            out.append(f"p{seat} take")
        elif kind == EV_PASS:
            out.append(f"p{seat} pass")
        elif kind == EV_TRUMP:
            out.append(f"trump {names[card]}")
        elif kind == EV_TRUMP_SHOWN:
            out.append(f"p{seat} shows trump {names[card]}")
        else:
            out.append(f"p{seat} {_VERB[kind]} {names[card]}")
    return out


def event_log(rules) -> EventLog:
    """A row per event: its kind, its seat (none for the trump turned up) and its card as
    a rank and a suit (none when hidden, taken or passed: the kind tells which).  Every
    action logs one event, and the deal's last card one more when it shows the trump."""
    n, c = rules.num_players, rules.num_cards
    suits = rules.deck.num_suits
    ranks_at = _KINDS + n
    suits_at = ranks_at + rules.deck.num_ranks

    def columns(event):
        kind, seat, card = event
        out = [kind]
        if seat >= 0:
            out.append(_KINDS + seat)
        if card >= 0:
            rank, suit = divmod(card, suits)
            out += [ranks_at + rank, suits_at + suit]
        return out

    def code(event):
        kind, seat, card = event
        return 1 + (kind * (n + 1) + seat + 1) * (c + 1) + max(card + 1, 0)

    return EventLog(rules.max_game_length + 1, suits_at + suits, columns, code,
                    max_code=1 + _KINDS * (n + 1) * (c + 1))


def narration(core, since: int) -> list[str]:
    """Durak's actions say all that happens: nothing to add."""
    return []


def table_string(core) -> str:
    names = core.rules.deck.names
    table = core.table
    pairs = []
    for i in range(0, len(table), 2):
        beat = names[table[i + 1]] if i + 1 < len(table) else "-"
        pairs.append(f"{names[table[i]]}/{beat}")
    return " ".join(pairs) or "-"


def turn_string(core) -> str:
    if core.phase == OVER:
        return "over: " + (f"p{core.fool} is the durak" if core.fool >= 0 else "draw")
    return to_move_string(core, PHASE_NAMES)


def observation_string(core, player: int, show_own_hand: bool = True) -> str:
    """The position as `player` sees it now (not perfect recall)."""
    rules = core.rules
    deck = rules.deck
    parts = [f"p{player}"]
    if show_own_hand:
        parts.append(f"hand {deck.mask_names(core.hands[player])}")
    parts.append(f"trump {deck.names[core.trump_card] if core.trump_card >= 0 else '?'}")
    parts.append(f"stock {core.stock.bit_count() if core.trump_card >= 0 else '?'}")
    for seat in range(rules.num_players):
        if seat != player:
            known = core.known[seat]
            extra = f" (known {deck.mask_names(known)})" if known else ""
            parts.append(f"p{seat} {core.hands[seat].bit_count()} cards{extra}")
    if core.attacker >= 0:
        parts.append(f"attacker p{core.attacker} defender p{core.defender}")
    parts.append(f"table {table_string(core)}")
    parts.append(f"discard {deck.mask_names(core.discard)}")
    parts.append(turn_string(core))
    return " | ".join(parts)


def full_string(core) -> str:
    """Everything, hidden cards included: for logs and debugging, never for agents."""
    rules = core.rules
    deck = rules.deck
    parts = [
        f"trump {deck.names[core.trump_card] if core.trump_card >= 0 else '?'}",
        f"stock {deck.mask_names(core.stock)}",
    ]
    for seat in range(rules.num_players):
        parts.append(f"p{seat} {deck.mask_names(core.hands[seat])}")
    parts.append(f"table {table_string(core)}")
    parts.append(f"discard {deck.mask_names(core.discard)}")
    parts.append(f"moves {core.moves}")
    parts.append(turn_string(core))
    return " | ".join(parts)


def table_pairs(core) -> list[dict]:
    """The bout's cards: each attack card with the card that beat it (None while open)."""
    names = core.rules.deck.names
    table = core.table
    return [{"attack": names[table[i]],
             "defence": names[table[i + 1]] if i + 1 < len(table) else None}
            for i in range(0, len(table), 2)]


def seat_view(core, player: int) -> dict:
    """What `player` sees now, as data: their hand, the trump and the stock's size (None
    until the trump is turned), every seat's card count and the cards known to be in it,
    the bout's roles and cards, the discard pile, whose turn, and at the end the durak."""
    deck = core.rules.deck
    dealt = core.trump_card >= 0
    players = [{"seat": seat, "cards": hand.bit_count(), "known": mask_cards(deck, known)}
               for seat, (hand, known) in enumerate(zip(core.hands, core.known))]
    bout = core.attacker >= 0
    return {
        "game": "durak", "seat": player, "hand": mask_cards(deck, core.hands[player]),
        "trump": deck.names[core.trump_card] if dealt else None,
        "stock": core.stock.bit_count() if dealt else None, "players": players,
        "attacker": core.attacker if bout else None,
        "defender": core.defender if bout else None,
        "table": table_pairs(core), "discard": mask_cards(deck, core.discard),
        **turn_view(core, PHASE_NAMES),
        "durak": core.fool if core.phase == OVER and core.fool >= 0 else None,
    }


class DurakObserver(KitObserver):
    """Durak's tensor: the position as the player sees it (their hand, what is public
    about every hand, the table, discards, counts, roles); with perfect recall, the seat
    and the whole event log instead, as the recall string writes it."""

    game_name = "durak"

    def pieces(self, rules):
        n, c = rules.num_players, rules.num_cards
        pieces = [("player", (n,)), ("current_player", (n,)), ("phase", (3,)),
                  ("attacker", (n,)), ("defender", (n,))]
        if self.own_hand:
            pieces.append(("hand", (c,)))
        elif self.all_hands:
            pieces.append(("hands", (n, c)))
        return pieces + [
            ("known", (n, c)), ("hand_sizes", (n,)), ("stock_size", (1,)), ("trump", (c,)),
            ("table_attack", (c,)), ("table_defence", (c,)), ("open_card", (c,)),
            ("discard", (c,))]

    def fill(self, core, player, d):
        d["player"][player] = 1
        current = core.current_player()
        if current >= 0:
            d["current_player"][current] = 1
        if core.phase in (ATTACK, DEFEND, THROW):
            d["phase"][core.phase - ATTACK] = 1
        if core.attacker >= 0:
            d["attacker"][core.attacker] = 1
            d["defender"][core.defender] = 1
        if self.own_hand:
            d["hand"][cards_of(core.hands[player])] = 1
        if self.all_hands:
            for seat, hand in enumerate(core.hands):
                d["hands"][seat][cards_of(hand)] = 1
        for seat, known in enumerate(core.known):
            d["known"][seat][cards_of(known)] = 1
            d["hand_sizes"][seat] = core.hands[seat].bit_count()
        if core.trump_card >= 0:
            d["stock_size"][0] = core.stock.bit_count()
            d["trump"][core.trump_card] = 1
        for i, card in enumerate(core.table):
            (d["table_defence"] if i % 2 else d["table_attack"])[card] = 1
        if core.open_card >= 0:
            d["open_card"][core.open_card] = 1
        d["discard"][cards_of(core.discard)] = 1

    event_log = staticmethod(event_log)
    seen_events = staticmethod(seen_events)
    event_tokens = staticmethod(event_tokens)
    observation_string = staticmethod(observation_string)
    full_string = staticmethod(full_string)
    seat_view = staticmethod(seat_view)
