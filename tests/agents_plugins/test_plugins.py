"""Agents from other packages: a package installed beside koloda adds an agent kind through
the `koloda.agents` entry point, and it is listed, built from specs and ranked as koloda's
own are; a plugin that fails to import, or claims a name koloda has, is skipped with one
warning and breaks nothing.

Each package here (plugin_pkg, broken_pkg, clash_pkg) is pip-installed (`--target`, with
no index and no dependencies) into a folder of its own, and koloda runs in a fresh
interpreter with that folder on PYTHONPATH: importlib.metadata finds the installed
distributions there as it finds those in site-packages.  pip cannot build a wheel offline
here (the setuptools koloda needs has no `bdist_wheel` without the `wheel` package), so
`build_wheel` writes each project's wheel from its pyproject.toml, as a build backend
writes a pure-Python one; pip installs it as it installs any wheel.
"""

import base64
import hashlib
import json
import os
import subprocess
import sys
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
TINY = "durak(ranks=4,suits=2,hand_size=3)"
PLUGIN = "koloda-test-plugin"


def build_wheel(project: Path, out: Path) -> Path:
    """The wheel of a pure-Python project: its `[tool.setuptools] packages`, and METADATA,
    WHEEL, entry_points.txt and RECORD from its `[project]` table."""
    pyproject = tomllib.loads((project / "pyproject.toml").read_text())
    info = pyproject["project"]
    stem = f"{info['name'].replace('-', '_')}-{info['version']}"
    meta = f"{stem}.dist-info"
    files = {}
    for package in pyproject["tool"]["setuptools"]["packages"]:
        for path in sorted((project / package.replace(".", "/")).rglob("*.py")):
            files[path.relative_to(project).as_posix()] = path.read_bytes()
    files[f"{meta}/METADATA"] = "".join(
        [f"Metadata-Version: 2.1\nName: {info['name']}\nVersion: {info['version']}\n"
         f"Summary: {info['description']}\nRequires-Python: {info['requires-python']}\n"]
        + [f"Requires-Dist: {dep}\n" for dep in info.get("dependencies", [])]).encode()
    files[f"{meta}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: koloda-tests\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    files[f"{meta}/entry_points.txt"] = "".join(
        f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in points.items()) + "\n"
        for group, points in info.get("entry-points", {}).items()).encode()
    record = [f"{path},sha256={_digest(data)},{len(data)}" for path, data in files.items()]
    files[f"{meta}/RECORD"] = "\n".join(record + [f"{meta}/RECORD,,", ""]).encode()
    wheel = out / f"{stem}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, data in files.items():
            archive.writestr(path, data)
    return wheel


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, Path]:
    """Package folder name -> the folder pip installed it into."""
    root = tmp_path_factory.mktemp("plugins")
    wheels = {name: build_wheel(HERE / name, root) for name in
              ("plugin_pkg", "broken_pkg", "clash_pkg")}
    for name, wheel in wheels.items():
        done = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--isolated", "--no-deps", "--no-index",
             "--quiet", "--disable-pip-version-check", "--target", str(root / name),
             str(wheel)], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    for name in wheels:
        assert list((root / name).glob("*.dist-info/entry_points.txt")), name
    return {name: root / name for name in wheels}


