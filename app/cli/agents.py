"""`koloda agents`: every agent kind a spec can name (koloda's own and those installed
packages add through the `koloda.agents` entry point), as a table or as JSON."""

import json

from tabulate import tabulate

from koloda import games, solvers
from koloda.games.kit.params import format_value
from koloda.protocol.handler import agent_entry
from koloda.solvers.registry import skipped_kinds

#: the table's columns wrap at these widths (agent, plays, parameters, from, summary)
_WIDTHS = [None, 24, 34, 24, 44]


def agent_entries() -> list[dict]:
    """Each kind as data: its name, the koloda games it plays, its parameters (as the
    protocol's `hello` lists them), its summary and where it comes from."""
    return [{**agent_entry(kind), "source": kind.source} for kind in solvers.agent_kinds()]


def format_agents(entries: list[dict], skipped: dict[str, str]) -> str:
    """The table ("all": every koloda game), then a line on `seed` (every agent's) and one
    per skipped plugin kind."""
    every = sorted(spec.name for spec in games.catalog())
    rows = [[e["name"], "all" if sorted(e["games"]) == every else ", ".join(e["games"]) or "-",
             ", ".join(f"{p['name']}={format_value(p['default'])}" for p in e["params"]
                       if p["name"] != "seed") or "-",
             e["source"], e["summary"]] for e in entries]
    table = tabulate(rows, headers=["agent", "plays", "parameters", "from", "summary"],
                     disable_numparse=True, maxcolwidths=_WIDTHS)
    lines = [table, "", "Every agent also takes seed=0 (its random choices); a spec sets "
             "parameters as name(key=value,...)."]
    lines += [f"skipped: {name}: {why}" for name, why in sorted(skipped.items())]
    return "\n".join(lines)


def run(as_json: bool) -> str:
    """What `koloda agents [--json]` prints."""
    entries = agent_entries()
    skipped = skipped_kinds()
    if as_json:
        return json.dumps({"agents": entries,
                           "skipped": [{"name": name, "reason": why}
                                       for name, why in sorted(skipped.items())]}, indent=2)
    return format_agents(entries, skipped)
