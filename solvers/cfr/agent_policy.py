"""The policy of any agent on a miniature, as a table OpenSpiel's exploitability reads.

Each information state is asked once, at the first history that reaches it, through the
agent's own `step` (so a search sees a state resampled from the information state, as in
play).  An agent that plays one move is counted as playing it with probability 1 (its
policy, for this seed, is the pure strategy of those moves); an agent that knows its own
mixed policy (`random`: uniform; `cfr`: its table) says so through
`action_distribution(view, player)`.  Forced moves are not asked.
"""

from __future__ import annotations

import time

from koloda.solvers.cfr.exploitability import exploitability
from koloda.solvers.cfr.tree import table_from


def action_distribution(agent, state, player) -> list[tuple[int, float]]:
    """What `agent` plays at `state`: its own distribution if it has one, else its move."""
    legal = state.legal_actions(player)
    if len(legal) == 1:
        return [(legal[0], 1.0)]
    own = getattr(agent, "action_distribution", None)
    if own is not None:
        return own(agent.view(state, player), player)
    agent.restart()
    return [(agent.step(state), 1.0)]


def agent_table(game, agent) -> dict:
    """{infostate: [(action, probability)]} of `agent` at every information state."""
    return table_from(game, lambda state, player: action_distribution(agent, state, player))


def agent_exploitability(game, agent) -> tuple[float, float]:
    """(exploitability of `agent`'s policy on `game`, seconds spent asking the agent)."""
    started = time.perf_counter()
    table = agent_table(game, agent)
    asked = time.perf_counter() - started
    return exploitability(game, table), asked
