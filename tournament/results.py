"""The results file: one JSON line per finished game, and a timing file beside it.

`<name>.jsonl` holds what the config and seed determine (the normalised game string, the
seats' names and specs, the deal seed, actions, returns, an agent's error), so two runs of
one config write identical files, and a rerun can tell whether the config still schedules
the same games (tournament.resume).  The measured thinking times go to
`<name>.timing.jsonl`, keyed by game id.  Both are appended as games finish and read back
on a rerun, so an interrupted tournament resumes where it stopped; a last line cut short
by a kill is ignored and its game played again.  Any other line that is not a whole
result, or not one its game could have given (`result_problem`: its returns checked and
its actions replayed), can only come from outside koloda, so it stops the run with the
file and line named (`ResultsError`) instead of being guessed at.

In memory a line is a `GameResult` and a timing line a `Timing`; `line()` gives the JSON
object and `from_line` reads one back, field for field.
"""

from __future__ import annotations

import json
import math
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import pyspiel

from koloda.games.errors import KolodaError
from koloda.games.kit.outcomes import returns_for_winners
from koloda.games.kit.params import shown
from koloda.solvers.agent import REASONS


class ResultsError(KolodaError):
    """A results or timing file holds a line koloda did not write (the message says which
    line and how to recover)."""


@dataclass(frozen=True)
class GameError:
    """An agent's failure in a game: the seat, the agent's name, the message and the
    reason (solvers.agent.REASONS; None in a results file written before reasons were
    kept: such a failure was an exception or an illegal action)."""
    seat: int
    agent: str
    message: str
    reason: str | None = None


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
    specs: list[str] = field(default_factory=list)    # agent spec per seat

    def line(self) -> dict:
        line = {"id": self.id, "game": self.game, "deal": self.deal, "seed": self.seed,
                "seats": list(self.seats), "specs": list(self.specs),
                "actions": self.actions, "returns": self.returns}
        if self.error:
            error: dict = {"seat": self.error.seat, "agent": self.error.agent,
                           "message": self.error.message}
            if self.error.reason is not None:
                error["reason"] = self.error.reason
            line["error"] = error
        return line

    @classmethod
    def from_line(cls, line: dict) -> GameResult:
        error = line.get("error")
        return cls(line["id"], line["game"], line["deal"], line["seed"], list(line["seats"]),
                   line["actions"], line["returns"], GameError(**error) if error else None,
                   list(line["specs"]))


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
        failure = record.error
        error = GameError(failure["seat"], failure["agent"], failure["message"],
                          failure.get("reason"))
    return GameResult(task.id, task.game, task.deal, task.seed, list(task.seats),
                      record.actions, record.returns, error, list(task.specs))


def timing(task, record) -> Timing:
    return Timing(task.id, [round(s, 6) for s in record.move_seconds], record.moves)


_RESULT_FIELDS = {"id": str, "game": str, "deal": int, "seed": int, "seats": list,
                  "specs": list, "actions": list, "returns": list}
_TIMING_FIELDS = {"id": str, "seconds": list, "moves": list}


def read_lines(path: Path, fields: dict, recovery: str,
               repeats: bool = False) -> dict[str, tuple[int, dict]]:
    """Complete lines of a JSONL file by game id, with their line numbers.

    A torn last line (no newline: the run was killed while writing it) is dropped.  Any
    other line that is not a JSON object with `fields`, or (unless `repeats`, where the
    last line wins) that gives a game already given otherwise, raises ResultsError naming
    the file and line; `recovery` says what deleting the line does.
    """
    found: dict = {}
    if not path.exists():
        return found
    if not path.is_file():
        raise ResultsError(f"{path} is not a file; move it away so the tournament can write "
                           f"its results there")
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                break  # written halfway when the run was killed
            parsed, problem = _parse(raw, fields)
            line: dict = parsed or {}
            if problem is None and not repeats and line["id"] in found \
                    and found[line["id"]][1] != line:
                problem = (f"gives game {line['id']} again, otherwise than line "
                           f"{found[line['id']][0]}")
            if problem == _OLD_FORMAT and number == 1:
                raise ResultsError(
                    f"{path} was written by an older koloda (its lines do not name each "
                    f"seat's spec, so a rerun cannot check them against the config): move "
                    f"it away and run the tournament afresh")
            if problem:
                raise ResultsError(_bad_line(path, number, problem, recovery))
            found[line["id"]] = (number, line)
    return found


