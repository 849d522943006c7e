"""Quintet, a fifth game made on the kit for the tests: nothing in the terminal or the page
knows it, so drawing and playing it shows that a new game needs no line there.

Each player is dealt two cards of ten (T..A in clubs and diamonds) face down.  In turn a
player lays a card from their hand on an empty cell of a 2 x `columns` board (`Kd b2`), or,
with `columns=0`, on the pile (`play Kd`), scores its rank (T 1 .. A 5) and draws from the
stock while it lasts.  The game ends when the board is full or no hand holds a card; the
highest score wins.  Its view has a shape no koloda game has: a board beside hidden hands
(or a pile), a score per seat, the stock's size, the last card laid.

The game is registered with OpenSpiel once, on import, and is in koloda's list of games
(`koloda.games.GAMES`, `hello`) only inside `registered()`, so tests that walk every game
do not meet it.  One module is its rules, engine, notation and views: the kit asks for
them by name (`KitState.notation`, `KitState.views`).
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

import pyspiel

from koloda import games
from koloda.games.errors import ActionError, CardError, GameParameterError, MalformedActionError
from koloda.games.kit.cardlog import DEALT, PLAYED, CardLogResampler, CardMove
from koloda.games.kit.cards import cards_of, deck
from koloda.games.kit.chance import mask_outcomes
from koloda.games.kit.engine import CHANCE, TERMINAL, Engine
from koloda.games.kit.notation import action_words, check_chance, check_decision
from koloda.games.kit.observer import ALL, KitObserver, mask_cards, turn_view
from koloda.games.kit.outcomes import winners
from koloda.games.kit.params import Param, validate
from koloda.games.kit.registration import SPECS, GameSpec, register
from koloda.games.kit.state import KitGame, KitState, game_type
from koloda.games.kit.tensors import EventLog

NAME = "quintet"
DECK = deck(5, 2)
HAND_SIZE = 2
ROWS = 2
FORMS = "<card> <cell> (Kd b2), or play <card> (play Kd) without a board"

PARAMETERS = (
    Param("players", int, 2, "number of players, 2..3", low=2, high=3),
    Param("columns", int, 3, "columns of the 2-row board; 0 lays cards on a pile instead",
          low=0, high=4),
)

DEAL, PLAY, DRAW, OVER = range(4)
PHASE_NAMES = ("deal", "place", "draw", "over")
LAID = 1          # the kind of a decision's event; a chance event is DEAL or DRAW


class QuintetRules:
    """Parameters checked once, and the action layout: card * cells + cell on a board,
    the card alone on the pile."""

    max_chance_outcomes = DECK.size
    max_chance_nodes = DECK.size

    def __init__(self, params: dict):
        values = validate(PARAMETERS, params, NAME, GameParameterError)
        self.params = values
        self.num_players = values["players"]
        self.columns = values["columns"]
        self.cells = ROWS * self.columns
        self.num_actions = DECK.size * max(1, self.cells)
        self.max_game_length = 2 * DECK.size


# --- the engine -----------------------------------------------------------------------------

class QuintetCore(Engine):
    """The position: hands and stock as bitmasks, the board's cells (-1 empty) or the pile,
    the scores, the seat to move; `events` holds (kind, seat, card, cell) per action."""

    __slots__ = ("rules", "events", "_legal", "hands", "stock", "cells", "pile", "scores",
                 "player", "phase")

    def __init__(self, rules: QuintetRules):
        self.rules = rules
        self.events = []
        self._legal = None
        self.hands = [0] * rules.num_players
        self.stock = (1 << DECK.size) - 1
        self.cells = [-1] * rules.cells
        self.pile = []
        self.scores = [0] * rules.num_players
        self.player = 0
        self.phase = DEAL

    def copy(self) -> QuintetCore:
        other = QuintetCore.__new__(QuintetCore)
        other.rules, other.events, other._legal = self.rules, list(self.events), self._legal
        other.hands, other.stock = list(self.hands), self.stock
        other.cells, other.pile, other.scores = list(self.cells), list(self.pile), list(self.scores)
        other.player, other.phase = self.player, self.phase
        return other

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        return self.player if self.phase == PLAY else CHANCE

    def _compute_legal(self) -> list[int]:
        if self.phase != PLAY:
            return []
        cards = cards_of(self.hands[self.player])
        if not self.rules.cells:
            return cards
        empty = [cell for cell, card in enumerate(self.cells) if card < 0]
        return sorted(card * self.rules.cells + cell for card in cards for cell in empty)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return mask_outcomes(self.stock) if self.phase in (DEAL, DRAW) else []

    def receiver(self) -> int:
        """The seat the pending chance card goes to: dealt round the table, or drawn by
        the seat that just laid one."""
        if self.phase == DEAL:
            return len(self.events) % self.rules.num_players
        return self.player

    def chance_seen_by(self, player: int, outcome: int) -> bool:
        return player == self.receiver()

    def apply(self, action: int) -> None:
        self._legal = None
        if self.phase == PLAY:
            self._lay(action)
        else:
            self._receive(action)

    def _receive(self, card: int) -> None:
        seat = self.receiver()
        self.events.append((self.phase, seat, card, -1))
        self.stock &= ~(1 << card)
        self.hands[seat] |= 1 << card
        dealt_all = len(self.events) == HAND_SIZE * self.rules.num_players
        if self.phase == DRAW:
            self._pass_turn()
        elif dealt_all:
            self.phase = PLAY

    def _lay(self, action: int) -> None:
        cells = self.rules.cells
        card, cell = divmod(action, cells) if cells else (action, -1)
        self.events.append((LAID, self.player, card, cell))
        self.hands[self.player] &= ~(1 << card)
        if cells:
            self.cells[cell] = card
        else:
            self.pile.append(card)
        self.scores[self.player] += DECK.rank(card) + 1
        if self.cells and min(self.cells) >= 0:
            self.phase = OVER
        elif self.stock:
            self.phase = DRAW
        else:
            self._pass_turn()

    def _pass_turn(self) -> None:
        """The next seat holding a card moves; with no card in any hand the game ends."""
        self.phase = PLAY
        n = self.rules.num_players
        for step in range(1, n + 1):
            seat = (self.player + step) % n
            if self.hands[seat]:
                self.player = seat
                return
        self.phase = OVER

    def winners(self) -> frozenset:
        return frozenset(winners(self.scores)) if self.phase == OVER else frozenset()

    def key(self):
        return (tuple(self.hands), self.stock, tuple(self.cells), tuple(self.pile),
                self.player, self.phase)

    def resample_history(self, player: int, rng) -> list[int]:
        """The history with every card `player` did not see redrawn: each card another
        seat laid into one of its earlier face-down slots, the rest shuffled."""
        moves = [CardMove(DEALT if kind != LAID else PLAYED, seat, card, index)
                 for index, (kind, seat, card, _) in enumerate(self.events)]
        resampler = CardLogResampler(moves, DECK.copies, player)
        assigned, _, _ = resampler.draw(rng)
        drawn = resampler.event_cards(assigned)
        return [drawn.get(index, card) if kind != LAID else action_id(self.rules, card, cell)
                for index, (kind, _, card, cell) in enumerate(self.events)]


def action_id(rules: QuintetRules, card: int, cell: int) -> int:
    return card * rules.cells + cell if rules.cells else card


# --- notation ---------------------------------------------------------------------------------

def cell_name(rules: QuintetRules, cell: int) -> str:
    """Columns a.., rows 1.. top down, as the view's board rows read."""
    row, column = divmod(cell, rules.columns)
    return f"{'abcd'[column]}{row + 1}"


