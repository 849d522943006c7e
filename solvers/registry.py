"""One registry turns a spec string and a game into an agent.

`load_agent(game, "ismcts(sims=2000,seed=7)")` builds any agent, `check_spec` refuses a
spec as load_agent would without building it; `agent_kinds()` lists what exists with its
parameters.  Game-specific agents (the heuristics) register one class per game under one
name.

Other installed packages add kinds through entry points of the group `koloda.agents`
(docs/api.md, "Agents from other packages"): each names a module whose import registers
kinds with `register`, as koloda's own modules do.  They are loaded once per process, when
the registry is first asked.  Nothing a plugin does is trusted: one that fails to load, or
registers a name that is taken or a kind that is not well formed, is skipped with one line
on stderr, and a spec naming what it would have added says why it is not there.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import sys
import threading
from dataclasses import dataclass, field
from importlib import metadata

import pyspiel

from koloda.games.kit.params import Param, cut, shown, validate
from koloda.games.kit.registration import SPECS
from koloda.solvers.agent import Agent
from koloda.solvers.budget import PARAMS, Budget
from koloda.solvers.errors import AgentSpecError
from koloda.solvers.interrupts import signals_noted, stops_the_program
from koloda.solvers.spec import format_spec, parse_spec


@dataclass
class AgentKind:
    name: str
    summary: str
    params: tuple[Param, ...]
    # game short name, kind of information (pyspiel.GameType.Information) or "*" -> class
    classes: dict = field(default_factory=dict)
    #: where the kind comes from: "koloda", or the distribution of the plugin that added it
    source: str = "koloda"

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

#: the entry-point group through which other packages add agent kinds
PLUGIN_GROUP = "koloda.agents"
#: kind name -> why a plugin's kind of that name is not in the registry
_SKIPPED: dict[str, str] = {}
#: while a plugin loads, the kinds it registers, checked before they join `_KINDS`
_staged: dict[str, AgentKind] | None = None
_plugins_loaded = False
_plugins_loading = False
_plugins_lock = threading.RLock()
#: names of koloda's kinds built outside the registry, which no plugin may take:
#: `external` (solvers/external, the programs a tournament runs; never the server's)
RESERVED = frozenset({"external"})
#: characters of a plugin's summary or parameter help (koloda's own are under 200)
MAX_LINE = 300

# 31 bits: what derived seeds use, and within numpy's RandomState (below 2**32).
SEED = Param("seed", int, 0, "random seed; the same seed replays the same choices", low=0,
             high=2**31 - 1)


def register(name: str, summary: str, params=(), game="*"):
    """Class decorator: make `name` buildable from specs for one game (its short name),
    for the games of one kind of information (a `pyspiel.GameType.Information`), or for
    all with '*'.  Called by a plugin's module while `load_plugins` imports it, it stages
    the kind, which joins the registry once it is checked."""
    def wrap(cls):
        kinds = _KINDS if _staged is None else _staged
        kind = kinds.get(name)
        if kind is None:
            kind = kinds[name] = AgentKind(name, summary, (SEED,) + tuple(params))
        kind.classes[game] = cls
        cls.name = name
        return cls
    return wrap


def agent_kinds(game=None) -> list[AgentKind]:
    """Registered agents, all or those that can play `game`; koloda's own and those
    installed packages add (`AgentKind.source` names where each comes from)."""
    load_plugins()
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
    load_plugins()
    kind = _KINDS.get(name)
    if kind is None and name in _SKIPPED:
        raise AgentSpecError(f"agent {name!r} in {shown(spec)} is not available: "
                             f"{_SKIPPED[name]}")
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
    """Whether the kind's moves run on a search budget (solvers.budget.PARAMS)."""
    return all(any(p is q for q in kind.params) for p in PARAMS)


# --- agents from other packages -------------------------------------------------------

def load_plugins() -> None:
    """Load, once, the agent kinds of every entry point of `PLUGIN_GROUP`, sorted by
    distribution and name so that every process reads them alike; `agent_kinds`,
    `load_agent` and `check_spec` call it first.  Another thread asking meanwhile waits;
    a plugin asking the registry while it loads finds what is loaded so far."""
    global _plugins_loaded, _plugins_loading
    if _plugins_loaded:
        return
    with _plugins_lock:
        if _plugins_loaded or _plugins_loading:
            return
        _plugins_loading = True
        try:
            try:
                points = metadata.entry_points(group=PLUGIN_GROUP)
            except Exception as err:        # a distribution's metadata that does not read
                _warn(f"agent plugins not loaded: reading the {PLUGIN_GROUP!r} entry points "
                      f"failed: {_reason(err)}")
                return
            with signals_noted():        # a plugin's own KeyboardInterrupt skips it only
                for point in sorted(points, key=lambda p: (_distribution(p), p.name,
                                                           p.value)):
                    _load_plugin(point)
        finally:
            _plugins_loaded, _plugins_loading = True, False


def skipped_kinds() -> dict[str, str]:
    """Kind name -> why the plugin kind of that name was skipped."""
    load_plugins()
    return dict(_SKIPPED)


