"""One registry turns a spec string and a game into an agent.

`load_agent(game, "ismcts(sims=2000,seed=7)")` builds any agent, `check_spec` refuses a
spec as load_agent would without building it; `agent_kinds()` lists what exists with its
parameters.  Game-specific agents (the heuristics) register one class per game under one
name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pyspiel

from koloda.games.kit.params import Param, shown, validate
from koloda.games.kit.registration import SPECS
from koloda.solvers.errors import AgentSpecError
from koloda.solvers.spec import format_spec, parse_spec


@dataclass
class AgentKind:
    name: str
    summary: str
    params: tuple[Param, ...]
    # game short name, kind of information (pyspiel.GameType.Information) or "*" -> class
    classes: dict = field(default_factory=dict)

    def for_game(self, game_type: pyspiel.GameType):
        """The class for games of `game_type`: the game's own, else its kind of
        information's (so search needing nothing hidden names no game), else any game's."""
        return (self.classes.get(game_type.short_name)
                or self.classes.get(game_type.information) or self.classes.get("*"))

    def games(self) -> list[str]:
        """Short names of the games it plays ("*" for any); a class for a kind of
        information stands for the koloda games of that kind."""
        names = {key for key in self.classes if isinstance(key, str)}
        names.update(spec.name for spec in SPECS.values()
                     if spec.game_type.information in self.classes)
        return sorted(names)


_KINDS: dict[str, AgentKind] = {}

# 31 bits: what derived seeds use, and within numpy's RandomState (below 2**32).
SEED = Param("seed", int, 0, "random seed; the same seed replays the same choices", low=0,
             high=2**31 - 1)


def register(name: str, summary: str, params=(), game="*"):
    """Class decorator: make `name` buildable from specs for one game (its short name),
    for the games of one kind of information (a `pyspiel.GameType.Information`), or for
    all with '*'."""
    def wrap(cls):
        kind = _KINDS.get(name)
        if kind is None:
            kind = _KINDS[name] = AgentKind(name, summary, (SEED,) + tuple(params))
        kind.classes[game] = cls
        cls.name = name
        return cls
    return wrap


def agent_kinds(game=None) -> list[AgentKind]:
    """Registered agents, all or those that can play `game`."""
    kinds = sorted(_KINDS.values(), key=lambda k: k.name)
    if game is None:
        return kinds
    return [k for k in kinds if k.for_game(game.get_type())]


def load_agent(game, spec: str, seed: int | None = None):
    """Build the agent `spec` describes for `game`.

    `seed`, when given, is used unless the spec sets its own.  Raises AgentSpecError,
    naming the problem and listing what exists, for an unknown agent or parameter.
    """
    name, raw, kind, cls, params = _resolved(game, spec)
    if seed is not None and "seed" not in raw:
        params["seed"] = SEED.check(seed, f"agent {name}", AgentSpecError)
    try:
        agent = cls(game, **params)
    except (ValueError, TypeError) as err:
        raise AgentSpecError(f"agent spec {shown(spec)}: {err}") from None
    agent.spec = format_spec(name, {k: v for k, v in raw.items()})
    return agent


def check_spec(game, spec: str) -> None:
    """AgentSpecError, worded as `load_agent` words it, for a spec `load_agent` would
    refuse for `game`, without building the agent: a server checks a client's spec where
    the request arrives and builds the agent once, where it thinks.

    Beyond the parameters one by one, a kind's class may check them against the game
    with a classmethod `check(game, params)` (cfr reads its policy file's game there),
    and a search budget of nothing (`sims=0` without `ms`) is refused as the search's
    `Budget` refuses it."""
    name, raw, kind, cls, params = _resolved(game, spec)
    try:
        if _has_budget(kind):
            from koloda.solvers.search.budget import Budget
            Budget(params["sims"], params["ms"])
        check = getattr(cls, "check", None)
        if check is not None:
            check(game, params)
    except (ValueError, TypeError) as err:
        raise AgentSpecError(f"agent spec {shown(spec)}: {err}") from None


def _resolved(game, spec: str):
    """(name, parameters as given, kind, class for the game, every parameter's value) of
    a spec, or AgentSpecError naming what is wrong and what exists."""
    if not isinstance(game, pyspiel.Game):
        raise AgentSpecError(f"load_agent needs a game (from koloda.games.load_game), "
                             f"not {shown(game)}")
    name, raw = parse_spec(spec)
    short = game.get_type().short_name
    kind = _KINDS.get(name)
    if kind is None:
        names = ", ".join(k.name for k in agent_kinds(game))
        raise AgentSpecError(f"unknown agent {shown(name, 40)} in {shown(spec)}; agents for "
                             f"{short}: {names}")
    cls = kind.for_game(game.get_type())
    if cls is None:
        raise AgentSpecError(
            f"agent {name!r} has no version for {short} (it plays {', '.join(kind.games())})")
    params = validate(kind.params, raw, f"agent {name}", AgentSpecError)
    return name, raw, kind, cls, params


def _has_budget(kind: AgentKind) -> bool:
    """Whether the kind's moves run on a search budget (solvers.search.budget.PARAMS)."""
    from koloda.solvers.search.budget import PARAMS
    return all(any(p is q for q in kind.params) for p in PARAMS)
