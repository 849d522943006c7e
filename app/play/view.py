"""Drawing a protocol view for a person at a terminal: hands, the table, Parket's board,
what happened, the legal moves and an agent's advice, as lines of text.

Everything here turns protocol data (views, events, hint replies) into strings, reading
the fields of each seat's `view` (never its observation string); nothing reads input or
talks to the protocol, so `koloda play` and its tests share one drawing.
What is particular to a game's picture is one entry of `PUBLIC_PARTS` or `PICTURES`; a
game in neither is drawn from its view's fields (`generic_parts`, `grid_lines`), so a new
game needs no line here.
Colour (red hearts and diamonds) only where the output is a terminal that has it, suit
symbols only where the output can encode them.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from koloda.games.parket.board import COLUMN_CHARS, COLUMNS, CROSS_CELLS
from koloda.play.cardtext import card_spans

ANSI = {"red": "31", "bold": "1", "dim": "2", "green": "32", "cyan": "36"}
_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class Style:
    """How to draw: with colour codes or without, with suit symbols or letters."""
    colour: bool = False
    unicode: bool = True

    @classmethod
    def for_stream(cls, stream) -> Style:
        """Colour for a terminal (not when NO_COLOR is set or TERM is dumb), symbols when
        the stream's encoding has them."""
        isatty = getattr(stream, "isatty", lambda: False)()
        colour = (isatty and "NO_COLOR" not in os.environ
                  and os.environ.get("TERM", "") != "dumb")
        try:
            "♠♥♦♣·─".encode(getattr(stream, "encoding", None) or "ascii")
            unicode = True
        except (UnicodeEncodeError, LookupError):
            unicode = False
        return cls(colour, unicode)

    def paint(self, text: str, *looks: str | None) -> str:
        codes = [ANSI[look] for look in looks if look in ANSI]
        if not self.colour or not codes or not text:
            return text
        return f"\x1b[{';'.join(codes)}m{text}\x1b[0m"

    def cards(self, text: str, *looks: str) -> str:
        """`text` with its suited cards drawn as symbols, the red ones red."""
        return "".join(self.paint(piece, colour if colour == "red" else None, *looks)
                       for piece, colour in card_spans(text, self.unicode))

    def rule(self, title: str, width: int) -> str:
        bar = "─" if self.unicode else "-"
        head = f"{bar * 2} {title} "
        return self.paint(head + bar * max(0, width - len(head)), "dim")


def visible_len(text: str) -> int:
    return len(_ESCAPE.sub("", text))


def seat_name(seat: int, names: list[str], you: int | None) -> str:
    return "you" if seat == you else f"p{seat}"


# --- what happened ----------------------------------------------------------------------

def event_lines(events: list[dict], names: list[str], you: int | None, style: Style,
                num_players: int) -> list[str]:
    """One line per decision (`p1  attack 7♠`); the chance outcomes in a row of one kind
    on one line, by the seats that saw them (`deal 9♠ 8♥ → you  ? ?×2 → p1`, nothing
    after a public one); under each event what followed from it in public (`= p1 lays
    T`)."""
    lines: list[str] = []
    verb, seen = None, {}            # the chance line being gathered: seats -> outcomes
    arrow = "→" if style.unicode else "->"

    def flush():
        nonlocal verb, seen
        if verb is not None:
            parts = []
            for seats, outcomes in seen.items():
                shown = [o for o in outcomes if o != "?"]
                hidden = len(outcomes) - len(shown)
                if hidden:
                    shown.append("?" if hidden == 1 else f"?{'×' if style.unicode else 'x'}"
                                 f"{hidden}")
                whom = "" if len(seats) == num_players else f" {arrow} " + ", ".join(
                    seat_name(s, names, you) for s in seats)
                parts.append(style.cards(" ".join(shown)) + whom)
            lines.append("      " + style.paint("chance", "dim") + f"  {verb} "
                         + "   ".join(parts))
        verb, seen = None, {}

    for event in events:
        if event.get("player") is None:
            word, _, rest = event["action"].partition(" ")
            if word != verb:
                flush()
                verb = word
            seen.setdefault(tuple(event.get("seen_by", ())), []).append(rest or "?")
        else:
            flush()
            who = seat_name(event["player"], names, you)
            look = "bold" if event["player"] == you else None
            lines.append(f"  {style.paint(who.rjust(4), look)}  " + style.cards(event["action"]))
        if event.get("then"):
            flush()
            lines += ["        = " + style.cards(then) for then in event["then"]]
    flush()
    return lines


