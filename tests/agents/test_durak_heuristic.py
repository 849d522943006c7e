"""The Durak heuristic: its documented habits in known positions, and its strength."""


from durak_rules.helpers import load, play, start

from koloda import solvers
from koloda.tournament.match import play_game


def _choice(state, seed=0):
    agent = solvers.load_agent(state.get_game(), "heuristic", seed=seed)
    player = state.current_player()
    return state.action_to_string(player, agent.step(state))


# Two players, 36 cards, hearts trump.  p1 holds the lowest trump (6h) and attacks first.
P0 = ["7c", "Tc", "Jc", "Qh", "Ah", "9s"]
P1 = ["6h", "8c", "7d", "8d", "Ks", "Kd"]


def test_leads_the_cheapest_card_preferring_a_pair():
    state = start(load(), [P0, P1], "Js")      # spades trump: p1 has Ks, p0 has 9s
    assert state.current_player() == 0         # 9s is the lowest trump
    assert _choice(state) == "attack 7c"       # cheapest non-trump
    state = start(load(), [P1, P0], "Js")      # p1 now holds 9s and attacks
    assert _choice(state) == "attack 7c"


def test_a_twin_counts_one_rank_cheaper():
    # p1 holds 7d alone and the pair 8c 8d: the pair's 8 counts as a 7 and wins the tie.
    state = start(load(), [P0, ["6h", "8c", "7d", "8d", "Ks", "Qs"]], "Jh")
    assert state.current_player() == 1           # 6h is the lowest trump
    assert _choice(state) == "attack 8c"


def test_beats_with_the_cheapest_card_same_suit_before_trump():
    state = start(load(), [P0, P1], "Jh")        # hearts trump, p1 leads (6h)
    state = play(state, "attack 8c")
    assert _choice(state) == "beat Tc"           # not Jc, not a trump


def test_takes_a_single_card_rather_than_spend_a_high_trump_early():
    state = start(load(), [["7c", "Tc", "Jc", "Qh", "Ah", "9s"], P1], "Jh")
    state = play(state, "attack 7d")             # p0 can beat 7d only with a trump
    assert _choice(state) == "take"


def test_throws_in_a_cheap_matching_card_and_keeps_trumps():
    state = start(load(), [P0, P1], "Jh")
    state = play(state, "attack 8c", "beat Tc")
    # The table holds 8c and Tc: p1 may throw 8d (rank 8); it keeps its trump 6h.
    assert _choice(state) == "throw 8d"


def test_heuristic_beats_random_in_seeded_games():
    game = load()
    heuristic = solvers.load_agent(game, "heuristic")
    rand = solvers.load_agent(game, "random", seed=1)
    score = 0.0
    deals = 40
    for seed in range(deals):
        first = play_game(game, [heuristic, rand], seed)
        second = play_game(game, [rand, heuristic], seed)
        score += (first.returns[0] > 0) + (second.returns[1] > 0)
    assert score / (2 * deals) >= 0.85
