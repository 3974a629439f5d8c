"""The one catalogue of claims: pytest items, the CLI and the report derive from it.

>>> len(ids()) == len(set(ids()))
True
"""
from __future__ import annotations

from functools import lru_cache

from .arpit2019.catalogue import CLAIMS as _ARPIT
from .daneshmand2021.catalogue import CLAIMS as _DANESHMAND
from .defazio_bottou.catalogue import CLAIMS as _DEFAZIO
from .zeroinit2019.catalogue import CLAIMS as _ZEROINIT
from .evidence import Claim, Context

__all__ = ["CLAIMS", "get", "ids", "monte_carlo_count", "measure", "evaluate"]

CLAIMS: tuple[Claim, ...] = _ARPIT + _DANESHMAND + _ZEROINIT + _DEFAZIO


def ids() -> list[str]:
    return [c.id for c in CLAIMS]


def get(claim_id: str) -> Claim:
    for c in CLAIMS:
        if c.id == claim_id:
            return c
    raise KeyError(f"claim_id must be one of the catalogue's ids, got {claim_id!r}")


def monte_carlo_count() -> int:
    """Number of Monte-Carlo claims: the Bonferroni divisor of the family-wise alpha."""
    return sum(c.monte_carlo for c in CLAIMS)


@lru_cache(maxsize=None)
def _measure(fn, ctx: Context):
    from threadpoolctl import threadpool_limits

    # Batched small QRs run faster single-threaded on OpenBLAS (benchmarks/).
    with threadpool_limits(1):
        return fn(ctx)


def measure(claim: Claim, ctx: Context):
    """The claim's measurement, cached per (measure function, context)."""
    return _measure(claim.measure, ctx)


def evaluate(claim: Claim, ctx: Context | None = None, **overrides):
    """Run a claim's check (measurement cached) and return its Evidence."""
    ctx = ctx or Context()
    return claim.judge(measure(claim, ctx), ctx, **{**claim.params, **overrides})
