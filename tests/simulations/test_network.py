"""Forward/backward bookkeeping: log-space norms, deep stacks, initializers."""
import math

import numpy as np
import pytest
from hypothesis import given

from simulations import backward, build_mlp, build_resnet, forward, get_backend, haar_orthogonal

from ..strategies import seeds


@given(seed=seeds)
def test_renormalized_norms_equal_direct_norms(seed):
    be = get_backend(seed=seed)
    ops = build_resnet(be, [6, 6], [5], [7], "proposed_orthogonal", n_networks=2)
    x = be.normal((2, 3, 6))
    a, b = forward(ops, x, np), forward(ops, x, np, renormalize=True)
    assert np.allclose(a.log_norms, b.log_norms)
    e = be.normal((2, 3, 6))
    assert np.allclose(backward(ops, a, e, np)[0], backward(ops, b, e, np)[0])


def test_ten_thousand_blocks_stay_finite():
    be = get_backend(seed=1)
    ops = build_resnet(be, [8, 8], [10000], [8], "pytorch_default")
    tape = forward(ops, be.normal((1, 2, 8)), np, renormalize=True)
    lg, _ = backward(ops, tape, be.normal((1, 2, 8)), np)
    assert np.all(np.isfinite(tape.log_norms)) and np.all(np.isfinite(lg))
    # PyTorch's default grows as (19/18)^B: far beyond float64 without log space.
    assert float(np.mean(tape.log_norms[..., -1])) > 100 > math.log(np.finfo(float).max) / 10


def test_haar_orthogonal_rows_and_columns():
    be = get_backend(seed=3)
    q = haar_orthogonal(be, 4, 3, 7)
    assert np.allclose(q @ np.swapaxes(q, -1, -2), np.eye(3))
    q = haar_orthogonal(be, 4, 7, 3)
    assert np.allclose(np.swapaxes(q, -1, -2) @ q, np.eye(3))


def test_data_dependent_init_standardizes_preactivations():
    be = get_backend(seed=5)
    x = be.normal((2, 64, 10))
    ops = build_mlp(be, [10, 12, 12], "data_dependent", n_networks=2, data=x)
    a = np.matmul(x, np.swapaxes(ops[0].layer.v / np.linalg.norm(ops[0].layer.v, axis=-1, keepdims=True), -1, -2))
    a = a * ops[0].layer.g[:, None] + ops[0].layer.b[:, None]
    assert np.allclose(a.mean(axis=1), 0, atol=1e-10) and np.allclose(a.std(axis=1), 1)


def test_pytorch_default_gain_is_row_norm():
    be = get_backend(seed=2)
    (op,) = build_mlp(be, [9, 5], "pytorch_default")
    assert np.allclose(op.layer.g, np.linalg.norm(op.layer.v, axis=-1))


def test_renormalize_rejects_biases():
    be = get_backend(seed=5)
    x = be.normal((1, 8, 4))
    ops = build_mlp(be, [4, 5], "data_dependent", data=x)
    with pytest.raises(ValueError, match="renormalize=True needs zero biases"):
        forward(ops, x, np, renormalize=True)
