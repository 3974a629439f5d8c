"""Judges of the Monte-Carlo claims of Arpit et al. (2019) on synthetic records with
known truth: exactly true (holds), true but underpowered (inconclusive), false by
several tolerances (fails)."""
import numpy as np
import pytest

from simulations import ISOTROPIC_LAWS
from theory import get
from theory.arpit2019 import mc_judges as J
from theory.core import Block, JudgeContext, Row, RunContext, Samples, Verdict
from theory.stats import MIN_REPLICATES, TooFewReplicates

H, F, INC = Verdict.HOLDS, Verdict.FAILS, Verdict.INCONCLUSIVE
HA = Verdict.HOLDS_APPROXIMATELY
CTX = JudgeContext(RunContext(), 1e-6)
SHAPES = ((8, 8), (16, 4), (4, 16))


def _rec(rows, meta=None):
    return Samples([Block(tuple(Row(lab, {k: np.asarray(v) for k, v in data.items()}) for lab, data in rows),
                          meta or {})])


def _normal(mean, sd, n, seed):
    """n draws with sample mean exactly ``mean`` and sample sd exactly ``sd``."""
    x = np.random.default_rng(seed).normal(size=n)
    return mean + sd * (x - x.mean()) / x.std(ddof=1)


# (relative offset of the mean, replicates, expected verdict): exactly true and well
# resolved; exactly true but too few replicates; false by five tolerances
CASES = [(0.0, 200_000, H), (0.0, 200, INC), (0.10, 200_000, F)]


@pytest.mark.parametrize("offset,n,expect", CASES)
def test_thm1_and_thm2(offset, n, expect):
    rows = []
    for i, law in enumerate(ISOTROPIC_LAWS):
        for j, (nn, m) in enumerate(SHAPES):
            x = _normal(1 + offset, 0.5, n, 10 * i + j)
            rows.append(({"law": law, "n": nn, "m": m},
                         {"thm1": x * m / (2 * nn), "thm2": x / 2, "thm2_masked": x / 2}))
    rec = _rec(rows)
    assert J.judge_thm1(rec, CTX).verdict == expect
    assert J.judge_thm2(rec, CTX).verdict == expect


def test_exact_rows_hold_and_mutations_fail():
    """A quantity constant on every draw (orthogonal rows) holds exactly; a mutated
    constant fails; rounding noise cannot fake a signal (values are exact)."""
    x = np.full(MIN_REPLICATES, 0.5)
    rec = _rec([({"law": "haar_orthogonal", "n": 8, "m": 8}, {"thm1": x, "thm2": x})])
    assert J.judge_thm1(rec, CTX, laws=("haar_orthogonal",)).verdict == H
    assert J.judge_thm1(rec, CTX, laws=("haar_orthogonal",), K=1.02).verdict == F
    assert J.judge_cross_term(rec, CTX).verdict == H
    ev = J.judge_cross_term(rec, CTX, mean=0.02)
    assert ev.verdict == F
    assert ev.counterexample["part"] == "the cross term has the stated mean (every law, Haar rows included)"


def test_cross_term_rejects_a_nonzero_orthogonal_draw():
    x = np.full(MIN_REPLICATES, 0.5)
    x[3] = 0.5 + 1e-3
    rec = _rec([({"law": "haar_orthogonal", "n": 8, "m": 8}, {"thm2": x})])
    assert J.judge_cross_term(rec, CTX).verdict == F


@pytest.mark.parametrize("offset,n,expect", CASES)
def test_controls(offset, n, expect):
    """Rejected laws far from 1; the accepted law at 1 + offset."""
    rows = []
    for i, law in enumerate(("anisotropic_gaussian", "shifted_gaussian", "rademacher")):
        for j, (nn, m) in enumerate(SHAPES):
            mean = 2.0 if law != "rademacher" else 1 + offset
            rows.append(({"law": law, "n": nn, "m": m}, {"thm1": _normal(mean, 0.5, n, 10 * i + j) * m / (2 * nn)}))
    assert J.judge_controls(_rec(rows), CTX).verdict == expect


