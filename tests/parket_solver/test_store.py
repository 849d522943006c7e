"""The store of solved positions (solvers/parket/store.py): solves that read it give the
same answers in fewer nodes; the file survives a torn write, a foreign or damaged file is
refused in one line and left alone, two writers lose nothing, and the size is bounded."""

import multiprocessing
import os
import struct

import numpy as np
import pytest

from koloda.solvers.parket import Store, StoreError, random_position, solve
from koloda.solvers.parket import store as store_module
from koloda.solvers.parket.fast import FastSearch, Tables
from koloda.solvers.parket.store import HEADER, read_entries


def _values(result):
    return (result.value, result.moves_to_end,
            sorted((m.move, m.value, m.moves_to_end) for m in result.moves))


def _summary(result):
    """Values, lengths and the line: the line is the first of the search's order that
    keeps them, so the same search with a store gives the same line."""
    return (*_values(result), result.pv)


def _entries(count, depth, start=1):
    """`count` made-up entries of keys start.. at `depth` cards in hands, a window each."""
    keys = np.arange(start, start + count, dtype=np.uint64)
    lower = np.full(count, 100, np.uint64)
    upper = np.full(count, 200, np.uint64)
    datas = lower | (upper << np.uint64(16)) | (np.uint64(depth) << np.uint64(44))
    return keys, datas


def test_a_second_solve_reads_the_first_and_answers_the_same(tmp_path):
    path = tmp_path / "solved.kps"
    position = random_position(12, 2)
    plain = solve(position)
    first = solve(position, store=path)
    assert len(Store(path)) > 0
    second = solve(position, store=path)
    assert _summary(first) == _summary(second) == _summary(plain)
    assert second.nodes * 10 < first.nodes


def test_lengths_read_from_a_store_agree(tmp_path):
    path = tmp_path / "solved.kps"
    for seed in range(3):
        solve(random_position(11, seed), store=path)
    for seed in range(3):
        position = random_position(11, seed)
        assert _summary(solve(position, lengths=True, store=path)) == \
            _summary(solve(position, lengths=True))


@pytest.mark.parametrize("order", ["path", "any"])
def test_small_positions_sharing_a_store_agree_with_minimax(tmp_path, order):
    """With entries kept from 3 cards in hands, the store answers inside these trees."""
    store = Store(tmp_path / "small.kps", min_depth=3)
    for seed in range(12):
        position = random_position(3, seed, order)
        assert _values(solve(position, order, 2, store=store, lengths=True)) == \
            _values(solve(position, order, 2, method="minimax", lengths=True))
    assert len(store) > 0


def test_positions_of_one_opening_read_what_the_first_proved(tmp_path):
    """The continuations of a solved position find its proofs in the store."""
    from koloda.games.parket import from_position
    path = tmp_path / "opening.kps"
    state = from_position(random_position(13, 4))
    solve(state.core.position(), store=path)
    later = []
    for action in state.legal_actions()[:3]:
        child = state.child(action)
        if not child.is_terminal():
            later.append(child.core.position())
    assert later
    for position in later:
        search = FastSearch(*_args(position), tables=Tables(18, Store(path)))
        search.exact()
        assert search.stats["store_hits"] > 0
        assert _summary(solve(position, store=path)) == _summary(solve(position))


def _args(position):
    from koloda.solvers.parket.codes import search_args
    from koloda.solvers.parket.problem import read_problem
    return search_args(read_problem(position).core)


def test_a_store_never_answers_under_other_rules(tmp_path):
    path = tmp_path / "rules.kps"
    position = random_position(12, 2)
    solve(position, store=path)
    search = FastSearch(*_args(position), tables=Tables(18, Store(path)))
    search.exact()
    assert search.stats["store_hits"] > 0
    other = random_position(12, 2, "any")
    from koloda.solvers.parket.codes import search_args
    from koloda.solvers.parket.problem import read_problem
    core = read_problem(other, "any").core
    search = FastSearch(*search_args(core), tables=Tables(18, Store(path)))
    search.exact()
    assert search.stats["store_hits"] == 0


def test_a_foreign_file_is_refused_in_one_line_and_left_alone(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"shopping: bread, milk\n" * 10)
    with pytest.raises(StoreError) as error:
        solve(random_position(10, 1), store=path)
    message = str(error.value)
    assert "\n" not in message and str(path) in message and "not a koloda Parket store" \
        in message
    assert path.read_bytes() == b"shopping: bread, milk\n" * 10


