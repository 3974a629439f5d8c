"""Claims in a few lines: declarative helpers for the common shapes of claim, so that a
new paper's catalogue reads as data. Each returns a :class:`~theory.core.claims.Claim`
whose statement constants are the judge's ``params`` and whose mutations are generated
from them: every plausible wrong value of a :class:`Named` constant is a mutation that
must fail on the same data.

Exact (:mod:`theory.kinds.exact`):

- :func:`identity_claim` - a sympy identity, its right side built from named constants;
- :func:`constant_claim` - an expression equals a named constant (``5``, wrong 4 and 6);
- :func:`precision_claim` - an mpmath evaluation over a grid at two precisions that must
  agree to 10^-(dps - 5), then judged (``=``, or a bound ``<=``/``>=`` with its tightness).

Monte Carlo (:mod:`theory.kinds.sampled`), over :func:`grid_sampling` (a simulator run
per grid point, one independent network per replicate) or any Sampling:

- :func:`mean_claim` (E[X] = target), :func:`band_claim` (|E[X] - target| <= tol),
  :func:`exponent_claim` (a power law's exponent), :func:`limit_claim` (X_w -> target as
  w grows), :func:`bound_claim` (E[X] <= bound, with tightness).

Printed and corrected (:mod:`theory.kinds.reading`): :func:`reading` declares a claim
that fails as printed (with its severity and impact) and its corrected twin, which
carries the printed form as a ``printed`` mutation that must fail.

Sizing (:mod:`theory.kinds.sizing`): :func:`replicates_for`, the replicates a band
needs at the runner's per-row alpha. Every helper refuses a field it does not take in
one line naming the fields it accepts.
"""
from .base import Named, numeric
from .exact import RESOLUTION, constant_claim, grid_points, identity_claim, precision_claim
from .reading import reading
from .sampled import band_claim, bound_claim, exponent_claim, grid_sampling, limit_claim, mean_claim
from .sizing import Sizing, replicates_for

__all__ = ["Named", "numeric", "identity_claim", "constant_claim", "precision_claim", "grid_points", "RESOLUTION",
           "grid_sampling", "mean_claim", "band_claim", "exponent_claim", "limit_claim", "bound_claim", "reading",
           "replicates_for", "Sizing"]
