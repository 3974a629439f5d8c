"""Bad input gets a clear error naming the parameter and its valid range."""
import numpy as np
import pytest

from simulations import build_mlp, build_resnet, get_backend, sample_rows


@pytest.mark.parametrize("widths,match", [
    ([4, -1], r"widths\[1\] must be an integer >= 1"),
    ([4, 2.5], r"widths\[1\] must be an integer >= 1"),
    ([4], "at least 2 entries"),
    ("44", "widths must be a sequence"),
])
def test_bad_widths(widths, match):
    with pytest.raises(ValueError, match=match):
        build_mlp(get_backend(), widths, "he")


def test_unknown_init():
    with pytest.raises(ValueError, match="init must be one of"):
        build_mlp(get_backend(), [3, 3], "xavier")


def test_zero_blocks():
    with pytest.raises(ValueError, match=r"blocks\[0\] must be an integer >= 1"):
        build_resnet(get_backend(), [4, 4], [0], [4], "proposed_orthogonal")


def test_nan_data():
    with pytest.raises(ValueError, match="data must be finite"):
        build_mlp(get_backend(), [3, 3], "data_dependent", data=np.full((1, 4, 3), np.nan))


def test_unknown_law_and_backend():
    with pytest.raises(ValueError, match="law must be one of"):
        sample_rows("cauchy", get_backend(), 2, 3, 3)
    with pytest.raises(ValueError, match="backend must be one of"):
        get_backend("torch")
    with pytest.raises(ValueError, match="dtype must be one of"):
        get_backend(dtype="float16")
