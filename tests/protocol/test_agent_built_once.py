"""A `move` or `hint` builds its agent once, where it thinks: the spec is checked where the
request arrives without building one, and `solvers.check_spec` refuses what
`solvers.load_agent` refuses, in the same words."""

import os
import shutil

import pytest

from koloda import games, solvers
from koloda.protocol.handler import Protocol
from koloda.solvers import Agent, AgentSpecError

from .helpers import Server

POLICY = os.path.join(os.path.dirname(__file__), "..", "..", "reports", "cfr",
                      "durak-open-cfr.json.gz")
DURAK_OPEN = "durak(hand_size=2,ranks=5,suits=1)"


@pytest.fixture
def built(monkeypatch):
    """The agents built from here on, by class name; the copies a process's preparation
    rehearses once per agent (solvers/prepare.py) are not built here."""
    monkeypatch.setattr("koloda.protocol.thinking.prepare", lambda game, spec: 0.0)
    names = []
    original = Agent.__init__

    def counting(self, game, seed=0):
        names.append(type(self).__name__)
        original(self, game, seed)

    monkeypatch.setattr(Agent, "__init__", counting)
    return names


@pytest.mark.parametrize("game, agent", [
    ("durak", "random"), ("durak", "heuristic"), ("durak", "ismcts(sims=5)"),
    ("durak", "pimc(sims=4,worlds=2)"), ("durak", "ismcts_openspiel(sims=3)"),
    (DURAK_OPEN, "cfr(policy=open.json.gz)"), ("platinum_fish", "ismcts(sims=5)"),
])
def test_a_move_and_a_hint_each_build_their_agent_once(game, agent, built, tmp_path):
    shutil.copy(POLICY, tmp_path / "open.json.gz")
    server = Server()
    server.protocol = Protocol(policies=tmp_path)
    session = server.ok(type="new", game=game, seats=[0], seed=2)["session"]
    asked = {"hint": 0, "move": 0}
    while sum(asked.values()) < 4 or 0 in asked.values():
        view = server.ok(type="state", session=session)["view"]
        if view["status"] == "over":
            break
        kind = "hint" if view["to_move"] == 0 else "move"
        before = len(built)
        server.ok(type=kind, session=session, agent=agent,
                  **({"apply": True} if kind == "hint" else {}))
        assert len(built) == before + 1, (kind, built[before:])
        asked[kind] += 1
    assert asked["hint"] and asked["move"], asked


@pytest.mark.parametrize("game, spec", [
    ("durak", ""), ("durak", "alphazero"), ("durak", "ismcts(sims=0)"),
    ("durak", "ismcts(ms=0,sims=0)"), ("durak", "ismcts(simulations=5)"),
    ("durak", "ismcts(sims=fast)"), ("durak", "ismcts(uct_c=-1)"), ("durak", "pimc(sims=0)"),
    ("durak", "pimc(worlds=0)"), ("durak", "random(seed=1.5)"), ("durak", "solver"),
    ("durak", "ismcts_openspiel(sims=0)"), ("durak", "cfr"), ("durak", "cfr(policy=nope.gz)"),
    ("durak", f"cfr(policy={POLICY!r})".replace("'", '"')), ("parket", "mcts(sims=0)"),
    ("parket", "solver(reach=36)"), ("durak", "ismcts(horizon=x)"),
])
def test_check_spec_refuses_what_load_agent_refuses_in_its_words(game, spec, built):
    game = games.load_game(game)
    with pytest.raises(AgentSpecError) as loading:
        solvers.load_agent(game, spec)
    del built[:]
    with pytest.raises(AgentSpecError) as checking:
        solvers.check_spec(game, spec)
    assert str(checking.value) == str(loading.value)
    assert built == []


@pytest.mark.parametrize("game, spec", [
    ("durak", "random"), ("durak", "ismcts(ms=5,sims=0)"), ("durak", "pimc(sims=3)"),
    (DURAK_OPEN, f"cfr(policy={POLICY!r})".replace("'", '"')), ("parket", "solver"),
])
def test_check_spec_passes_what_load_agent_builds_without_building(game, spec, built):
    game = games.load_game(game)
    solvers.check_spec(game, spec)
    assert built == []
    solvers.load_agent(game, spec)
    assert built
