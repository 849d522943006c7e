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


@pytest.fixture(autouse=True)
def _games_built_afresh():
    """Each test starts without the games `load_game` keeps, so a test that replaces
    OpenSpiel's loader sees it called and no test depends on the ones before it."""
    from koloda import games
    games.clear_game_cache()
