"""Hall's (1992) skewness correction of Student's t: T_H = T + a T^2 + a^2 T^3 / 3 + a/2
with a = g / (3 sqrt n), g the sample skewness; monotone in T, so intervals invert
exactly. :func:`rule_thresholds` gives where :mod:`.means`'s rule (T and T_H both reject
on the same side) rejects on T's scale.

>>> round(float(hall_inverse(hall_corrected(1.5, 0.02), 0.02)), 12)
1.5
>>> [round(float(v), 4) for v in rule_thresholds(3.0, 0.05)]  # a > 0: the plain t decides above, Hall's T_H below
[3.0, -3.6509]
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["hall_inverse", "hall_corrected", "hall_coefficient", "welch_coefficient", "rule_thresholds"]


def hall_inverse(q, a):
    """The t whose Hall-corrected statistic equals q: (c - 1)/a with c = cbrt(1 + 3a (q - a/2)),
    written 3 (q - a/2)/(c^2 + c + 1) (accurate for tiny a), q at a = 0 (elementwise)."""
    a = np.asarray(a, dtype=float)
    c = np.cbrt(1 + 3 * a * (q - a / 2))
    return np.where(a == 0, q, 3 * (q - a / 2) / (c * c + c + 1))


def rule_thresholds(q, a):
    """(upper, lower): a one-sample test at Student-t quantile ``q`` rejects where t > upper
    or t < lower, upper = max(q, T_H^-1(q)) and lower = min(-q, T_H^-1(-q)) for Hall's
    coefficient ``a`` (both statistics must reject; elementwise)."""
    return np.maximum(q, hall_inverse(q, a)), np.minimum(-q, hall_inverse(-q, a))


def _moments(x):
    """(n, mean, second and third central moments, ddof 0) along the last axis."""
    x = np.asarray(x)
    x = x if np.issubdtype(x.dtype, np.floating) else x.astype(float)
    d = x - x.mean(-1, keepdims=True)
    d2 = d * d
    return x.shape[-1], d2.mean(-1), (d2 * d).mean(-1)


def hall_coefficient(x):
    """Hall's coefficient a = g / (3 sqrt n) of the replicates along the last axis of
    ``x``, with g the sample skewness mean((x - mean)^3) / std^3 (ddof 0)."""
    n, m2, m3 = _moments(x)
    return m3 / m2**1.5 / (3 * math.sqrt(n))


def welch_coefficient(x, y):
    """Hall's coefficient of the difference of the means of two independent samples
    (along the last axes): a = k3 / (3 v^1.5) with k3 = m3_x / n_x^2 - m3_y / n_y^2 and
    v = m2_x / n_x + m2_y / n_y (the skewness of the difference of the means over 3); 0
    where both samples are constant."""
    (nx, m2x, m3x), (ny, m2y, m3y) = _moments(x), _moments(y)
    v = m2x / nx + m2y / ny
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(v > 0, (m3x / nx**2 - m3y / ny**2) / np.where(v > 0, v, 1.0) ** 1.5 / 3, 0.0)


def hall_corrected(t, a):
    """Hall's (1992) skewness-corrected statistic t + a t^2 + a^2 t^3 / 3 + a/2
    (= ((1 + a t)^3 - 1)/(3a) + a/2, written without division by a) (elementwise)."""
    return t + a * t * t + a * a * t * t * t / 3 + a / 2
