"""`koloda` with Quintet (tests/play/quintet.py, the tests' fifth game) among its games,
for the page's tests of a game it does not know: `python tests/web/quintet_server.py serve
--http ...`.  The move workers `koloda serve` spawns import this file too (as
`__mp_main__`), so they know the game as well."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))     # tests/, for play.quintet

from play import quintet  # noqa: E402

quintet.install()

if __name__ == "__main__":
    from koloda.cli.main import main
    sys.exit(main(sys.argv[1:]))