def _variance_rows(gap, n):
    """Per shape a Haar and a Gaussian row with Var(gaussian) - Var(haar) = gap (in units
    of the Haar variance)."""
    rows = []
    for j, (nn, m) in enumerate(SHAPES):
        rows.append(({"law": "haar_orthogonal", "n": nn, "m": m}, {"thm2_masked": _normal(0.5, 0.5, n, j)}))
        rows.append(({"law": "gaussian", "n": nn, "m": m},
                     {"thm2_masked": _normal(0.5, 0.5 * np.sqrt(1 + gap), n, 9 + j)}))
    return _rec(rows)


@pytest.mark.parametrize("gap,n,expect", [(0.3, 100_000, H), (0.3, MIN_REPLICATES, INC), (-0.3, 100_000, F)])
def test_orthogonal_variance(gap, n, expect):
    """A variance gap of 30% is resolved by 100,000 draws per law, not by the minimum."""
    assert J.judge_orthogonal_variance(_variance_rows(gap, n), CTX).verdict == expect


def test_orthogonal_variance_refuses_below_the_minimum():
    with pytest.raises(TooFewReplicates, match=f"at least {MIN_REPLICATES}"):
        J.judge_orthogonal_variance(_variance_rows(0.3, MIN_REPLICATES - 1), CTX)


@pytest.mark.parametrize("p,n,expect", [(0.5, 400_000, H), (0.5, 500, INC), (0.6, 400_000, F)])
def test_lemma1(p, n, expect):
    rng = np.random.default_rng(1)
    codes = (rng.random((n, 4)) < p) @ (2 ** np.arange(4))
    rec = _rec([({"law": "gaussian", "m": 4, "n": 12}, {"code": codes})])
    assert J.judge_lemma1(rec, CTX).verdict == expect


@pytest.mark.parametrize("offset,n,expect", CASES)
def test_gains(offset, n, expect):
    rows = []
    for j, (n_in, n_out) in enumerate(((16, 8), (8, 16))):
        f = _normal(1 + offset, 0.4, n, j) * n_out / (2 * n_in)
        b = _normal(1 + offset, 0.4, n, 5 + j) * n_in / n_out / (2 * n_in / n_out)
        rows.append(({"law": "gaussian", "n_in": n_in, "n_out": n_out}, {"fwd": f, "bwd": b}))
    assert J.judge_gains(_rec(rows), CTX).verdict == expect


@pytest.mark.parametrize("offset,n,expect", CASES)
def test_resnet_judges(offset, n, expect):
    rows = []
    for j, B in enumerate((1, 2, 8)):
        t = (1 + 1 / B) ** B
        rows.append(({"init": "proposed_he", "B": B},
                     {"fwd": _normal(t * (1 + offset), 0.3 * t, n, j),
                      "bwd_last": _normal((1 + 1 / B) * (1 + offset), 0.3, n, 3 + j),
                      "bwd_h1": _normal((1 + 1 / B) ** (B - 1) * (1 + offset), 0.3, n, 6 + j)}))
    rec = _rec(rows)
    assert J.judge_resnet_forward(rec, CTX).verdict == expect
    assert J.judge_eq60(rec, CTX, variant="corrected").verdict == expect
    assert J.judge_eq62(rec, CTX, exponent="B-1").verdict == expect
    if expect == H:
        assert J.judge_eq60(rec, CTX, variant="printed").verdict == F
        assert J.judge_eq62(rec, CTX, exponent="B").verdict == F


@pytest.mark.parametrize("offset,n,expect", CASES)
def test_multistage_and_deep_blocks(offset, n, expect):
    dims, blocks = (8, 16, 24), (3, 6)
    rows = [({"init": init}, {"fwd": _normal(J._stage_targets(init, dims, blocks) * (1 + offset),
                                              0.4 * J._stage_targets(init, dims, blocks), n, k)})
            for k, init in enumerate(("proposed_orthogonal", "hanin_stagewise", "pytorch_default"))]
    assert J.judge_multistage(_rec(rows, {"dims": dims, "blocks": blocks}), CTX).verdict == expect
    deep = [({"depth": D, "B": 2}, {"fwd": _normal(2.25 * (1 + offset), 0.9, n, D)}) for D in (1, 2, 3)]
    assert J.judge_deep_block(_rec(deep), CTX).verdict == expect


