"""The text of `koloda games`: each game's names, summary and agents (the default
opponent, the strongest per budget), then its parameters."""

from tabulate import tabulate


def format_catalog(entries) -> str:
    """One block per game (`games.GameSpec`): a heading line, the summary, its agents, a
    parameter table."""
    blocks = []
    for entry in entries:
        rows = [[p.name, _default(p.default), p.help] for p in entry.parameters]
        table = tabulate(rows, headers=["parameter", "default", "meaning"], disable_numparse=True)
        agents = "; ".join(f"strongest ({budget}) {spec}" for budget, spec in entry.strongest)
        blocks.append(f"{entry.name}: {entry.long_name}\n  {entry.summary}\n"
                      f"  opponent {entry.opponent}; {agents}\n\n{table}")
    return "\n\n".join(blocks)


def _default(value) -> str:
    """Defaults as they are written in a game string (`true`, not `True`)."""
    return str(value).lower() if isinstance(value, bool) else str(value)