def decision_to_string(rules: QuintetRules, action: int) -> str:
    if not 0 <= action < rules.num_actions:
        raise ActionError(f"{action} is not a quintet action id (0..{rules.num_actions - 1})")
    if not rules.cells:
        return f"play {DECK.names[action]}"
    card, cell = divmod(action, rules.cells)
    return f"{DECK.names[card]} {cell_name(rules, cell)}"


def chance_to_string(core: QuintetCore, outcome: int) -> str:
    verb = "draw" if core.phase == DRAW else "deal"
    return f"{verb} {DECK.names[outcome]}"


def parse(core: QuintetCore, text: str) -> int:
    """The action id `text` names (legality is the caller's to check)."""
    words = action_words(text, NAME, FORMS)
    due = {DEAL: "deal", DRAW: "draw"}.get(core.phase)
    verb = words[0].lower()
    if verb in ("deal", "draw") and len(words) == 2:
        check_chance(text, verb, due)
        return _card(words[1], text)
    rules = core.rules
    if not rules.cells and verb == "play" and len(words) == 2:
        check_decision(text, due)
        return _card(words[1], text)
    cells = [cell_name(rules, cell) for cell in range(rules.cells)]
    if rules.cells and len(words) == 2 and words[1].lower() in cells:
        check_decision(text, due)
        return action_id(rules, _card(words[0], text), cells.index(words[1].lower()))
    raise MalformedActionError(f"{text!r} is not a quintet action; quintet actions are {FORMS}")