# --- the position ------------------------------------------------------------------------

def position_lines(view: dict, names: list[str], you: int | None, style: Style,
                   width: int) -> list[str]:
    """The position as `koloda play` shows it, then whose turn it is: the game's own
    picture (`PICTURES`), else its card table, under a grid when the view has a `board`
    (the view's shape decides, not the game's name)."""
    seen = view["seats"][0]["view"]
    turn = turn_line(view["turn"], you, style)
    picture = PICTURES.get(seen["game"])
    if picture is not None:
        return picture(view, names, you, style) + [turn]
    lines = card_table_lines(view, names, you, style, width)
    if "board" in seen:
        lines = grid_lines(seen["board"], style) + [""] + lines
    # an ended game's table already says how it ended
    return lines if view["status"] == "over" else lines + [turn]


def turn_line(turn: str, you: int | None, style: Style) -> str:
    """The protocol's `turn`, the person's seat marked (`p0 (you, red) to place`)."""
    return "  " + style.paint(turn_text(turn, you), "bold")


def turn_text(turn: str, you: int | None) -> str:
    """`turn` with the person's seat said to be theirs (unchanged when watching)."""
    if you is None:
        return turn
    return re.sub(rf"\bp{you}\b(?: \((\w+)\))?", lambda m: f"p{you} (you"
                  + (f", {m.group(1)})" if m.group(1) else ")"), turn)


def card_table_lines(view: dict, names: list[str], you: int | None, style: Style,
                     width: int) -> list[str]:
    """A card game's position: the public fields of the first seat's view (trump, stock,
    table, scores; cards drawn as symbols), how the game ended, then each shown seat's
    hand."""
    seats = view["seats"]
    first = seats[0]["view"]
    public = PUBLIC_PARTS.get(first["game"], generic_parts)(first)
    if view["status"] == "over":
        public.append(view["turn"])        # how it ended; whose turn is said under the table
    sep = "  ·  " if style.unicode else "  |  "
    lines = wrap_parts([style.cards(part) for part in public], width, "  ", sep)
    for entry in seats:
        seat = entry["seat"]
        label = "your hand" if seat == you else f"p{seat} {names[seat]}"
        hand = " ".join(style.cards(card, "bold") for card in entry["view"]["hand"]) or "-"
        lines.append(f"  {style.paint(label, 'bold' if seat == you else None)}:  {hand}")
    return lines


def _cards(cards) -> str:
    return " ".join(cards) or "-"


def _other_counts(seen: dict) -> list[str]:
    """Every other seat's card count, and the cards known to be in its hand."""
    parts = []
    for player in seen["players"]:
        if player["seat"] != seen["seat"]:
            known = player.get("known")
            extra = f" (known {' '.join(known)})" if known else ""
            parts.append(f"p{player['seat']} {player['cards']} cards{extra}")
    return parts


def durak_parts(seen: dict) -> list[str]:
    """Trump, stock, the others' counts, the bout's roles and cards, the discard pile."""
    stock = "?" if seen["stock"] is None else seen["stock"]
    roles = ([f"attacker p{seen['attacker']} defender p{seen['defender']}"]
             if seen["attacker"] is not None else [])
    table = " ".join(f"{pair['attack']}/{pair['defence'] or '-'}" for pair in seen["table"])
    return [f"trump {seen['trump'] or '?'}", f"stock {stock}", *_other_counts(seen), *roles,
            f"table {table or '-'}", f"discard {_cards(seen['discard'])}"]


def platinum_fish_parts(seen: dict) -> list[str]:
    """The others' counts, stock, discard pile, every seat's matches, the dice's offer."""
    parts = _other_counts(seen) + [f"stock {seen['stock']}",
                                   f"discard {_cards(seen['discard'])}"]
    parts += [f"p{p['seat']} {p['matches']} matches ({_cards(p['laid'])})"
              for p in seen["players"]]
    if seen["offered"] is not None:
        holds = " ".join(seen["stock_holds"]) or "none"
        parts.append(f"offered {_cards(seen['offered'])}, stock holds {holds}")
    return parts


