"""The strict device stand-in refuses what CuPy refuses: implicit host conversion, numpy
operands beside device arrays, host indices; and it catches a simulator written with a
numpy default instead of the arrays' namespace."""
import sys

import numpy as np
import pytest

from simulations import get_backend, to_host
from tests.support.strict_device import DeviceArray, installed


def test_installed_only_inside_the_block():
    before = sys.modules.get("cupy")
    with installed() as cp:
        assert sys.modules["cupy"] is cp and cp.cuda.runtime.getDeviceCount() == 1
    assert sys.modules.get("cupy") is before


def test_refuses_implicit_host_conversion_and_numpy_operands(strict_cupy):
    be = get_backend(strict_cupy, seed=0)
    d = be.normal((3,))
    assert isinstance(d, DeviceArray) and be.xp is sys.modules["cupy"]
    with pytest.raises(TypeError, match="implicit conversion"):
        np.asarray(d)
    with pytest.raises(TypeError, match="numpy.ndarray operand"):
        d * np.ones(3)
    with pytest.raises(TypeError, match="numpy.ndarray operand"):
        np.ones(3) + d
    with pytest.raises(TypeError, match="numpy.ndarray operand"):
        be.xp.stack([d, np.ones(3)])
    with pytest.raises(TypeError, match="numpy.ndarray operand"):
        d[np.array([0, 1])]
    with pytest.raises(TypeError, match="numpy.ndarray operand"):
        np.concatenate([d, np.ones(3)])  # numpy functions dispatch to the device, host operands refused
    assert not hasattr(be.xp, "errstate")  # CuPy has none


def test_device_results_stay_on_the_device(strict_cupy):
    xp = get_backend(strict_cupy, seed=0).xp
    d = xp.asarray(np.arange(6.0).reshape(2, 3))
    s = d.sum()
    assert isinstance(s, DeviceArray) and s.shape == () and float(s) == 15.0
    assert isinstance(np.exp(d), DeviceArray) and isinstance(xp.linalg.norm(d), DeviceArray)
    assert isinstance(d[xp.asarray([1, 0])], DeviceArray) and to_host(d).tolist() == [[0, 1, 2], [3, 4, 5]]
    q, r = xp.linalg.qr(d.T)
    assert isinstance(q, DeviceArray) and np.allclose(to_host(q @ r), to_host(d.T))
    g = xp.random.default_rng(1)
    assert g.standard_normal((2,), dtype=np.float32).dtype == np.float32
    assert isinstance(g.integers(0, 3, size=4, dtype=np.int32), DeviceArray)


def _buggy_unit_norm(x, xp=np):
    """A helper with a numpy default: the bug class the stand-in exists to catch."""
    return x / xp.sqrt(xp.sum(x * x, axis=-1, keepdims=True)) + xp.zeros(x.shape[-1])


def test_catches_a_numpy_default(backend_name):
    be = get_backend(backend_name, seed=0)
    x = be.normal((2, 3))
    if backend_name == "numpy":
        _buggy_unit_norm(x)  # passes on numpy: nothing on the host side shows the bug
        return
    # the stand-in's message, or real CuPy's ("Unsupported type <class 'numpy.ndarray'>")
    with pytest.raises(TypeError, match="numpy.ndarray operand|Unsupported type <class 'numpy.ndarray'>"):
        _buggy_unit_norm(x)
    _buggy_unit_norm(x, be.xp)
