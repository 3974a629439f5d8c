"""paperchecks.theory: the claims of four papers on deep-network initialization, each
declared once as data and checked exactly (sympy, mpmath at two precisions, interval
arithmetic) or by sequential Monte Carlo with stated statistics.

Run ``pytest theory`` for one verdict per claim, ``python -m theory report`` to
regenerate paper_checks.md/.json, ``python -m theory check ID`` for one claim.
Papers are discovered: each sub-package with a ``PAPER`` declaration is one.

PYTEST_DONT_REWRITE: the claims plugin is a pytest11 entry point of this distribution, so
pytest marks its packages for assertion rewriting; this package's own module is left as it
is (an in-process pytest run, in which it is already imported, would otherwise warn).
"""
from .core import (
                   Claim,
                   Evidence,
                   JudgeContext,
                   Mutation,
                   Paper,
                   RunContext,
                   Sampling,
                   Verdict,
                   claims,
                   evaluate,
                   get,
                   ids,
                   papers,
)

__all__ = ["Claim", "Evidence", "JudgeContext", "Mutation", "Paper", "RunContext", "Sampling", "Verdict", "claims",
           "evaluate", "get", "ids", "papers"]
