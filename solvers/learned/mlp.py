"""A small multilayer perceptron as search reads it: one flat float64 array, so a model
travels into the compiled tree as the one `weights` array every leaf takes, with a numba
forward pass and the plain numpy one it is tested against.

Packed layout: the number of layers L, the L + 1 widths (inputs first), then per layer its
weights (inputs x outputs, row-major) and its biases.  Hidden layers are ReLU, the output
is linear.  Running a model needs numpy and numba only; fitting one is learn.py's (the
optional `koloda[learn]`).
"""

from __future__ import annotations

import numpy as np
from numba import njit


def pack(layers) -> np.ndarray:
    """`layers`: (weights, biases) pairs, weights shaped (inputs, outputs)."""
    widths = [layers[0][0].shape[0]] + [w.shape[1] for w, _ in layers]
    for (w, b), (inputs, outputs) in zip(layers, zip(widths, widths[1:])):
        if w.shape != (inputs, outputs) or b.shape != (outputs,):
            raise ValueError(f"a layer of shape {w.shape} with {b.shape} biases does not "
                             f"follow {inputs} inputs")
    parts = [np.array([len(layers), *widths], np.float64)]
    for w, b in layers:
        parts += [np.asarray(w, np.float64).ravel(), np.asarray(b, np.float64)]
    return np.concatenate(parts)


def unpack(packed: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (weights, biases) pairs of a packed model; ValueError if it is not one."""
    if packed.ndim != 1 or packed.size < 3:
        raise ValueError("a packed model is a flat array of at least 3 numbers")
    count = int(packed[0])
    if not 1 <= count <= 16 or packed.size < count + 2:
        raise ValueError(f"a packed model of {count} layers is not one koloda reads")
    widths = [int(w) for w in packed[1:count + 2]]
    at, layers = count + 2, []
    for inputs, outputs in zip(widths, widths[1:]):
        end = at + inputs * outputs + outputs
        if inputs < 1 or outputs < 1 or end > packed.size:
            raise ValueError(f"a packed model's widths {widths} do not fit its "
                             f"{packed.size} numbers")
        w = packed[at:at + inputs * outputs].reshape(inputs, outputs)
        layers.append((w, packed[at + inputs * outputs:end]))
        at = end
    if at != packed.size:
        raise ValueError(f"a packed model's widths {widths} leave {packed.size - at} "
                         f"numbers over")
    return layers


def widths(packed: np.ndarray) -> list[int]:
    return [int(w) for w in packed[1:int(packed[0]) + 2]]


def forward_reference(packed: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The model's outputs for the inputs `x` (one row, or a batch of rows): numpy."""
    layers = unpack(packed)
    h = np.asarray(x, np.float64)
    for i, (w, b) in enumerate(layers):
        h = h @ w + b
        if i < len(layers) - 1:
            h = np.maximum(h, 0.0)
    return h


@njit(cache=True)
def forward(packed, x, out):
    """The model's outputs for the one input row `x`, written to `out` (as wide as the
    last layer): what the compiled leaves call."""
    count = int(packed[0])
    widest = 0
    for i in range(count + 1):
        widest = max(widest, int(packed[1 + i]))
    a = np.empty(widest)
    b = np.empty(widest)
    inputs = int(packed[1])
    for i in range(inputs):
        a[i] = x[i]
    at = count + 2
    for layer in range(count):
        inputs = int(packed[1 + layer])
        outputs = int(packed[2 + layer])
        bias = at + inputs * outputs
        for j in range(outputs):
            b[j] = packed[bias + j]
        for i in range(inputs):
            v = a[i]
            if v != 0.0:
                row = at + i * outputs
                for j in range(outputs):
                    b[j] += v * packed[row + j]
        if layer < count - 1:
            for j in range(outputs):
                a[j] = b[j] if b[j] > 0.0 else 0.0
        else:
            for j in range(outputs):
                out[j] = b[j]
        at = bias + outputs
