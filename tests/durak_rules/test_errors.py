"""Clear errors: GameParameterError (a ValueError) for bad parameters, ActionError (a
ValueError) for malformed or illegal action strings."""

import pytest

from koloda import games
from koloda.games.durak import DurakRules
from koloda.games.errors import ActionError, GameParameterError

from .helpers import deal, load, play, start


@pytest.mark.parametrize("game_string, named", [
    ("durak(frobs=1)", "frobs"),
    ("durak(players=1)", "players"),
    ("durak(players=7)", "players"),
    ("durak(players=6,hand_size=7)", "hand_size"),
    ("durak(ranks=1,suits=1)", "hand_size"),          # 2 x 6 cards from a 1-card deck
    ("durak(players=3,ranks=3,suits=4,hand_size=5)", "hand_size"),
    ("durak(ranks=0)", "ranks"),
    ("durak(ranks=14)", "ranks"),
    ("durak(suits=5)", "suits"),
    ("durak(hand_size=0)", "hand_size"),
    ("durak(max_attack_cards=0)", "max_attack_cards"),
    ("durak(lead=sideways)", "lead"),
    ("durak(previous_fool=2)", "previous_fool"),       # only seats 0 and 1 with two players
    ("durak(players=4,previous_fool=4)", "previous_fool"),
    ("durak(previous_fool=-2)", "previous_fool"),
    ("durak(max_moves=0)", "max_moves"),
    ("durak(players=2.5)", "players"),                 # wrong type
    ("durak(lead=3)", "lead"),
    ("durak(hand_size=true)", "hand_size"),
    ("durak(ranks=abc)", "ranks"),
])
def test_bad_parameters_raise_a_game_parameter_error_naming_the_parameter(game_string, named):
    with pytest.raises(GameParameterError) as info:
        games.load_game(game_string)
    assert isinstance(info.value, ValueError)
    assert named in str(info.value)


@pytest.mark.parametrize("params", [
    {"players": "2"}, {"players": 2.0}, {"lead": 1}, {"players": True}, {"nonsense": 1},
])
def test_rules_reject_wrong_types_and_unknown_names(params):
    with pytest.raises(GameParameterError):
        DurakRules(params)


@pytest.mark.parametrize("game_string", [
    "durak(players=6)",                               # 36 cards dealt exactly
    "durak(players=6,ranks=13,hand_size=8)",          # 48 of 52
    "durak(players=3,previous_fool=2,lead=from_under)",
    "durak(ranks=1,suits=2,hand_size=1)",
])
def test_boundary_parameters_load(game_string):
    assert games.load_game(game_string).num_players() >= 2


def test_unknown_game_name_is_a_parameter_error():
    with pytest.raises(GameParameterError):
        games.load_game("durakk(players=2)")


# --- action strings ---------------------------------------------------------------------
P0 = ["6h", "8c", "8d", "Ac", "9h", "Qs"]
P1 = ["6c", "9c", "Tc", "7d", "7h", "Jh"]


@pytest.mark.parametrize("text", [
    "", "   ", "attack", "attack 7", "attack 1x", "attack 8c 9c", "fly 8c", "take 8c",
    "pass now", "attack 2c",  # 2c is not in the 36-card deck
])
def test_malformed_action_strings_raise_action_error(text):
    state = start(load(), [P0, P1], "Ah")
    with pytest.raises(ActionError):
        state.string_to_action(text)


def test_card_outside_the_deck_is_named_in_the_error():
    state = start(load(), [P0, P1], "Ah")
    with pytest.raises(ActionError, match="not in this deck"):
        state.string_to_action("attack 2c")


@pytest.mark.parametrize("text", [
    "attack 7s",    # not in the attacker's hand
    "attack 6c",    # the defender's card
    "throw 8c", "beat 8c", "take", "pass",
    "deal 7s",      # a chance string at a decision node
    "draw 7s", "trump 7s",
])
def test_illegal_decisions_raise_action_error_and_change_nothing(text):
    state = start(load(), [P0, P1], "Ah")
    before = str(state)
    with pytest.raises(ActionError):
        state.string_to_action(text)
    assert str(state) == before


