"""An agent's move as a job that can run in another process: the game string and the
action history stand for the state (replayed there), so nothing but plain data crosses.

`think` is what a worker runs; `move_spec` turns an agent spec and a budget into the spec
the agent is built from, within the server's limits.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from koloda import games, solvers
from koloda.protocol_errors import ProtocolError
from koloda.solvers import AgentSpecError


@dataclass(frozen=True)
class MoveJob:
    game: str                 # the game string
    history: tuple[int, ...]  # every action id so far, chance outcomes included
    spec: str                 # the agent spec, budget included
    seed: int                 # used when the spec sets no seed


@dataclass(frozen=True)
class MoveResult:
    action: int
    policy: dict              # action id -> probability
    policy_kind: str          # "visits": root visit shares; "chosen": one-hot on the move
    thinking_ms: float        # from asking the agent to its answer
    simulations: int | None   # for search agents that count them


_GAMES: dict[str, object] = {}


def _game(game_string: str):
    game = _GAMES.get(game_string)
    if game is None:
        game = _GAMES[game_string] = games.load_game(game_string)
    return game


def think(job: MoveJob) -> MoveResult:
    """Replay the history and ask the agent for the player to move."""
    game = _game(job.game)
    state = game.new_initial_state()
    for action in job.history:
        state.apply_action(action)
    agent = solvers.load_agent(game, job.spec, seed=job.seed)
    started = time.perf_counter()
    action = agent.step(state)
    thinking_ms = (time.perf_counter() - started) * 1000.0
    visits = agent.last_visits
    if visits and sum(visits.values()) > 0:
        total = sum(visits.values())
        policy = {a: v / total for a, v in sorted(visits.items())}
        kind = "visits"
    else:
        policy, kind = {action: 1.0}, "chosen"
    return MoveResult(action, policy, kind, thinking_ms,
                      getattr(agent, "last_simulations", None) if kind == "visits" else None)


def warm_up() -> None:
    """Run once per worker process at start, so the first move pays no imports."""
    _game("durak")


def move_spec(game, agent: str, sims: int | None, ms: int | None, max_sims: int,
              max_ms: int) -> str:
    """The spec to build: `agent` with the budget put in (`ms` alone means time only),
    refused (`bad_agent`, `limit`) when it names no agent or asks beyond the limits."""
    try:
        name, params = solvers.parse_spec(agent)
        kinds = {kind.name: kind for kind in solvers.agent_kinds(game)}
        kind = kinds.get(name)
        if kind is None:                         # load_agent words the error
            solvers.load_agent(game, agent)
        names = {p.name: p for p in kind.params}
        for key, value in (("sims", sims), ("ms", ms)):
            if value is not None and key in names:
                params[key] = value
        if ms is not None and sims is None and "sims" in names and "sims" not in params:
            params["sims"] = 0
        spec = solvers.format_spec(name, params)
        solvers.load_agent(game, spec)            # checks every parameter
    except AgentSpecError as err:
        raise ProtocolError("bad_agent", str(err)) from None
    effective = {key: params.get(key, names[key].default) for key in ("sims", "ms")
                 if key in names}
    if effective.get("ms", 0) > max_ms:
        raise ProtocolError("limit", f"ms={effective['ms']} is beyond this server's "
                            f"{max_ms} ms per move")
    if effective.get("sims", 0) > max_sims:
        raise ProtocolError("limit", f"sims={effective['sims']} is beyond this server's "
                            f"{max_sims} simulations per move")
    if effective.get("sims") == 0 and not effective.get("ms") and "ms" in names:
        raise ProtocolError("bad_agent", f"{spec}: set sims or ms")
    return spec
