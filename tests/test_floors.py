"""Imports run one way: the app -> tournament -> solvers -> games, the kit below the games;
inside the app, its rooms import only the rooms they sit on.

Every import in every module of the four folders (`import x` and `from x import y`,
inside functions too, relative ones resolved) is read from its source and checked
against the floors, so a game can never come to depend on how the agents play.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: folder -> the package it installs as (pyproject.toml's package-dir)
FOLDERS = {"app": "koloda", "tournament": "koloda.tournament", "solvers": "koloda.solvers",
           "games": "koloda.games"}

#: floors from the bottom; a module may import its own floor and the ones below.  The
#: errors every floor raises (games/errors.py, which imports nothing) sit with the kit.
FLOORS = ("kit", "games", "solvers", "tournament", "app")
_PREFIXES = (("koloda.games.kit", "kit"), ("koloda.games.errors", "kit"),
             ("koloda.games", "games"),
             ("koloda.solvers", "solvers"), ("koloda.tournament", "tournament"),
             ("koloda", "app"))


def floor_of(module: str) -> str | None:
    """The floor of a dotted module name; None outside koloda."""
    for prefix, floor in _PREFIXES:
        if module == prefix or module.startswith(prefix + "."):
            return floor
    return None


def _modules():
    """(path, dotted name, is a package) of every .py file of the four folders."""
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            yield path, ".".join((package, *parts)), is_package


def imported_names(tree: ast.AST, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, dotted name) of everything the module imports; `from a import b` names
    `a.b`, which is `b`'s own module where `b` is one, else a name defined in `a`."""
    package = module if is_package else module.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            out += [(node.lineno, f"{base}.{alias.name}" if alias.name != "*" else base)
                    for alias in node.names]
    return out


def breaks_in(tree: ast.AST, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, what) of each import of `module` that reaches a floor above its own."""
    own = floor_of(module)
    out = []
    for line, name in imported_names(tree, module, is_package):
        target = floor_of(name)
        if target is not None and FLOORS.index(target) > FLOORS.index(own):
            out.append((line, f"{own} imports {name} ({target})"))
    return out


def every_break(breaks_of) -> list[str]:
    """`path:line: what` of every import `breaks_of(tree, module, is_package)` finds in
    every module of the four folders."""
    breaks = []
    for path, module, is_package in _modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        breaks += [f"{path.relative_to(ROOT)}:{line}: {what}"
                   for line, what in breaks_of(tree, module, is_package)]
    return breaks


def floor_breaks() -> list[str]:
    return every_break(breaks_in)


def test_every_import_runs_down_the_floors():
    breaks = floor_breaks()
    assert not breaks, "imports against the floors:\n" + "\n".join(breaks)


def test_the_floors_are_read_from_every_module():
    seen = {floor_of(module) for _, module, _ in _modules()}
    assert seen == set(FLOORS)
    assert floor_of("koloda.games.kit.engine") == "kit"
    assert floor_of("koloda.games.snitch") == "games" == floor_of("koloda.games")
    assert floor_of("koloda.games.errors.CardError") == "kit"
    assert floor_of("koloda.cli.main") == "app" and floor_of("pyspiel") is None


def test_the_reader_sees_imports_inside_functions_and_relative_ones():
    tree = ast.parse("def f():\n    from koloda.solvers import heuristics\n"
                     "from . import rules\nfrom ..kit import cards\n"
                     "import koloda.tournament\n")
    module = "koloda.games.snitch.engine"
    names = sorted(name for _, name in imported_names(tree, module, False))
    assert names == ["koloda.games.kit.cards", "koloda.games.snitch.rules",
                     "koloda.solvers.heuristics", "koloda.tournament"]
    assert sorted(breaks_in(tree, module, False)) == [
        (2, "games imports koloda.solvers.heuristics (solvers)"),
        (5, "games imports koloda.tournament (tournament)")]
    kit = ast.parse("from koloda.games.snitch import engine\nfrom koloda.games import errors\n")
    assert breaks_in(kit, "koloda.games.kit.cards", False) == [
        (1, "kit imports koloda.games.snitch.engine (games)")]


#: the app's rooms and the rooms each may import besides its own (`koloda` itself, the
#: package's version, is open to all): the protocol knows no transport, the transports
#: and terminal play sit on the protocol, bots of the agent protocol (`koloda agent`)
#: on nothing but the floors below, the command line reaches every room.
ROOMS = {"protocol": set(), "serve": {"protocol"}, "play": {"protocol", "analysis"},
         "bench": set(), "analysis": {"protocol"}, "bot": set(),
         "cli": {"protocol", "serve", "play", "bench", "analysis", "bot"}}


def room_of(module: str) -> str | None:
    """The app room of a dotted module name (`koloda.serve.http` -> serve); None outside
    the app's rooms (the floors below, `koloda` itself)."""
    if floor_of(module) != "app":
        return None
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ROOMS else None


