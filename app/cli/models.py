"""`koloda models [GAME]`: the learned models a spec can name, shipped and in the folders of
KOLODA_MODELS, with what each is, what it is fitted for and its digest
(solvers/learned/models.py)."""

from __future__ import annotations

from tabulate import tabulate

from koloda import games
from koloda.games.errors import KolodaError
from koloda.solvers.learned.models import index


class ModelsUsageError(KolodaError):
    """`koloda models` named a game koloda does not have."""


def add_arguments(parser) -> None:
    parser.add_argument("game", nargs="?", default=None,
                        help="list only this game's models, by name (e.g. durak)")


def run(args) -> None:
    names = [spec.name for spec in games.catalog()]
    if args.game is not None and args.game not in names:
        raise ModelsUsageError(f"no game {args.game!r}; the games are {', '.join(names)}")
    rows = [[name, entry.get("kind", ""), entry.get("game", ""), entry.get("features", ""),
             _variants(entry.get("variants")), str(entry.get("sha256", ""))[:12]]
            for name, entry in sorted(index().items())
            if isinstance(entry, dict) and (args.game is None or entry.get("game") == args.game)]
    if not rows:
        print("no models" + (f" of {args.game}" if args.game else ""))
        return
    print(tabulate(rows, headers=["model", "kind", "game", "reads", "fitted for", "sha256"]))
    print("\nName one in a spec: ismcts(value=<game>-v<N>), policy(model=<game>-policy-v<N>)")


def _variants(variants) -> str:
    if not isinstance(variants, dict):
        return ""
    return ",".join(f"{k}={v}" for k, v in variants.items())