def _bad_line(path: Path, number: int, problem: str, recovery: str) -> str:
    return (f"{path}, line {number}: {problem}. A run only ever leaves its last line cut "
            f"short, so this line was changed outside koloda: delete it ({recovery}), or "
            f"move {path} away to start afresh")


_OLD_FORMAT = "has no field 'specs'"
_KINDS = {str: "a string", int: "an integer", list: "a list"}


def _parse(raw: bytes, fields: dict) -> tuple[dict | None, str | None]:
    """(the line as a dict, None), or (None, what is wrong with it)."""
    if not raw.strip():
        return None, "is blank"
    try:
        line = json.loads(raw)
    except UnicodeDecodeError:
        return None, "is not UTF-8 text"
    except json.JSONDecodeError as err:
        return None, f"is not JSON ({err.msg} at character {err.pos + 1})"
    except RecursionError:
        return None, "is JSON nested too deeply to be a result"
    except ValueError:                      # int() refuses more than 4300 digits
        return None, f"has a number of more than {sys.get_int_max_str_digits()} digits"
    if not isinstance(line, dict):
        return None, "is not a JSON object"
    for key, kind in fields.items():
        if key not in line:
            return None, f"has no field {key!r}"
        if not isinstance(line[key], kind) or isinstance(line[key], bool):
            return None, f"field {key!r} is not {_KINDS[kind]}"
    return line, None


def read_results(path: Path, games: dict | None = None) -> dict[str, GameResult]:
    """The finished games of a results file by id (ResultsError for a corrupt line).

    A line whose game is in `games` (normal game string: the loaded game) is checked
    against it (`result_problem`); a line of another game is left to tournament.resume,
    which refuses it as a game the config does not schedule."""
    found = {}
    recovery = "its game is played again"
    for key, (number, line) in read_lines(path, _RESULT_FIELDS, recovery).items():
        try:
            result = GameResult.from_line(line)
        except (KeyError, TypeError) as err:
            raise ResultsError(f"{path}, line {number}: not a game result ({err}); delete "
                               f"the line (its game is played again), or move {path} away "
                               f"to start afresh") from None
        game = (games or {}).get(result.game)
        problem = result_problem(result, game) if game is not None else None
        if problem:
            raise ResultsError(_bad_line(path, number, problem, recovery))
        found[key] = result
    return found


# ---------------------------------------------------------------- a line against its game

TOLERANCE = 1e-9      # returns are written as the game computed them; this is rounding


def result_problem(result: GameResult, game) -> str | None:
    """What in `result` its game could not have produced, or None: returns that are not
    one finite number per player within the game's utilities (summing to its utility sum
    when it is zero- or constant-sum), an illegal action, or returns other than those
    of the game its actions replay to (a game an agent lost by failing stops at its move)."""
    problem = _returns_problem(result.returns, game)
    if problem is None and result.error is not None and not _is_seat(result.error.seat, game):
        problem = (f"names seat {shown(result.error.seat, 20)} in its error, not a seat "
                   f"of its game")
    if problem is None and result.error is not None and result.error.reason is not None \
            and result.error.reason not in REASONS:
        problem = (f"gives the reason {shown(result.error.reason, 20)} in its error, not "
                   f"one of {', '.join(REASONS)}")
    return problem or _replay_problem(result, game)


