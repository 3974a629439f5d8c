"""Every claim runs on ``--backend cupy``: through the strict device stand-in
(tests/support/strict_device.py, as strict as CuPy about host and device), each
non-slow claim is evaluated at a small Monte-Carlo scale and must run without an
implicit host conversion or a numpy operand; its judge only ever sees host numbers.
Slow claims run the same way under ``-m slow``."""
import pytest

from tests.support.strict_device import installed
from theory import RunContext, claims
from theory.core import Verdict, clear_caches, evaluate

SCALE = 0.02


@pytest.mark.parametrize("claim", [pytest.param(c, id=c.id, marks=[pytest.mark.slow] if c.slow else [])
                                   for c in claims()])
def test_claim_runs_on_the_strict_device(claim):
    with installed():
        try:
            ev = evaluate(claim, RunContext(backend="cupy", scale=SCALE))
        finally:
            clear_caches()
    assert isinstance(ev.verdict, Verdict)
