"""Policy files: a trained average policy, gzip'ed JSON, checked against its game on load.

    {"format": "koloda-policy", "version": 1, "game": "durak(hand_size=2,ranks=5,suits=1)",
     "algo": "cfr+", "iterations": 1000, "seconds": 512.3, "cpu_seconds": 498.1,
     "exploitability": 0.004,
     "curve": [[iteration, seconds, exploitability, cpu seconds], ...],
     "policy": {"<information state string>": [[action, probability], ...], ...}}

The game string is stored in its normal form, so `durak(suits=1,ranks=5,hand_size=2)` and
`durak(hand_size=2,ranks=5,suits=1,players=2)` name the same game and a policy trained for
another game string is refused.  Probabilities are rounded to 6 decimals, and information
states with a single legal action are left out (no agent is asked there, and a best
response finds the same single action): files stay small.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field
from pathlib import Path

from koloda.games import normalize_game_string
from koloda.games.errors import KolodaError

FORMAT = "koloda-policy"
VERSION = 1


class PolicyFileError(KolodaError, ValueError):
    """A policy file that cannot be read, or that belongs to another game."""


@dataclass
class PolicyFile:
    game: str                                   # normal form of the game string
    policy: dict                                # infostate -> [(action, probability)]
    algo: str = ""
    iterations: int = 0
    seconds: float = 0.0                        # training time, measurements excluded
    cpu_seconds: float = 0.0                    # processor time of those seconds
    exploitability: float | None = None
    curve: list = field(default_factory=list)   # [(iteration, seconds, exploitability,
    #                                             cpu seconds)]


def game_string_of(game) -> str:
    """The normal form of a loaded game's string (`durak(players=2)` is `durak`).  A
    koloda game's rules write it (pyspiel's `str(game)` leaves a Parket position
    unquoted, which no game string reads back)."""
    rules = getattr(game, "rules", None)
    if rules is not None:
        return rules.game_string()
    return normalize_game_string(str(game))


def save(path, data: PolicyFile) -> Path:
    """Write `data` to `path` (gzip'ed JSON), atomically: a reader never sees half a file."""
    path = Path(path)
    body = {"format": FORMAT, "version": VERSION, "game": data.game, "algo": data.algo,
            "iterations": data.iterations, "seconds": round(data.seconds, 3),
            "cpu_seconds": round(data.cpu_seconds, 3),
            "exploitability": data.exploitability,
            "curve": [list(point) for point in data.curve],
            "policy": {key: [[int(a), round(float(p), 6)] for a, p in probs]
                       for key, probs in data.policy.items() if len(probs) > 1}}
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True)
    partial = path.with_name(path.name + ".partial")
    with gzip.open(partial, "wt", encoding="utf-8") as out:
        json.dump(body, out, separators=(",", ":"))
    partial.replace(path)
    return path


def load(path, game=None) -> PolicyFile:
    """Read a policy file; with `game`, refuse a file trained for another game string."""
    path = Path(path)
    try:
        with gzip.open(path, "rt", encoding="utf-8") as source:
            body = json.load(source)
    except FileNotFoundError:
        raise PolicyFileError(f"no policy file {str(path)!r}") from None
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise PolicyFileError(f"{path} is not a koloda policy file ({err})") from None
    if not isinstance(body, dict) or body.get("format") != FORMAT:
        raise PolicyFileError(f"{path} is not a koloda policy file")
    if body.get("version") != VERSION:
        raise PolicyFileError(f"{path} is a policy file of version {body.get('version')}; "
                              f"this koloda reads version {VERSION}")
    data = PolicyFile(
        game=body["game"], algo=body.get("algo", ""), iterations=body.get("iterations", 0),
        seconds=body.get("seconds", 0.0), cpu_seconds=body.get("cpu_seconds", 0.0),
        exploitability=body.get("exploitability"),
        curve=[tuple(point) for point in body.get("curve", [])],
        policy={key: [(int(a), float(p)) for a, p in probs]
                for key, probs in body["policy"].items()})
    if game is not None and data.game != game_string_of(game):
        raise PolicyFileError(f"{path} holds a policy for {data.game}, not for "
                              f"{game_string_of(game)}; train one for this game with "
                              f"koloda cfr train \"{game_string_of(game)}\"")
    return data
