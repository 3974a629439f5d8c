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


# --- the command line's options (python -m theory) ---------------------------------------
from theory.core.context import MAX_SCALE  # noqa: E402


def _option(name: str, good, bad):
    """(argv part, bad option names): the option with a good or a bad value."""
    return st.one_of(good.map(lambda v: ([name, v], ())), bad.map(lambda v: ([name, v], (name,))))


@st.composite
def cli_options(draw):
    """(argv, bad): the global options of ``python -m theory`` (``--seed``, ``--mc-scale``,
    ``--backend``, each present or not, with a valid or a bad value) before ``list``
    with or without ``--paper`` and ``--verdict``; ``bad`` names the options given a bad
    value (the paper's error names ``paper``). Bad values are the probes' kinds: negative,
    fractional or text seeds, scales <= 0, NaN, infinite, above the ceiling or text,
    unknown backends, and ``cupy`` where CuPy sees no CUDA device."""
    from simulations import cupy_available
    from theory.core.registry import papers
    from theory.core.verdicts import Verdict

    backends = ["numpy", "cupy"] if cupy_available() else ["numpy"]
    seeds = _option("--seed", st.integers(0, 2**70).map(str),
                    st.one_of(st.integers(max_value=-1).map(str), st.sampled_from(["1.5", "abc", "1e3", "0x10"])))
    scales = _option("--mc-scale", st.floats(min_value=1e-300, max_value=MAX_SCALE).map(repr),
                     st.one_of(st.floats(max_value=0.0).map(repr),
                               st.floats(min_value=MAX_SCALE * (1 + 1e-9)).map(repr),
                               st.sampled_from(["nan", "inf", "-inf", "abc", "1e308"])))
    backend = _option("--backend", st.sampled_from(backends),
                      st.sampled_from(["torch", "CUPY", "", "jax"] + ([] if cupy_available() else ["cupy"])))
    keys = [p.key for p in papers()]
    paper = _option("--paper", st.sampled_from(keys), st.sampled_from(["nope", "", "ARPIT2019", keys[0] + "x"]))
    verdict = _option("--verdict", st.sampled_from([v.value for v in Verdict]), st.sampled_from(["maybe", "HOLDS"]))
    argv, bad = [], []
    for part in (seeds, scales, backend):
        if draw(st.booleans()):
            words, names = draw(part)
            argv += words
            bad += names
    argv.append("list")
    for part, name in ((paper, "paper"), (verdict, "--verdict")):
        if draw(st.booleans()):
            words, names = draw(part)
            argv += words
            bad += [name] if names else []
    return argv, tuple(bad)
