"""Hypothesis strategies shared by all tests (the only place they are defined)."""
from hypothesis import strategies as st

from simulations import ISOTROPIC_LAWS

seeds = st.integers(min_value=0, max_value=2**31 - 1)
dims = st.integers(min_value=2, max_value=12)
blocks = st.integers(min_value=1, max_value=10**4)
small_blocks = st.integers(min_value=1, max_value=4)
isotropic_laws = st.sampled_from(ISOTROPIC_LAWS)
precisions = st.sampled_from([30, 50])


@st.composite
def layer_shapes(draw):
    """(n_networks, batch, fan_in, fan_out)."""
    return (draw(st.integers(1, 3)), draw(st.integers(1, 4)), draw(dims), draw(dims))


@st.composite
def mlp_widths(draw):
    return [draw(dims) for _ in range(draw(st.integers(2, 5)))]
