"""Hypothesis strategies shared by all tests (the only place they are defined)."""
from hypothesis import strategies as st

from simulations import ISOTROPIC_LAWS

seeds = st.integers(min_value=0, max_value=2**31 - 1)
dims = st.integers(min_value=2, max_value=12)
blocks = st.integers(min_value=1, max_value=10**4)
small_blocks = st.integers(min_value=1, max_value=4)
isotropic_laws = st.sampled_from(ISOTROPIC_LAWS)
precisions = st.sampled_from([30, 50])
#: Orders of triangular matrices for the doubling inverse: every padded order up to 128, and 129-130 (padded to 256).
triangle_orders = st.integers(min_value=1, max_value=130)


@st.composite
def layer_shapes(draw):
    """(n_networks, batch, fan_in, fan_out)."""
    return (draw(st.integers(1, 3)), draw(st.integers(1, 4)), draw(dims), draw(dims))


@st.composite
def mlp_widths(draw):
    return [draw(dims) for _ in range(draw(st.integers(2, 5)))]


# --- batch-norm chains (Daneshmand et al. 2021) ---------------------------------------
from simulations import STARTS  # noqa: E402

starts = st.sampled_from(STARTS)


@st.composite
def chain_shapes(draw):
    """(runs, d, n) with d >= n >= 2, as the paper assumes."""
    n = draw(st.integers(2, 6))
    return draw(st.integers(1, 3)), draw(st.integers(n, 24)), n


@st.composite
def simplex_spectra(draw):
    """Eigenvalues of a trace-one Gram matrix (non-negative, summing to 1)."""
    n = draw(st.integers(1, 8))
    w = draw(st.lists(st.floats(0, 1, allow_nan=False), min_size=n, max_size=n).filter(lambda v: sum(v) > 1e-3))
    return [x / sum(w) for x in w]


# --- convolutions (Defazio & Bottou) ---------------------------------------------------
@st.composite
def conv_shapes(draw):
    """(batch, C, O, size, k, stride, pad) with a valid geometry."""
    k = draw(st.integers(1, 4))
    pad = draw(st.integers(0, k - 1))
    size = draw(st.integers(max(1, k - 2 * pad), 9))
    return (draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3)), size, k,
            draw(st.integers(1, 3)), pad)


# --- Hessian-vector products (ZeroInit/Fixup Table 1) ------------------------------------
from simulations.hessian import TABLE1_SCHEMES  # noqa: E402

table1_schemes = st.sampled_from(TABLE1_SCHEMES)


# --- residual nets with m-layer branches (ZeroInit principles, 1/2-scaling) ------------
@st.composite
def residual_branches(draw):
    """(m, s_out, scale, hidden): branch depth, block output scale (1, the printed 1/2,
    the unrolled 1/sqrt(2)), branch multiplier and the branch's inner width."""
    return (draw(st.integers(1, 3)), draw(st.sampled_from([1.0, 0.5, 2 ** -0.5])), draw(st.sampled_from([1.0, 0.3])),
            draw(st.sampled_from([5, 7])))
