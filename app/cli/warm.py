"""`koloda warm [GAME ...]`: compile ahead what the games and their agents run, for an
image, a CI job or a new machine, and say where numba keeps it (solvers/prepare.py)."""

from __future__ import annotations

import sys

from koloda import games
from koloda.games.errors import KolodaError
from koloda.solvers.prepare import cache_folder, prepare_everything


class WarmError(KolodaError):
    """`koloda warm` named a game koloda does not have."""


def add_arguments(parser) -> None:
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help="games to prepare, by name (default: all of them)")


def run(args) -> None:
    names = [spec.name for spec in games.catalog()]
    unknown = [name for name in args.games if name not in names]
    if unknown:
        raise WarmError(f"no game {unknown[0]!r}; the games are {', '.join(names)}")
    chosen = list(dict.fromkeys(args.games)) or names
    print(f"preparing {', '.join(chosen)} with their levels and documented agents",
          flush=True)
    seconds = prepare_everything(chosen, report=lambda name, took: print(
        f"  {name:<14} {took:6.1f} s", flush=True))
    print(f"prepared in {seconds:.1f} s; numba's cache: {cache_folder()}\n"
          f"(later runs load it; NUMBA_CACHE_DIR=DIR caches in DIR instead; where the "
          f"installation is read-only, numba caches in the user's cache folder)")
    sys.stdout.flush()
