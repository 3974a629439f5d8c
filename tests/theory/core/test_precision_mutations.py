"""Mutations sized against the run's precision (:class:`~theory.core.claims.AtPrecision`)
fail at every precision: the high-precision checks' tolerance is 10^-(dps - 5), so a
fixed 1e-40 perturbation would fall inside it from ``--dps 45`` down and prove nothing
there. Each is evaluated at 20, 50 and 120 digits, where it gets its declared verdict
and a check at the run's own precision (not only the exact sympy ones) rejects it; the
claims themselves keep their recorded verdicts there."""
import re
import sys

import mpmath
import pytest

from tests.support.evidence import failing_labels
from theory import Claim, Evidence, Mutation, RunContext, Verdict, claims, evaluate
from theory.arpit2019.claims_sec3 import HALF_PI_CUT
from theory.core.claims import AtPrecision

DPS = (20, 50, 120)
SIZED = [(c, m) for c in claims(builtin_only=True) for m in c.mutations
         if any(isinstance(v, AtPrecision) for v in m.params.values())]


def _echo(m, ctx, shift=0):
    return Evidence(Verdict.HOLDS, {"shift": shift, "dps": ctx.dps}, "-", "echo", "exact")


def test_evaluate_resolves_at_the_runs_precision():
    """The judge receives the value at the run's dps, from the claim's params or an override."""
    sized = AtPrecision(lambda dps: f"1e-{dps - 10}", "10^-(dps - 10)")
    claim = Claim(id="tests.sized", where="-", statement="-", kind="identity", recorded=Verdict.HOLDS,
                  measure=lambda ctx: None, judge=_echo, params={"shift": sized}, mutations=(Mutation("-", {}),))
    assert evaluate(claim, RunContext(dps=20)).measured == {"shift": "1e-10", "dps": 20}
    assert evaluate(claim, RunContext(dps=120), shift=sized).measured == {"shift": "1e-110", "dps": 120}
    assert evaluate(claim, RunContext(dps=120), shift=0).measured["shift"] == 0


def test_the_precision_sized_mutations():
    assert {c.id for c, _ in SIZED} == {
        "arpit2019.thm1.kn_eq3.n_sphere", "arpit2019.thm5.kn_eq9.sphere_in_Rn_corrected",
        "arpit2019.thm5.proof.eq18_corrected", "arpit2019.thm5.proof.eq19_21", "arpit2019.thm5.proof.eq22_28",
        "arpit2019.thm5.proof.eq29_corrected", "arpit2019.thm5.proof.eq31_34", "arpit2019.table5.depth_count",
        "zeroinit2019.eq10.lse_max"}
    assert len(SIZED) == 13


@pytest.mark.parametrize("dps", DPS)
@pytest.mark.parametrize("claim,mutation", [pytest.param(c, m, id=f"{c.id}::{m.name}") for c, m in SIZED])
def test_sized_mutation_fails_at_every_precision(claim, mutation, dps):
    ctx = RunContext(dps=dps)
    ev = evaluate(claim, ctx, **mutation.params)
    assert ev.verdict == mutation.expect, (claim.id, mutation.name, dps, ev.measured)
    own = re.compile(rf"\b{dps}\b.*digits")
    assert any(own.search(label) for label in failing_labels(ev)), failing_labels(ev)


@pytest.mark.parametrize("dps", (20, 120))
@pytest.mark.parametrize("claim", list({c.id: c for c, _ in SIZED}.values()), ids=lambda c: c.id)
def test_claim_keeps_its_verdict(claim, dps):
    assert evaluate(claim, RunContext(dps=dps)).verdict == claim.recorded


def test_half_pi_cut_is_off_by_more_than_the_tolerance_at_every_dps():
    """pi/2 cut to dps - 10 significant digits is off by at least 10^-(dps - 5) (relative)
    for every allowed dps, 15..10000: the digits after the cut, read as a fraction of the
    last digit kept, stay above 10^-6 pi/2 (rounding instead would fall inside the
    tolerance at dps 773, before the six 9s from pi's digit 762)."""
    sys.set_int_max_str_digits(0)
    with mpmath.workdps(10_030):
        digits = str(int(mpmath.floor(mpmath.pi / 2 * mpmath.mpf(10) ** 10_020)))
    # error / tolerance for dps = k + 10: (0.d_{k+1}d_{k+2}... 10^-(k-1)) / (pi/2) / 10^-(k+5)
    ratio = {k + 10: int(digits[k:k + 12]) / 1e12 / 1.5707963267948966 / 1e-6 for k in range(5, 9_991)}
    assert min(ratio.values()) > 100 and min(ratio, key=ratio.get) == 8889
    for dps in (15, 20, 50, 773):
        assert HALF_PI_CUT.at(dps).replace(".", "") == digits[:dps - 10]
