"""A store of solved positions: what solves proved, kept in a file that later solves read
and extend (docs/parket-store.md describes the file).

A solve's transposition table ends holding bounds on the scores of the positions it
searched.  Those of positions with at least `min_depth` cards in hands (their subtrees
are big) are kept: the store is read into a table of its own that the search asks when
its transposition table has no entry, and what a solve proves is merged back into the
file when the solve ends (`flush`).  Every entry is a bound the search proved, so a solve
that reads the store gives the same values, in fewer nodes.

The file is safe:
- against a torn write: it is written whole to a temporary file beside it and renamed
  over it, so a reader sees the old file or the new one, never half of one;
- against two writers: a writer holds a lock (a file beside the store) while it reads
  the file as it is now, merges its entries in and renames the new file over it, so no
  writer's entries are lost;
- against growing without end: past `max_entries` the entries of the most cards in
  hands (exact values first among equals) are kept;
- against foreign or damaged files: the magic, the format, the length and a checksum are
  checked, and a file that fails is refused with StoreError, one line naming the file and
  what is wrong; it is never overwritten.
Entries of every rule set share one file: a key is the position's key XOR a word of its
rules (corner order, relocation cap), so a store never answers under other rules.
"""

from __future__ import annotations

import hashlib
import os
import struct
import tempfile
from pathlib import Path

import numpy as np

from koloda.games.errors import KolodaError
from koloda.solvers.parket import tables

MAGIC = b"KPSTORE\0"
FORMAT = 1
HEADER = struct.Struct("<8sII QQ 16s 16x")       # 64 bytes
ENTRY_BYTES = 16
DEFAULT_MAX_ENTRIES = 1 << 20                    # 16 MiB of entries
MAX_ENTRIES = 1 << 26                            # what a store may hold at most (1 GiB)
DEFAULT_MIN_DEPTH = 8                            # cards in hands: 7 empty cells or more
DEPTH_SHIFT = tables.ENTRY_DEPTH_SHIFT           # an entry's cards in hands (kernel.py)
LOW16 = np.uint64(0xFFFF)


class StoreError(KolodaError, ValueError):
    """A store file that cannot be read as one: foreign, damaged or of another format."""


def scheme() -> int:
    """What the keys and entries mean: a digest of the Zobrist numbers and the entry
    layout, so a store written under other ones is refused, not misread."""
    digest = hashlib.blake2b(digest_size=4)
    digest.update(repr((tables.ZOBRIST, tables.ZOBRIST_BLACK_TO_MOVE,
                        tables.ZOBRIST_CROSS_PHASE, tables.ZOBRIST_RELOCATIONS,
                        DEPTH_SHIFT)).encode())
    return int.from_bytes(digest.digest(), "little")


def rules_word(corner_order: int, max_relocations: int) -> np.uint64:
    digest = hashlib.blake2b(f"parket-store:{corner_order}:{max_relocations}".encode(),
                             digest_size=8)
    return np.uint64(int.from_bytes(digest.digest(), "little"))


def depth_of(datas: np.ndarray) -> np.ndarray:
    return (datas >> np.uint64(DEPTH_SHIFT)).astype(np.int64)