def snitch_parts(seen: dict) -> list[str]:
    """The others' counts, the deal, reserve and discard pile, every seat's score and
    sets."""
    parts = _other_counts(seen) + [f"deal {seen['deal']} dealer p{seen['dealer']}",
                                   f"reserve {seen['reserve']}",
                                   f"discard {_cards(seen['discard'])}"]
    parts += [f"p{p['seat']} {p['total']}+{p['points']} sets "
              + _cards("".join(pair) for pair in p["sets"]) for p in seen["players"]]
    return parts


#: What is particular to a card game's table: the public parts it draws from a seat's
#: view.  A game not here gets `generic_parts`.
PUBLIC_PARTS = {"durak": durak_parts, "platinum_fish": platinum_fish_parts,
                "snitch": snitch_parts}


# --- a game drawn from its view's fields ---------------------------------------------------

#: fields the card table draws elsewhere (the hand, the board) or the turn line says
DRAWN_ELSEWHERE = frozenset({"game", "seat", "hand", "board", "to_move", "phase"})


def generic_parts(seen: dict) -> list[str]:
    """The public parts of a game this module does not know, in its view's order: each
    field as `name value` (`stock 6`, `pile 7s Kd`), the seats' entries of `players` where
    it stands."""
    parts = []
    for name, value in seen.items():
        if name == "players":
            parts += seat_parts(seen)
        elif name not in DRAWN_ELSEWHERE:
            parts.append(f"{name} {field_text(value)}")
    return parts


def seat_parts(seen: dict) -> list[str]:
    """One part per seat of `players`: its card count (not the viewer's, whose hand is
    shown) and its other fields, `p1 3 cards, score 4`; a seat with nothing to say, none."""
    parts = []
    for index, player in enumerate(seen["players"]):
        seat = player.get("seat", index)
        words = []
        if "cards" in player and seat != seen.get("seat"):
            words.append(f"{field_text(player['cards'])} cards")
        words += [f"{name} {field_text(value)}" for name, value in player.items()
                  if name not in ("seat", "cards")]
        if words:
            parts.append(f"p{seat} " + ", ".join(words))
    return parts


def field_text(value) -> str:
    """A view's value as words: cards and numbers as written, `-` for nothing, a list's
    items in a row (a pair inside it as `Ks/9d`), a mapping as `key value, ...`."""
    if value is None or value == [] or value == {}:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list):
        return " ".join(_item_text(item) for item in value)
    if isinstance(value, dict):
        return ", ".join(f"{key} {field_text(item)}" for key, item in value.items())
    return str(value)


def _item_text(item) -> str:
    """A list's item: a pair or a record (a list or mapping inside a list) as `a/b`."""
    if isinstance(item, (list, dict)) and item:
        values = item.values() if isinstance(item, dict) else item
        return "/".join(field_text(value) for value in values)
    return field_text(item)


def grid_lines(board: list[list], style: Style) -> list[str]:
    """A `board` (rows of cells, each a card or None) as a grid with coordinates: columns
    a, b, ... and rows 1, 2, ... top down, as Parket's notation names cells."""
    dot = "·" if style.unicode else "."
    texts = [[None if cell is None else style.cards(field_text(cell), "bold") for cell in row]
             for row in board]
    width = 2 + max([visible_len(text) for row in texts for text in row if text] or [2])
    columns = max((len(row) for row in board), default=0)
    lines = ["     " + "".join(style.paint(column_name(c).rjust(width), "dim")
                                for c in range(columns))]
    for r, row in enumerate(texts):
        cells = [style.paint(str(r + 1).rjust(5), "dim")]
        for text in row:
            if text is None:
                cells.append(style.paint(dot.rjust(width), "dim"))
            else:
                cells.append(" " * (width - visible_len(text)) + text)
        lines.append("".join(cells))
    return lines


def column_name(column: int) -> str:
    """`a`, `b`, ... for the first 26 columns, their numbers after that."""
    return chr(ord("a") + column) if column < 26 else str(column + 1)


