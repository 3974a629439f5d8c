"""Per-block branch scales of the residual nets: a sequence of scales is the blocks run
one by one with their own scale, the backward pass differentiates it (finite
differences), the scales may be an array of the network's own namespace, and a bad
sequence is refused in one line naming the parameter and its range."""
import numpy as np
import pytest

from simulations import draw_resnet, get_backend, resnet_backward, resnet_forward, to_host
from simulations.relu_nets.resnet import block_scales

EPS = 1e-6
SCALES = (0.5, 0.0, 2.0, -0.25)


def test_per_block_scales_run_each_block_with_its_own_scale(backend_name):
    be = get_backend(backend_name, seed=3)
    net = draw_resnet(be, 5, len(SCALES), hidden=6, n_networks=2)
    x = be.normal((2, 3, 5))
    out = resnet_forward(net, x, scale=list(SCALES))
    h = x
    for block, c in zip(net, SCALES):
        h = resnet_forward([block], h, scale=c)["x"][-1]
    np.testing.assert_allclose(to_host(out["x"][-1]), to_host(h), rtol=1e-12)
    assert out["scale"] == SCALES
    on_device = resnet_forward(net, x, scale=be.xp.asarray(SCALES))  # an array of the arrays' own namespace
    np.testing.assert_array_equal(to_host(on_device["x"][-1]), to_host(out["x"][-1]))
    uniform = resnet_forward(net, x, scale=0.5)
    assert uniform["scale"] == (0.5,) * len(SCALES)
    np.testing.assert_array_equal(to_host(uniform["x"][-1]), to_host(resnet_forward(net, x, scale=[0.5] * 4)["x"][-1]))


def test_gradients_with_per_block_scales_match_finite_differences(backend_name):
    be = get_backend(backend_name, seed=5)
    net = draw_resnet(be, 4, len(SCALES), hidden=5)
    x, g = be.normal((1, 3, 4)), be.normal((1, 1, 4))

    def loss(n, x_=x):
        return float((resnet_forward(n, x_, scale=SCALES, s_out=0.8)["x"][-1] * g).sum())

    fwd = resnet_forward(net, x, scale=SCALES, s_out=0.8)
    grads = resnet_backward(net, fwd, be.xp.broadcast_to(g, x.shape))
    for l, j in ((0, 0), (2, 1), (3, 0)):
        idx = (0, 1, 2)
        e = np.zeros(to_host(net[l][j]).shape)
        e[idx] = EPS

        def moved(sign):
            out = [list(b) for b in net]
            out[l][j] = net[l][j] + sign * be.xp.asarray(e)
            return out

        fd = (loss(moved(1)) - loss(moved(-1))) / (2 * EPS)
        assert np.isclose(fd, to_host(grads["dW"][l][j])[idx], rtol=1e-5, atol=1e-9), (l, j)
    assert not to_host(grads["dW"][1][0]).any()  # block 1's scale is 0: its branch gets no gradient
    fd_x = (loss(net, x * (1 + EPS)) - loss(net, x * (1 - EPS))) / (2 * EPS)
    assert np.isclose(fd_x, float(to_host((grads["dx"][0] * x).sum())), rtol=1e-5, atol=1e-9)


@pytest.mark.parametrize("scale", [[1.0, 2.0], [1.0, float("nan"), 1.0], float("inf"), "1", True, [[1.0, 1.0, 1.0]],
                                   np.ones((3, 1)), [1.0, None, 1.0], [True, 1.0, 1.0]])
def test_bad_scales_are_named_in_one_line(scale):
    net = draw_resnet(get_backend(seed=0), 2, 3)
    with pytest.raises(ValueError, match=r"^scale must be a finite number or a sequence of 3 finite numbers \(one per "
                                         r"block\), got .*") as e:
        resnet_forward(net, np.ones((1, 1, 2)), scale=scale)
    assert "\n" not in str(e.value)


def test_block_scales_reads_host_and_device_arrays(strict_cupy):
    import cupy

    assert block_scales(cupy.asarray([1.0, 0.5]), 2) == (1.0, 0.5)
    assert block_scales(np.array([1.0, 0.5]), 2) == (1.0, 0.5)
