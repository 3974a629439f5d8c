"""No simulator reads from the device once per layer.

On a GPU a read from the device (``bool`` of a device array, ``float``, ``.get()``) waits
for every kernel queued before it, and the host queues nothing while it waits: a read
per layer makes a deep network launch-bound. Each case runs a simulator at two depths
on the strict stand-in (``tests/support/strict_device.py``), which counts those reads;
the counts must be equal. The check is shown to fail on the BN chain made to read once
per layer (``test_a_read_per_layer_is_caught``).

One simulator reads per layer by design: LSUV calibration (``lsuv_calibrate``) decides on
the host, layer by layer, whether another rescaling is needed (Mishkin & Matas's stopping
rule), so the ``lsuv`` classifiers are not among the cases."""
import numpy as np
import pytest

import simulations as S
from tests.support.strict_device import host_reads

DEPTHS = (3, 6)


def _bn(variant, method="gram"):
    def run(be, depth):
        S.simulate_chain(be, S.initial_representation(be, "gaussian", 2, 12, 3), depth, variant, method)
    return run


def _wn_mlp(init, haar_method=None):
    def run(be, depth):
        data = be.normal((2, 7, 6)) if init == "data_dependent" else None
        ops = S.build_mlp(be, [6] + [8] * depth, init, n_networks=2, data=data, haar_method=haar_method)
        tape = S.forward(ops, be.normal((2, 5, 6)))
        S.backward(ops, tape, be.normal((2, 5, 8)), params=True)
    return run


def _wn_resnet(be, depth):
    ops = S.build_resnet(be, [6, 6], [depth], [8], "proposed_orthogonal", n_networks=2)
    tape = S.forward(ops, be.normal((2, 5, 6)))
    S.backward(ops, tape, be.normal((2, 5, 6)), params=True)


def _relu_mlp(be, depth):
    Ws = S.draw_mlp(be, [6] * (depth + 1), "he_fan_in", 3)
    S.mlp_backward(Ws, S.mlp_forward(Ws, be.normal((3, 4, 6))), be.normal((3, 4, 6)))


def _relu_resnet(be, depth):
    net = S.draw_branch_resnet(be, 6, depth, 2, "he", 3)
    S.resnet_backward(net, S.resnet_forward(net, be.normal((3, 4, 6))), be.normal((3, 4, 6)))


def _hvp(be, depth):
    x, y = S.synthetic_batch(be, 2, 8, 6, 3)
    model = S.build_classifier(be, "baseline", 6, depth, 3, 2)
    S.hvp(model, x, y, [be.normal(p.shape) for p in S.parameters(model)])


def _gauss_newton(be, depth):
    spec = S.mlp_spec([5] + [6] * depth + [3])
    Ws = S.draw_net(be, spec, "he_fan_in")
    S.scaling_vs_hessian(spec, Ws, be.normal((4, 5)), be.asarray(np.eye(3)))


CASES = {
    **{f"bn_chain_{v}": _bn(v) for v in S.VARIANTS},
    "bn_chain_direct": _bn("bn", "direct"),
    "wn_mlp_orthogonal": _wn_mlp("proposed_orthogonal"),
    "wn_mlp_orthogonal_factored": _wn_mlp("proposed_orthogonal", "factored"),
    "wn_mlp_he": _wn_mlp("proposed_he"),
    "wn_mlp_data_dependent": _wn_mlp("data_dependent"),
    "wn_mlp_hanin_stagewise": _wn_mlp("hanin_stagewise"),
    "wn_resnet_orthogonal": _wn_resnet,
    "relu_mlp": _relu_mlp,
    "relu_resnet": _relu_resnet,
    "hessian_hvp": _hvp,
    "gauss_newton": _gauss_newton,
}


def _reads(run, depth) -> int:
    be = S.get_backend("cupy", seed=0)
    before = host_reads()
    run(be, depth)
    return host_reads() - before


@pytest.mark.parametrize("name", sorted(CASES))
def test_reads_do_not_grow_with_depth(strict_cupy, name):
    shallow, deep = (_reads(CASES[name], depth) for depth in DEPTHS)
    assert deep == shallow, f"{name}: {shallow} reads at depth {DEPTHS[0]}, {deep} at depth {DEPTHS[1]}"


def test_a_read_per_layer_is_caught(strict_cupy, monkeypatch):
    """The check can fail: the BN chain with one ``bool()`` of a device array per layer
    (the read it had before) reads more at the larger depth."""
    from simulations.bn_chains import chain

    step = chain._step

    def step_reading(be, H, *args, **kwargs):
        out = step(be, H, *args, **kwargs)
        assert bool(be.xp.all(out[2] > 0))
        return out
    monkeypatch.setattr(chain, "_step", step_reading)
    shallow, deep = (_reads(CASES["bn_chain_bn"], depth) for depth in DEPTHS)
    assert deep - shallow == DEPTHS[1] - DEPTHS[0]


def test_every_kind_of_read_is_counted(strict_cupy):
    xp = S.get_backend("cupy", seed=0).xp
    x = xp.asarray(np.arange(3))  # integers, so that operator.index applies
    for read in (bool, float, int, lambda a: a.item(), lambda a: a.get(), lambda a: [0, 1][a], xp.asnumpy):
        before = host_reads()
        read(x[1])
        assert host_reads() - before == 1