@pytest.mark.parametrize("offset,n,expect", [(0.0, 600_000, H), (0.0, 2_000, INC), (0.5, 20_000, F)])
def test_units(offset, n, expect):
    rows = [({"law": law, "unit": u, "n": 4, "m": 4}, {"unit_value": _normal(1 + offset, 1.7, n, k)})
            for k, (law, u) in enumerate((law, u) for law in ISOTROPIC_LAWS for u in (1, 4))]
    assert J.judge_units(_rec(rows), CTX).verdict == expect


def _panel_rec(arch, mean, sd, n):
    idx = "layer" if arch == "mlp" else "block"
    rows = [({"init": init, "pass": p, idx: k}, {"ratio_over_prediction": _normal(mean, sd, n, 7 * k + i)})
            for i, init in enumerate(("proposed_orthogonal", "he")) for p in ("forward", "backward") for k in (2, 5)]
    meta = {"inputs": 8, "nets_per_group": {"he": 4}, ("depth" if arch == "mlp" else "blocks"): 20}
    return _rec(rows, meta)


@pytest.mark.parametrize("arch,tol", [("mlp", 0.20), ("resnet", 0.10)])
@pytest.mark.parametrize("rel,n,expect", [(0.0, 20_000, H), (0.0, MIN_REPLICATES, INC), (2.0, 20_000, F)])
def test_panels(arch, tol, rel, n, expect):
    """Figure 1 panels: ratio / expectation at 1 (holds), 1 with the fewest groups the
    test decides from (inconclusive: a spread of 3 tolerances), 1 + 2 tolerances (fails)."""
    idx = "layer" if arch == "mlp" else "block"
    rec = _panel_rec(arch, 1 + rel * tol, 3 * tol, n)
    ev = J.judge_panel(rec, CTX, pass_="backward", index=idx, arch=arch)
    assert ev.verdict == expect
    assert J.judge_panel(rec, CTX, pass_="forward", index=idx, arch=arch, he_scale=2.0).verdict in (
        (F,) if expect != INC else (F, INC))


@pytest.mark.parametrize("arch", ["mlp", "resnet"])
def test_panels_refuse_a_handful_of_groups(arch):
    """Six groups per row: the test refuses to decide (the runner leaves the look unjudged)."""
    with pytest.raises(TooFewReplicates, match=f"at least {MIN_REPLICATES}"):
        J.judge_panel(_panel_rec(arch, 1.0, 0.3, 6), CTX, pass_="backward", index="layer" if arch == "mlp"
                      else "block", arch=arch)


def test_norm_scaling_limit():
    """A width ladder whose mean converges to the target as c + a/w with single-network
    errors shrinking like w^-1/2: holds approximately; a wrong limit fails."""
    B, target = 4, 1.25**2
    rows = [({"width": w, "B": B}, {"fwd": _normal(target + 0.3 / w, 0.5 / np.sqrt(w), 4000, w),
                                    "bwd": _normal(target + 0.3 / w, 0.5 / np.sqrt(w), 4000, w + 1)})
            for w in (8, 16, 32, 64, 128)]
    rec = _rec(rows)
    assert J.judge_norm_scaling(rec, CTX).verdict == HA
    assert J.judge_norm_scaling(rec, CTX, scale=1.05).verdict == F


# --- every part of a multi-part statement can fail alone ---------------------------------


def _controls_rows(means, n=200_000):
    return _rec([({"law": law, "n": nn, "m": m}, {"thm1": _normal(means[law], 0.5, n, 10 * i + j) * m / (2 * nn)})
                 for i, law in enumerate(means) for j, (nn, m) in enumerate(SHAPES)])


def test_controls_fail_when_the_anisotropic_law_satisfies_the_identity():
    """Shifted Gaussian rejected and Rademacher accepted as stated, but the anisotropic
    law satisfies the identity on every shape: the 'anisotropic rejected' part alone fails."""
    rec = _controls_rows({"anisotropic_gaussian": 1.0, "shifted_gaussian": 2.0, "rademacher": 1.0})
    ev = J.judge_controls(rec, CTX)
    assert ev.verdict == F
    assert ev.counterexample == {"anisotropic_gaussian": "fails"}
    assert ev.measured == {"anisotropic_gaussian": "fails", "shifted_gaussian": "holds", "rademacher": "holds"}
    # the statement the mutation makes (anisotropic accepted) fails on data where it is rejected
    rec = _controls_rows({"anisotropic_gaussian": 2.0, "shifted_gaussian": 2.0, "rademacher": 1.0})
    ev = J.judge_controls(rec, CTX, rejected=("shifted_gaussian",), accepted=("rademacher", "anisotropic_gaussian"))
    assert ev.verdict == F and ev.counterexample == {"anisotropic_gaussian": "fails"}


