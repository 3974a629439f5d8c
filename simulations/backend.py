"""Array backends: one code path for numpy and CuPy.

The simulators never import CuPy themselves. A :class:`Backend` bundles the array
namespace ``xp``, an explicit random generator of that namespace, and the floating
dtype. Everything downstream receives a backend and calls ``backend.xp``.

>>> be = get_backend("numpy", seed=1)
>>> be.name, be.dtype.__name__
('numpy', 'float64')
>>> be.normal((2, 3)).shape
(2, 3)
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .validation import check_choice

__all__ = ["Backend", "get_backend", "cupy_available", "to_host"]

_DTYPES = {"float64": np.float64, "float32": np.float32}


def cupy_available() -> bool:
    """True when CuPy imports and sees at least one CUDA device (never raises)."""
    try:
        cp = importlib.import_module("cupy")
        return cp.cuda.runtime.getDeviceCount() > 0
    except Exception:  # noqa: BLE001 - any failure means "not available"
        return False


@dataclass
class Backend:
    """Array namespace, its random generator and the working dtype."""

    name: str
    xp: Any
    rng: Any
    dtype: Any
    seed: int
    _meta: dict = field(default_factory=dict)

    def normal(self, shape) -> Any:
        """Standard normal draws of ``shape`` in the working dtype."""
        return self.rng.standard_normal(size=shape, dtype=self.dtype)

    def uniform(self, shape, low: float = 0.0, high: float = 1.0) -> Any:
        """Uniform draws on [low, high) of ``shape`` in the working dtype."""
        u = self.rng.random(size=shape, dtype=self.dtype)
        return low + (high - low) * u

    def integers(self, low: int, high: int, size=None) -> Any:
        """Integers in [low, high), always returned on the host as numpy."""
        return np.random.default_rng(int(self.rng.integers(0, 2**31 - 1))).integers(low, high, size)

    def asarray(self, a) -> Any:
        return self.xp.asarray(a, dtype=self.dtype)

    def spawn(self, key: int) -> "Backend":
        """An independent backend whose stream is derived from (seed, key)."""
        return get_backend(self.name, seed=_derive_seed(self.seed, key), dtype=self.dtype.__name__)

    def describe(self) -> dict:
        """Provenance: backend name, library version, dtype and seed."""
        return {"backend": self.name, "version": self.xp.__version__, "dtype": self.dtype.__name__, "seed": self.seed}


def _derive_seed(seed: int, key: int) -> int:
    ss = np.random.SeedSequence([int(seed), int(key)])
    return int(ss.generate_state(1, dtype=np.uint32)[0])


def get_backend(name: str = "numpy", seed: int = 0, dtype: str = "float64") -> Backend:
    """Build a backend by name (``"numpy"`` or ``"cupy"``) with its own generator.

    Raises ``ValueError`` naming the parameter for an unknown backend or dtype and
    ``RuntimeError`` when CuPy is asked for but no CUDA device is usable.
    """
    check_choice("backend", name, ("numpy", "cupy"))
    check_choice("dtype", dtype, tuple(_DTYPES))
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if name == "numpy":
        return Backend("numpy", np, np.random.default_rng(int(seed)), _DTYPES[dtype], int(seed))
    if not cupy_available():
        raise RuntimeError("backend='cupy' needs CuPy and a CUDA device; install paperchecks[gpu]")
    cp = importlib.import_module("cupy")
    return Backend("cupy", cp, cp.random.default_rng(int(seed)), _DTYPES[dtype], int(seed))


def to_host(a) -> np.ndarray:
    """Copy an array of either backend to a numpy array on the host."""
    get = getattr(a, "get", None)
    return np.asarray(get() if callable(get) else a)
