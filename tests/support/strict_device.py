"""A strict device backend for the tests: numpy arrays behind a device-array type that is
as strict as CuPy about the host/device boundary, installed as the module ``cupy``
only inside :func:`installed` (the ``backend_name`` fixture of ``tests/conftest.py``).

What it enforces, as CuPy does:

- no implicit conversion to numpy: ``numpy.asarray(d)`` (``__array__``) raises;
- no ``numpy.ndarray`` operand beside a device array, in operators, in the namespace's
  functions and in numpy ufuncs and array functions (which dispatch to the device as
  CuPy's do when no host array is involved); indices must be device arrays too;
- reductions return 0-d device arrays; ``.get()`` (or ``cupy.asnumpy``) is the only way
  to the host, ``cupy.asarray`` the only way to the device;
- only the namespace's own functions exist (no ``errstate``, which CuPy lacks), and no
  floating-point warnings are emitted.

It also counts the reads from the device (:func:`host_reads`): ``.get()``, ``.item()``,
``bool``, ``float``, ``int`` and ``operator.index`` of a device array. On a GPU each one
waits for every kernel queued before it, so a simulator whose count grows with its depth
stalls the device once per layer.

It does not model CuPy's kernels, memory, streams, speed or its own type promotion.

>>> import numpy as np
>>> cp = make_module()
>>> d = cp.asarray(np.arange(3.0))
>>> float(d.sum()), type(d.sum()).__name__, d.sum().shape
(3.0, 'DeviceArray', ())
>>> d + np.ones(3)
Traceback (most recent call last):
...
TypeError: a numpy.ndarray operand beside a device array: copy it explicitly (xp.asarray)
>>> np.asarray(d)
Traceback (most recent call last):
...
TypeError: implicit conversion of a device array to numpy: call .get()
"""
from __future__ import annotations

import contextlib
import operator
import sys
import types

import numpy as np

__all__ = ["DeviceArray", "make_module", "installed", "host_reads"]

_READS = [0]  # device-to-host reads since import (see host_reads)


def host_reads() -> int:
    """Device-to-host reads since import, every stand-in module together: take the
    difference around a call.

    >>> cp = make_module()
    >>> before = host_reads()
    >>> x = cp.asarray(np.arange(3.0))
    >>> bool(x.sum() > 0), float(x.max()), x.get().shape, host_reads() - before
    (True, 2.0, (3,), 3)
    """
    return _READS[0]


def _read(value):
    _READS[0] += 1
    return value


def _operand(x):
    """The numpy payload of an operand: device arrays unwrapped, scalars as they are."""
    if isinstance(x, DeviceArray):
        return x._a
    if isinstance(x, np.ndarray):
        raise TypeError("a numpy.ndarray operand beside a device array: copy it explicitly (xp.asarray)")
    if isinstance(x, (list, tuple)):
        return type(x)(_operand(v) for v in x)
    return x


def _wrap(x):
    """Device arrays from numpy results (numpy scalars become 0-d device arrays)."""
    if isinstance(x, np.ndarray):
        return DeviceArray(x)
    if isinstance(x, np.generic):
        return DeviceArray(np.asarray(x))
    if isinstance(x, tuple):
        return tuple(_wrap(v) for v in x)
    if isinstance(x, list):
        return [_wrap(v) for v in x]
    return x


def _unwrap_all(args, kwargs):
    return _operand(list(args)), {k: _operand(v) for k, v in kwargs.items()}


def _device_call(fn):
    """``fn`` (a numpy function) on device operands, result on the device; no
    floating-point warnings, as on CuPy."""
    def call(*args, **kwargs):
        a, k = _unwrap_all(args, kwargs)
        with np.errstate(all="ignore"):
            return _wrap(fn(*a, **k))
    call.__name__ = getattr(fn, "__name__", "function")
    return call


def _binary(op, reflected=False):
    def method(self, other):
        o = _operand(other)
        with np.errstate(all="ignore"):
            return _wrap(op(o, self._a) if reflected else op(self._a, o))
    return method


def _inplace(op):
    def method(self, other):
        op(self._a, _operand(other))
        return self
    return method