def _cross_term_rec(n=200_000):
    """Haar rows exact (cross term 0 on every draw, m <= n) and iid Gaussian rows whose
    cross term has mean 0."""
    rows = [({"law": "haar_orthogonal", "n": 8, "m": 8}, {"thm2": np.full(n, 0.5)}),
            ({"law": "haar_orthogonal", "n": 16, "m": 4}, {"thm2": np.full(n, 0.5)})]
    rows += [({"law": "gaussian", "n": nn, "m": m}, {"thm2": _normal(0.5, 0.3, n, j)})
             for j, (nn, m) in enumerate(SHAPES)]
    return _rec(rows)


def test_cross_term_orthogonal_value_fails_alone():
    """The mean part holds on every row; a stated orthogonal value other than 0 fails
    through the orthogonal rows alone, which the counterexample names."""
    rec = _cross_term_rec()
    assert J.judge_cross_term(rec, CTX).verdict == H
    ev = J.judge_cross_term(rec, CTX, orthogonal_value=0.02)
    assert all(d["verdict"] == "holds" for d in ev.details if "verdict" in d)
    assert ev.verdict == F
    assert ev.counterexample["orthogonal rows, max |cross term|"] == {"haar_orthogonal (8, 8)": 0.0,
                                                                       "haar_orthogonal (16, 4)": 0.0}
    assert ev.counterexample["stated value"] == 0.02


def test_cross_term_exact_orthogonal_value_holds():
    """Orthogonal rows whose cross term is c on every draw hold for orthogonal_value = c
    (the check compares each draw with the stated value, not with 0; c = 1/4 is exact
    in floating point)."""
    x = np.full(MIN_REPLICATES, 0.5 + 0.25 / 2)
    rec = _rec([({"law": "haar_orthogonal", "n": 8, "m": 8}, {"thm2": x})])
    assert J.judge_cross_term(rec, CTX, mean=0.25, orthogonal_value=0.25).verdict == H
    assert J.judge_cross_term(rec, CTX, mean=0.25).verdict == F


def _gains_rec(preserved=1.0, n=200_000):
    """One WN layer per shape with the passes' means as stated, the forward gain's forward
    pass and the backward gain's backward pass at ``preserved`` (the scaled passes then
    follow: E[fwd] 2 = preserved n_out/n_in, E[bwd] 2 n_in/n_out = preserved n_in/n_out)."""
    rows = []
    for j, (n_in, n_out) in enumerate(((16, 8), (8, 16))):
        f = _normal(preserved, 0.4, n, j) * n_out / (2 * n_in)
        b = _normal(preserved, 0.4, n, 5 + j) / 2
        rows.append(({"law": "gaussian", "n_in": n_in, "n_out": n_out}, {"fwd": f, "bwd": b}))
    return _rec(rows)


def test_gains_preserved_part_fails_alone():
    """Data as stated: a preserved factor of 1.02 (the tolerance) fails on exactly the
    preserved rows (gain = pass); the scaled rows still hold."""
    rec = _gains_rec()
    assert J.judge_gains(rec, CTX).verdict == H
    ev = J.judge_gains(rec, CTX, preserved=1.02)
    assert ev.verdict == F
    failing = [d for d in ev.details if d["verdict"] == "fails"]
    assert failing and all(d["gain"] == d["pass"] for d in failing)
    assert all(d["verdict"] == "holds" for d in ev.details if d["gain"] != d["pass"])
    assert ev.counterexample["gain"] == ev.counterexample["pass"]


_SCHEME_MUTATIONS = [next(iter(m.params.items())) for m in get("arpit2019.sec4.shortcut_stagewise").mutations
                     if set(m.params) & {"hanin_base", "pytorch_rate", "pytorch_divisor"}]


