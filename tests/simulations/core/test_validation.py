"""Bad input gets a clear ValueError naming the parameter and its valid range."""
import math

import numpy as np
import pytest

from simulations import get_backend, haar_orthogonal, sample_rows
from simulations.core import check_choice, check_finite, check_int, check_positive, check_widths


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
