"""Run settings every check receives.

:class:`RunContext` is what a user chooses (seed, Monte-Carlo scale, backend,
precision, the per-claim false-alarm probability); :class:`JudgeContext` is what one
look of one claim's judge sees: the run settings plus the alpha of that look. No judge
reads global state: the alpha budget travels here.

>>> ctx = RunContext(seed=3)
>>> ctx.precisions
(50, 70)
>>> RunContext(scale=float("nan"))
Traceback (most recent call last):
...
theory.core.context.OptionError: scale must be a finite number > 0, got nan
>>> RunContext(scale=1e7)
Traceback (most recent call last):
...
theory.core.context.OptionError: scale must be at most 10000 (the ceiling of a run), got 1e+07

The scale's ceiling, :data:`MAX_SCALE`, keeps a run within reach: the Monte-Carlo
budgets are set so that the catalogue takes minutes at scale 1 (the largest scale a
claim's "To settle" line has asked for is 23), and at 10,000 the whole catalogue would
draw for months (``theory.core.cost`` says a run's estimate before it starts). A scale
that large is a typing slip (``1e7`` for ``1e3``) more often than a plan.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import asdict, dataclass

from ..stats import CLAIM_ALPHA

__all__ = ["RunContext", "JudgeContext", "OptionError", "BACKENDS", "DEFAULT_SEED", "MAX_SCALE"]

BACKENDS = ("numpy", "cupy")
DEFAULT_SEED = 20190601
#: The largest Monte-Carlo scale a run accepts (module text).
MAX_SCALE = 10_000


class OptionError(ValueError):
    """A run setting out of range; ``option`` names the setting."""

    def __init__(self, option: str, message: str):
        super().__init__(message)
        self.option = option


def _check(seed, scale, backend, dps, claim_alpha):
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise OptionError("seed", f"seed must be a non-negative integer, got {seed!r}")
    if isinstance(scale, bool) or not isinstance(scale, numbers.Real) or not math.isfinite(scale) or scale <= 0:
        raise OptionError("scale", f"scale must be a finite number > 0, got {scale!r}")
    if scale > MAX_SCALE:
        raise OptionError("scale", f"scale must be at most {MAX_SCALE} (the ceiling of a run), got {scale:g}")
    if backend not in BACKENDS:
        raise OptionError("backend", f"backend must be one of {list(BACKENDS)}, got {backend!r}")
    if isinstance(dps, bool) or not isinstance(dps, numbers.Integral) or not 15 <= dps <= 10_000:
        raise OptionError("dps", f"dps must be an integer in [15, 10000], got {dps!r}")
    if not isinstance(claim_alpha, numbers.Real) or not 0 < claim_alpha < 0.5:
        raise OptionError("claim_alpha", f"claim_alpha must be in (0, 0.5), got {claim_alpha!r}")


@dataclass(frozen=True)
class RunContext:
    """Seed of every draw, Monte-Carlo scale (multiplies every sample budget), array
    backend, mpmath precision (checks also run at ``dps + 20``) and the false-alarm
    probability of each Monte-Carlo claim."""

    seed: int = DEFAULT_SEED
    scale: float = 1.0
    backend: str = "numpy"
    dps: int = 50
    claim_alpha: float = CLAIM_ALPHA

    def __post_init__(self):
        _check(self.seed, self.scale, self.backend, self.dps, self.claim_alpha)

    @property
    def precisions(self) -> tuple[int, int]:
        """The two precisions every high-precision check runs at."""
        return self.dps, self.dps + 20

    @property
    def draw_key(self) -> tuple:
        """What the numbers drawn depend on (not the scale: a larger scale draws more
        blocks of the same streams)."""
        return self.seed, self.backend, self.dps

    def stream(self, *parts):
        """The backend of the random stream (seed, parts): one per (measurement, row, block)."""
        from simulations import get_backend

        return get_backend(self.backend, seed=self.seed).child(*parts)

    def host_stream(self, *parts):
        """The numpy backend of the stream (seed, parts), whatever ``backend`` is: for
        measurements that are host-side by design (small deterministic checks computed
        with numpy in float64), so that they run unchanged under ``--backend cupy``."""
        from simulations import get_backend

        return get_backend("numpy", seed=self.seed).child(*parts)

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class JudgeContext:
    """One look of one claim: the run settings and the alpha this look may spend."""

    run: RunContext
    alpha: float
    look: int = 1
    looks: int = 1

    @property
    def dps(self) -> int:
        return self.run.dps

    @property
    def precisions(self) -> tuple[int, int]:
        return self.run.precisions

    def split(self, parts: int) -> float:
        """The alpha of each of ``parts`` sub-tests of this look (Bonferroni)."""
        return self.alpha / max(1, int(parts))

    @classmethod
    def exact(cls, run: RunContext) -> "JudgeContext":
        """The context of a check without sampling (one look, the claim's alpha)."""
        return cls(run, run.claim_alpha)
