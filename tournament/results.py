"""The results file: one JSON line per finished game, and a timing file beside it.

`<name>.jsonl` holds what the config and seed determine (seats, seed, actions, returns,
an agent's error), so two runs of one config write identical files.  The measured
thinking times go to `<name>.timing.jsonl`, keyed by game id.  Both are appended as games
finish and read back on a rerun, so an interrupted tournament resumes where it stopped; a
line cut short by a kill is ignored and its game played again.

In memory a line is a `GameResult` and a timing line a `Timing`; `line()` gives the JSON
object and `from_line` reads one back, field for field.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class GameError:
    """An agent's failure in a game: the seat, the agent's name and the message."""
    seat: int
    agent: str
    message: str


@dataclass
class GameResult:
    """One line of `<name>.jsonl`: a finished game, enough to replay it alone."""
    id: str
    game: str
    deal: int
    seed: int
    seats: list[str]          # agent name per seat
    actions: list[int]
    returns: list[float]
    error: GameError | None = None

    def line(self) -> dict:
        line = {"id": self.id, "game": self.game, "deal": self.deal, "seed": self.seed,
                "seats": list(self.seats), "actions": self.actions, "returns": self.returns}
        if self.error:
            line["error"] = {"seat": self.error.seat, "agent": self.error.agent,
                             "message": self.error.message}
        return line

    @classmethod
    def from_line(cls, line: dict) -> GameResult:
        error = line.get("error")
        return cls(line["id"], line["game"], line["deal"], line["seed"], list(line["seats"]),
                   line["actions"], line["returns"], GameError(**error) if error else None)


@dataclass
class Timing:
    """One line of `<name>.timing.jsonl`: thinking seconds and decisions per seat."""
    id: str
    seconds: list[float]
    moves: list[int]

    def line(self) -> dict:
        return {"id": self.id, "seconds": self.seconds, "moves": self.moves}

    @classmethod
    def from_line(cls, line: dict) -> Timing:
        return cls(line["id"], line["seconds"], line["moves"])


def game_result(task, record) -> GameResult:
    error = None
    if record.error:
        error = GameError(*(record.error[k] for k in ("seat", "agent", "message")))
    return GameResult(task.id, task.game, task.deal, task.seed, list(task.seats),
                      record.actions, record.returns, error)


def timing(task, record) -> Timing:
    return Timing(task.id, [round(s, 6) for s in record.move_seconds], record.moves)


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


def read_results(path: Path) -> dict[str, GameResult]:
    return {key: GameResult.from_line(line) for key, line in read_lines(path).items()}


def read_timing(path: Path) -> dict[str, Timing]:
    return {key: Timing.from_line(line) for key, line in read_lines(path).items()}


def truncate_torn_tail(path: Path) -> None:
    """Cut a final line that was not finished, so appends start on a fresh line."""
    if not path.exists():
        return
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if end != len(data):
        with path.open("r+b") as handle:
            handle.truncate(end)


def _text(line: dict) -> str:
    return json.dumps(line, separators=(",", ":")) + "\n"


class Appender:
    """Appends JSON lines and flushes each, so a killed run loses at most the game in hand."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        truncate_torn_tail(path)
        self.handle = path.open("a")

    def write(self, line: dict) -> None:
        self.handle.write(_text(line))
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()


def rewrite_in_order(path: Path, lines: list[dict]) -> None:
    """Write `lines` as the whole file, atomically (schedule order: byte-identical reruns)."""
    temporary = path.with_suffix(path.suffix + ".tmp")
    with temporary.open("w") as handle:
        for line in lines:
            handle.write(_text(line))
    os.replace(temporary, path)
