"""The claim catalogue's data model: verdicts, evidence, claims and mutations.

A claim is declared once, as data. Its check is split in two so that mutation
tests are cheap: ``measure(ctx)`` does the expensive work (exact evaluation or
simulation) and is cached; ``judge(measurement, ctx, **params)`` compares the
measurement with the statement, whose constants are ``params``. A mutation is the
same claim with other ``params`` and the verdict it must then get.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

__all__ = ["Verdict", "Evidence", "Mutation", "Claim", "Context", "KINDS", "PAPERS"]

#: Paper keys (pytest markers and report sections) -> full reference and text file.
PAPERS = {
    "arpit2019": ("Arpit, Campos & Bengio (2019), How to Initialize your Network? Robust "
                  "Initialization for WeightNorm & ResNets", "arpit2019_weightnorm_resnet_init.txt"),
    "daneshmand2021": ("Daneshmand et al. (2021), Batch Normalization Orthogonalizes "
                       "Representations in Deep Random Networks", "daneshmand2021_bn_orthogonalizes.txt"),
    "zeroinit2019": ("ZeroInit/Fixup, ICLR 2019 submission", "zeroinit_fixup_iclr2019_submission.txt"),
    "defazio_bottou": ("Defazio & Bottou, scaling factors and geometric init",
                       "defazio_bottou_scaling_geometric_init.txt"),
}
KINDS = ("identity", "inequality", "approximation", "empirical")


class Verdict(str, enum.Enum):
    HOLDS = "holds"
    HOLDS_APPROXIMATELY = "holds_approximately"
    FAILS = "fails"
    INCONCLUSIVE = "inconclusive"

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.value


@dataclass
class Evidence:
    """What a check found.

    ``margin`` is a signed distance to the decision boundary in the unit named by
    ``margin_unit`` (standard errors, digits, ...); ``resolution`` is the smallest
    deviation the check could detect (same unit as ``measured``, or as stated).
    """

    verdict: Verdict
    measured: Any
    expected: Any
    margin: float | None
    margin_unit: str
    method: str
    resolution: Any
    counterexample: Any = None
    details: list = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "verdict": self.verdict.value, "measured": _jsonable(self.measured),
            "expected": _jsonable(self.expected), "margin": _jsonable(self.margin),
            "margin_unit": self.margin_unit, "method": self.method,
            "resolution": _jsonable(self.resolution),
            "counterexample": _jsonable(self.counterexample), "details": _jsonable(self.details),
        }


def _jsonable(x):
    import math

    import numpy as np

    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        return x if math.isfinite(x) else str(x)
    if isinstance(x, enum.Enum):
        return x.value
    if x is None or isinstance(x, (int, str, bool)):
        return x
    return str(x)


@dataclass(frozen=True)
class Context:
    """Run settings every check receives: seed, Monte-Carlo scale, backend, precision."""

    seed: int = 20190601
    scale: float = 1.0
    backend: str = "numpy"
    dps: int = 50


@dataclass(frozen=True)
class Mutation:
    """A perturbed statement (``params`` overrides) and the verdict it must get."""

    name: str
    params: Mapping[str, Any]
    expect: Verdict = Verdict.FAILS


@dataclass(frozen=True)
class Claim:
    id: str
    paper: str
    where: str
    statement: str
    kind: str
    verdict: Verdict
    measure: Callable[[Context], Any]
    judge: Callable[..., Evidence]
    params: Mapping[str, Any] = field(default_factory=dict)
    mutations: tuple = ()
    corrects: str | None = None
    slow: bool = False
    monte_carlo: bool = False
    note: str = ""

    def __post_init__(self):
        if self.paper not in PAPERS:
            raise ValueError(f"paper must be one of {sorted(PAPERS)}, got {self.paper!r}")
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")

    def run(self, ctx: Context, measurement=None, **overrides) -> Evidence:
        """Measure (unless given) and judge, with ``params`` updated by ``overrides``."""
        m = self.measure(ctx) if measurement is None else measurement
        return self.judge(m, ctx, **{**self.params, **overrides})

    @property
    def rerun(self) -> str:
        return f'pytest theory -k "{self.id}"'