def room_breaks_in(tree: ast.AST, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, what) of each import of `module` that reaches a room it does not sit on."""
    own = room_of(module)
    out = []
    for line, name in imported_names(tree, module, is_package):
        target = room_of(name)
        if own is not None and target is not None and target != own \
                and target not in ROOMS[own]:
            out.append((line, f"{own} imports {name}"))
    return out


def room_breaks() -> list[str]:
    return every_break(room_breaks_in)


def test_the_app_rooms_import_only_the_rooms_they_sit_on():
    breaks = room_breaks()
    assert not breaks, "imports across the app's rooms:\n" + "\n".join(breaks)


def test_every_module_of_the_app_is_in_a_room():
    loose = [module for _, module, _ in _modules()
             if floor_of(module) == "app" and room_of(module) is None
             and module not in ("koloda", "koloda.__main__")]
    assert not loose, loose
    assert room_of("koloda.serve.http") == "serve" and room_of("koloda.games.durak") is None


def test_a_room_importing_one_it_does_not_sit_on_is_a_break():
    tree = ast.parse("from koloda.serve import http\nfrom koloda.protocol import Client\n"
                     "from koloda.games import load_game\nimport koloda\n")
    assert room_breaks_in(tree, "koloda.protocol.handler", False) == [
        (1, "protocol imports koloda.serve.http")]
    assert room_breaks_in(tree, "koloda.cli.main", False) == []
    assert room_breaks_in(tree, "koloda.play.table", False) == [
        (1, "play imports koloda.serve.http")]


def _outside_type_checking(tree: ast.AST) -> ast.AST:
    """`tree` without its `if TYPE_CHECKING:` blocks (annotations only, never run)."""
    class Strip(ast.NodeTransformer):
        def visit_If(self, node):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            return None if name == "TYPE_CHECKING" else self.generic_visit(node)
    return Strip().visit(tree)


def import_cycles(package: str) -> list[list[str]]:
    """The cycles among the modules of the games' folder that sit in `package`, following
    every import that runs (inside functions too; `if TYPE_CHECKING:` blocks left out)."""
    graph = {}
    for path, module, is_package in _modules():
        if module.startswith(package + ".") or module == package:
            tree = _outside_type_checking(ast.parse(path.read_text(), filename=str(path)))
            graph[module] = {name for _, name in imported_names(tree, module, is_package)}

    def module_of(name):        # the longest module of the package that `name` is in
        found = [t for t in graph if name == t or name.startswith(t + ".")]
        return max(found, key=len) if found else None

    edges = {m: {module_of(n) for n in names} - {None, m} for m, names in graph.items()}
    cycles, done = [], set()

    def visit(module, path):
        if module in path:
            cycles.append(path[path.index(module):] + [module])
            return
        if module in done:
            return
        for target in sorted(edges[module]):
            visit(target, path + [module])
        done.add(module)

    for module in sorted(edges):
        visit(module, [])
    return cycles


def test_no_module_of_a_game_imports_one_that_imports_it_back():
    cycles = {game: import_cycles(f"koloda.games.{game}")
              for game in ("durak", "platinum_fish", "snitch", "parket", "kit")}
    assert all(not found for found in cycles.values()), cycles


def test_the_cycle_reader_sees_an_import_inside_a_function_and_skips_type_checking():
    looped = ast.parse("def f():\n    from koloda.games.durak import resample\n")
    assert imported_names(_outside_type_checking(looped), "koloda.games.durak.engine", False)
    typed = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                      "    from koloda.games.durak.engine import DurakCore\n")
    assert [n for _, n in imported_names(_outside_type_checking(typed),
                                         "koloda.games.durak.resample", False)
            if n.startswith("koloda")] == []
