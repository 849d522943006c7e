"""With numba's JIT disabled the kernels and the compiled tree run as plain Python (for
debugging and coverage) and still build the reference tree, visit for visit."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import sys, numba, pytest
from koloda.games.kit import kernel
assert numba.config.DISABLE_JIT and not hasattr(kernel.below, "py_func")   # plain Python
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "tests/agents/test_compiled_tree.py",
                      "-k", "builds_the_reference and (parket or durak)"]))
"""


def test_the_compiled_search_runs_as_plain_python():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    run = subprocess.run([sys.executable, "-W", "ignore::RuntimeWarning", "-c", SCRIPT],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "4 passed" in run.stdout
