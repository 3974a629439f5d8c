"""The typed Monte-Carlo record: host arrays only, one replicate axis, head of blocks."""
import numpy as np
import pytest

from theory.core import Block, Row, Samples


def test_rows_refuse_non_numpy_data():
    with pytest.raises(TypeError, match="host numpy array"):
        Row({"n": 1}, {"x": [1.0, 2.0]})


def test_rows_need_one_replicate_axis():
    with pytest.raises(ValueError, match="share axis 0"):
        Row({"n": 1}, {"x": np.zeros(3), "y": np.zeros(4)})


def test_blocks_must_hold_the_same_rows():
    a = Block((Row({"n": 1}, {"x": np.zeros(2)}),))
    b = Block((Row({"n": 2}, {"x": np.zeros(2)}),))
    with pytest.raises(ValueError, match="same rows"):
        Samples([a, b])


def test_row_lookup_by_labels():
    s = Samples([Block((Row({"n": 1, "m": 2}, {"x": np.ones(2)}), Row({"n": 2, "m": 2}, {"x": np.zeros(2)})))])
    assert s.row(n=2)["x"].sum() == 0 and len(s.select(m=2)) == 2
    with pytest.raises(KeyError, match="exactly one"):
        s.row(m=2)
