"""Agent specs parse into typed parameters; bad specs fail with errors that say why."""

import pytest

from koloda import games, solvers
from koloda.solvers import AgentSpecError, format_spec, parse_spec


@pytest.mark.parametrize("spec, name, params", [
    ("random", "random", {}),
    (" heuristic ", "heuristic", {}),
    ("ismcts(sims=2000,seed=7)", "ismcts", {"sims": 2000, "seed": 7}),
    ("pimc(sims=500, worlds=20, uct_c=0.5)", "pimc", {"sims": 500, "worlds": 20, "uct_c": 0.5}),
    ("x(flag=true,path=\"a,b(c).json\")", "x", {"flag": True, "path": "a,b(c).json"}),
    ("x()", "x", {}),
])
def test_specs_parse_to_name_and_typed_parameters(spec, name, params):
    assert parse_spec(spec) == (name, params)


def test_format_spec_round_trips():
    for spec in ["random", "ismcts(seed=7,sims=2000)", 'x(path="a,b.json",z=0.5)']:
        assert format_spec(*parse_spec(spec)) == spec


@pytest.mark.parametrize("spec, says", [
    ("", "expected name"),
    ("ismcts(sims=10", "expected name"),
    ("ismcts(sims)", "not key=value"),
    ("ismcts(sims=1,sims=2)", "given twice"),
    ("ismcts(sims=1,,seed=2)", "empty parameter"),
    ("ismcts(path=a(b))", "quote the value"),
    ("9lives", "expected name"),
])
def test_malformed_specs_are_rejected(spec, says):
    with pytest.raises(AgentSpecError, match=says):
        parse_spec(spec)


@pytest.fixture(scope="module")
def durak():
    return games.load_game("durak")


def test_unknown_agent_lists_the_agents_that_exist(durak):
    with pytest.raises(AgentSpecError) as err:
        solvers.load_agent(durak, "alphazero")
    message = str(err.value)
    assert "alphazero" in message
    for name in ("random", "heuristic", "pimc", "ismcts"):
        assert name in message


def test_unknown_parameter_lists_the_agents_parameters(durak):
    with pytest.raises(AgentSpecError) as err:
        solvers.load_agent(durak, "ismcts(simulations=5)")
    assert "simulations" in str(err.value) and "sims" in str(err.value)


@pytest.mark.parametrize("spec, says", [
    ("ismcts(sims=fast)", "sims must be int"),
    ("ismcts(sims=0)", "set sims or ms"),
    ("ismcts(sims=-3)", "sims must be 0..1000000, not -3"),
    ("ismcts(sims=1000001)", "sims must be 0..1000000"),
    ("ismcts(ms=3600001,sims=0)", "ms must be 0..3600000"),
    ("ismcts(uct_c=-1)", "uct_c must be 0.0..100.0, not -1.0"),
    ("ismcts(uct_c=nan)", "uct_c must be float"),
    ("ismcts(uct_c=inf)", "uct_c must be float"),
    ("pimc(worlds=0)", "worlds must be 1..10000, not 0"),
    ("pimc(worlds=1000000)", "worlds must be 1..10000"),
    ("random(seed=1.5)", "seed must be int"),
])
def test_bad_parameter_values_are_rejected(durak, spec, says):
    with pytest.raises(AgentSpecError, match=says):
        solvers.load_agent(durak, spec)


def test_float_parameters_accept_ints(durak):
    agent = solvers.load_agent(durak, "ismcts(uct_c=1,sims=10)")
    assert agent.uct_c == 1.0 and isinstance(agent.uct_c, float)


def test_spec_seed_wins_over_the_default_seed(durak):
    assert solvers.load_agent(durak, "random(seed=4)", seed=9).seed == 4
    assert solvers.load_agent(durak, "random", seed=9).seed == 9


def test_agent_kinds_lists_parameters_with_defaults(durak):
    kinds = {k.name: k for k in solvers.agent_kinds(durak)}
    assert {"random", "heuristic", "pimc", "ismcts", "ismcts_openspiel"} <= set(kinds)
    sims = {p.name: p for p in kinds["ismcts"].params}["sims"]
    assert sims.type is int and sims.default > 0


def test_heuristic_exists_only_for_games_that_have_one():
    import pyspiel
    from open_spiel.python.games import kuhn_poker  # noqa: F401
    with pytest.raises(AgentSpecError, match="no version for python_kuhn_poker"):
        solvers.load_agent(pyspiel.load_game("python_kuhn_poker"), "heuristic")


# --- what each game's spec names --------------------------------------------------------

@pytest.mark.parametrize("spec", games.catalog(), ids=lambda spec: spec.name)
def test_every_game_names_its_opponent_and_strongest_agents_and_they_play_it(spec):
    from koloda.games.kit.registration import BUDGETS
    assert [budget for budget, _ in spec.strongest] == list(BUDGETS)
    game = games.load_game(spec.name)
    for agent_spec in (spec.opponent, *dict(spec.strongest).values()):
        agent = solvers.load_agent(game, agent_spec, seed=1)
        assert agent.spec == format_spec(*parse_spec(agent_spec))
    assert spec.strongest_at("full") == dict(spec.strongest)["full"]


def test_a_spec_naming_budgets_other_than_the_kits_is_refused():
    import dataclasses

    from koloda.games.kit.registration import register
    spec = dataclasses.replace(games.GAMES["durak"], strongest=(("fast", "ismcts"),))
    with pytest.raises(ValueError, match="strongest names the budgets"):
        register(spec)


# --- agents for a kind of game choose by its GameType ------------------------------------

def test_mcts_plays_any_game_of_perfect_information_whatever_its_name():
    import pyspiel
    tic_tac_toe, kuhn = pyspiel.load_game("tic_tac_toe"), pyspiel.load_game("kuhn_poker")
    assert tic_tac_toe.get_type().short_name not in games.GAMES
    assert {"mcts", "mcts_openspiel"} <= {k.name for k in solvers.agent_kinds(tic_tac_toe)}
    assert not {"mcts", "mcts_openspiel"} & {k.name for k in solvers.agent_kinds(kuhn)}
    state = tic_tac_toe.new_initial_state()
    agent = solvers.load_agent(tic_tac_toe, "mcts_openspiel(sims=20)", seed=1)
    assert agent.step(state) in state.legal_actions()
    with pytest.raises(AgentSpecError, match="no version for kuhn_poker .it plays parket"):
        solvers.load_agent(kuhn, "mcts")


def test_what_mcts_plays_is_read_from_the_games_types():
    kinds = {k.name: k for k in solvers.agent_kinds()}
    perfect = sorted(spec.name for spec in games.catalog()
                     if spec.game_type.information
                     == spec.game_type.information.PERFECT_INFORMATION)
    assert kinds["mcts"].games() == kinds["mcts_openspiel"].games() == perfect == ["parket"]