class DeviceArray:
    """A numpy array on the stand-in device (see the module docstring)."""

    __slots__ = ("_a",)
    __hash__ = None

    def __init__(self, a: np.ndarray):
        self._a = a

    # the boundary ------------------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        raise TypeError("implicit conversion of a device array to numpy: call .get()")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        a, k = _unwrap_all(inputs, kwargs)
        with np.errstate(all="ignore"):
            return _wrap(getattr(ufunc, method)(*a, **k))

    def __array_function__(self, func, types_, args, kwargs):
        return _device_call(func)(*args, **kwargs)

    def get(self) -> np.ndarray:
        """A host copy."""
        return _read(self._a.copy())

    def item(self):
        return _read(self._a.item())

    def __bool__(self):
        return _read(bool(self._a))

    def __float__(self):
        return _read(float(self._a))

    def __int__(self):
        return _read(int(self._a))

    def __index__(self):
        return _read(operator.index(self._a))

    def __repr__(self):
        return f"device_array({self._a!r})"

    # shape and dtype ---------------------------------------------------------------
    shape = property(lambda self: self._a.shape)
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: self._a.size)
    dtype = property(lambda self: self._a.dtype)
    nbytes = property(lambda self: self._a.nbytes)
    T = property(lambda self: DeviceArray(self._a.T))

    def __len__(self):
        return len(self._a)

    def __iter__(self):
        return (_wrap(row) for row in self._a)

    def __getitem__(self, key):
        return _wrap(self._a[_operand(key)])

    def __setitem__(self, key, value):
        self._a[_operand(key)] = _operand(value)

    # arithmetic --------------------------------------------------------------------
    __add__, __radd__ = _binary(operator.add), _binary(operator.add, True)
    __sub__, __rsub__ = _binary(operator.sub), _binary(operator.sub, True)
    __mul__, __rmul__ = _binary(operator.mul), _binary(operator.mul, True)
    __truediv__, __rtruediv__ = _binary(operator.truediv), _binary(operator.truediv, True)
    __floordiv__, __rfloordiv__ = _binary(operator.floordiv), _binary(operator.floordiv, True)
    __mod__, __rmod__ = _binary(operator.mod), _binary(operator.mod, True)
    __pow__, __rpow__ = _binary(operator.pow), _binary(operator.pow, True)
    __matmul__, __rmatmul__ = _binary(operator.matmul), _binary(operator.matmul, True)
    __and__, __rand__ = _binary(operator.and_), _binary(operator.and_, True)
    __or__, __ror__ = _binary(operator.or_), _binary(operator.or_, True)
    __xor__, __rxor__ = _binary(operator.xor), _binary(operator.xor, True)
    __iadd__, __isub__, __imul__ = _inplace(operator.iadd), _inplace(operator.isub), _inplace(operator.imul)
    __itruediv__, __ipow__ = _inplace(operator.itruediv), _inplace(operator.ipow)
    __eq__, __ne__ = _binary(operator.eq), _binary(operator.ne)
    __lt__, __le__ = _binary(operator.lt), _binary(operator.le)
    __gt__, __ge__ = _binary(operator.gt), _binary(operator.ge)

    def __neg__(self):
        return DeviceArray(-self._a)

    def __pos__(self):
        return DeviceArray(+self._a)

    def __abs__(self):
        return DeviceArray(abs(self._a))

    def __invert__(self):
        return DeviceArray(~self._a)


_METHODS = ("reshape", "transpose", "swapaxes", "astype", "copy", "sum", "mean", "max", "min", "std", "var", "any",
            "all", "prod", "ravel", "flatten", "clip", "squeeze", "argmax", "argmin", "cumsum", "conj", "round",
            "dot", "nonzero", "fill", "sort", "argsort", "repeat", "take", "diagonal", "trace")
for _name in _METHODS:
    def _method(self, *args, _name=_name, **kwargs):
        return _device_call(getattr(self._a, _name))(*args, **kwargs)
    _method.__name__ = _name
    setattr(DeviceArray, _name, _method)
DeviceArray.__module__ = "cupy"  # where array_namespace finds it, as for cupy.ndarray

