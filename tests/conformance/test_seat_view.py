"""A seat's view as data (`state.seat_view(p)`, DESIGN.md "Views are data"): plain JSON,
a function of the seat's information state, and free of every card another seat holds
unseen.

* Along random games, a twin that differs only in chance outcomes the seat did not see
  (trees.py) and has the same player to move (which OpenSpiel shows everybody: Durak's
  first attacker, who holds the lowest trump, is known by being to move), and resamples
  from the seat's information state, show the seat the same view; the hidden cards must
  really differ somewhere, or the check says nothing.
* No card another seat holds unseen appears anywhere in the view (in the games with
  copies of a card, none that is not public or the seat's own, where seeing it could only
  come from that hand).
"""

import json
import random

import pytest

from koloda.games.kit.cards import cards_of

from .games_under_test import GAMES
from .random_play import decision_states, load, random_history, states_along
from .trees import twin_pairs

HIDDEN_GAMES = [case for case in GAMES if not case.perfect_information]


def strings_in(value) -> set[str]:
    """Every string anywhere in a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*map(strings_in, value)) if value else set()
    return set()


@pytest.mark.parametrize("case", HIDDEN_GAMES, ids=str)
def test_a_twin_the_seat_cannot_tell_apart_shows_it_the_same_view(case):
    game = load(case.game_string)
    varied = 0
    for seed in (40, 41):
        history = random_history(case.game_string, seed)
        for player in range(game.num_players()):
            rng = random.Random(seed * 10 + player)
            for state, twin in twin_pairs(game, history, player, rng):
                if twin.current_player() != state.current_player():
                    continue
                view = state.seat_view(player)
                assert json.loads(json.dumps(view)) == view
                assert twin.seat_view(player) == view, (state.history(), twin.history())
                varied += str(state) != str(twin)
    assert varied, "no twin differed in a hidden card: the test compared nothing"


@pytest.mark.parametrize("case", HIDDEN_GAMES, ids=str)
def test_a_resample_from_the_information_state_shows_the_same_view(case):
    varied = 0
    states = [state for seed in (50, 51) for state in decision_states(case.game_string, seed, 6)]
    for state in states:
        for player in range(state.get_game().num_players()):
            view = state.seat_view(player)
            for seed in (1, 2):
                world = state.resample_from_infostate(player, random.Random(seed).random)
                assert (world.information_state_string(player)
                        == state.information_state_string(player))
                assert world.seat_view(player) == view
                varied += str(world) != str(state)
    assert varied, "no resample differed in a hidden card: the test compared nothing"


# --- the cards another seat holds unseen ------------------------------------------------

def durak_hidden(core, player: int) -> set[str]:
    """Cards of other hands not known to be there (each card is one of a kind)."""
    names = core.rules.deck.names
    return {names[card] for seat, hand in enumerate(core.hands) if seat != player
            for card in cards_of(hand & ~core.known[seat])}


def rank_mask(ranks) -> int:
    mask = 0
    for rank in ranks:
        mask |= 1 << rank
    return mask


def platinum_fish_hidden(core, player: int) -> set[str]:
    """Ranks in other hands, not known there, and seen nowhere else by the seat (its
    hand, what is known of every hand, the matches, the discard pile, the dice's offer)."""
    names = core.rules.deck.names
    seen = core.hands[player] | core.offer
    for seat in range(core.rules.num_players):
        seen |= core.known[seat]
        seen |= rank_mask(core.laid[seat])
    seen |= rank_mask(core.discard)
    held = 0
    for seat, hand in enumerate(core.hands):
        if seat != player:
            held |= hand & ~core.known[seat]
    return {names[rank] for rank in cards_of(held & ~seen)}


def snitch_hidden(core, player: int) -> set[str]:
    """Kinds in other hands seen nowhere else by the seat (its hand, the sets, the
    discard pile)."""
    names = core.rules.deck.names
    seen = {kind for kind, n in enumerate(core.hands[player]) if n} | set(core.discard)
    for sets in core.laid:
        seen |= {card for pair in sets for card in pair}
    held = {kind for seat, hand in enumerate(core.hands) if seat != player
            for kind, n in enumerate(hand) if n}
    return {names[kind] for kind in held - seen}


HIDDEN = {"durak": durak_hidden, "platinum_fish": platinum_fish_hidden,
          "snitch": snitch_hidden}


@pytest.mark.parametrize("case", HIDDEN_GAMES, ids=str)
def test_the_view_holds_no_card_another_seat_holds_unseen(case):
    game = load(case.game_string)
    hidden_of = HIDDEN[case.short_name]
    checked = 0
    for seed in (60, 61):
        for state in states_along(game, random_history(case.game_string, seed)):
            core = state.core
            for player in range(game.num_players()):
                hidden = hidden_of(core, player)
                leaked = hidden & strings_in(state.seat_view(player))
                assert not leaked, (f"p{player} sees {sorted(leaked)} of another hand: "
                                    f"{state.seat_view(player)}")
                checked += bool(hidden)
    assert checked, "no other hand held a hidden card: the test compared nothing"
