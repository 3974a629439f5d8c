"""The array namespace of arrays, found without importing CuPy, and the dtype policy.

``array_namespace(*arrays)`` returns the module an array belongs to (numpy, or CuPy
for device arrays) from the module of the array's type: a CuPy array's type lives in
the already imported ``cupy`` package, so nothing is imported here. Public entry points
take ``xp=None`` and call it once; helpers receive ``xp`` from them.

>>> import numpy as np
>>> array_namespace(np.ones(2), 3.0, None) is np
True
>>> array_namespace([np.ones(2), (np.zeros(1),)]) is np  # lists of arrays are searched
True

Dtype policy: the simulators compute in the dtype of their inputs (the backend's
working dtype). Constants enter as Python floats, which NumPy 2 and CuPy treat as
"weak" and cast to the array's dtype; a numpy scalar such as ``np.sqrt(2.0)`` is a
float64 *array scalar* and silently promotes float32 work to float64, so it is never
used with device arrays. Floors in log space are the dtype's own (``tiny``), never
1e-300, which is 0 in float32. Statistics are float64 on the host (``theory/``).

>>> x = np.ones(3, dtype=np.float32)
>>> (x * np.sqrt(2.0)).dtype, (x * 2.0**0.5).dtype  # the promotion this module avoids
(dtype('float64'), dtype('float32'))
>>> tiny(x) == float(np.finfo(np.float32).tiny), eps(np.float64) == 2.0**-52
(True, True)
"""
from __future__ import annotations

import sys

import numpy as np

__all__ = ["array_namespace", "tiny", "eps", "safe_log"]


def _modules(obj, out: set) -> None:
    if obj is None or isinstance(obj, (bool, int, float, complex, str, np.generic)):
        return
    if isinstance(obj, (list, tuple)):
        for item in obj:
            _modules(item, out)
        return
    if isinstance(obj, np.ndarray):
        out.add("numpy")
        return
    if not hasattr(obj, "shape") or not hasattr(obj, "dtype"):
        raise TypeError(f"expected an array (numpy or CuPy), got {type(obj).__name__}")
    out.add(type(obj).__module__.split(".")[0])


def array_namespace(*arrays):
    """The namespace (``numpy`` or the ``cupy`` module) of ``arrays``.

    Scalars and ``None`` are skipped and lists/tuples are searched, so parameter lists
    can be passed as they are; numpy when no array is given. Raises ``TypeError`` when
    the arrays come from different namespaces (a host array beside a device array) or
    when an array's package has not been imported.
    """
    names: set = set()
    for a in arrays:
        _modules(a, names)
    if not names or names == {"numpy"}:
        return np
    if len(names) > 1:
        raise TypeError(f"arrays must all live on one backend, got arrays of {sorted(names)}; "
                        "copy explicitly (xp.asarray to the device, to_host to the host)")
    (name,) = names
    module = sys.modules.get(name)
    if module is None:
        raise TypeError(f"the array namespace {name!r} is not imported")
    return module


def tiny(a) -> float:
    """The smallest positive normal number of the floating dtype of ``a`` (an array or a
    dtype), as a Python float: the floor under a logarithm."""
    return float(np.finfo(_dtype(a)).tiny)


def eps(a) -> float:
    """The machine epsilon of the floating dtype of ``a`` (an array or a dtype), as a
    Python float: the unit of rounding tolerances."""
    return float(np.finfo(_dtype(a)).eps)


def safe_log(x, xp=None):
    """log(x) with log(0) = -inf and no divide-by-zero warning (a zero norm is a fact
    the records keep, not an error)."""
    xp = xp or array_namespace(x)
    if hasattr(xp, "errstate"):  # numpy warns; CuPy does not
        with xp.errstate(divide="ignore"):
            return xp.log(x)
    return xp.log(x)


def _dtype(a):
    return a if isinstance(a, (type, np.dtype, str)) else a.dtype
