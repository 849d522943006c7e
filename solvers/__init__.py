"""Agents for the koloda games, built from spec strings.

    from koloda import games, solvers
    game = games.load_game("durak")
    agent = solvers.load_agent(game, "ismcts(sims=1000,seed=7)")
    action = agent.step(state)          # state: any pyspiel state of that game

See docs/api.md for the public functions and their errors.  Other packages add agents
with `register` and `Param` through an entry point of the group `koloda.agents` (docs/api.md,
"Agents from other packages").
"""

from koloda.games.kit.params import Param
from koloda.solvers import (  # noqa: F401  (registers)
           cfr,
           heuristics,
           levels,  # noqa: F401  (registers level, over the kinds above)
           policy_agent,
           random_agent,
           search,
)
from koloda.solvers.agent import Agent
from koloda.solvers.errors import AgentError, AgentSpecError
from koloda.solvers.parket import agent as parket_agent  # noqa: F401  (the Parket solver agent)
from koloda.solvers.registry import agent_kinds, check_spec, load_agent, register
from koloda.solvers.spec import format_spec, parse_spec

__all__ = ["Agent", "AgentError", "AgentSpecError", "agent_kinds", "check_spec", "load_agent",
           "format_spec", "parse_spec", "Param", "register"]
