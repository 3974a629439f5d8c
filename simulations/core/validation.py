"""Input validation with errors that name the parameter and its valid range.

>>> check_int("n", 3, low=2)
3
>>> check_int("n", 1, low=2)
Traceback (most recent call last):
...
ValueError: n must be an integer >= 2, got 1

Arrays are checked for NaN and infinity at each public entry point of the simulators
(:func:`check_finite`): one reduction per array (a sum, finite exactly when every entry
is, unless finite entries overflow it, which a second, exact look tells apart) and one
read from the device for all the arrays of a call, never a read per element or per
layer. A public function called by another (``resnet_forward`` runs ``mlp_forward`` per
block) does not check again: :func:`entry_point` marks the outermost call, and the
device-reading checks (:func:`check_finite`, :func:`check_labels`) run only there, so
a deep network reads as often as a shallow one.

>>> import numpy as np
>>> check_finite("x", np.array([1.0, np.nan]))
Traceback (most recent call last):
...
ValueError: x must be finite (found NaN or inf)
>>> check_finite("Ws", [np.ones(2), np.array([np.inf])])
Traceback (most recent call last):
...
ValueError: Ws[1] must be finite (found NaN or inf)
"""
from __future__ import annotations

import contextlib
import contextvars
import functools
import math
import numbers

import numpy as np

from .namespace import array_namespace

__all__ = ["check_int", "check_choice", "check_finite", "check_widths", "check_positive", "check_real",
           "check_labels", "entry_point"]

#: How many public simulator calls enclose the running code (0: none).
_DEPTH = contextvars.ContextVar("paperchecks_entry_depth", default=0)


def entry_point(fn):
    """Mark ``fn`` as a public entry point: the device-reading checks inside it run when
    it is the outermost one (a nested public call's inputs come from the outer call,
    which checked its own). Per thread (a context variable)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        token = _DEPTH.set(_DEPTH.get() + 1)
        try:
            return fn(*args, **kwargs)
        finally:
            _DEPTH.reset(token)

    return wrapper


def _outermost() -> bool:
    return _DEPTH.get() <= 1


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
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return float(value)


def check_real(name: str, value, low: float | None = None, high: float | None = None) -> float:
    """Return ``value`` as float if it is a finite real number in [low, high]; else
    raise ValueError.

    >>> check_real("scale", float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: scale must be a finite number, got nan
    """
    ok = not isinstance(value, bool) and isinstance(value, numbers.Real) and math.isfinite(value)
    if not ok or (low is not None and value < low) or (high is not None and value > high):
        rng = _range_text(low, high)
        raise ValueError(f"{name} must be a finite number{' ' + rng if rng else ''}, got {value!r}")
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


def _floating(name: str, value, out: list) -> None:
    """(label, array) of every floating array in ``value`` (an array, or nested lists
    and tuples of arrays, labelled name[i][j]); None entries are skipped."""
    if value is None:
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _floating(f"{name}[{i}]", item, out)
        return
    if not hasattr(value, "dtype"):
        value = np.asarray(value)
    if getattr(value.dtype, "kind", None) in ("f", "c"):
        out.append((name, value))


def check_finite(name: str, array):
    """Raise ValueError naming ``name`` (or ``name[i]``) if ``array`` (numpy or CuPy, or a
    list of them, nested or not) holds NaN or infinity; returns ``array``. One sum per
    array and one read for all of them; nothing when a public entry point encloses this
    one (:func:`entry_point`). Integer arrays are finite by type."""
    if not _outermost():
        return array
    found: list = []
    _floating(name, array, found)
    if not found:
        return array
    xp = array_namespace(*[a for _, a in found])
    quiet = xp.errstate(over="ignore", invalid="ignore") if hasattr(xp, "errstate") else contextlib.nullcontext()
    with quiet:  # a sum that overflows or meets inf - inf is looked at again below
        sums = xp.stack([xp.sum(a) for _, a in found])
    if bool(xp.all(xp.isfinite(sums))):
        return array
    for label, a in found:  # a sum is not finite: find the array, telling overflow from NaN and inf
        if not bool(xp.all(xp.isfinite(a))):
            raise ValueError(f"{label} must be finite (found NaN or inf)")
    return array


def check_labels(name: str, labels, classes: int):
    """Raise ValueError unless ``labels`` (host or device) are integers in [0, classes);
    one read, at the outermost entry point only (as :func:`check_finite`)."""
    dtype = getattr(labels, "dtype", None)
    if dtype is None:
        labels = np.asarray(labels)
        dtype = labels.dtype
    if getattr(dtype, "kind", None) not in ("i", "u"):
        raise ValueError(f"{name} must be integers in [0, {classes - 1}], got an array of {dtype}")
    if not _outermost() or labels.size == 0:
        return labels
    xp = array_namespace(labels)
    if not bool(xp.all(xp.stack([xp.min(labels) >= 0, xp.max(labels) < classes]))):
        raise ValueError(f"{name} must be integers in [0, {classes - 1}] (one per class), got values outside")
    return labels


def check_widths(name: str, widths, low: int = 1) -> list[int]:
    """Validate a sequence of layer widths (positive integers)."""
    if isinstance(widths, (str, bytes)) or not hasattr(widths, "__iter__"):
        raise ValueError(f"{name} must be a sequence of integers >= {low}, got {widths!r}")
    out = [check_int(f"{name}[{i}]", w, low=low) for i, w in enumerate(widths)]
    if not out:
        raise ValueError(f"{name} must contain at least one width")
    return out
