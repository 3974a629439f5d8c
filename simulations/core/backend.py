"""Array backends: one code path for numpy and CuPy.

The simulators never import CuPy themselves. A :class:`Backend` bundles the array
namespace ``xp``, the working floating dtype and one random stream. A stream is named
by the root ``seed`` and a tuple of ``key`` integers (``numpy.random.SeedSequence``
spawn keys), so the numbers a replicate gets depend only on (seed, key), never on how
work is split into batches, on which worker runs it, or on what ran before:

>>> be = get_backend("numpy", seed=1)
>>> be.name, be.dtype.__name__
('numpy', 'float64')
>>> a = be.child(7, 0).normal((2, 3))
>>> b = get_backend("numpy", seed=1).child(7, 0).normal((2, 3))
>>> bool((a == b).all()), be.child(7, 0).key
(True, (7, 0))

Device draws come from a generator of the array namespace (``xp.random``); host draws
(integers such as random widths or labels) from a numpy generator of the same stream.
"""
from __future__ import annotations

import importlib
import zlib
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .validation import check_choice

__all__ = ["Backend", "get_backend", "cupy_available", "to_host", "stream_key"]

_DTYPES = {"float64": np.float64, "float32": np.float32}
#: Spawn-key offsets that separate a stream's device and host generators.
_DEVICE, _HOST = 0, 1


def cupy_available() -> bool:
    """True when CuPy imports and sees at least one CUDA device (never raises)."""
    try:
        cp = importlib.import_module("cupy")
        return cp.cuda.runtime.getDeviceCount() > 0
    except Exception:  # noqa: BLE001 - any failure means "not available"
        return False


def stream_key(part) -> int:
    """A spawn-key integer for ``part``: itself if a non-negative int, else the CRC-32
    of its text (so readable names such as ``"thm1"`` can name streams)."""
    if isinstance(part, (int, np.integer)) and not isinstance(part, bool):
        if part < 0:
            raise ValueError(f"key parts must be non-negative integers or strings, got {part}")
        return int(part)
    if isinstance(part, str):
        return zlib.crc32(part.encode())
    raise ValueError(f"key parts must be non-negative integers or strings, got {part!r}")


@dataclass(frozen=True)
class Backend:
    """Array namespace, working dtype and one random stream named by (seed, key)."""

    name: str
    xp: Any
    dtype: Any
    seed: int
    key: tuple = ()

    def _sequence(self, tail: int) -> np.random.SeedSequence:
        return np.random.SeedSequence(entropy=self.seed, spawn_key=self.key + (tail,))

    @cached_property
    def rng(self) -> Any:
        """The device generator of this stream (``xp.random.default_rng``)."""
        state = self._sequence(_DEVICE).generate_state(1, dtype=np.uint64)[0]
        return self.xp.random.default_rng(int(state))

    @cached_property
    def host_rng(self) -> np.random.Generator:
        """A numpy generator of this stream, for draws the host needs (widths, labels)."""
        return np.random.default_rng(self._sequence(_HOST))

    def normal(self, shape) -> Any:
        """Standard normal draws of ``shape`` in the working dtype."""
        return self.rng.standard_normal(size=shape, dtype=self.dtype)

    def uniform(self, shape, low: float = 0.0, high: float = 1.0) -> Any:
        """Uniform draws on [low, high) of ``shape`` in the working dtype."""
        u = self.rng.random(size=shape, dtype=self.dtype)
        return low + (high - low) * u

    def integers(self, low: int, high: int, size=None) -> np.ndarray:
        """Integers in [low, high), drawn on the host (numpy) from this stream."""
        return self.host_rng.integers(low, high, size)

    def asarray(self, a) -> Any:
        return self.xp.asarray(a, dtype=self.dtype)

    def child(self, *parts) -> "Backend":
        """The independent stream (seed, key + parts); parts are ints or names."""
        return Backend(self.name, self.xp, self.dtype, self.seed, self.key + tuple(stream_key(p) for p in parts))

    def spawn(self, key) -> "Backend":
        """One-part :meth:`child` (kept for the simulators' existing callers)."""
        return self.child(key)

    def describe(self) -> dict:
        """Provenance: backend name, library version, dtype, seed and stream key."""
        return {"backend": self.name, "version": self.xp.__version__, "dtype": self.dtype.__name__,
                "seed": self.seed, "key": list(self.key)}


def get_backend(name: str = "numpy", seed: int = 0, dtype: str = "float64") -> Backend:
    """Build a backend by name (``"numpy"`` or ``"cupy"``) at the root stream of ``seed``.

    Raises ``ValueError`` naming the parameter for an unknown backend or dtype or a
    negative seed, and ``RuntimeError`` when CuPy is asked for but no CUDA device is usable.
    """
    check_choice("backend", name, ("numpy", "cupy"))
    check_choice("dtype", dtype, tuple(_DTYPES))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if name == "numpy":
        return Backend("numpy", np, _DTYPES[dtype], int(seed))
    if not cupy_available():
        raise RuntimeError("backend='cupy' needs CuPy and a CUDA device; install paperchecks[gpu]")
    return Backend("cupy", importlib.import_module("cupy"), _DTYPES[dtype], int(seed))


def to_host(a) -> np.ndarray:
    """Copy an array of either backend to a numpy array on the host."""
    get = getattr(a, "get", None)
    return np.asarray(get() if callable(get) else a)
