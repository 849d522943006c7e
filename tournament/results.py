"""The results file: one JSON line per finished game, and a timing file beside it.

`<name>.jsonl` holds what the config and seed determine (seats, seed, actions, returns,
an agent's error), so two runs of one config write identical files.  The measured
thinking times go to `<name>.timing.jsonl`, keyed by game id.  Both are appended as games
finish and read back on a rerun, so an interrupted tournament resumes where it stopped; a
line cut short by a kill is ignored and its game played again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def game_line(task, record) -> dict:
    line = {"id": task.id, "game": task.game, "deal": task.deal, "seed": task.seed,
            "seats": list(task.seats), "actions": record.actions, "returns": record.returns}
    if record.error:
        line["error"] = {k: record.error[k] for k in ("seat", "agent", "message")}
    return line


def timing_line(task, record) -> dict:
    return {"id": task.id, "seconds": [round(s, 6) for s in record.move_seconds],
            "moves": record.moves}


def read_lines(path: Path) -> dict[str, dict]:
    """Complete lines of a JSONL file by game id (a torn last line is dropped)."""
    found = {}
    if not path.exists():
        return found
    with path.open() as handle:
        for text in handle:
            if not text.endswith("\n"):
                break  # written halfway when the run was killed
            line = json.loads(text)
            found[line["id"]] = line
    return found


def truncate_torn_tail(path: Path) -> None:
    """Cut a final line that was not finished, so appends start on a fresh line."""
    if not path.exists():
        return
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if end != len(data):
        with path.open("r+b") as handle:
            handle.truncate(end)


class Appender:
    """Appends JSON lines and flushes each, so a killed run loses at most the game in hand."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        truncate_torn_tail(path)
        self.handle = path.open("a")

    def write(self, line: dict) -> None:
        self.handle.write(json.dumps(line, separators=(",", ":")) + "\n")
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()


def rewrite_in_order(path: Path, lines: list[dict]) -> None:
    """Write `lines` as the whole file, atomically (schedule order: byte-identical reruns)."""
    temporary = path.with_suffix(path.suffix + ".tmp")
    with temporary.open("w") as handle:
        for line in lines:
            handle.write(json.dumps(line, separators=(",", ":")) + "\n")
    os.replace(temporary, path)
