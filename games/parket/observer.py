"""What a Parket player sees: everything.  The observation string is the position and
both hands, and the seat's view the same as data; the information-state string is the
start position and every move since (perfect recall); the observation tensor describes
the position, the information-state tensor every move since the start."""

from __future__ import annotations

from koloda.games.kit.cards import cards_of
from koloda.games.kit.observer import KitObserver, mask_cards
from koloda.games.kit.tensors import EventLog
from koloda.games.parket.actions import decision_to_string
from koloda.games.parket.board import COLUMNS, DECK, EMPTY, NUM_CARDS, NUM_CELLS, ROWS
from koloda.games.parket.engine import DRAW, ONGOING
from koloda.games.parket.position import COLOUR_NAMES, Position, read_layout
from koloda.games.parket.rules import PLACE_ACTIONS, action_parts


def event_tokens(core, viewer) -> list[str]:
    """The start position, then every move (the same for every viewer)."""
    rules = core.rules
    return [f"start {rules.start_string()}"] + [decision_to_string(rules, action)
                                                for action in core.events]


def seen_events(core, viewer) -> list[int]:
    """Every move's action id (every viewer sees them all; the start position is the
    game's)."""
    return list(core.events)


def event_log(rules) -> EventLog:
    """A row per move: the card's rank and suit, the cell's row and column, and whether
    it was a relocation."""
    suits_at = DECK.num_ranks
    rows_at = suits_at + DECK.num_suits
    columns_at = rows_at + ROWS
    relocation_at = columns_at + COLUMNS

    def columns(action):
        relocation, card, cell = action_parts(action)
        rank, suit = divmod(card, DECK.num_suits)
        row, column = divmod(cell, COLUMNS)
        out = [rank, suits_at + suit, rows_at + row, columns_at + column]
        if relocation:
            out.append(relocation_at)
        return out

    return EventLog(rules.max_game_length, relocation_at + 1, columns,
                    lambda action: action + 1, max_code=rules.num_actions + 1)


def narration(core, since: int) -> list[str]:
    """Nothing follows from a move beyond the move itself."""
    return []



def _seat(core, seat: int) -> str:
    return f"p{seat} ({COLOUR_NAMES[core.rules.seat_colour[seat]]})"


def turn_string(core) -> str:
    result = core.result
    if result == DRAW:
        return f"over: drawn after {core.relocations} relocations in a row"
    if result in (0, 1):
        how = "placed the last card" if not core.hands[result] else "the opponent cannot move"
        return f"over: {_seat(core, result)} wins ({how})"
    return f"{_seat(core, core.player)} to {_verb(core)}"


def hands_string(core) -> str:
    rules = core.rules
    return " | ".join(f"{colour} {DECK.mask_names(core.hands[rules.seat_of_colour[c]])}"
                      for c, colour in enumerate(COLOUR_NAMES))


def observation_string(core, player: int, show_own_hand: bool = True) -> str:
    """The position and both hands: nothing is hidden."""
    return f"{core.position()} | {hands_string(core)}"


def full_string(core) -> str:
    return f"{core.position()} | {hands_string(core)} | {turn_string(core)}"


def board_rows(board) -> list[list[str | None]]:
    """The 5 x 7 board as rows (row 1 first) of cells, each a card string or None."""
    cells = [None if card == EMPTY else DECK.names[card] for card in board]
    return [cells[r * COLUMNS:(r + 1) * COLUMNS] for r in range(ROWS)]


def board_view(position: Position) -> dict:
    """A position as data: the board's rows, the colour to move, the phase (`cross` or
    `main`) and the relocations in a row."""
    return {"board": board_rows(position.board), "side": COLOUR_NAMES[position.to_move],
            "phase": "main" if position.main else "cross",
            "relocations": position.relocations}


def position_view(text: str) -> dict:
    """The view of a position string (a solve's), for drawing it without a game."""
    return board_view(read_layout(text))


def _verb(core) -> str | None:
    """Why the seat to move moves: to place a card, or (no placement left) to relocate."""
    if core.result != ONGOING:
        return None
    return "relocate" if core.main and core.legal_actions()[0] >= PLACE_ACTIONS else "place"


def seat_view(core, player: int) -> dict:
    """What `player` sees now, as data (nothing is hidden): the board, each seat's
    colour, each colour's hand, the seat to move and whether to place or relocate, the
    phase, the relocations in a row, and at the end the winner (None for a draw)."""
    rules = core.rules
    colours = [COLOUR_NAMES[rules.seat_colour[seat]] for seat in range(2)]
    hands = {colour: mask_cards(DECK, core.hands[rules.seat_of_colour[c]])
             for c, colour in enumerate(COLOUR_NAMES)}
    position = Position(tuple(core.board), rules.seat_colour[core.player], core.main,
                        core.relocations)
    over = core.result != ONGOING
    return {
        "game": "parket", "seat": player, "colour": colours[player],
        "hand": hands[colours[player]], "colours": colours, "hands": hands,
        **board_view(position),
        "to_move": None if over else core.player, "verb": _verb(core), "over": over,
        "winner": core.result if core.result in (0, 1) else None,
    }


class ParketObserver(KitObserver):
    """The tensor: whose view and whose turn, the viewer's colour, the phase, the
    relocations in a row, the card on each cell and each colour's hand; with perfect
    recall, the seat and every move since the start instead."""

    game_name = "parket"

    def pieces(self, rules):
        return [("player", (2,)), ("current_player", (2,)), ("colour", (2,)), ("phase", (2,)),
                ("relocations", (rules.max_relocations + 1,)), ("board", (NUM_CELLS, NUM_CARDS)),
                ("hands", (2, NUM_CARDS))]

    def fill(self, core, player, d):
        rules = core.rules
        d["player"][player] = 1
        current = core.current_player()
        if current >= 0:
            d["current_player"][current] = 1
        d["colour"][rules.seat_colour[player]] = 1
        d["phase"][int(core.main)] = 1
        d["relocations"][core.relocations] = 1
        for cell, card in enumerate(core.board):
            if card != EMPTY:
                d["board"][cell][card] = 1
        for seat, hand in enumerate(core.hands):
            d["hands"][rules.seat_colour[seat]][cards_of(hand)] = 1

    event_log = staticmethod(event_log)
    seen_events = staticmethod(seen_events)
    event_tokens = staticmethod(event_tokens)
    observation_string = staticmethod(observation_string)
    full_string = staticmethod(full_string)
    seat_view = staticmethod(seat_view)
