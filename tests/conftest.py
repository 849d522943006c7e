"""The tests exercise koloda as installed (`koloda.games`, `koloda.solvers`, ...).

`python -m pytest` puts the repository root on `sys.path`, where the source folders
`games/`, `solvers/` and `tournament/` would import as top-level modules beside the installed
package.  Taking the root off the path makes a stray `import games` fail loudly instead of
testing a second copy of the code.
"""

import os
import sys
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [entry for entry in sys.path
               if Path(os.path.abspath(entry or os.curdir)).resolve() != _ROOT]


@pytest.fixture(autouse=True)
def _games_built_afresh():
    """Each test starts without the games `load_game` keeps, so a test that replaces
    OpenSpiel's loader sees it called and no test depends on the ones before it."""
    from koloda import games
    games.clear_game_cache()