def test_another_format_and_a_damaged_file_are_refused(tmp_path):
    path = tmp_path / "solved.kps"
    solve(random_position(12, 2), store=path)
    data = bytearray(path.read_bytes())
    other = bytearray(data)
    struct.pack_into("<I", other, 8, 99)                  # the format
    (tmp_path / "other.kps").write_bytes(bytes(other))
    with pytest.raises(StoreError, match="another format"):
        Store(tmp_path / "other.kps")
    flipped = bytearray(data)
    flipped[HEADER.size + 5] ^= 0xFF
    (tmp_path / "flipped.kps").write_bytes(bytes(flipped))
    with pytest.raises(StoreError, match="checksum"):
        Store(tmp_path / "flipped.kps")
    (tmp_path / "torn.kps").write_bytes(bytes(data[:HEADER.size + 40]))
    with pytest.raises(StoreError, match="damaged: .* bytes where its header promises"):
        Store(tmp_path / "torn.kps")
    (tmp_path / "short.kps").write_bytes(bytes(data[:10]))
    with pytest.raises(StoreError, match="not a koloda Parket store"):
        Store(tmp_path / "short.kps")


def test_a_write_torn_midway_leaves_the_store_whole(tmp_path, monkeypatch):
    path = tmp_path / "solved.kps"
    store = Store(path)
    store.add(*_entries(50, 10), 0, 4)
    store.flush()
    before = path.read_bytes()

    def torn(fd):                          # the machine stops before the data is safe
        raise OSError("power cut")
    monkeypatch.setattr(store_module.os, "fsync", torn)
    store.add(*_entries(50, 10, start=1000), 0, 4)
    with pytest.raises(StoreError, match="cannot be written: power cut"):
        store.flush()
    assert path.read_bytes() == before
    assert len(read_entries(path)[0]) == 50
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".part"] == []


def _writer(path, start, rounds):
    store = Store(path)
    for round_ in range(rounds):
        store.add(*_entries(200, 9, start=start + 200 * round_), 0, 4)
        store.flush()


def test_two_writers_lose_nothing(tmp_path):
    path = str(tmp_path / "shared.kps")
    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_writer, args=(path, start, 15))
               for start in (1, 1_000_000)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(60)
        assert writer.exitcode == 0
    keys, _ = read_entries(tmp_path / "shared.kps")
    word = store_module.rules_word(0, 4)
    expected = set(range(1, 1 + 3000)) | set(range(1_000_000, 1_000_000 + 3000))
    assert {int(k ^ word) for k in keys} == expected


def test_the_size_is_bounded_keeping_the_biggest_subtrees(tmp_path):
    path = tmp_path / "small.kps"
    store = Store(path, max_entries=100)
    store.add(*_entries(150, 8), 0, 4)
    store.add(*_entries(60, 12, start=5000), 0, 4)
    store.flush()
    keys, datas = read_entries(path)
    assert len(keys) == 100 and os.path.getsize(path) == HEADER.size + 100 * 16
    depths = store_module.depth_of(datas)
    assert (depths == 12).sum() == 60 and (depths == 8).sum() == 40
    assert list(keys) == sorted(keys)


def test_entries_of_one_key_meet():
    keys = np.array([7, 7, 9, 9], np.uint64)
    lower = np.array([100, 120, 100, 300], np.uint64)
    upper = np.array([200, 180, 200, 400], np.uint64)
    depth = np.array([8, 10, 8, 8], np.uint64)
    datas = lower | (upper << np.uint64(16)) | (depth << np.uint64(44))
    merged_keys, merged = store_module.merge(keys, datas)
    assert list(merged_keys) == [7]          # key 9's bounds cross: two positions, dropped
    low, high = store_module.bounds_of(merged)
    assert (low[0], high[0], store_module.depth_of(merged)[0]) == (120, 180, 10)


def test_the_solver_agent_keeps_what_it_solves(tmp_path):
    from koloda import games, solvers
    from koloda.games.parket import from_position
    from koloda.solvers.errors import AgentSpecError
    path = tmp_path / "agent.kps"
    game = games.load_game("parket")
    agent = solvers.load_agent(game, f"solver(reach=12,sims=20,store={path})", seed=1)
    state = from_position(random_position(12, 3))
    assert agent.step(state) in state.legal_actions()
    assert len(Store(path)) > 0
    (tmp_path / "x.txt").write_text("hello")
    with pytest.raises(AgentSpecError, match="not a koloda Parket store"):
        solvers.load_agent(game, f"solver(store={tmp_path / 'x.txt'})")


@pytest.mark.parametrize("kwargs,named", [({"max_entries": 0}, "entries"),
                                          ({"max_entries": True}, "entries"),
                                          ({"min_depth": 2}, "cards in hands"),
                                          ({"min_depth": "8"}, "cards in hands")])
def test_a_store_refuses_bad_bounds(tmp_path, kwargs, named):
    with pytest.raises(StoreError, match=named):
        Store(tmp_path / "x.kps", **kwargs)
