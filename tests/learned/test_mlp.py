"""The packed mlp: the kernel's forward pass equals the numpy reference, and a packed
array that is not a model is refused."""

import numpy as np
import pytest

from koloda.solvers.learned import mlp

from .helpers import random_mlp


@pytest.mark.parametrize("inputs,hidden,outputs", [(5, (), 1), (40, (16,), 3),
                                                   (340, (128, 64), 1), (7, (3, 9, 4), 2)])
def test_the_kernel_forward_pass_equals_the_numpy_reference(inputs, hidden, outputs):
    packed = random_mlp(inputs, hidden, outputs, seed=inputs)
    rng = np.random.default_rng(1)
    for _ in range(20):
        x = rng.normal(size=inputs) * (rng.random(inputs) < 0.5)    # sparse, as card bits
        out = np.empty(outputs)
        mlp.forward(packed, x, out)
        np.testing.assert_allclose(out, mlp.forward_reference(packed, x), rtol=1e-12,
                                   atol=1e-12)


def test_packing_round_trips_and_the_reference_reads_batches():
    packed = random_mlp(6, (4,), 2)
    layers = mlp.unpack(packed)
    assert [w.shape for w, _ in layers] == [(6, 4), (4, 2)]
    np.testing.assert_array_equal(mlp.pack(layers), packed)
    batch = np.random.default_rng(2).normal(size=(5, 6))
    assert mlp.forward_reference(packed, batch).shape == (5, 2)
    np.testing.assert_allclose(mlp.forward_reference(packed, batch)[3],
                               mlp.forward_reference(packed, batch[3]))


def test_an_array_that_is_not_a_packed_model_is_refused():
    packed = random_mlp(6, (4,), 2)
    with pytest.raises(ValueError, match="numbers over"):
        mlp.unpack(np.append(packed, 0.0))
    with pytest.raises(ValueError, match="do not fit"):
        mlp.unpack(packed[:-3])
    with pytest.raises(ValueError, match="not one koloda reads"):
        mlp.unpack(np.array([99.0, 1.0, 1.0]))
    with pytest.raises(ValueError, match="does not follow"):
        mlp.pack([(np.zeros((3, 2)), np.zeros(2)), (np.zeros((3, 1)), np.zeros(1))])
