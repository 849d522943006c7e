"""Policy files round-trip, belong to one game string, and the `cfr` agent plays them."""

import gzip
import random

import pytest
from named_pipes import pipe, without_waiting_on

from koloda import games, solvers
from koloda.solvers.cfr import policy_file
from koloda.solvers.cfr.training import train
from koloda.solvers.errors import AgentSpecError

TINY = "durak(hand_size=1,ranks=2,suits=2)"


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    game = games.load_game(TINY)
    path = tmp_path_factory.mktemp("policies") / "tiny.json.gz"
    data = train(game, "cfr+", iterations=20, measurements=2, out=path)
    return game, path, data


def test_a_policy_file_round_trips(trained):
    game, path, data = trained
    back = policy_file.load(path, game)
    assert back.game == "durak(hand_size=1,ranks=2,suits=2)" and back.algo == "cfr+"
    assert back.iterations == 20 and back.curve == [tuple(p) for p in data.curve]
    choices = {key: probs for key, probs in data.policy.items() if len(probs) > 1}
    assert back.policy.keys() == choices.keys() and len(choices) < len(data.policy)
    for key, probs in choices.items():
        assert [a for a, _ in back.policy[key]] == [a for a, _ in probs]
        assert [p for _, p in back.policy[key]] == pytest.approx([p for _, p in probs],
                                                                abs=1e-6)


def test_a_policy_of_another_game_string_is_refused(trained):
    _, path, _ = trained
    other = games.load_game("durak(hand_size=1,ranks=3,suits=2)")
    with pytest.raises(AgentSpecError, match=r"durak\(hand_size=1,ranks=2,suits=2\), not "
                                             r"for durak\(hand_size=1,ranks=3,suits=2\)"):
        solvers.load_agent(other, f"cfr(policy={path})")


def test_the_same_game_spelled_otherwise_is_accepted(trained):
    _, path, _ = trained
    same = games.load_game("durak(suits=2,players=2,ranks=2,hand_size=1)")
    assert solvers.load_agent(same, f"cfr(policy={path})").table


@pytest.mark.parametrize("content, message", [
    (b"not gzip", "not a koloda policy file"),
    (gzip.compress(b'{"format": "other"}', mtime=0), "not a koloda policy file"),
])
def test_a_file_that_is_no_policy_is_refused(tmp_path, content, message):
    path = tmp_path / "bad.json.gz"
    path.write_bytes(content)
    with pytest.raises(AgentSpecError, match=message):
        solvers.load_agent(games.load_game(TINY), f"cfr(policy={path})")
    with pytest.raises(AgentSpecError, match="no policy file"):
        solvers.load_agent(games.load_game(TINY), f"cfr(policy={tmp_path}/none.json.gz)")
    with pytest.raises(AgentSpecError, match="needs a policy file"):
        solvers.load_agent(games.load_game(TINY), "cfr")


def _play(game, agent, opponent, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        mover = agent if state.current_player() == 0 else opponent
        action = mover.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_the_agent_plays_legal_moves_from_its_policy(trained):
    game, path, _ = trained
    agent = solvers.load_agent(game, f"cfr(policy={path})", seed=1)
    for seed in range(30):
        _play(game, agent, solvers.load_agent(game, "random", seed=seed), seed)
    assert agent.decisions > 0 and agent.fallbacks == 0


def test_information_states_the_policy_lacks_are_played_uniformly_and_counted(trained,
                                                                              tmp_path):
    game, _, data = trained
    kept = dict(list(data.policy.items())[::3])                 # two states in three lost
    partial = policy_file.save(tmp_path / "partial.json.gz",
                               policy_file.PolicyFile(game=data.game, policy=kept))
    agent = solvers.load_agent(game, f"cfr(policy={partial})", seed=1)
    for seed in range(30):
        _play(game, agent, solvers.load_agent(game, "random", seed=seed), seed)
    assert 0 < agent.fallbacks < agent.decisions
    lost = next(key for key in data.policy if key not in kept and len(data.policy[key]) > 1)
    legal = [a for a, _ in data.policy[lost]]
    view = next(s for s in _states(game) if s.information_state_string() == lost)
    assert agent.action_distribution(view, view.current_player()) == \
        [(a, 1 / len(legal)) for a in legal]


def _states(game):
    from koloda.solvers.cfr.tree import walk
    return (s for s in walk(game) if not (s.is_terminal() or s.is_chance_node()))


def test_the_agent_plays_in_a_tournament_like_any_other(trained, tmp_path):
    from koloda.tournament.config import config_from_dict
    from koloda.tournament.runner import run_tournament

    _, path, _ = trained
    config = config_from_dict({
        "name": "cfr-tiny", "games": [TINY], "seed": 3, "games_per_pairing": 6, "jobs": 1,
        "output": str(tmp_path), "agents": {"random": "random", "cfr": f"cfr(policy={path})"}})
    run = run_tournament(config, progress=False)
    assert len(run.results) == 6
    assert all(result.error is None for result in run.results.values())


def test_a_policy_names_a_parket_game_by_a_string_that_reads_back():
    state = games.load_game("parket").new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    game = games.load_game(f'parket(position="{state.core.position()}")')
    named = policy_file.game_string_of(game)
    assert games.normalize_game_string(named) == named
    assert games.load_game(named).new_initial_state().core.position() == state.core.position()


def _refusal(path) -> str:
    with pytest.raises(AgentSpecError) as refused:
        solvers.load_agent(games.load_game(TINY), f"cfr(policy={path})")
    return str(refused.value)


def test_a_pipe_a_padded_file_or_a_file_without_fields_is_one_line(trained, tmp_path,
                                                                    monkeypatch):
    fifo = pipe(tmp_path / "pipe.json.gz")
    said = [without_waiting_on(fifo, lambda: _refusal(fifo), "the policy file's reader")]
    assert len(said) == 1 and said[0].endswith(f"cfr(policy={fifo}): policy file {fifo} is "
                                               f"not a regular file (a device, a pipe or a "
                                               f"socket)")
    _, path, _ = trained
    padded = tmp_path / "padded.json.gz"                 # a real policy, then spaces
    padded.write_bytes(gzip.compress(gzip.decompress(path.read_bytes()) + b" " * 5000))
    monkeypatch.setattr(policy_file, "MAX_JSON_BYTES", 4000)
    assert _refusal(padded).endswith(f"{padded} is not a koloda policy file (its JSON is "
                                     f"larger than 4000 bytes)")
    fieldless = tmp_path / "fieldless.json.gz"
    fieldless.write_bytes(gzip.compress(b'{"format": "koloda-policy", "version": 1}'))
    assert _refusal(fieldless).endswith(f"{fieldless} is not a koloda policy file (no "
                                        f"'game')")