def test_every_scheme_has_a_mutation():
    assert {p for p, _ in _SCHEME_MUTATIONS} == {"hanin_base", "pytorch_rate", "pytorch_divisor"}


@pytest.mark.parametrize("param,value", _SCHEME_MUTATIONS)
def test_multistage_each_scheme_fails_alone(param, value):
    """Networks as stated: the catalogue's perturbation of one scheme's printed constant
    fails that scheme's row alone (the counterexample), the other two still hold."""
    dims, blocks = (8, 16, 24), (3, 6)
    rows = [({"init": init}, {"fwd": _normal(J._stage_targets(init, dims, blocks),
                                             0.4 * J._stage_targets(init, dims, blocks), 200_000, k)})
            for k, init in enumerate(("proposed_orthogonal", "hanin_stagewise", "pytorch_default"))]
    rec = _rec(rows, {"dims": dims, "blocks": blocks})
    assert J.judge_multistage(rec, CTX).verdict == H
    ev = J.judge_multistage(rec, CTX, **{param: value})
    assert ev.verdict == F
    scheme = "hanin_stagewise" if param == "hanin_base" else "pytorch_default"
    assert ev.counterexample["init"] == scheme
    assert {d["init"]: d["verdict"] for d in ev.details if d["init"] != scheme} == {
        i: "holds" for i in ("proposed_orthogonal", "hanin_stagewise", "pytorch_default") if i != scheme}


def test_stage_targets_defaults_are_the_printed_formulas():
    dims, blocks = (8, 16, 24), (3, 6)
    assert J._stage_targets("hanin_stagewise", dims, blocks) == float(np.prod([1 + 0.81**b for b in range(1, 4)])) * \
        float(np.prod([1 + 0.81**b for b in range(1, 7)]))
    assert J._stage_targets("pytorch_default", dims, blocks) == \
        (16 / (3.0 * 8)) * (19 / 18) ** 3 * (24 / (3.0 * 16)) * (19 / 18) ** 6


def _ladder(rms_power, sd=0.5):
    """Width ladder whose mean converges to (1 + 1/4)^2 as c + a/w, single-network
    errors scaling as sd w^rms_power."""
    target = 1.25**2
    return _rec([({"width": w, "B": 4}, {"fwd": _normal(target + 0.3 / w, sd * w**rms_power, 4000, w),
                                         "bwd": _normal(target + 0.3 / w, sd * w**rms_power, 4000, w + 1)})
                 for w in (8, 16, 32, 64, 128)])


def test_norm_scaling_rms_part_fails_alone():
    """Limit right, single networks not concentrating (RMS error growing with the
    width): the RMS part alone fails; with concentrating networks the mutated direction
    ("single networks do not concentrate") fails on the RMS part alone."""
    for key in ("fwd", "bwd"):
        ev = J.judge_norm_scaling(_ladder(0.25, 0.1), CTX, key=key)
        assert ev.verdict == F
        assert ev.resolution.endswith("parts: limit holds_approximately, rms_decay fails")
        assert ev.measured["rms_exponent_interval"][0] > 0
        ev = J.judge_norm_scaling(_ladder(-0.5), CTX, key=key, rms_direction=">")
        assert ev.verdict == F
        assert ev.resolution.endswith("parts: limit holds_approximately, rms_decay fails")
        assert J.judge_norm_scaling(_ladder(0.25, 0.1), CTX, key=key, rms_direction=">").verdict == HA


def test_norm_scaling_rejects_an_unknown_rms_direction():
    with pytest.raises(ValueError, match="rms_direction"):
        J.judge_norm_scaling(_ladder(-0.5), CTX, rms_direction="decays")


def test_controls_undecided_accepted_law_carries_its_rows_shortfall():
    """Rejected laws fail (their rows fail: no shortfall there), the accepted law at 1 is
    undecided at 200 draws: the inconclusive verdict carries the largest shortfall of the
    accepted law's rows, so the runner can say what scale settles it."""
    ev = J.judge_controls(_controls_rows({"anisotropic_gaussian": 2.0, "shifted_gaussian": 2.0, "rademacher": 1.0},
                                         n=200), CTX)
    assert ev.verdict == INC and ev.measured["rademacher"] == "inconclusive"
    assert 1 < ev.shortfall < float("inf")
