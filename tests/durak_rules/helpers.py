"""Build Durak situations by hand: deal chosen cards, then script the play as action strings.

    game = load(players=3, hand_size=2)
    state = start(game, [["6h", "8c"], ["9c", "Jc"], ["8d", "Qc"]], "As",
                  "attack 8c", "beat 9c")

`deal` turns per-seat hands into the interleaved `deal ...` chance strings (one card at a
time clockwise from the dealer's left), `play` applies action strings through
`state.string_to_action`, so every scripted step is also checked for legality.
"""

from __future__ import annotations

from koloda import games
from koloda.games.kit.cards import cards_of


def load(**params):
    """`durak(k=v,...)` through `games.load_game`."""
    if not params:
        return games.load_game("durak")
    body = ",".join(f"{name}={value}" for name, value in params.items())
    return games.load_game(f"durak({body})")


def deal(game, hands, trump=None) -> list[str]:
    """The chance strings that deal `hands[seat]` to each seat, then turn up `trump`.

    Card k of every hand is dealt in round k, seats in dealing order (dealer's left first).
    `trump=None` for a deal that leaves no stock (the dealer's last card shows the trump).
    """
    rules = game.rules
    n, size = rules.num_players, rules.hand_size
    assert len(hands) == n, f"need {n} hands"
    assert all(len(h) == size for h in hands), f"every hand needs {size} cards"
    out = []
    for i in range(n * size):
        seat = (rules.dealer + 1 + i) % n
        out.append(f"deal {hands[seat][i // n]}")
    if trump is not None:
        out.append(f"trump {trump}")
    return out


def play(state, *moves: str):
    """Apply each action string in turn (legality checked by `string_to_action`)."""
    for text in moves:
        state.apply_action(state.string_to_action(text))
    return state


def start(game, hands, trump=None, *moves: str):
    """A new state after the deal of `hands` (and `trump`), then `moves`."""
    state = game.new_initial_state()
    play(state, *deal(game, hands, trump))
    return play(state, *moves)


def legal(state) -> set[str]:
    """The legal actions of whoever moves now (chance included), as strings."""
    player = state.current_player()
    return {state.action_to_string(player, a) for a in state.legal_actions()}


def names(state, mask: int) -> set[str]:
    deck = state.core.rules.deck
    return {deck.name(c) for c in cards_of(mask)}


def hand(state, seat: int) -> set[str]:
    return names(state, state.core.hands[seat])


def known(state, seat: int) -> set[str]:
    return names(state, state.core.known[seat])


def discard(state) -> set[str]:
    return names(state, state.core.discard)


def card(state, name: str) -> int:
    return state.core.rules.deck.parse(name)


def table(state) -> list[str]:
    deck = state.core.rules.deck
    return [deck.name(c) for c in state.core.table]