def _card(word: str, text: str) -> int:
    try:
        return DECK.parse(word)
    except CardError as err:
        raise MalformedActionError(f"bad card in action {text!r}: {err}") from None


# --- views ------------------------------------------------------------------------------------

def seen_events(core: QuintetCore, viewer) -> list[tuple]:
    """The events as `viewer` saw them: a card dealt or drawn to another seat is -1."""
    return [(kind, seat, card if kind == LAID or viewer in (ALL, seat) else -1, cell)
            for kind, seat, card, cell in core.events]


def event_tokens(core: QuintetCore, viewer) -> list[str]:
    rules = core.rules
    tokens = []
    for kind, seat, card, cell in seen_events(core, viewer):
        name = "?" if card < 0 else DECK.names[card]
        if kind == LAID:
            tokens.append(f"p{seat} " + decision_to_string(rules, action_id(rules, card, cell)))
        else:
            tokens.append(f"{PHASE_NAMES[kind]} p{seat} {name}")
    return tokens


def event_log(rules: QuintetRules) -> EventLog:
    """A row per event: its kind, the seat, the card (or `hidden`), the cell (or none)."""
    n, c = rules.num_players, DECK.size
    seat_at, card_at = 3, 3 + n
    cell_at = card_at + c + 1

    def columns(event):
        kind, seat, card, cell = event
        return [(DEAL, LAID, DRAW).index(kind), seat_at + seat,
                card_at + (c if card < 0 else card), cell_at + cell + 1]

    def code(event):
        kind, seat, card, cell = event
        return 1 + ((kind * n + seat) * (c + 1) + card + 1) * (rules.cells + 1) + cell + 1

    return EventLog(rules.max_game_length, cell_at + rules.cells + 1, columns, code,
                    max_code=1 + 3 * n * (c + 1) * (rules.cells + 1))


def narration(core: QuintetCore, since: int) -> list[str]:
    """Nothing follows from an action beyond the action itself."""
    return []


def turn_string(core: QuintetCore) -> str:
    if core.phase == OVER:
        won = sorted(core.winners())
        who = "a draw" if not won else ", ".join(f"p{s}" for s in won) + " won"
        return f"over: {who}, scores " + " ".join(map(str, core.scores))
    who = "chance" if core.phase != PLAY else f"p{core.player}"
    return f"{who} to {PHASE_NAMES[core.phase]}"


def board_rows(core: QuintetCore) -> list[list[str | None]]:
    rules = core.rules
    return [[None if card < 0 else DECK.names[card]
             for card in core.cells[row * rules.columns:(row + 1) * rules.columns]]
            for row in range(ROWS)]


def seat_view(core: QuintetCore, player: int) -> dict:
    """What `player` sees: their hand, each seat's card count and score, the stock's size,
    the last card laid, and the board (or the pile); whose turn."""
    laid = [card for kind, _, card, _ in core.events if kind == LAID]
    view = {"game": NAME, "seat": player, "hand": mask_cards(DECK, core.hands[player]),
            "players": [{"seat": seat, "cards": hand.bit_count(), "score": core.scores[seat]}
                        for seat, hand in enumerate(core.hands)],
            "stock": core.stock.bit_count(),
            "last": DECK.names[laid[-1]] if laid else None}
    if core.rules.cells:
        view["board"] = board_rows(core)
    else:
        view["pile"] = [DECK.names[card] for card in core.pile]
    return {**view, **turn_view(core, PHASE_NAMES)}


def observation_string(core: QuintetCore, player: int, show_own_hand: bool = True) -> str:
    others = [f"p{seat} {hand.bit_count()} cards" for seat, hand in enumerate(core.hands)
              if seat != player]
    hand = [f"hand {DECK.mask_names(core.hands[player]) or '-'}"] if show_own_hand else []
    return " | ".join([f"p{player}", *hand, f"stock {core.stock.bit_count()}", *others,
                       "scores " + " ".join(map(str, core.scores)), _table_string(core),
                       turn_string(core)])


