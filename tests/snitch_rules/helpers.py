"""Build Snitch situations by hand: deal chosen hands, then script the play as action
strings (draws from the reserve are chance strings, `draw 7`).

    game = load(ranks=3, copies=4, hand_size=2, target_score=0)
    state = start(game, [["3", "3"], ["4", "2"], ["5", "X"]], "set 33", "stop")
"""

from __future__ import annotations

from koloda import games


def load(**params):
    body = ",".join(f"{name}={value}" for name, value in params.items())
    return games.load_game(f"snitch({body})" if body else "snitch")


def deal(game, hands) -> list[str]:
    """Chance strings dealing `hands[seat]`, one card at a time clockwise from the dealer's
    left (card k of every hand in round k)."""
    rules = game.rules
    n, size = rules.num_players, rules.hand_size
    dealer = n - 1
    return [f"deal {hands[(dealer + 1 + i) % n][i // n]}" for i in range(n * size)]


def play(state, *moves: str):
    for text in moves:
        state.apply_action(state.string_to_action(text))
    return state


def start(game, hands, *moves: str):
    state = game.new_initial_state()
    play(state, *deal(game, hands))
    return play(state, *moves)


def legal(state) -> set[str]:
    player = state.current_player()
    return {state.action_to_string(player, a) for a in state.legal_actions()}


def hand(state, seat: int) -> list[str]:
    core = state.core
    return sorted(core.rules.deck.names[c] for c, n in enumerate(core.hands[seat])
                  for _ in range(n))
