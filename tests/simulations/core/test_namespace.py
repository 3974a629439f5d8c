"""The array namespace comes from the arrays (CuPy is never imported to find it) and the
dtype policy's floors are the dtype's own."""
import sys

import numpy as np
import pytest

from simulations import get_backend
from simulations.core import array_namespace, eps, tiny
from simulations.core.namespace import safe_log


def test_namespace_of_numpy_and_device_arrays(backend_name):
    be = get_backend(backend_name, seed=0)
    x = be.normal((2, 3))
    assert array_namespace(x) is be.xp
    assert array_namespace([x, (x, None)], 2.0) is be.xp
    assert array_namespace() is np and array_namespace(1.0, None) is np


def test_mixing_host_and_device_arrays_is_an_error(strict_cupy):
    x = get_backend(strict_cupy, seed=0).normal((2,))
    with pytest.raises(TypeError, match="arrays must all live on one backend"):
        array_namespace(x, np.ones(2))
    with pytest.raises(TypeError, match="expected an array"):
        array_namespace(object())


def test_namespace_lookup_never_imports_cupy():
    before = "cupy" in sys.modules
    array_namespace(np.ones(1))
    assert ("cupy" in sys.modules) == before


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_floors_are_the_dtypes_own(dtype):
    x = np.zeros(2, dtype=dtype)
    assert tiny(x) == float(np.finfo(dtype).tiny) > 0 and eps(dtype) == float(np.finfo(dtype).eps)
    assert np.float32(1e-300) == 0  # why 1e-300 is not a floor in float32
    assert np.isfinite(np.log(np.clip(x, tiny(x), None))).all() and safe_log(x)[0] == -np.inf
