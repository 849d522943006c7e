"""How the registry takes what plugins register, in this process, with entry points made up
here: each kind checked before it joins, koloda's own names kept, every failure one warning
line and an AgentSpecError that says why.  (test_plugins.py installs real packages.)"""

import math
import os
import signal
import time
from types import SimpleNamespace

import pytest

from koloda import games, solvers
from koloda.solvers import Agent, AgentSpecError, Param, register, registry
from koloda.solvers.random_agent import RandomAgent


class Point:
    """An entry point of `dist` whose load runs `load`, as importlib.metadata's do."""

    def __init__(self, name, load, dist="koloda-fake"):
        self.name, self.value, self._load = name, f"fake_{name.replace('-', '_')}", load
        self.dist = SimpleNamespace(name=dist)

    def load(self):
        return self._load()


class FirstLegal(Agent):
    def choose(self, view, player):
        return view.legal_actions(player)[0]


@pytest.fixture
def plugins(monkeypatch):
    """Install made-up entry points: `plugins(*points)`; the registry as it was comes back
    after the test.  Returns how often the entry points were read."""
    monkeypatch.setattr(registry, "_KINDS", dict(registry._KINDS))
    monkeypatch.setattr(registry, "_SKIPPED", {})
    monkeypatch.setattr(registry, "_plugins_loaded", False)
    reads = []

    def install(*points):
        def entry_points(group):
            assert group == "koloda.agents"
            reads.append(group)
            return points
        monkeypatch.setattr(registry, "metadata", SimpleNamespace(entry_points=entry_points))
        return reads
    return install


@pytest.fixture(scope="module")
def durak():
    return games.load_game("durak(ranks=4,suits=2,hand_size=3)")


class Deep(FirstLegal):
    def __init__(self, game, seed=0, depth=2):
        super().__init__(game, seed)
        self.depth = depth


def _registers(name, cls=FirstLegal, **options):
    return lambda: register(name, "a plugin's agent", **options)(type(cls.__name__, (cls,), {}))


def test_a_plugin_kind_is_listed_with_its_source_and_built_from_specs(plugins, durak, capsys):
    depth = Param("depth", int, 2, "how deep", low=1, high=9)
    reads = plugins(Point("first", _registers("first", Deep, params=(depth,)), "koloda-first"))
    kinds = {kind.name: kind for kind in solvers.agent_kinds(durak)}
    assert kinds["first"].source == "koloda-first"
    assert kinds["random"].source == "koloda"
    agent = solvers.load_agent(durak, "first(depth=3)", seed=2)
    assert agent.spec == "first(depth=3)" and agent.name == "first" and agent.depth == 3
    solvers.check_spec(durak, "first")
    with pytest.raises(AgentSpecError, match="depth must be 1..9"):
        solvers.check_spec(durak, "first(depth=10)")
    assert reads == ["koloda.agents"]                      # read once, when first asked
    assert capsys.readouterr().err == ""


def test_kolodas_own_name_stays_kolodas(plugins, durak, capsys):
    random_classes = dict(registry._KINDS["random"].classes)
    plugins(Point("random", _registers("random", game="durak"), "koloda-impostor"))
    assert type(solvers.load_agent(durak, "random")) is RandomAgent
    assert registry._KINDS["random"].classes == random_classes
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("koloda: warning: agent 'random' of "
                                                   "koloda-impostor")
    assert "koloda's own agent" in err


def test_two_plugins_claiming_one_name_cancel_and_a_spec_says_so(plugins, durak, capsys):
    plugins(Point("greedy", _registers("greedy"), "koloda-a"),
            Point("greedy", _registers("greedy"), "koloda-b"))
    with pytest.raises(AgentSpecError, match="koloda-a and koloda-b both register it"):
        solvers.load_agent(durak, "greedy")
    assert "greedy" not in {kind.name for kind in solvers.agent_kinds()}
    assert len(capsys.readouterr().err.splitlines()) == 1


@pytest.mark.parametrize("fails, says", [
    (ImportError("No module named 'torch'"), "ImportError: No module named 'torch'"),
    (SystemExit(3), "SystemExit: 3"),
    (RuntimeError("line one\n  line two"), "RuntimeError: line one line two"),
])
def test_a_plugin_that_fails_to_load_is_skipped_and_a_spec_says_why(plugins, durak, capsys,
                                                                     fails, says):
    def load():
        register("half", "registered before the failure")(FirstLegal)
        raise fails
    plugins(Point("half", load, "koloda-half"), Point("fine", _registers("fine")))
    with pytest.raises(AgentSpecError, match="not available.*koloda-half.*failed to load"):
        solvers.load_agent(durak, "half")
    assert solvers.load_agent(durak, "fine").name == "fine"     # the others still load
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("koloda: warning: agent plugin 'half' of koloda-half") and says in line


