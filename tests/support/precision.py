"""float32 against float64 on the same random numbers.

A float32 backend draws its own numbers (numpy's float32 normals are a different
algorithm), so the comparison uses :func:`rounded_backend`: the float64 stream of the
same (seed, key), each draw rounded to float32. The two runs then differ only by float32
arithmetic, and their distance is bounded by rounding analysis.

Tolerance (:func:`float32_tolerance`). One dense layer y = W x of fan-in n in float32
has a relative error ||fl(y) - y|| / ||y|| of about sqrt(n) u (u = 2^-24, the float32 unit
roundoff), for random rounding errors (Higham & Mary 2019: ``lambda sqrt(n) u`` with
probability >= 1 - 2 exp(-lambda^2 / 2) per entry), plus u for rounding its inputs. The
simulated layers preserve norms on average (He/orthogonal scales, normalizations), so
the errors of L layers add up to at most about L (sqrt(n) + 1) u relative to the output;
ReLU is 1-Lipschitz and does not amplify them. The float64 run's own error is smaller by
2^-29 and is ignored. The tests use ``c L (sqrt(n) + 1) u`` with c = 8 (lambda = 8 makes a
single entry's excess probability 2 exp(-32) ~ 3e-14).

Backward passes multiply by ReLU masks: a pre-activation within rounding of 0 may take
the other branch in float32, which moves that unit's gradient by O(1). It happens with
probability about (units) * 2 phi(0) c sqrt(n) u (below 1e-3 at the tests' sizes);
the tests use fixed seeds, so they are deterministic.
"""
from __future__ import annotations

import math

import numpy as np

from simulations.core import Backend, get_backend, to_host

__all__ = ["RoundedBackend", "rounded_backend", "float32_tolerance", "rounding_tolerance", "relative_error",
           "assert_float32"]

U32 = 2.0**-24
U64 = 2.0**-53


class RoundedBackend(Backend):
    """A float32 backend whose draws are the float64 stream's draws rounded to float32."""

    def normal(self, shape):
        return self._standard_normal(shape, np.float64).astype(self.dtype)

    def uniform(self, shape, low: float = 0.0, high: float = 1.0):
        return (low + (high - low) * self.rng.random(size=shape, dtype=np.float64)).astype(self.dtype)

    def child(self, *parts) -> "RoundedBackend":
        b = Backend.child(self, *parts)
        return RoundedBackend(b.name, b.xp, b.dtype, b.seed, b.key)


def rounded_backend(name: str, seed: int) -> tuple:
    """(float64 backend, float32 backend with the same numbers rounded) for ``seed``."""
    b64 = get_backend(name, seed=seed)
    b32 = get_backend(name, seed=seed, dtype="float32")
    return b64, RoundedBackend(b32.name, b32.xp, b32.dtype, b32.seed, b32.key)


def float32_tolerance(depth: int, width: int, c: float = 8.0) -> float:
    """c L (sqrt(n) + 1) u: the relative float32 error of L layers of fan-in n (module text)."""
    return rounding_tolerance(depth, width, U32, c)


def rounding_tolerance(depth: int, width: int, unit_roundoff: float, c: float = 8.0) -> float:
    """c L (sqrt(n) + 1) u for unit roundoff u: the relative error of L norm-preserving
    steps of width <= n (module text). A Householder reflector is one such step, so two
    evaluations of a product with k reflectors of length <= p (applied one by one, or
    formed into Q first) differ by at most ``rounding_tolerance(k, p, U64)`` each."""
    return c * depth * (math.sqrt(width) + 1) * unit_roundoff


def relative_error(a32, a64, axis=-1) -> float:
    """max over vectors (along ``axis``) of ||a32 - a64|| / ||a64||, on the host in float64."""
    a32, a64 = to_host(a32).astype(np.float64), to_host(a64)
    num = np.linalg.norm(a32 - a64, axis=axis)
    den = np.linalg.norm(a64, axis=axis)
    return float(np.max(num / np.where(den > 0, den, 1)))


def assert_float32(*arrays) -> None:
    """Every array (nested lists allowed) is float32: float32 in, float32 out."""
    for a in arrays:
        if isinstance(a, (list, tuple)):
            assert_float32(*a)
        elif a is not None:
            assert a.dtype == np.float32, a.dtype
