"""Exact proof-step checks of Arpit et al. (2019): each printed form fails with its
smallest counterexample, each corrected form holds (Eq. 5, 19-21, 35-36, 45-49, 56-61,
footnotes 5 and 8, Lemma 1, Table 5), and the Figure 1 gradient helper agrees with an
explicit backward pass."""
import numpy as np
import pytest

from simulations import build_mlp, forward, get_backend
from theory.arpit2019 import proof_ranges as pr
from theory.arpit2019 import proof_steps as ps
from theory.arpit2019.catalogue import CLAIMS
from theory.arpit2019.fig1_panels import preactivation_log_grads
from theory.core import JudgeContext, RunContext, evaluate

RUN = RunContext()
CTX = JudgeContext.exact(RUN)


def test_eq5_smallest_counterexample_is_the_two_unit_swap():
    ev = ps.judge_eq5(ps.eq5_measure(RUN), CTX, variant="printed")
    assert ev.verdict.value == "fails"
    assert ev.counterexample == {"part": "n_l = 2, n_(l+1) = 2", "n_l": 2, "n_l+1": 2, "form": [0.0, 2.0],
                                 "finite_differences": [0.0, 1.0]}
    assert ps.judge_eq5(ps.eq5_measure(RUN), CTX, variant="corrected").verdict.value == "holds"


def test_eq5_printed_is_ill_typed_for_unequal_widths():
    details = ps.judge_eq5(ps.eq5_measure(RUN), CTX, variant="printed").details
    assert any("undefined" in str(d["measured"]) for d in details if d["label"].startswith("n_l = 3"))


@pytest.mark.parametrize("claim_id,params", [
    ("arpit2019.thm7.proof.eq45_49", {"cross": 1}), ("arpit2019.thm7.proof.eq45_49", {"alpha_power": 1}),
    ("arpit2019.fn5.alpha_absorbed", {"gamma": "1/B**2"}), ("arpit2019.table5.depth_count", {"depth": "6*N+2"})])
def test_symbolic_steps_hold_and_their_mutations_fail(claim_id, params):
    claim = next(c for c in CLAIMS if c.id == claim_id)
    assert evaluate(claim).verdict.value == "holds"
    assert evaluate(claim, **params).verdict.value == "fails"


def test_table5_counterexample_is_the_first_wrn():
    assert [ps.wrn_depth(**p, depth="6*N+4") for p in ps.TABLE5] == [p["layers"] for p in ps.TABLE5]
    ev = evaluate(next(c for c in CLAIMS if c.id == "arpit2019.table5.depth_count"), depth="6*N+2")
    assert (ev.counterexample["N"], ev.counterexample["layers"]) == (1, 10)


def test_eq19_21():
    m = ps.eq19_21_measure(RUN)
    assert ps.judge_eq19_21(m, CTX).verdict.value == "holds"
    assert ps.judge_eq19_21(m, CTX, shift=1).verdict.value == "fails"


def test_eq35_counterexample_m2_n1():
    ev = pr.judge_eq35(pr.eq35_measure(RUN), CTX, variant="printed")
    assert ev.verdict.value == "fails"
    assert (ev.counterexample["m"], ev.counterexample["n"]) == (2, 1)
    assert ev.counterexample["printed_sum"] == "Matrix([[0]])" and ev.counterexample["R_hat^T u"] == "Matrix([[1]])"
    assert pr.judge_eq35(pr.eq35_measure(RUN), CTX, variant="corrected").verdict.value == "holds"


def test_eq56_printed_recursion_fails_first_at_b2():
    m = ps.eq56_measure(RUN)
    ev = ps.judge_eq56(m, CTX, variant="printed")
    assert ev.verdict.value == "fails" and ev.counterexample["b"] == 2
    assert [d["ok"] for d in ev.details] == [True, False]  # b = 1: x = h^0, the forms agree
    assert ps.judge_eq56(m, CTX, variant="corrected").verdict.value == "holds"


def test_eq59_and_eq61_counterexamples():
    m = ps.eq59_measure(RUN)
    ev = ps.judge_eq59(m, CTX, variant="printed")
    assert ev.counterexample["one_dimensional"]["lhs"] == 4 and ev.counterexample["one_dimensional"]["printed_rhs"] == 9
    assert ev.counterexample["theorem_8_hypotheses_exact"]["lhs"] == 2
    assert ev.counterexample["theorem_8_hypotheses_exact"]["printed_rhs"] == 1
    assert ps.judge_eq59(m, CTX, variant="corrected").verdict.value == "holds"
    ev = ps.judge_eq61(m, CTX, variant="printed")
    assert ev.verdict.value == "fails" and (ev.counterexample["eq61_left"], ev.counterexample["eq61_right"]) == (3, 4)
    assert ps.judge_eq61(m, CTX, variant="corrected").verdict.value == "holds"


def test_footnote8_and_lemma1():
    m = ps.fn8_measure(RUN)
    ev = ps.judge_fn8_deterministic(m, CTX, variant="printed")
    assert ev.verdict.value == "fails" and ev.counterexample["values"] == [0.0, 2.0]
    assert ps.judge_fn8_deterministic(m, CTX, variant="corrected").verdict.value == "holds"
    assert ps.judge_lemma1_zero_input({}, CTX).verdict.value == "fails"
    assert ps.judge_lemma1_zero_input({}, CTX, h=1.0).verdict.value == "holds"


def test_preactivation_gradients_match_an_explicit_backward_pass():
    be = get_backend(seed=3)
    widths = [9, 12, 10, 11]
    ops = build_mlp(be, widths, "proposed_he", n_networks=2)
    x, e = be.normal((2, 3, 9)), be.normal((2, 3, 11))
    tape = forward(ops, x, np, renormalize=False)
    la = preactivation_log_grads(ops, tape, e, np)
    masks = [c[2] for c in tape.caches]
    weights = [c[1] for c in tape.caches]
    d = e
    expected = [np.log(np.linalg.norm(d, axis=-1))]
    for k in range(len(ops) - 1, 0, -1):
        d = np.matmul(d, weights[k]) * masks[k - 1]
        expected.append(np.log(np.linalg.norm(d, axis=-1)))
    np.testing.assert_allclose(la, np.stack(expected[::-1], axis=-1), rtol=1e-10)