def _returns_problem(returns: list, game) -> str | None:
    players = game.num_players()
    if len(returns) != players:
        return f"has {len(returns)} returns for the {players} players of its game"
    if not all(_finite_number(value) for value in returns):
        return f"has returns {shown(returns, 60)}, not all finite numbers"
    low, high = game.min_utility(), game.max_utility()
    if not all(low - TOLERANCE <= value <= high + TOLERANCE for value in returns):
        return f"has returns {returns}, outside its game's {low:g} to {high:g}"
    if game.get_type().utility in (pyspiel.GameType.Utility.ZERO_SUM,
                                   pyspiel.GameType.Utility.CONSTANT_SUM):
        if abs(math.fsum(returns) - game.utility_sum()) > TOLERANCE * players:
            return (f"has returns {returns} summing to {math.fsum(returns):g}; its game's "
                    f"returns sum to {game.utility_sum():g}")
    return None


def _replay_problem(result: GameResult, game) -> str | None:
    """The actions replayed: each legal where it stands, ending where the line says."""
    state = game.new_initial_state()
    for index, action in enumerate(result.actions):
        if state.is_terminal():
            return f"has actions past the end of its game (from actions[{index}] on)"
        if type(action) is not int or action not in state.legal_actions():
            return f"has actions[{index}] = {shown(action, 20)}, not legal where it stands"
        state.apply_action(action)
    if result.error is None:
        if not state.is_terminal():
            return f"has {len(result.actions)} actions, and its game is not over after them"
        expected = list(state.returns())
    else:
        seat, seats = result.error.seat, game.num_players()
        if state.is_terminal() or state.current_player() != seat:
            return (f"says seat {seat} failed, and its actions do not stop where that seat "
                    f"is to move")
        expected = returns_for_winners(seats, set(range(seats)) - {seat})
    if any(abs(a - b) > TOLERANCE for a, b in zip(result.returns, expected)):
        return f"has returns {result.returns}, and its actions give {expected}"
    return None


def _finite_number(value) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def _is_seat(seat, game) -> bool:
    return type(seat) is int and 0 <= seat < game.num_players()


def read_timing(path: Path, seats: dict[str, int] | None = None) -> dict[str, Timing]:
    """Thinking times by game id; a corrupt line raises ResultsError, and so does a line
    of a game in `seats` (id: its number of seats) that does not give one time per seat."""
    recovery = "that game's thinking time is then unknown"
    lines = read_lines(path, _TIMING_FIELDS, recovery, repeats=True)
    for key, (number, line) in lines.items():
        problem = _timing_problem(line, (seats or {}).get(key))
        if problem:
            raise ResultsError(_bad_line(path, number, problem, recovery))
    return {key: Timing.from_line(line) for key, (_, line) in lines.items()}


def _timing_problem(line: dict, seats: int | None) -> str | None:
    seconds, moves = line["seconds"], line["moves"]
    if seats is not None and not len(seconds) == len(moves) == seats:
        return (f"gives {len(seconds)} times and {len(moves)} move counts for a game of "
                f"{seats} seats")
    if not all(_finite_number(value) and value >= 0 for value in seconds):
        return f"has seconds {shown(seconds, 60)}, not all finite numbers from 0 up"
    if not all(type(count) is int and count >= 0 for count in moves):
        return f"has moves {shown(moves, 60)}, not all whole numbers from 0 up"
    return None


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
    """Appends JSON lines and flushes each, so a killed run loses at most the game in hand.
    The file is opened at the first line, so a run that plays nothing leaves no file."""

    def __init__(self, path: Path):
        self.path = path
        self.handle: TextIO | None = None

    def write(self, line: dict) -> None:
        if self.handle is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            truncate_torn_tail(self.path)
            self.handle = self.path.open("a")
        self.handle.write(_text(line))
        self.handle.flush()

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()


def rewrite_in_order(path: Path, lines) -> None:
    """Write `lines` as the whole file, atomically (schedule order: byte-identical reruns);
    an interruption leaves the old file and no temporary one."""
    temporary = path.with_suffix(path.suffix + ".tmp")
    try:
        with temporary.open("w") as handle:
            for line in lines:
                handle.write(_text(line))
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