def bounds_of(datas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The packed lower and upper bounds (kernel.pack_entry), as stored."""
    return ((datas & LOW16).astype(np.int64),
            ((datas >> np.uint64(16)) & LOW16).astype(np.int64))


def _pack(lower: np.ndarray, upper: np.ndarray, depth: np.ndarray) -> np.ndarray:
    return (lower.astype(np.uint64) | (upper.astype(np.uint64) << np.uint64(16))
            | (depth.astype(np.uint64) << np.uint64(DEPTH_SHIFT)))


def merge(keys: np.ndarray, datas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One entry per key, sorted by key: the bounds of one key's entries are all true, so
    they meet (the greatest lower, the least upper bound).  A key whose bounds cross
    (two positions that share a key) is dropped."""
    if not len(keys):
        return keys.astype(np.uint64), datas.astype(np.uint64)
    order = np.argsort(keys, kind="stable")
    keys, datas = keys[order], datas[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    lower, upper = bounds_of(datas)
    lower = np.maximum.reduceat(lower, starts)
    upper = np.minimum.reduceat(upper, starts)
    depth = np.maximum.reduceat(depth_of(datas), starts)
    sound = lower <= upper
    return keys[starts][sound], _pack(lower, upper, depth)[sound]


def bound(keys: np.ndarray, datas: np.ndarray, max_entries: int
          ) -> tuple[np.ndarray, np.ndarray]:
    """At most `max_entries` of the merged entries: the most cards in hands first (the
    biggest subtrees), exact values first among equals; sorted by key again."""
    if len(keys) <= max_entries:
        return keys, datas
    lower, upper = bounds_of(datas)
    order = np.lexsort((keys, lower != upper, -depth_of(datas)))[:max_entries]
    order.sort()
    return keys[order], datas[order]


def read_entries(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """The entries of the store at `path` (none when there is no file), checked; StoreError
    for a file that is not a whole store of this format."""
    try:
        with open(path, "rb") as file:
            head = file.read(HEADER.size)
            if len(head) < HEADER.size or not head.startswith(MAGIC):
                raise StoreError(f"{path} is not a koloda Parket store (it does not begin "
                                 f"with {MAGIC[:7].decode()}); name another file")
            magic, version, its_scheme, count, _, digest = HEADER.unpack(head)
            if version != FORMAT or its_scheme != scheme():
                raise StoreError(f"{path} is a Parket store of another format (format "
                                 f"{version}, scheme {its_scheme:08x}; this is format "
                                 f"{FORMAT}, scheme {scheme():08x}); name another file")
            if count > MAX_ENTRIES:
                raise StoreError(f"{path} is damaged: its header counts {count:,} "
                                 f"entries, more than a store holds ({MAX_ENTRIES:,})")
            payload = file.read(count * ENTRY_BYTES + 1)
    except FileNotFoundError:
        return np.zeros(0, np.uint64), np.zeros(0, np.uint64)
    except IsADirectoryError:
        raise StoreError(f"{path} is a directory, not a Parket store") from None
    except PermissionError:
        raise StoreError(f"{path} cannot be read (permission denied)") from None
    if len(payload) != count * ENTRY_BYTES:
        raise StoreError(f"{path} is damaged: {HEADER.size + len(payload):,} bytes where "
                         f"its header promises {HEADER.size + count * ENTRY_BYTES:,}")
    if hashlib.blake2b(payload, digest_size=16).digest() != digest:
        raise StoreError(f"{path} is damaged: its entries do not match their checksum")
    pairs = np.frombuffer(payload, dtype="<u8").reshape(-1, 2)
    return pairs[:, 0].astype(np.uint64), pairs[:, 1].astype(np.uint64)


def write_entries(path: Path, keys: np.ndarray, datas: np.ndarray,
                  max_entries: int) -> None:
    """Writes the store whole beside `path` and renames it over `path` (atomic)."""
    payload = np.column_stack((keys, datas)).astype("<u8").tobytes()
    head = HEADER.pack(MAGIC, FORMAT, scheme(), len(keys), max_entries,
                       hashlib.blake2b(payload, digest_size=16).digest())
    handle, temporary = tempfile.mkstemp(prefix=path.name + ".", suffix=".part",
                                         dir=path.parent)
    try:
        try:
            mode = path.stat().st_mode & 0o777
        except FileNotFoundError:
            mode = 0o644
        os.chmod(temporary, mode)
        with os.fdopen(handle, "wb") as file:
            file.write(head)
            file.write(payload)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class _Lock:
    """An exclusive lock on `path` + ".lock" between processes, held while a writer
    reads, merges and replaces the store."""

    def __init__(self, path: Path):
        self.path = path.with_name(path.name + ".lock")

    def __enter__(self):
        self.file = open(self.path, "a+b")
        try:
            import fcntl
            fcntl.flock(self.file.fileno(), fcntl.LOCK_EX)
        except ImportError:                           # Windows
            import msvcrt
            self.file.seek(0)
            msvcrt.locking(self.file.fileno(), msvcrt.LK_LOCK, 1)
        return self

    def __exit__(self, *exc):
        self.file.close()                             # closing releases the lock


class Store:
    """The store at `path`: read when a solve first asks (`probe_table`), extended by
    `add` and written by `flush`.  StoreError when the file is not a store."""

    def __init__(self, path, max_entries: int = DEFAULT_MAX_ENTRIES,
                 min_depth: int = DEFAULT_MIN_DEPTH):
        if isinstance(max_entries, bool) or not isinstance(max_entries, int) \
                or not 1 <= max_entries <= MAX_ENTRIES:
            raise StoreError(f"a store holds 1..{MAX_ENTRIES:,} entries, not "
                             f"{max_entries!r}"[:120])
        if isinstance(min_depth, bool) or not isinstance(min_depth, int) \
                or not tables.TABLE_FROM < min_depth <= 2 * tables.NUM_CLASSES:
            raise StoreError(f"a store keeps positions of {tables.TABLE_FROM + 1}.."
                             f"{2 * tables.NUM_CLASSES} cards in hands and more, not "
                             f"{min_depth!r}"[:120])
        self.path = Path(path)
        self.max_entries, self.min_depth = max_entries, min_depth
        self._keys, self._datas = read_entries(self.path)      # refuses a foreign file
        self._pending: list[tuple[np.ndarray, np.ndarray]] = []
        self._tables: dict = {}
        self.read_entries = len(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def probe_table(self, corner_order: int, max_relocations: int
                    ) -> tuple[np.ndarray, np.ndarray]:
        """The store's entries as the search asks them (kernel.store_lookup): an open
        addressing table of the search's own keys under these rules."""
        rules = (corner_order, max_relocations)
        if rules not in self._tables:
            from koloda.solvers.parket.kernel import build_store_table
            keys = self._keys ^ rules_word(*rules)
            size = 1 << max(4, (2 * len(keys)).bit_length())
            probe_keys, probe_datas = np.zeros(size, np.uint64), np.zeros(size, np.uint64)
            build_store_table(keys, self._datas, probe_keys, probe_datas)
            self._tables[rules] = (probe_keys, probe_datas)
        return self._tables[rules]

    def add(self, keys: np.ndarray, datas: np.ndarray, corner_order: int,
            max_relocations: int) -> None:
        """Entries a solve proved (the search's keys, kernel.harvest) to write at flush."""
        if len(keys):
            self._pending.append((keys ^ rules_word(corner_order, max_relocations), datas))

    def flush(self) -> int:
        """Merges the entries added since the last flush into the file, as it is now
        (another process may have written it meanwhile); returns the entries it holds."""
        if not self._pending:
            return len(self._keys)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with _Lock(self.path):
                keys, datas = read_entries(self.path)
                keys = np.concatenate([keys] + [k for k, _ in self._pending])
                datas = np.concatenate([datas] + [d for _, d in self._pending])
                keys, datas = bound(*merge(keys, datas), self.max_entries)
                write_entries(self.path, keys, datas, self.max_entries)
        except OSError as error:
            raise StoreError(f"{self.path} cannot be written: {error.strerror or error}") \
                from None
        self._pending.clear()
        self._keys, self._datas = keys, datas
        self._tables.clear()
        return len(keys)


def open_store(store) -> Store | None:
    """A Store from what a caller gives: None, a Store, or a path."""
    if store is None or isinstance(store, Store):
        return store
    if isinstance(store, (str, os.PathLike)) and str(store).strip():
        return Store(store)
    raise StoreError(f"a store is a file's path or a Store, not {store!r}"[:120])