@pytest.mark.parametrize("load, says", [
    (lambda: register("odd", "x")(type("Plain", (), {})),
     "is not a subclass of koloda.solvers.Agent"),
    (lambda: register("odd", 7)(FirstLegal), "its summary is 7, not one line of text"),
    (lambda: register("odd", "two\nlines")(FirstLegal), "not one line of text"),
    (lambda: register("odd", "x" * 301)(FirstLegal), "not one line of text"),
    (lambda: register("odd", "x", params=(Param("n", list, [], "?"),))(FirstLegal),
     "parameter 'n' is of type"),
    (lambda: register("odd", "x", params=(Param("n", int, 0, "?", low=1),))(FirstLegal),
     "parameter 'n' has a default it refuses"),
    (lambda: register("odd", "x", params=(Param("n", float, 0.0, "?", high=math.inf),))(
        FirstLegal), "parameter 'n' has bounds that are not finite"),
    (lambda: register("odd", "x", params=(Param("n", str, "a", "?", choices=["a"]),))(
        FirstLegal), "parameter 'n' has choices that are not a tuple of str"),
    (lambda: register("odd", "x", params=(Param("9n", int, 0, "?"),))(FirstLegal),
     "has a name no spec can give"),
    (lambda: register("odd", "x", params=(Param("seed", int, 1, "mine"),))(FirstLegal),
     "names a parameter twice"),
    (lambda: register("odd", "x", params=("depth",))(FirstLegal), "not all koloda.solvers.Param"),
    (lambda: register("odd", "x", game=3)(FirstLegal), "registers for 3"),
])
def test_a_kind_that_is_not_well_formed_is_skipped(plugins, durak, capsys, load, says):
    plugins(Point("odd", load))
    with pytest.raises(AgentSpecError, match="not available"):
        solvers.check_spec(durak, "odd")
    (line,) = capsys.readouterr().err.splitlines()
    assert says in line and "agent 'odd' of koloda-fake" in line


def test_a_name_no_spec_can_give_is_skipped(plugins, capsys):
    plugins(Point("two words", _registers("two words")))
    assert "two words" not in {kind.name for kind in solvers.agent_kinds()}
    assert "is not a name a spec can give" in capsys.readouterr().err


def test_an_entry_point_that_registers_nothing_is_reported(plugins, durak, capsys):
    plugins(Point("ghost", lambda: None, "koloda-ghost"))
    with pytest.raises(AgentSpecError, match="registers no agent 'ghost'"):
        solvers.load_agent(durak, "ghost")
    assert "registers no agent" in capsys.readouterr().err


def test_entry_points_naming_one_module_warn_for_nothing(plugins, capsys):
    """Two kinds in one module, one entry point each: the module's first load registers
    both, the second registers nothing new and is no fault."""
    def load():
        if "pair_b" not in registry._KINDS:
            register("pair_a", "a")(FirstLegal)
            register("pair_b", "b")(type("B", (FirstLegal,), {}))
    plugins(Point("pair_a", load, "koloda-pair"), Point("pair_b", load, "koloda-pair"))
    sources = {kind.name: kind.source for kind in solvers.agent_kinds()}
    assert sources["pair_a"] == sources["pair_b"] == "koloda-pair"
    assert capsys.readouterr().err == ""


def test_entry_points_that_cannot_be_read_leave_kolodas_agents(plugins, monkeypatch, durak,
                                                                capsys):
    def unreadable(group):
        raise ValueError("bad metadata")
    plugins()
    monkeypatch.setattr(registry, "metadata", SimpleNamespace(entry_points=unreadable))
    assert solvers.load_agent(durak, "random").name == "random"
    assert "reading the 'koloda.agents' entry points failed: ValueError: bad metadata" in \
        capsys.readouterr().err


def test_external_is_kolodas_though_it_is_built_outside_the_registry(plugins, durak, capsys):
    from koloda.solvers.external import KIND
    assert KIND in registry.RESERVED
    plugins(Point("external", _registers("external"), "koloda-sly"))
    assert "external" not in {kind.name for kind in solvers.agent_kinds()}
    assert "a name koloda keeps for its own agent" in capsys.readouterr().err
    with pytest.raises(AgentSpecError, match="koloda-sly.*keeps"):
        solvers.check_spec(durak, "external")


def test_ctrl_c_while_plugins_load_stops_and_their_own_interrupt_skips_them(plugins):
    """A plugin's own KeyboardInterrupt skips it; a person's Ctrl-C (SIGINT) still stops."""
    def own():
        raise KeyboardInterrupt

    def pressed():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(10)                 # the signal's KeyboardInterrupt ends this at once

    plugins(Point("own", own), Point("pressed", pressed))
    with pytest.raises(KeyboardInterrupt):
        registry.load_plugins()
    assert registry._SKIPPED["own"].endswith("failed to load: KeyboardInterrupt")
    assert "pressed" not in registry._SKIPPED
