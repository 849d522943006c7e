"""The tests exercise koloda as installed (`koloda.games`, `koloda.solvers`, ...).

`python -m pytest` puts the repository root on `sys.path`, where the source folders
`games/`, `solvers/` and `tournament/` would import as top-level modules beside the installed
package.  Taking the root off the path makes a stray `import games` fail loudly instead of
testing a second copy of the code.
"""

import os
import signal
import sys
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [entry for entry in sys.path
               if Path(os.path.abspath(entry or os.curdir)).resolve() != _ROOT]


def pytest_configure(config):
    """Ctrl-C reaches the koloda processes the tests start and stop with it, as from a
    terminal, even when the suite itself runs as a background job of a script (which starts
    with SIGINT ignored, and every process it starts would inherit that)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


#: modules whose tests start processes, servers, browsers or tmux, marked `slow` whole; a
#: test elsewhere that runs long carries `@pytest.mark.slow` itself.  `pytest -m "not slow"`
#: is the developer's quick loop; the README's command runs everything.
SLOW_MODULES = ("web/", "agents_external/", "agents_plugins/", "play/test_terminal.py",
                "play/test_watch_and_options.py", "protocol/test_node.py",
                "protocol/test_transports.py", "protocol/test_http_boundary.py",
                "protocol/test_adversarial.py", "test_prepared_before_clocks.py",
                "test_parket_cli.py", "test_jit_disabled.py")


def pytest_collection_modifyitems(config, items):
    tests = Path(__file__).resolve().parent
    for item in items:
        where = Path(str(item.fspath)).resolve().relative_to(tests).as_posix()
        if where.startswith(SLOW_MODULES):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _games_built_afresh():
    """Each test starts without the games `load_game` keeps, so a test that replaces
    OpenSpiel's loader sees it called and no test depends on the ones before it."""
    from koloda import games
    games.clear_game_cache()
