"""Build Platinum Fish situations by hand: roll and deal chosen hands, turn up a discard,
then script the play as action strings.

    game = load(players=3)
    state = start(game, [["7", "7", "Q"], ["A", "2", "3"], ["K", "K", "K"]], "5",
                  "roll", "dice 3 4", "choose 7")

Every step goes through `state.string_to_action`, so each is checked for legality.
"""

from __future__ import annotations

from koloda import games


def load(**params):
    body = ",".join(f"{name}={value}" for name, value in params.items())
    return games.load_game(f"platinum_fish({body})" if body else "platinum_fish")


def deal(hands, turn) -> list[str]:
    """Chance strings: each seat from the dealer's left (seat 0) rolls its hand size and is
    dealt its cards, then the first discard is turned up."""
    out = []
    for hand in hands:
        out.append(f"hand {len(hand)}")
        out.extend(f"deal {card}" for card in hand)
    return out + [f"turn {turn}"]


def play(state, *moves: str):
    for text in moves:
        state.apply_action(state.string_to_action(text))
    return state


def start(game, hands, turn, *moves: str):
    state = game.new_initial_state()
    play(state, *deal(hands, turn))
    return play(state, *moves)


def legal(state) -> set[str]:
    player = state.current_player()
    return {state.action_to_string(player, a) for a in state.legal_actions()}


def hand(state, seat: int) -> set[str]:
    core = state.core
    return {core.rules.deck.names[r] for r in range(core.rules.num_ranks)
            if core.hands[seat] >> r & 1}


def laid(state, seat: int) -> list[str]:
    return [state.core.rules.deck.names[r] for r in state.core.laid[seat]]


def discard(state) -> list[str]:
    return [state.core.rules.deck.names[r] for r in state.core.discard]
