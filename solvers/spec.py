"""Agent spec strings: `name` or `name(key=value,...)`, for example `ismcts(sims=2000,seed=7)`.

The grammar is the one of game strings (games/kit/params.py): values are ints, floats,
booleans (`true`/`false`) or strings, and a value may be quoted to keep commas or
parentheses in it (`cfr(policy="reports/a,b.json")`).
"""

from __future__ import annotations

from koloda.games.kit.params import format_call, parse_call
from koloda.solvers.errors import AgentSpecError


def parse_spec(spec: str) -> tuple[str, dict]:
    """Split a spec into its agent name and a dict of typed parameters."""
    return parse_call(spec, "agent spec", AgentSpecError)


def format_spec(name: str, params: dict) -> str:
    """The canonical spec string of a name and parameters (sorted keys)."""
    return format_call(name, params)