def run(folders, *argv, code=None, cwd) -> subprocess.CompletedProcess:
    """`python -m koloda ARGV` (or `python -c CODE`) with `folders` on the path."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(f) for f in folders))
    command = [sys.executable, "-c", textwrap.dedent(code)] if code else \
        [sys.executable, "-m", "koloda", *argv]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)


def warnings_of(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("koloda: warning:")]


# --- a plugin that works ------------------------------------------------------------------

def test_koloda_agents_lists_the_plugins_kind_with_its_package(installed, tmp_path):
    done = run([installed["plugin_pkg"]], "agents", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    kinds = {entry["name"]: entry for entry in json.loads(done.stdout)["agents"]}
    first = kinds["first_legal"]
    assert first["source"] == PLUGIN
    assert first["games"] == ["durak", "parket", "platinum_fish", "snitch"]
    assert [(p["name"], p["default"]) for p in first["params"]] == [("seed", 0),
                                                                     ("last", False)]
    assert first["summary"].startswith("the first legal action")
    assert kinds["random"]["source"] == kinds["ismcts"]["source"] == "koloda"

    table = run([installed["plugin_pkg"]], "agents", cwd=tmp_path)
    assert table.returncode == 0, table.stderr
    row = next(line for line in table.stdout.splitlines() if line.startswith("first_legal "))
    assert "last=false" in row and PLUGIN in row and "all" in row


def test_a_spec_naming_the_plugin_loads_plays_and_is_in_hello(installed, tmp_path):
    done = run([installed["plugin_pkg"]], cwd=tmp_path, code=f"""
        import json
        from koloda import games, solvers
        from koloda.protocol import Client, Limits
        game = games.load_game({TINY!r})
        solvers.check_spec(game, "first_legal(last=true)")
        agent = solvers.load_agent(game, "first_legal(last=true)", seed=3)
        other = solvers.load_agent(game, "random", seed=4)
        state, checked = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.chance_outcomes()[0][0])
                continue
            legal = state.legal_actions()
            if state.current_player() == 0:
                action = agent.step(state)
                assert action == legal[-1], (action, legal)
                checked += 1
            else:
                action = other.step(state)
            state.apply_action(action)
        try:
            solvers.load_agent(game, "first_legal(lats=true)")
        except solvers.AgentSpecError as err:
            refused = str(err)
        # Limits(): the server's.  Limits.own_process() has idle_seconds=inf, which the
        # reply's JSON cannot carry (a fault of hello in process, reported apart).
        client = Client.in_process(Limits())
        hello = client.hello()
        session = client.new({TINY!r}, seats=[0], seed=3)["session"]
        hint = client.hint(session, "first_legal(last=true)")
        print(json.dumps({{"spec": agent.spec, "module": type(agent).__module__,
                          "checked": checked, "returns": state.returns(), "refused": refused,
                          "hello": [a for a in hello["agents"] if a["name"] == "first_legal"],
                          "hint": hint["agent"]}}))
        """)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["spec"] == "first_legal(last=true)"
    assert out["module"] == "koloda_test_plugin"
    assert out["checked"] > 0 and sorted(out["returns"]) in ([-1.0, 1.0], [0.0, 0.0])
    assert "lats" in out["refused"] and "last" in out["refused"]
    (entry,) = out["hello"]
    assert entry["games"] == ["durak", "parket", "platinum_fish", "snitch"]
    assert [p["name"] for p in entry["params"]] == ["seed", "last"]
    assert out["hint"] == "first_legal(last=true)"         # a protocol hint names it too


def test_a_tournament_ranks_the_plugins_agent(installed, tmp_path):
    """jobs = 2: the games are played in loky worker processes, which find the plugin
    through the same entry point."""
    (tmp_path / "plugin.toml").write_text(textwrap.dedent(f"""\
        name = "plugin"
        games = ["{TINY}"]
        seed = 11
        games_per_pairing = 6
        jobs = 2
        output = "out"
        anchor = "random"
        bootstrap = 20

        [agents]
        random = "random"
        first = "first_legal"
        last = "first_legal(last=true)"
        """))
    done = run([installed["plugin_pkg"]], "tournament", "plugin.toml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert warnings_of(done.stderr) == []
    lines = [json.loads(line) for line in (tmp_path / "out/plugin.jsonl").read_text()
             .splitlines()]
    assert len(lines) == 3 * 6
    assert all("error" not in line for line in lines), lines[0]
    (summary_file,) = (tmp_path / "out").glob("plugin*.json")
    summary = json.loads(summary_file.read_text())
    rated = {row["agent"] for row in summary["ratings"]}
    assert rated == {"random", "first", "last"}
    assert "first" in done.stdout and "last" in done.stdout


# --- plugins that fail ----------------------------------------------------------------------

def test_a_broken_and_a_clashing_plugin_are_skipped_with_one_warning_each(installed, tmp_path):
    folders = [installed[name] for name in ("plugin_pkg", "broken_pkg", "clash_pkg")]
    done = run(folders, "agents", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    broken, clash = warnings_of(done.stderr)      # one line each, nothing else on stderr
    assert done.stderr.count("\n") == 2
    assert "'broken' of koloda-broken-plugin" in broken
    assert "ModuleNotFoundError" in broken and "koloda_no_such_module" in broken
    assert "'random' of koloda-clash-plugin" in clash and "koloda's own" in clash
    listing = json.loads(done.stdout)
    sources = {entry["name"]: entry["source"] for entry in listing["agents"]}
    assert sources["random"] == "koloda"
    assert sources["first_legal"] == PLUGIN
    assert sources["last_legal"] == "koloda-clash-plugin"     # the clash skips only `random`
    assert "broken" not in sources
    assert {s["name"] for s in listing["skipped"]} == {"broken", "random"}


def test_koloda_still_works_beside_them_and_random_is_kolodas(installed, tmp_path):
    folders = [installed[name] for name in ("plugin_pkg", "broken_pkg", "clash_pkg")]
    done = run(folders, cwd=tmp_path, code=f"""
        import json
        from koloda import games, solvers
        game = games.load_game({TINY!r})
        agent = solvers.load_agent(game, "random", seed=1)
        try:
            solvers.check_spec(game, "broken(seed=2)")
        except solvers.AgentSpecError as err:
            broken = str(err)
        try:
            solvers.load_agent(game, "nothing_at_all")
        except solvers.AgentSpecError as err:
            unknown = str(err)
        from koloda.protocol import Client, ErrorReply, Limits
        client = Client.in_process(Limits())
        session = client.new({TINY!r}, seats=[0], seed=3)["session"]
        try:
            client.hint(session, "broken")
        except ErrorReply as err:
            replied = str(err)
        print(json.dumps({{"random": type(agent).__module__, "broken": broken,
                          "unknown": unknown, "replied": replied,
                          "kinds": [k.name for k in solvers.agent_kinds(game)]}}))
        """)
    assert done.returncode == 0, done.stderr
    assert len(warnings_of(done.stderr)) == 2                   # once, though asked thrice
    out = json.loads(done.stdout)
    assert out["random"] == "koloda.solvers.random_agent"
    assert "'broken'" in out["broken"] and "not available" in out["broken"]
    assert "failed to load: ModuleNotFoundError" in out["broken"]
    assert "koloda-broken-plugin" in out["broken"]
    assert "first_legal" in out["unknown"] and "broken" not in out["kinds"]
    assert out["replied"].startswith("bad_agent: agent 'broken'") and \
        "not available" in out["replied"]


def test_a_tournament_beside_them_warns_once(installed, tmp_path):
    """The loky workers load the plugins too; the warnings are the main process's only."""
    folders = [installed[name] for name in ("plugin_pkg", "broken_pkg", "clash_pkg")]
    (tmp_path / "t.toml").write_text(textwrap.dedent(f"""\
        name = "t"
        games = ["{TINY}"]
        seed = 5
        games_per_pairing = 4
        jobs = 2
        output = "out"
        anchor = "random"
        bootstrap = 20

        [agents]
        random = "random"
        first = "first_legal"
        """))
    done = run(folders, "tournament", "t.toml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(warnings_of(done.stderr)) == 2, done.stderr
    lines = (tmp_path / "out/t.jsonl").read_text().splitlines()
    assert len(lines) == 4 and all('"error"' not in line for line in lines)
