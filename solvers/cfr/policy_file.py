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
import io
import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from koloda.games import game_string_of
from koloda.games.errors import KolodaError
from koloda.games.kit.files import UnreadableFile, read_regular
from koloda.games.kit.params import cut

FORMAT = "koloda-policy"
VERSION = 1
#: the largest policy file read, and the most JSON it may unpack to (a policy of a game
#: small enough for CFR is a small part of either)
MAX_FILE_BYTES = 64 * 2**20
MAX_JSON_BYTES = 256 * 2**20


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
    body = _body(path)
    if not isinstance(body, dict) or body.get("format") != FORMAT:
        raise PolicyFileError(f"{path} is not a koloda policy file")
    if body.get("version") != VERSION:
        raise PolicyFileError(f"{path} is a policy file of version {body.get('version')}; "
                              f"this koloda reads version {VERSION}")
    try:
        data = PolicyFile(
            game=body["game"], algo=body.get("algo", ""),
            iterations=body.get("iterations", 0), seconds=body.get("seconds", 0.0),
            cpu_seconds=body.get("cpu_seconds", 0.0),
            exploitability=body.get("exploitability"),
            curve=[tuple(point) for point in body.get("curve", [])],
            policy={key: [(int(a), float(p)) for a, p in probs]
                    for key, probs in body["policy"].items()})
    except KeyError as err:
        raise PolicyFileError(f"{path} is not a koloda policy file (no {err})") from None
    except (TypeError, ValueError, AttributeError):
        raise PolicyFileError(f"{path} is not a koloda policy file (a field of the wrong "
                              f"type)") from None
    if game is not None and data.game != game_string_of(game):
        raise PolicyFileError(f"{path} holds a policy for {data.game}, not for "
                              f"{game_string_of(game)}; train one for this game with "
                              f"koloda cfr train \"{game_string_of(game)}\"")
    return data


def _body(path: Path):
    """The JSON of the policy file at `path`: a regular file of at most MAX_FILE_BYTES
    whose JSON is at most MAX_JSON_BYTES, so a pipe or a gzip bomb is one error."""
    try:
        raw = read_regular(path, MAX_FILE_BYTES)
    except UnreadableFile as err:
        if str(err) == "does not exist":
            raise PolicyFileError(f"no policy file {str(path)!r}") from None
        raise PolicyFileError(f"policy file {path} {err}") from None
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as source:
            text = source.read(MAX_JSON_BYTES + 1)
    except (OSError, EOFError, zlib.error) as err:
        raise PolicyFileError(f"{path} is not a koloda policy file ({err})") from None
    if len(text) > MAX_JSON_BYTES:
        raise PolicyFileError(f"{path} is not a koloda policy file (its JSON is larger than "
                              f"{_size(MAX_JSON_BYTES)})")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as err:       # JSON, UTF-8, too many digits
        raise PolicyFileError(f"{path} is not a koloda policy file "
                              f"({cut(' '.join(str(err).split()), 200)})") from None


def _size(limit: int) -> str:
    return f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit} bytes"