def parket_lines(view: dict, names: list[str], you: int | None, style: Style) -> list[str]:
    """Parket's 5 x 7 board with its coordinates (columns a..g, rows 1..5 top down, the
    cells of the notation `9h d2`), empty cross cells marked while the cross is laid, then
    each colour's hand and the phase."""
    seen = view["seats"][0]["view"]
    cross = seen["phase"] == "cross"
    dot, plus = ("·", "+") if style.unicode else (".", "+")
    lines = ["     " + "".join(style.paint(c.rjust(4), "dim") for c in COLUMN_CHARS)]
    for r, cells in enumerate(seen["board"]):
        row = [style.paint(str(r + 1).rjust(5), "dim")]
        for c, card in enumerate(cells):
            if card is None:
                mark = plus if cross and r * COLUMNS + c in CROSS_CELLS else dot
                row.append(style.paint(mark.rjust(4), "dim"))
            else:
                text = style.cards(card, "bold")
                row.append(" " * (4 - visible_len(text)) + text)
        lines.append("".join(row))
    lines.append("")
    for colour, cards in seen["hands"].items():
        seat = seen["colours"].index(colour)
        who = " (you)" if seat == you else f" (p{seat} {names[seat]})"
        label = style.paint(f"{colour}{who}", "bold" if seat == you else None)
        lines.append(f"  {label}:  " + (" ".join(style.cards(card) for card in cards) or "-"))
    lines.append(f"  {seen['phase']} phase, relocations in a row {seen['relocations']}")
    return lines


#: What is particular to a game whose picture is all its own (its board with its marks):
#: game -> its lines, drawn above the turn line.  A game not here is a card table, under a
#: grid when its view has a board.
PICTURES = {"parket": parket_lines}


def wrap_parts(parts: list[str], width: int, indent: str, sep: str) -> list[str]:
    """Parts joined with `sep` into lines no wider than `width` (colour codes not
    counted)."""
    lines, line = [], ""
    for part in parts:
        if line and visible_len(line) + len(sep) + visible_len(part) > width - len(indent):
            lines.append(indent + line)
            line = part
        else:
            line = part if not line else line + sep + part
    if line:
        lines.append(indent + line)
    return lines


# --- choosing ----------------------------------------------------------------------------

def legal_lines(legal: list[str], style: Style, width: int) -> list[str]:
    """The legal moves numbered from 1, in as many columns as fit."""
    items = [(f"{i:>3} ", style.cards(move)) for i, move in enumerate(legal, 1)]
    cell = max(4 + visible_len(text) for _, text in items) + 2
    per_row = max(1, (width - 2) // cell)
    rows = (len(items) + per_row - 1) // per_row
    lines = []
    for r in range(rows):
        line = ""
        for c in range(per_row):
            index = c * rows + r                 # numbered down the columns
            if index < len(items):
                number, text = items[index]
                piece = style.paint(number, "cyan") + text
                line += piece + " " * (cell - 4 - visible_len(text))
        lines.append(" " + line.rstrip())
    return lines


def hint_line(reply: dict, style: Style, top: int = 5) -> str:
    """An agent's advice: its move and the top of its policy, `take 98.8%, beat A♠ 1.2%`."""
    policy = sorted(reply.get("policy", {}).items(), key=lambda kv: -kv[1])[:top]
    shares = ", ".join(f"{style.cards(move)} {share:.1%}" for move, share in policy)
    kind = "of the search's visits" if reply.get("policy_kind") == "visits" else "chosen"
    return (f"  hint from {reply.get('agent')}: {style.cards(reply['action'], 'bold')}"
            f"   ({kind}: {shares})")


def result_lines(view: dict, names: list[str], you: int | None, style: Style) -> list[str]:
    """Who won and every seat's return."""
    winners = view.get("winners", [])
    returns = view.get("returns", [])
    who = [("you" if s == you else f"p{s} {names[s]}") for s in winners]
    if not winners:
        verdict = "a draw"
    elif you is not None:
        verdict = "you win" if you in winners else "you lose: " + ", ".join(who) + " won"
        if you in winners and len(winners) > 1:
            verdict = "you win, as do " + ", ".join(w for w in who if w != "you")
    else:
        verdict = ", ".join(who) + (" wins" if len(who) == 1 else " win")
    look = "green" if you in winners else "bold"
    lines = [style.paint(f"game over: {verdict}", look, "bold")]
    lines.append("  returns: " + ", ".join(
        f"{'you' if s == you else f'p{s}'} {r:+g}" for s, r in enumerate(returns)))
    return lines
