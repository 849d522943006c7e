"""Hand-written strategies, one module per game, all registered as `heuristic`.

Every module here is imported (in name order), so a new game's heuristic is its file
alone."""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