#: numpy functions that CuPy provides under the same name.
_FUNCTIONS = (
    "zeros", "ones", "full", "empty", "eye", "identity", "arange", "linspace", "logspace", "zeros_like", "ones_like",
    "empty_like", "full_like", "stack", "concatenate", "broadcast_to", "swapaxes", "transpose", "reshape", "moveaxis",
    "expand_dims", "squeeze", "tile", "repeat", "matmul", "dot", "einsum", "outer", "sum", "mean", "var", "std", "max",
    "min", "amax", "amin", "prod", "cumsum", "median", "quantile", "sqrt", "exp", "log", "log1p", "expm1", "abs",
    "sign", "maximum", "minimum", "where", "clip", "diagonal", "diag", "trace", "all", "any", "isfinite", "isnan",
    "isinf", "pad", "ascontiguousarray", "tril", "triu", "square", "floor", "ceil", "round", "argmax", "argmin", "sort",
    "argsort", "allclose", "isclose", "array_equal", "count_nonzero", "nonzero", "take", "cos", "sin", "tanh", "power",
    "add", "subtract", "multiply", "divide", "true_divide", "negative", "less", "greater", "equal", "not_equal",
    "logical_and", "logical_or", "logical_not", "bincount", "unique", "real", "imag", "conj", "flip", "roll",
    "broadcast_arrays", "atleast_1d", "atleast_2d", "result_type", "can_cast",
)
_CONSTANTS = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint32", "uint64", "bool_",
              "complex64", "complex128", "dtype", "finfo", "iinfo", "newaxis", "inf", "nan", "pi", "e")
_LINALG = ("qr", "eigh", "eigvalsh", "svd", "norm", "inv", "det", "slogdet", "solve", "cholesky", "matrix_rank")


def _asarray(a, dtype=None, copy=None):
    """The explicit copy to the device (host arrays, lists and scalars are accepted); a
    device array is returned as it is unless ``copy=True`` or another dtype is asked for,
    as in CuPy (whose ``array`` copies by default: callers here pass ``copy`` explicitly)."""
    if isinstance(a, DeviceArray):
        if copy:
            return DeviceArray(a._a.astype(dtype if dtype is not None else a.dtype, copy=True))
        return a if dtype is None or a.dtype == np.dtype(dtype) else DeviceArray(a._a.astype(dtype))
    return DeviceArray(np.array(_operand(a) if isinstance(a, (list, tuple)) else a, dtype=dtype))


def _asnumpy(a):
    return a.get() if isinstance(a, DeviceArray) else np.asarray(a)


class _Generator:
    """``cupy.random.Generator``: device draws from a numpy generator."""

    def __init__(self, seed):
        self._g = np.random.default_rng(seed)

    def standard_normal(self, size=None, dtype=np.float64):
        return _wrap(np.asarray(self._g.standard_normal(size=size, dtype=dtype)))

    def random(self, size=None, dtype=np.float64):
        return _wrap(np.asarray(self._g.random(size=size, dtype=dtype)))

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        return _wrap(np.asarray(self._g.integers(low, high, size=size, dtype=dtype, endpoint=endpoint)))

    def normal(self, loc=0.0, scale=1.0, size=None):
        return _wrap(np.asarray(self._g.normal(loc, scale, size)))

    def uniform(self, low=0.0, high=1.0, size=None):
        return _wrap(np.asarray(self._g.uniform(low, high, size)))


class _NullStream:
    @staticmethod
    def synchronize():
        return None


def make_module() -> types.ModuleType:
    """A fresh ``cupy`` stand-in module (not installed anywhere)."""
    mod = types.ModuleType("cupy", "Strict CPU stand-in for CuPy (tests/support/strict_device.py).")
    mod.__version__ = "0.0-strict"
    mod.ndarray = DeviceArray
    for name in _FUNCTIONS:
        setattr(mod, name, _device_call(getattr(np, name)))
    for name in _CONSTANTS:
        setattr(mod, name, getattr(np, name))
    mod.asarray = mod.array = _asarray
    mod.asnumpy = _asnumpy
    mod.get_array_module = lambda *args: mod
    mod.linalg = types.SimpleNamespace(**{n: _device_call(getattr(np.linalg, n)) for n in _LINALG})
    mod.random = types.SimpleNamespace(default_rng=_Generator)
    mod.cuda = types.SimpleNamespace(runtime=types.SimpleNamespace(getDeviceCount=lambda: 1),
                                     Stream=types.SimpleNamespace(null=_NullStream()))
    return mod


@contextlib.contextmanager
def installed():
    """``sys.modules["cupy"]`` is the stand-in inside the block and what it was before
    (a real CuPy, or nothing) after it."""
    missing = object()
    before = sys.modules.get("cupy", missing)
    sys.modules["cupy"] = make_module()
    try:
        yield sys.modules["cupy"]
    finally:
        if before is missing:
            del sys.modules["cupy"]
        else:
            sys.modules["cupy"] = before