def full_string(core: QuintetCore) -> str:
    hands = [f"p{seat} {DECK.mask_names(hand) or '-'}" for seat, hand in enumerate(core.hands)]
    return " | ".join([*hands, f"stock {DECK.mask_names(core.stock) or '-'}",
                       _table_string(core), turn_string(core)])


def _table_string(core: QuintetCore) -> str:
    if core.rules.cells:
        return "board " + "/".join("".join(card or "--" for card in row)
                                   for row in board_rows(core))
    return "pile " + (" ".join(DECK.names[card] for card in core.pile) or "-")


class QuintetObserver(KitObserver):
    """The tensor: whose view and whose turn, the hand (or all hands), the counts and
    scores, where each laid card lies; with perfect recall the seat and the event log."""

    game_name = NAME

    def pieces(self, rules):
        n, c = rules.num_players, DECK.size
        hands = [("hand", (c,))] if self.own_hand else [("hands", (n, c))] if self.all_hands else []
        return [("player", (n,)), ("current_player", (n,)), *hands, ("hand_sizes", (n,)),
                ("scores", (n,)), ("stock_size", (1,)), ("laid", (max(1, rules.cells), c))]

    def fill(self, core, player, d):
        d["player"][player] = 1
        if core.current_player() >= 0:
            d["current_player"][core.current_player()] = 1
        if self.own_hand:
            d["hand"][cards_of(core.hands[player])] = 1
        for seat, hand in enumerate(core.hands):
            if self.all_hands:
                d["hands"][seat][cards_of(hand)] = 1
            d["hand_sizes"][seat] = hand.bit_count()
            d["scores"][seat] = core.scores[seat]
        d["stock_size"][0] = core.stock.bit_count()
        for kind, _, card, cell in core.events:
            if kind == LAID:
                d["laid"][max(cell, 0)][card] = 1

    event_log = staticmethod(event_log)
    seen_events = staticmethod(seen_events)
    event_tokens = staticmethod(event_tokens)
    observation_string = staticmethod(observation_string)
    full_string = staticmethod(full_string)
    seat_view = staticmethod(seat_view)


# --- the game ---------------------------------------------------------------------------------

GAME_TYPE = game_type(NAME, "Quintet (a fifth game, for the tests)", PARAMETERS, 2, 3)


class QuintetGame(KitGame):
    game_type = GAME_TYPE
    rules_class = QuintetRules
    observer_class = QuintetObserver

    def new_initial_state(self):
        return QuintetState(self)


class QuintetState(KitState):
    engine_class = QuintetCore
    notation = views = sys.modules[__name__]


SPEC = GameSpec(game_type=GAME_TYPE, game_class=QuintetGame, parameters=PARAMETERS,
                summary="Quintet: lay your cards on a 2-row board, each scores its rank",
                opponent="random", strongest=(("quick", "random"), ("full", "random")))


def install() -> None:
    """Quintet in koloda's list of games (and OpenSpiel's, the first time)."""
    if NAME in pyspiel.registered_names():
        SPECS[NAME] = SPEC
    else:
        register(SPEC)


def uninstall() -> None:
    SPECS.pop(NAME, None)
    games.clear_game_cache()


@contextmanager
def registered():
    """Quintet is a koloda game inside the block, and not after it."""
    install()
    try:
        yield SPEC
    finally:
        uninstall()


# --- two deals the seat cannot tell apart ---------------------------------------------------

#: p0's cards and every public action, the same in both deals; p1's cards differ
SEEN_BY_P0 = ("Tc", "Td", "Jd", "Kd")
DEALS = (("Kd", "Jc", "Ac"), ("Kd", "Qc", "Ad"))      # p1's two cards and its draw


def views_of_two_deals() -> list[dict]:
    """The protocol's view for p0 (the app deals) after the same public play in two deals
    that differ only in what p1 holds: p0 lays Tc, draws Jd, p1 lays Kd and draws."""
    from koloda.protocol.client import Client
    views = []
    for first, second, drawn in DEALS:
        client = Client.in_process()
        new = client.request("new", game=NAME, seats=[0], dealer="app")
        actions = ["deal Tc", f"deal {first}", "deal Td", f"deal {second}",
                   "p0 Tc a1", "draw Jd", "p1 Kd b1", f"draw {drawn}"]
        views.append(client.request("observe", session=new["session"], actions=actions)["view"])
    return views


def unseen_by_p0() -> set[str]:
    """The cards p0 never saw in either deal: in p1's hand or the stock."""
    return set(DECK.names) - set(SEEN_BY_P0)
