"""The `policy` agent and its models: the packed classifier is scikit-learn's own, the
move is a function of the seat's information, every model plays legally in the variants
it accepts and is refused by name elsewhere."""

import json
import random

import numpy as np
import pytest
from agents.positions import midgame_states, other_deal

from koloda import games
from koloda.games.kit.chance import sample_outcome
from koloda.solvers.errors import AgentSpecError
from koloda.solvers.learned import mlp
from koloda.solvers.learned.models import EXTRA_FOLDERS, index, load_model, write_model
from koloda.solvers.learned.policy import feature_set, variants_of
from koloda.solvers.registry import check_spec, load_agent
from koloda.tournament.learn_policy import pack_classifier

from .helpers import install_policy, install_test_model, random_mlp

GAMES = ("durak", "platinum_fish", "snitch", "parket")


def play_out(game, agents, seed):
    """A whole game with `agents[seat]` in each seat; the number of decisions."""
    rng = random.Random(seed)
    state, moves = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            continue
        action = agents[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    return moves


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("classes", [2, 5])
def test_the_packed_classifier_gives_scikit_learns_probabilities(classes):
    from sklearn.neural_network import MLPClassifier
    rng = np.random.default_rng(classes)
    x = rng.normal(3.0, 2.0, (400, 6))
    y = (x[:, 0] * 7 + x[:, 1] * 3).astype(int) % classes
    mean, scale = x.mean(axis=0), x.std(axis=0)
    model = MLPClassifier((8,), max_iter=50, random_state=0).fit((x - mean) / scale, y)
    all_actions = np.arange(classes + 2)             # two actions the data never holds
    packed = pack_classifier(model, mean, scale, all_actions)
    logits = mlp.forward_reference(packed, x)[:, :classes]     # the raw inputs
    ours = np.exp(logits - logits.max(axis=1, keepdims=True))
    ours /= ours.sum(axis=1, keepdims=True)
    assert np.allclose(ours, model.predict_proba((x - mean) / scale), atol=1e-9)
    assert np.all(mlp.forward_reference(packed, x)[:, classes:] < -20)


def test_the_move_is_a_function_of_the_seats_information(tmp_path, monkeypatch):
    install_policy(tmp_path, monkeypatch, "durak", "durak-policy-v9")
    game, states = midgame_states("durak", count=6, seed=4)
    for k, state in enumerate(states):
        player = state.current_player()
        twin = other_deal(state, player, seed=k)
        for temperature in (0.0, 1.0):
            spec = f"policy(model=durak-policy-v9,temperature={temperature},seed={k})"
            one, two = load_agent(game, spec), load_agent(game, spec)
            assert one.step(state) == two.step(twin)
            assert one.action_distribution(one.view(state, player), player) == \
                two.action_distribution(two.view(twin, player), player)


@pytest.mark.parametrize("name", GAMES)
def test_a_policy_plays_legal_games_and_reads_only_its_variant(name, tmp_path,
                                                                       monkeypatch):
    game = install_policy(tmp_path, monkeypatch, name, f"{name}-policy-v9")
    agents = [load_agent(game, f"policy(model={name}-policy-v9,temperature=0.5)", seed=s)
              for s in range(game.num_players())]
    assert play_out(game, agents, seed=1) > 0
    state, player = _decision(game)
    shares = dict(agents[0].action_distribution(agents[0].view(state, player), player))
    assert abs(sum(shares.values()) - 1.0) < 1e-9 and all(p >= 0 for p in shares.values())
    other = {"durak": "durak(players=3)", "platinum_fish": "platinum_fish(ranks=5)",
             "snitch": "snitch(players=4)", "parket": "parket(corner_order=any)"}[name]
    with pytest.raises(AgentSpecError, match=f"model {name}-policy-v9 was fitted for"):
        check_spec(games.load_game(other), f"policy(model={name}-policy-v9)")


def _decision(game):
    rng = random.Random(0)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        else:
            state.apply_action(state.legal_actions()[0])
    return state, state.current_player()


def test_a_policy_needs_a_policy_model_of_its_game(tmp_path, monkeypatch):
    install_policy(tmp_path, monkeypatch, "platinum_fish", "platinum_fish-policy-v9")
    durak = games.load_game("durak")
    with pytest.raises(AgentSpecError, match=r"policy needs model=<game>-policy-v<N> \(for "
                                             r"this game: "):
        check_spec(durak, "policy")
    with pytest.raises(AgentSpecError, match="is a model of platinum_fish, not durak"):
        load_agent(durak, "policy(model=platinum_fish-policy-v9)")
    install_test_model(tmp_path, monkeypatch)                      # durak-v9, a value model
    with pytest.raises(AgentSpecError, match="durak-v9 is a value model, not a policy"):
        check_spec(durak, "policy(model=durak-v9)")
    with pytest.raises(AgentSpecError, match="is a policy model; value= takes"):
        check_spec(games.load_game("platinum_fish"),
                   "ismcts(value=platinum_fish-policy-v9)")


def test_a_model_of_the_wrong_shape_is_refused_by_name(tmp_path, monkeypatch):
    game = games.load_game("durak")
    write_model(tmp_path, "durak-policy-v8", "durak", "policy", feature_set(game),
                variants_of(game), random_mlp(10, hidden=(4,), outputs=3))
    monkeypatch.setenv(EXTRA_FOLDERS, str(tmp_path))
    load_model.cache_clear()
    with pytest.raises(AgentSpecError, match="durak-policy-v8 reads 10 numbers into 3 "
                                             "actions; this game has 302 and 110"):
        check_spec(game, "policy(model=durak-policy-v8)")


#: per game, a variant a policy plays (only a free parameter changed) and one it refuses
VARIANTS = {
    "durak": ("durak(max_moves=300)", "durak(players=3)"),
    "platinum_fish": ("platinum_fish(max_turns=200)", "platinum_fish(copies=4)"),
    "snitch": ("snitch(max_deals=3)", "snitch(players=4)"),
    "parket": ('parket(position="------Tc------/------9c------/--KhAh--Ad6d--/------Js------/'
               '------Ts------ b m 0")', "parket(corner_order=any)"),
}


@pytest.mark.parametrize("name", sorted(n for n, e in index().items() if e["kind"] == "policy"))
def test_every_shipped_policy_plays_the_variants_it_accepts_and_refuses_the_others(name):
    entry = index()[name]
    game = games.load_game(entry["game"])
    assert load_model(name).features == feature_set(game)
    assert json.dumps(entry["variants"]) == json.dumps(variants_of(game))
    accepted, refused = VARIANTS[entry["game"]]
    for variant in (entry["game"], accepted):
        game = games.load_game(variant)
        agents = [load_agent(game, f"policy(model={name})", seed=s)
                  for s in range(game.num_players())]
        assert play_out(game, agents, seed=2) > 0
    with pytest.raises(AgentSpecError, match=f"model {name} was fitted for"):
        check_spec(games.load_game(refused), f"policy(model={name})")


def test_a_policy_as_the_opponents_model_gives_the_policy_agents_shares(tmp_path,
                                                                        monkeypatch):
    """The likelihood of an opponent's move is the share the policy agent gives it, read
    from the opponent's observation, mixed with `noise`."""
    import math

    from koloda.solvers.search.inference import OpponentModel
    game = install_policy(tmp_path, monkeypatch, "durak", "durak-policy-v9")
    model = OpponentModel(game, noise=0.1, opponents="durak-policy-v9")
    agent = load_agent(game, "policy(model=durak-policy-v9,temperature=1)")
    _, states = midgame_states("durak", count=4, seed=2)
    for state in states:
        player, legal = state.current_player(), state.legal_actions()
        for action, share in agent.action_distribution(agent.view(state, player), player):
            assert model.log_likelihood(state.core, player, action, legal) == \
                pytest.approx(math.log(0.1 / len(legal) + 0.9 * share))


def test_durak_is_read_with_the_trump_suit_first():
    """The tensor is the observation's entries relabelled, the trump's cards in suit
    place 0; each card action is the same verb and rank on the relabelled card."""
    from koloda.solvers.learned.policy import PolicyInput
    game, states = midgame_states("durak", count=8, seed=6)
    reading = PolicyInput(game)
    layout = reading.observer.layout
    suits, cards = 4, 36
    trumps = set()
    for state in states:
        core, player = state.core, state.current_player()
        trump = core.trump_suit
        trumps.add(trump)
        raw = np.array(state.observation_tensor(player))
        canonical = reading.tensor(core, player)
        assert sorted(canonical) == sorted(raw)
        hand = canonical[layout.offset("hand"):layout.offset("hand") + cards]
        real = raw[layout.offset("hand"):layout.offset("hand") + cards]
        assert [c // suits for c in np.flatnonzero(hand)] == \
            sorted(c // suits for c in np.flatnonzero(real))
        assert sum(hand[c] for c in range(0, cards, suits)) == \
            sum(real[c] for c in range(trump, cards, suits))
        legal = state.legal_actions()
        for action, unit in zip(legal, reading.ids(core, legal)):
            if action >= 3 * cards:                       # take, pass
                assert unit == action
                continue
            assert unit // cards == action // cards       # the verb
            card, canon = action % cards, unit % cards
            assert card // suits == canon // suits and \
                (card % suits == trump) == (canon % suits == 0)
    assert len(trumps) > 1


def test_a_search_reading_hands_by_a_policy_sees_only_its_seats_information(
        tmp_path, monkeypatch):
    install_policy(tmp_path, monkeypatch, "durak", "durak-policy-v9")
    game, states = midgame_states("durak", count=3, seed=9)
    spec = "ismcts(infer=8,opponents=durak-policy-v9,sims=60,seed=3)"
    for k, state in enumerate(states):
        twin = other_deal(state, state.current_player(), seed=k)
        assert load_agent(game, spec).step(state) == load_agent(game, spec).step(twin)
    with pytest.raises(AgentSpecError, match="durak-v9 is a value model, not a policy"):
        install_test_model(tmp_path, monkeypatch)
        check_spec(game, "ismcts(infer=8,opponents=durak-v9)")


@pytest.mark.parametrize("tree", ["compiled", "python"])
def test_a_policy_guides_a_searchs_root_with_its_best_move(tmp_path, monkeypatch, tree):
    """`guide=` a policy: the move favoured at the root is the policy agent's move, in
    either backend, and the guided search keeps to its seat's information."""
    from koloda.solvers.search.compiled_tree import CompiledSearch
    from koloda.solvers.search.evaluators import PolicyHint
    from koloda.solvers.search.ismcts import search_for
    install_policy(tmp_path, monkeypatch, "durak", "durak-policy-v9")
    game, states = midgame_states("durak", count=4, seed=11)
    hint = PolicyHint(game, "durak-policy-v9")
    agent = load_agent(game, "policy(model=durak-policy-v9)")
    spec = f"ismcts(prior=0.5,guide=durak-policy-v9,sims=40,seed=2,tree={tree})"
    for k, state in enumerate(states):
        player = state.current_player()
        assert hint(state.core) == agent.step(state)
        search = search_for(load_agent(game, spec), state, player)
        assert isinstance(search, CompiledSearch) == (tree == "compiled")
        search.ismcts(1)
        if len(state.legal_actions()) > 1:
            assert search.root_visits() == {agent.step(state): 1}
        twin = other_deal(state, player, seed=k)
        assert load_agent(game, spec).step(state) == load_agent(game, spec).step(twin)
    with pytest.raises(AgentSpecError, match="no model named durak-policy-v4"):
        check_spec(game, "ismcts(prior=0.5,guide=durak-policy-v4)")