def _load_plugin(point) -> None:
    """Register the kinds one entry point's module registers, each once it is checked."""
    global _staged
    source = _distribution(point)
    where = f"agent plugin {point.name!r} of {source} ({cut(point.value, 80)})"
    _staged = {}
    try:
        with _stdout_to_stderr():
            point.load()
    except BaseException as err:                 # nothing outside is trusted: pytest's
        if stops_the_program(err):               # Skipped is a BaseException, and so is
            raise                                # SystemExit; a person's Ctrl-C stops
        failed = f"{where} failed to load: {_reason(err)}"
        for name in {point.name, *_staged}:
            if name not in _KINDS:
                _SKIPPED.setdefault(name, failed)
        _warn(f"{failed}; skipped")
        return
    finally:
        staged, _staged = _staged, None
    for name, kind in staged.items():
        try:
            problem = _clash(name, source) or _malformed(kind)
        except Exception as err:                 # a kind too odd to look at
            problem = f"it cannot be checked ({_reason(err)})"
        if problem:
            what = f"agent {name!r} of {source} ({cut(point.value, 80)})"
            _SKIPPED.setdefault(name, f"{what} was skipped: {problem}")
            _warn(f"{what} skipped: {problem}")
            continue
        kind.source = source
        _KINDS[name] = kind
    # Several entry points may name one module: only its first import registers.
    found = _KINDS.get(point.name)
    if not staged and point.name not in _SKIPPED and getattr(found, "source", None) != source:
        _SKIPPED[point.name] = f"{where} registers no agent {point.name!r}"
        _warn(f"{where} registers no agent (koloda.solvers.register); skipped")


@contextlib.contextmanager
def _stdout_to_stderr():
    """What a plugin prints while it loads goes to stderr, never to stdout, where `koloda
    serve` and `koloda agent` speak their protocols: `print` (sys.stdout) and writes to
    file descriptor 1 alike."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:                              # no descriptor 1: only sys.stdout to mind
        saved = None
    if saved is not None:
        os.dup2(2, 1)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        if saved is not None:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)


def _clash(name: str, source: str) -> str | None:
    """Why a plugin of `source` cannot have `name`, None if the name is free.  Koloda's
    own kinds keep their names; two plugins' claims to one name cancel, so that a spec
    never means what the order of loading happens to make it mean."""
    if name in RESERVED:
        return "a name koloda keeps for its own agent"
    held = _KINDS.get(name)
    if held is None:
        return f"the name of an agent already skipped ({_SKIPPED[name]})" \
            if name in _SKIPPED else None
    if held.source == "koloda":
        return "the name of koloda's own agent, which is kept"
    del _KINDS[name]
    _SKIPPED[name] = (f"{source} registers it twice" if held.source == source else
                      f"{held.source} and {source} both register it") + ", so neither is loaded"
    return f"{held.source} registers it too, so neither is loaded"


def _malformed(kind: AgentKind) -> str | None:
    """What is wrong with a plugin's kind, None if it is one the registry can build and
    `koloda agents` and `hello` can list (bounded text, parameters JSON can carry)."""
    if not _spec_name(kind.name):
        return f"{shown(kind.name, 40)} is not a name a spec can give"
    if not _line(kind.summary):
        return f"its summary is {shown(kind.summary, 40)}, not one line of text"
    if not all(isinstance(p, Param) for p in kind.params):
        return "its parameters are not all koloda.solvers.Param"
    names = [p.name for p in kind.params]
    if len(set(names)) != len(names):
        return f"it names a parameter twice ({', '.join(map(str, names))}; seed is every agent's)"
    for param in kind.params[1:]:                # the first is koloda's SEED
        problem = _bad_param(param)
        if problem:
            return f"its parameter {shown(param.name, 40)} {problem}"
    for game, cls in kind.classes.items():
        if not (isinstance(game, (str, pyspiel.GameType.Information))):
            return f"it registers for {shown(game, 40)}, not a game's name or '*'"
        if not (isinstance(cls, type) and issubclass(cls, Agent)):
            return f"{shown(cls, 60)} is not a subclass of koloda.solvers.Agent"
    return None


def _bad_param(param: Param) -> str | None:
    """What is wrong with a plugin's parameter, None if a spec can set it."""
    if not _spec_name(param.name):
        return "has a name no spec can give"
    if param.type not in (int, float, bool, str):
        return f"is of type {shown(param.type, 40)}, not int, float, bool or str"
    if not _line(param.help):
        return "has a help that is not one line of text"
    bounds = [b for b in (param.low, param.high) if b is not None]
    if not all(type(b) in (int, float) and math.isfinite(b) for b in bounds):
        return "has bounds that are not finite numbers"
    if param.choices is not None and not (
            isinstance(param.choices, tuple)
            and all(type(c) is param.type for c in param.choices)):
        return f"has choices that are not a tuple of {param.type.__name__}"
    try:
        param.check(param.default, "its default", ValueError)
    except ValueError as err:
        return f"has a default it refuses ({err})"
    return None


def _spec_name(name) -> bool:
    """Whether `name` is one a spec can give (a kind's or a parameter's)."""
    try:
        return parse_spec(name) == (name, {})
    except AgentSpecError:
        return False


def _line(text) -> bool:
    return isinstance(text, str) and 0 < len(text) <= MAX_LINE and text.isprintable()


def _distribution(point) -> str:
    """The name of the distribution that declares an entry point."""
    dist = getattr(point, "dist", None)
    name = getattr(dist, "name", None) if dist is not None else None
    return name if isinstance(name, str) and name else "an unnamed distribution"


def _reason(err: BaseException) -> str:
    """An exception as one short line."""
    text = " ".join(str(err).split())
    return cut(f"{type(err).__name__}: {text}" if text else type(err).__name__, 300)


def _warn(message: str) -> None:
    """One line on stderr: plugins are loaded where no caller can be told otherwise.  A
    worker process (multiprocessing's, loky's, Dask's) stays quiet: the process that
    started it loaded the same plugins and has said so once."""
    if multiprocessing.parent_process() is not None:
        return
    print(f"koloda: warning: {message}", file=sys.stderr, flush=True)