def test_action_errors_list_the_legal_actions():
    state = start(load(), [P0, P1], "Ah", "attack 8c")
    with pytest.raises(ActionError, match="legal: beat 7h, beat 9c, beat Tc, beat Jh, take$"):
        state.string_to_action("beat 6c")


def test_wrong_players_string_is_rejected():
    state = start(load(), [P0, P1], "Ah")
    with pytest.raises(ActionError, match="not p1's turn"):
        state.string_to_action(1, "attack 6c")
    assert state.string_to_action(0, "attack 8c") == state.string_to_action("attack 8c")


@pytest.mark.parametrize("text", ["draw 7s", "trump 7s", "take", "pass", "throw 7s", "beat 7s"])
def test_wrong_kind_of_string_during_the_deal_raises_action_error(text):
    state = load().new_initial_state()
    with pytest.raises(ActionError):
        state.string_to_action(text)


def test_decision_string_at_a_chance_node_raises_action_error():
    # "attack 7s" shares its action id with the chance outcome 7s; it must not pass as a deal.
    state = load().new_initial_state()
    with pytest.raises(ActionError):
        state.string_to_action("attack 7s")
    state = start(load(), [P0, P1], "Ah", "attack 8c", "take")
    assert state.is_chance_node()
    with pytest.raises(ActionError):
        state.string_to_action("attack 7s")


def test_trump_node_accepts_only_trump_strings():
    game = load()
    state = game.new_initial_state()
    play(state, *deal(game, [P0, P1]))
    assert state.is_chance_node()
    for text in ("deal 7s", "draw 7s"):
        with pytest.raises(ActionError):
            state.string_to_action(text)
    with pytest.raises(ActionError):
        state.string_to_action("trump 8c")  # already dealt
    play(state, "trump 7s")


def test_draw_node_rejects_deal_and_trump_strings():
    state = start(load(), [P0, P1], "Ah", "attack 8c", "take")
    for text in ("deal 7s", "trump 7s"):
        with pytest.raises(ActionError, match="draw"):
            state.string_to_action(text)
    with pytest.raises(ActionError):
        state.string_to_action("draw 8c")  # in a hand, not in the stock
    play(state, "draw 7s")


def test_a_card_cannot_be_dealt_twice():
    state = load().new_initial_state()
    play(state, "deal 7s")
    with pytest.raises(ActionError):
        state.string_to_action("deal 7s")


def test_no_action_after_the_game_is_over():
    state = start(load(ranks=2, suits=1, hand_size=1), [["Kc"], ["Ac"]], None,
                  "attack Kc", "beat Ac")
    assert state.is_terminal()
    for text in ("pass", "take", "attack Kc", "draw Kc"):
        with pytest.raises(ActionError):
            state.string_to_action(text)


def test_action_strings_round_trip_for_every_legal_action():
    state = start(load(players=3), [P0, P1, ["Kc", "Kd", "Ks", "Qc", "Qd", "Js"]], "Ah")
    seen = 0
    while not state.is_terminal() and seen < 30:
        player = state.current_player()
        for action in state.legal_actions():
            assert state.string_to_action(state.action_to_string(player, action)) == action
        state.apply_action(state.legal_actions()[0])
        seen += 1


@pytest.mark.parametrize("text", ["beat", "attack", "throw", "deal"])
def test_a_card_verb_alone_says_that_a_card_is_missing(text):
    from koloda.games.errors import MalformedActionError
    state = start(load(), [["6c", "7c", "8c", "9c", "Tc", "Jc"],
                           ["6d", "7d", "8d", "9d", "Td", "Jd"]], "As")
    with pytest.raises(MalformedActionError, match=f"'{text}' needs a card: {text} <card>"):
        state.string_to_action(text)
