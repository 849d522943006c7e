"""The README's Python example runs as written."""

import re
from pathlib import Path


def test_readme_python_example_runs(capsys):
    readme = Path(__file__).resolve().parent.parent / "README.md"
    block = re.search(r"## Using an agent from Python\n\n((?:    .*\n|\n)+)", readme.read_text())
    assert block, "the README lost its Python example"
    code = "\n".join(line[4:] for line in block.group(1).splitlines())
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out.strip()
    assert re.fullmatch(r"attack [2-9TJQKA][cdhs]", printed)
