"""Input validation with errors that name the parameter and its valid range.

>>> check_int("n", 3, low=2)
3
>>> check_int("n", 1, low=2)
Traceback (most recent call last):
...
ValueError: n must be an integer >= 2, got 1
"""
from __future__ import annotations

import math
import numbers

from .namespace import array_namespace

__all__ = ["check_int", "check_choice", "check_finite", "check_widths", "check_positive"]


def check_int(name: str, value, low: int | None = None, high: int | None = None, why: str = "") -> int:
    """Return ``value`` as int if it is an integer in [low, high]; else raise ValueError
    (``why`` is appended to the message, e.g. the assumption that sets the range)."""
    rng = _range_text(low, high)
    if isinstance(value, bool):
        raise ValueError(f"{name} must be an integer {rng}, got {value!r}".replace("  ", " ").rstrip())
    if not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and math.isfinite(value) and float(value).is_integer():
            value = int(value)
        else:
            raise ValueError(f"{name} must be an integer {rng}, got {value!r}".replace("  ", " ").rstrip())
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{name} must be an integer {rng}, got {value}" + (f" ({why})" if why else ""))
    return value


def check_positive(name: str, value) -> float:
    """Return ``value`` as float if it is finite and > 0; else raise ValueError."""
    if not isinstance(value, numbers.Real) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return float(value)


def _range_text(low, high) -> str:
    if low is not None and high is not None:
        return f"in [{low}, {high}]"
    if low is not None:
        return f">= {low}"
    if high is not None:
        return f"<= {high}"
    return ""


def check_choice(name: str, value, choices) -> str:
    """Raise ValueError unless ``value`` is one of ``choices``."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {sorted(choices)}, got {value!r}")
    return value


def check_finite(name: str, array) -> None:
    """Raise ValueError if ``array`` (numpy or CuPy) holds NaN or infinity."""
    xp = array_namespace(array)
    if not bool(xp.all(xp.isfinite(array))):
        raise ValueError(f"{name} must be finite (no NaN or inf)")


def check_widths(name: str, widths, low: int = 1) -> list[int]:
    """Validate a sequence of layer widths (positive integers)."""
    if isinstance(widths, (str, bytes)) or not hasattr(widths, "__iter__"):
        raise ValueError(f"{name} must be a sequence of integers >= {low}, got {widths!r}")
    out = [check_int(f"{name}[{i}]", w, low=low) for i, w in enumerate(widths)]
    if not out:
        raise ValueError(f"{name} must contain at least one width")
    return out
