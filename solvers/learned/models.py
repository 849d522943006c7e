"""Learned models by name, shipped as package data: `<game>-v<N>` (a value model) or
`<game>-policy-v<N>` (a policy) is one packed mlp
(mlp.py) in `models/<name>.npy`, and `models/index.json` holds its SHA-256, its game, its
kind, the features it reads and the game variants it was fitted for.

A spec names a model (`ismcts(value=durak-v1)`), so a refit is a new name and never
silently changes what a calibrated level plays.  A file whose bytes do not have the digest
the index names is refused, as is a game variant the model was not fitted for: each with
one line that says which.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from koloda.solvers.errors import AgentSpecError
from koloda.solvers.learned.mlp import unpack, widths

PACKAGE = "koloda.solvers.learned"
FOLDER = "models"
INDEX = "index.json"
#: folders of models beyond the shipped ones (a learning run's generations), separated by
#: os.pathsep; read by every process, so a tournament's workers find them too
EXTRA_FOLDERS = "KOLODA_MODELS"
#: shipped: -v<N>; a learning run's: -g<N>; a policy's name says so
NAME = re.compile(r"^[a-z_]+-(policy-)?[vg][0-9]+$")
KINDS = ("value", "policy")
#: the largest model file and index koloda reads (a Parket policy of 128 hidden units is
#: about 4 MB)
MAX_MODEL_BYTES = 64 << 20
MAX_INDEX_BYTES = 1 << 20


class ModelError(AgentSpecError):
    """A model that does not exist, does not load, or does not fit the game asked."""


@dataclass(frozen=True)
class Model:
    """One shipped model: its packed weights and what the index says of it."""

    name: str
    game: str                  # the game's short name
    kind: str                  # "value" or "policy"
    features: str              # the features it reads, by name (e.g. "durak-v1")
    variants: dict[str, Any]   # the game parameters it was fitted for
    weights: np.ndarray        # the packed mlp
    digest: str

    def check_game(self, game) -> None:
        """ModelError unless `game` (a pyspiel game of this model's) is a variant the
        model was fitted for."""
        short = game.get_type().short_name
        if short != self.game:
            raise ModelError(f"model {self.name} is a model of {self.game}, not {short}")
        params = game.get_parameters()
        for key, value in self.variants.items():
            if params.get(key) != value:
                raise ModelError(f"model {self.name} was fitted for {key}={value}; this game "
                                 f"has {key}={params.get(key)}")


def digest_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def npy_bytes(weights: np.ndarray) -> bytes:
    """The .npy file of packed weights: the same bytes for the same weights."""
    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(weights, np.float64), allow_pickle=False)
    return buffer.getvalue()


def _folders() -> list:
    """The shipped models' folder, then those KOLODA_MODELS names."""
    extra = [Path(p) for p in os.environ.get(EXTRA_FOLDERS, "").split(os.pathsep) if p]
    return [resources.files(PACKAGE).joinpath(FOLDER), *extra]


def use_models_from(folder: Path) -> None:
    """Make the models of `folder` loadable by name here and in the workers this process
    starts from now on (a learning run's generations)."""
    folders = [p for p in os.environ.get(EXTRA_FOLDERS, "").split(os.pathsep) if p]
    if str(folder) not in folders:
        os.environ[EXTRA_FOLDERS] = os.pathsep.join([*folders, str(folder)])
    load_model.cache_clear()


def _entries() -> dict[str, tuple[Any, dict]]:
    """Each model's folder and index entry by name; the shipped ones win."""
    found: dict[str, tuple[Any, dict]] = {}
    for folder in _folders():
        _check_size(folder.joinpath(INDEX), MAX_INDEX_BYTES, f"a model index ({INDEX})")
        try:
            entries = json.loads(folder.joinpath(INDEX).read_text())
        except (FileNotFoundError, NotADirectoryError):
            continue
        except (OSError, ValueError) as err:
            raise ModelError(f"a model index ({INDEX}) cannot be read: "
                             f"{type(err).__name__}") from None
        if not isinstance(entries, dict) or \
                not all(isinstance(entry, dict) for entry in entries.values()):
            raise ModelError(f"a model index ({INDEX}) is not an object of model entries")
        for name, entry in entries.items():
            found.setdefault(name, (folder, entry))
    return found


def _check_size(path, limit: int, what: str) -> None:
    """ModelError for a file on disk (a KOLODA_MODELS folder's) larger than `limit`;
    package data is koloda's own and is not checked."""
    if isinstance(path, Path) and path.is_file() and path.stat().st_size > limit:
        raise ModelError(f"{what} is larger than the {limit >> 20} MB koloda reads")


def index() -> dict[str, dict]:
    """The models' entries by name (the shipped ones and KOLODA_MODELS's)."""
    return {name: entry for name, (_, entry) in _entries().items()}


def value_models_for(game) -> list[str]:
    """The names of the known value models fitted for `game` (a pyspiel game), shipped
    ones first."""
    short, params = game.get_type().short_name, game.get_parameters()
    return [name for name, entry in index().items()
            if entry.get("game") == short and entry.get("kind") == "value" and
            all(params.get(k) == v for k, v in entry.get("variants", {}).items())]


@lru_cache(maxsize=32)
def load_model(name: str) -> Model:
    """The shipped model `name`; ModelError names what is wrong."""
    if not NAME.match(name):
        raise ModelError(f"a model is named <game>-v<N> (durak-v1) or <game>-policy-v<N>, "
                         f"not {name[:40]!r}")
    entries = _entries()
    if name not in entries:
        known = ", ".join(sorted(entries)) or "none"
        raise ModelError(f"no model named {name} (known: {known})")
    folder, entry = entries[name]
    fields = {"sha256": str, "game": str, "kind": str, "features": str, "variants": dict}
    if not all(isinstance(entry.get(key, {} if key == "variants" else None), kind)
               for key, kind in fields.items()):
        raise ModelError(f"model {name}: its index entry is not one koloda reads")
    try:
        _check_size(folder.joinpath(f"{name}.npy"), MAX_MODEL_BYTES, f"model {name}'s file")
        data = folder.joinpath(f"{name}.npy").read_bytes()
    except OSError:
        raise ModelError(f"model {name}: its file {name}.npy is missing") from None
    digest = digest_of(data)
    if digest != entry["sha256"]:
        raise ModelError(f"model {name}: its file's digest {digest[:12]} is not the "
                         f"{entry['sha256'][:12]} its index names; reinstall koloda")
    try:
        weights = np.load(io.BytesIO(data), allow_pickle=False)
        unpack(weights)
    except ValueError as err:
        raise ModelError(f"model {name}: {err}") from None
    weights.setflags(write=False)
    return Model(name, entry["game"], entry["kind"], entry["features"],
                 dict(entry.get("variants", {})), weights, digest)


def write_model(folder: Path, name: str, game: str, kind: str, features: str,
                variants: dict, weights: np.ndarray, about: dict | None = None) -> str:
    """Write `weights` as model `name` into `folder` (its .npy and its index entry) and
    return its digest: how learn.py ships a generation."""
    if not NAME.match(name) or kind not in KINDS:
        raise ValueError(f"model {name!r} of kind {kind!r}")
    unpack(weights)
    folder.mkdir(parents=True, exist_ok=True)
    data = npy_bytes(weights)
    (folder / f"{name}.npy").write_bytes(data)
    path = folder / INDEX
    entries = json.loads(path.read_text()) if path.exists() else {}
    entries[name] = {"game": game, "kind": kind, "features": features, "variants": variants,
                     "widths": widths(weights), "sha256": digest_of(data), **(about or {})}
    path.write_text(json.dumps(dict(sorted(entries.items())), indent=1) + "\n")
    return digest_of(data)
