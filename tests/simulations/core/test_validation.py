"""Bad input gets a clear ValueError naming the parameter and its valid range."""
import math

import numpy as np
import pytest

from simulations import get_backend, haar_orthogonal, sample_rows
from simulations.core import (
    check_choice,
    check_finite,
    check_int,
    check_labels,
    check_positive,
    check_real,
    check_widths,
)


@pytest.mark.parametrize("call, match", [
    (lambda: check_int("n", 1, low=2), "n must be an integer >= 2, got 1"),
    (lambda: check_int("n", 2.5), "n must be an integer"),
    (lambda: check_int("d", 9, low=1, high=4, why="d <= 4 here"),
     r"d must be an integer in \[1, 4\], got 9 \(d <= 4 here\)"),
    (lambda: check_int("k", True), "k must be an integer"),
    (lambda: check_positive("lr", 0.0), "lr must be a finite number > 0, got 0.0"),
    (lambda: check_positive("lr", math.inf), "lr must be a finite number > 0"),
    (lambda: check_choice("law", "cauchy", ("gaussian",)), r"law must be one of \['gaussian'\], got 'cauchy'"),
    (lambda: check_widths("widths", "44"), "widths must be a sequence"),
    (lambda: check_widths("widths", []), "widths must contain at least one width"),
    (lambda: check_widths("widths", [4, -1]), r"widths\[1\] must be an integer >= 1"),
    (lambda: check_finite("data", np.array([1.0, np.nan])), "data must be finite"),
])
def test_messages_name_the_parameter_and_range(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_integral_floats_are_accepted():
    assert check_int("n", 4.0, low=1) == 4 and isinstance(check_int("n", np.int64(3)), int)


def test_check_finite_on_device(backend_name):
    be = get_backend(backend_name, seed=0)
    check_finite("x", be.normal((3,)))
    with pytest.raises(ValueError, match="x must be finite"):
        check_finite("x", be.normal((3,)) * math.inf)


def test_backend_and_sampler_errors():
    with pytest.raises(ValueError, match="law must be one of"):
        sample_rows("cauchy", get_backend(), 2, 3, 3)
    with pytest.raises(ValueError, match="m must be an integer >= 1"):
        sample_rows("gaussian", get_backend(), 2, 0, 3)
    with pytest.raises(ValueError, match="method must be one of"):
        haar_orthogonal(get_backend(), 2, 3, 3, method="gram_schmidt")
    with pytest.raises(ValueError, match="backend must be one of"):
        get_backend("torch")
    with pytest.raises(ValueError, match="dtype must be one of"):
        get_backend(dtype="float16")
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        get_backend(seed=-1)


def test_check_finite_names_the_array_of_a_list_and_returns_its_input():
    a = [np.ones(3), [np.zeros(2), np.array([1.0, np.nan])]]
    with pytest.raises(ValueError, match=r"Ws\[1\]\[1\] must be finite \(found NaN or inf\)"):
        check_finite("Ws", a)
    ok = [np.ones(3), None, np.arange(4)]  # None skipped, integers finite by type
    assert check_finite("Ws", ok) is ok


def test_check_finite_tells_an_overflowing_sum_from_infinity():
    """Finite entries whose sum overflows pass (the exact second look); inf does not."""
    big = np.full(4, 1e308)
    check_finite("x", big)
    with pytest.raises(ValueError, match="x must be finite"):
        check_finite("x", np.array([1e308, np.inf]))


def test_check_finite_reads_the_device_once_for_many_arrays(strict_cupy):
    """One reduction per array, one read for all (the strict stand-in counts reads)."""
    from tests.support.strict_device import host_reads

    be = get_backend(strict_cupy, seed=0)
    arrays = [be.normal((50, 40)) for _ in range(6)]
    before = host_reads()
    check_finite("Ws", arrays)
    assert host_reads() - before == 1


def test_an_entry_point_inside_another_does_not_check_again():
    """Device-reading checks run at the outermost public call only."""
    from simulations.core import entry_point

    @entry_point
    def inner(x):
        check_finite("x", x)
        return "inner ran"

    @entry_point
    def outer(x):
        return inner(x)

    bad = np.array([np.nan])
    with pytest.raises(ValueError, match="x must be finite"):
        inner(bad)
    assert outer(bad) == "inner ran"


@pytest.mark.parametrize("call, match", [
    (lambda: check_real("alpha", float("nan")), "alpha must be a finite number, got nan"),
    (lambda: check_real("alpha", True), "alpha must be a finite number"),
    (lambda: check_real("eps", -1.0, low=0.0), r"eps must be a finite number >= 0.0, got -1.0"),
    (lambda: check_labels("labels", np.array([0, 3]), 3), r"labels must be integers in \[0, 2\]"),
    (lambda: check_labels("labels", np.array([0.0, 1.0]), 3), r"labels must be integers in \[0, 2\], got an array"),
])
def test_real_and_label_checks_name_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_labels_in_range_pass_on_either_backend(backend_name):
    be = get_backend(backend_name, seed=0)
    labels = be.xp.asarray(np.array([0, 2, 1]))
    assert check_labels("labels", labels, 3) is labels
