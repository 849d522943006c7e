"""The kit's StateLayout: every kernel's state and rules arrays declared once, their
constants the layout's offsets, and the engines' fields read through it."""

from __future__ import annotations

import importlib

import numpy as np
import pyspiel
import pytest

import koloda.games  # noqa: F401  (registers the games)
from koloda.games.kit.kernel_engine import KernelEngine
from koloda.games.kit.layout import StateLayout

KERNELS = ["koloda.games.durak.kernel", "koloda.games.platinum_fish.kernel",
           "koloda.games.snitch.kernel", "koloda.games.parket.kernel",
           "koloda.solvers.parket.kernel"]


def layouts():
    for name in KERNELS:
        module = importlib.import_module(name)
        for attribute, size in (("STATE", "STATE_SIZE"), ("RULES", "RULES_SIZE")):
            layout = getattr(module, attribute, None)
            if layout is not None:
                yield pytest.param(module, layout, size, id=f"{name.split('.')[-2]}.{attribute}")


@pytest.mark.parametrize("module, layout, size", list(layouts()))
def test_each_constant_is_its_fields_offset_and_the_fields_tile_the_array(module, layout,
                                                                          size):
    at = 0
    for field in layout.fields:
        assert getattr(module, field.name) == field.offset == at, field.name
        at += field.size
    assert getattr(module, size) == layout.size == at


def test_the_solver_keeps_the_board_first_where_its_moves_index_it():
    from koloda.solvers.parket import kernel
    assert kernel.CELLS == 0


@pytest.mark.parametrize("game_string", ["durak", "platinum_fish", "snitch(players=3)",
                                         "parket"])
def test_the_engine_reads_every_field_as_the_kernel_wrote_it(game_string):
    game = pyspiel.load_game(game_string)
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    core = state.core
    st = core.st
    for field in core.kernel.STATE.fields:
        if field.kind == "block":
            assert field.name.lower() not in core.kernel.STATE.properties()
            continue
        value = getattr(core, field.name.lower())
        if field.kind == "word":
            assert value == st[field.offset]
        elif field.kind == "flag":
            assert value is bool(st[field.offset])
        elif field.kind == "words":
            per = field.size if field.per is None else field.per
            count = per if isinstance(per, int) else getattr(core.rules, per)
            assert value == st[field.offset:field.offset + count].tolist()
        else:
            length = int(st[field.length_at])
            assert list(value) == st[field.offset:field.offset + length].tolist()
            assert isinstance(value, tuple) == field.as_tuple


def test_a_field_that_would_hide_an_engine_attribute_is_refused():
    layout = StateLayout("a test array")
    layout.word("COPY")
    kernel = type("kernel", (), {"STATE": layout})

    with pytest.raises(TypeError, match="COPY would hide the attribute copy"):
        type("Hiding", (KernelEngine,), {"__slots__": (), "kernel": kernel})


def test_a_layout_refuses_what_would_misplace_a_word():
    layout = StateLayout("a test array")
    count = layout.word("N")
    with pytest.raises(ValueError, match="declared twice"):
        layout.word("N")
    with pytest.raises(ValueError, match="upper case"):
        layout.word("phase")
    with pytest.raises(ValueError, match="size of at least 1"):
        layout.block("EMPTY", 0)
    with pytest.raises(ValueError, match="not a word declared before it"):
        layout.counted("RUN", 4, count + 1)
    assert layout.counted("RUN", 4, count) == 1
    assert layout.size == 5
    assert "RUN" in layout.describe()
