"""An agent asked to move in a state of another game refuses with AgentError naming both
games: action ids mean other moves in another game, so any answer would be wrong there."""

import random
import re

import pytest
from learned.helpers import install_policy

from koloda import games, solvers
from koloda.solvers.cfr import policy_file
from koloda.solvers.errors import AgentError

# each game, a state of another game, and a state of the same game with other parameters
OTHER = {
    "durak": ("parket", "durak(players=3)"),
    "parket": ("durak", "parket(first_color=black)"),
    "platinum_fish": ("snitch(target_score=0)", "platinum_fish(players=3)"),
    "snitch": ("platinum_fish", "snitch(target_score=0)"),
}
SPELLED_OTHERWISE = {
    "durak": "durak(players=2,suits=4)",
    "parket": "parket(first_color=red)",
    "platinum_fish": "platinum_fish(players=2)",
    "snitch": "snitch(players=3)",
}
CHEAP = {"sims": 4, "worlds": 2}
# OpenSpiel's ISMCTSBot asserts that the game hides something: it plays no Parket
UNPLAYABLE = {("ismcts_openspiel", "parket")}


def decision_state(game_string, seed=1):
    """The first decision of a seeded random game with a choice to make."""
    state = games.load_game(game_string).new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights=probabilities)[0])
        else:
            state.apply_action(state.legal_actions()[0])
    return state


def build(kind, game, tmp_path, monkeypatch):
    """The agent `kind` for `game`, cheap to run (a small search; cfr with an empty
    policy, played uniformly; a policy of random weights)."""
    names = {p.name for p in kind.params}
    params = {k: v for k, v in CHEAP.items() if k in names}
    if kind.name == "cfr":
        path = tmp_path / "empty.json.gz"
        policy_file.save(path, policy_file.PolicyFile(game=policy_file.game_string_of(game),
                                                      policy={}))
        params["policy"] = str(path)
    if kind.name == "policy":
        short = game.get_type().short_name
        install_policy(tmp_path, monkeypatch, short, f"{short}-policy-v9")
        params["model"] = f"{short}-policy-v9"
    spec = kind.name + ("(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")"
                        if params else "")
    return solvers.load_agent(game, spec, seed=1)


def _cases():
    for kind in solvers.agent_kinds():
        for short in (sorted(OTHER) if kind.games() == ["*"] else kind.games()):
            yield pytest.param(kind, short, id=f"{kind.name}-{short}")


CASES = list(_cases())   # every registered kind, on every game it plays


def test_every_registered_kind_is_covered():
    """Every kind koloda registers (other test modules register kinds of their own)."""
    kolodas = {k.name for k in solvers.agent_kinds()
               if any(cls.__module__.startswith("koloda.") for cls in k.classes.values())}
    assert kolodas <= {case.values[0].name for case in CASES}


@pytest.mark.parametrize("kind, short", CASES)
@pytest.mark.parametrize("which", ["other_game", "other_parameters"])
def test_an_agent_refuses_a_state_of_another_game(kind, short, which, tmp_path, monkeypatch):
    game = games.load_game(short)
    agent = build(kind, game, tmp_path, monkeypatch)
    other = OTHER[short][which == "other_parameters"]
    state = decision_state(other)
    history = state.history()
    with pytest.raises(AgentError) as caught:
        agent.step(state)
    message = str(caught.value)
    assert re.search(rf"built for {re.escape(games.normalize_game_string(short))} and cannot "
                     rf"move in a state of {re.escape(games.normalize_game_string(other))}$",
                     message), message
    assert state.history() == history


@pytest.mark.parametrize("kind, short", [case for case in CASES if
                                         (case.values[0].name, case.values[1]) not in UNPLAYABLE])
def test_the_same_game_loaded_again_or_spelled_otherwise_is_played(kind, short, tmp_path,
                                                                   monkeypatch):
    agent = build(kind, games.load_game(short), tmp_path, monkeypatch)
    games.clear_game_cache()         # loaded again: another object than the agent's game
    for game_string in (short, SPELLED_OTHERWISE[short]):
        state = decision_state(game_string)
        assert state.get_game() is not agent.game
        assert agent.step(state) in state.legal_actions()


def test_a_forced_move_of_another_game_is_refused_too():
    agent = solvers.load_agent(games.load_game("durak(players=3)"), "random")
    state = games.load_game("durak").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(AgentError, match=r"built for durak\(players=3\) and cannot move in a "
                                         r"state of durak$"):
        agent.step(state)


POSITION = "------Tc------/------9c------/--KhAh--Ad6d--/------Js------/------Ts------ b m 0"


@pytest.mark.parametrize("spec", ["random", "heuristic", "mcts(sims=4)", "solver(sims=4)"])
def test_a_parket_agent_plays_on_from_any_start_position(spec):
    agent = solvers.load_agent(games.load_game("parket"), spec, seed=1)
    state = games.load_game(f'parket(position="{POSITION}")').new_initial_state()
    assert agent.step(state) in state.legal_actions()


def test_a_start_position_does_not_hide_other_rules():
    agent = solvers.load_agent(games.load_game("parket"), "random")
    game = games.load_game(f'parket(corner_order=any,position="{POSITION}")')
    with pytest.raises(AgentError, match=r"built for parket and cannot move in a state of "
                                         r"parket\(corner_order=any,position=\"-"):
        agent.step(game.new_initial_state())
