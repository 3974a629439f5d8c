"""The catalogue's data model: claims, their mutations, how Monte-Carlo claims sample,
and papers.

A claim is declared once, as data. Its check is split in two so that mutation tests
are cheap: ``measure`` does the expensive work and is cached; ``judge(measurement,
ctx, **params)`` compares it with the statement, whose constants are ``params``. A
mutation is the same claim with other ``params`` and the verdict it must then get.

``measure`` is either a function of the :class:`~theory.core.context.RunContext`
(exact and deterministic checks) or a :class:`Sampling` (Monte-Carlo checks, judged
sequentially on growing samples; see :mod:`theory.stats.sequential`). A parameter
sized against the run's precision is an :class:`AtPrecision`, resolved before the
judge is called; a parameter that applies only to some values of a judge's selector
is declared with :func:`applies_only`.
"""
from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Mapping

from ..stats.sequential import LookPlan, plan_looks
from .notes import Note, check_note
from .severity import SEVERITIES
from .verdicts import Verdict

__all__ = ["KINDS", "Mutation", "AtPrecision", "resolve_params", "Where", "applies_only", "Sampling", "Claim",
           "Paper", "CLAIM_FILE"]

KINDS = ("identity", "inequality", "approximation", "empirical")
#: The file pytest collects the claims from (the anchor of every claim's node id).
CLAIM_FILE = "theory/catalogue.py"


@dataclass(frozen=True)
class Mutation:
    """A perturbed statement (``params`` overrides) and the verdict it must get; ``part``,
    where the statement has several parts, names the one it must fail through: text
    found in one of the evidence's :meth:`~theory.core.evidence.Evidence.failed_parts`,
    or a tuple of such texts when the perturbation must fail several parts at once (a
    renamed constant that enters two terms).

    >>> m = Mutation("renamed", {"rename": 0.75}, part=("depth term", "width term"))
    >>> m.parts, m.missing_parts(["sympy: depth term", "sympy: width term"])
    (('depth term', 'width term'), [])
    >>> m.missing_parts(["sympy: depth term"])
    ['width term']

    ``printed`` marks the mutation of a corrected claim that substitutes the printed
    form into the corrected claim's judge: it must fail on the corrected claim's own
    data, so a correction that cannot tell the two forms apart is caught. ``mirror``
    marks a mutation that fails exactly when the claim holds (the opposite direction
    of an inequality): it shows nothing about what the check can detect, so every
    claim needs another failing mutation beside it.
    """

    name: str
    params: Mapping[str, Any]
    expect: Verdict = Verdict.FAILS
    part: str | tuple | None = None
    printed: bool = False
    mirror: bool = False

    def __post_init__(self):
        if self.part is not None:
            parts = self.part if isinstance(self.part, tuple) else (self.part,)
            if not parts or not all(isinstance(p, str) and p for p in parts):
                raise ValueError(f"part must be a non-empty text naming a failing part, or a non-empty tuple of "
                                 f"such texts, got {self.part!r}")
            nested = [(a, b) for a in parts for b in parts if a is not b and a in b]
            if nested:
                raise ValueError(f"part names parts of which none may contain another (a match of the longer would "
                                 f"match the shorter too), got {nested[0][0]!r} within {nested[0][1]!r}")
            if self.expect != Verdict.FAILS:
                raise ValueError(f"part names what a failing mutation fails; this one expects {self.expect.value}")
        if (self.printed or self.mirror) and self.expect != Verdict.FAILS:
            raise ValueError(f"a printed-form or mirror mutation must expect fails, got {self.expect.value} "
                             f"({self.name})")

    @property
    def parts(self) -> tuple:
        """The named parts as a tuple (empty when none is named)."""
        return () if self.part is None else self.part if isinstance(self.part, tuple) else (self.part,)

    def missing_parts(self, failed: list) -> list:
        """The named parts found in none of ``failed`` (the names
        :meth:`~theory.core.evidence.Evidence.failed_parts` lists): empty when the
        evidence fails through every part this mutation names."""
        return [p for p in self.parts if not any(p in name for name in failed)]


@dataclass(frozen=True)
class AtPrecision:
    """A judge parameter sized against the run's precision: the judge receives
    ``form(dps)``, ``dps`` the run's (:attr:`~theory.core.context.RunContext.dps`),
    resolved by :func:`~theory.core.runner.evaluate` before the judge is called
    (:func:`resolve_params`). For the mutations of high-precision checks, whose
    tolerance is 10^-(dps - 5) at ``dps`` digits (they run at dps and dps + 20): a
    perturbation 10^-(dps - 10) stays five digits above it at every precision
    (``RunContext(dps=...)``, 15 to 10,000), where a fixed 1e-40 would fall below it from
    dps 45 down. ``text`` names the value as
    a function of dps (the repr: mutation ids and reports must not show an address).

    >>> one_plus = AtPrecision(lambda dps: "1." + "0" * (dps - 11) + "1", "1 + 10^-(dps - 10)")
    >>> one_plus
    AtPrecision(1 + 10^-(dps - 10))
    >>> resolve_params({"factor": one_plus, "cases": ("odd",)}, 20)
    {'factor': '1.0000000001', 'cases': ('odd',)}
    """

    form: Callable[[int], Any]
    text: str

    def at(self, dps: int) -> Any:
        """The parameter at ``dps`` digits."""
        return self.form(dps)

    def __repr__(self) -> str:
        return f"AtPrecision({self.text})"


def resolve_params(params: Mapping[str, Any], dps: int) -> dict:
    """``params`` with every :class:`AtPrecision` replaced by its value at ``dps`` digits."""
    return {k: v.at(dps) if isinstance(v, AtPrecision) else v for k, v in params.items()}


@dataclass(frozen=True)
class Where:
    """A condition on a selector's value for :func:`applies_only`, where a list of
    values cannot say it: ``text`` completes "applies only with <selector> ..." and
    ``test`` (the selector's value -> bool) tells whether the parameter applies."""

    text: str
    test: Callable[[Any], bool]


def applies_only(selector: str, **where: Collection | Where) -> Callable:
    """A judge decorator: each keyword names a parameter of the judge that applies only
    where its parameter ``selector`` is one of the values given (for a selector that is a
    collection, such as a tuple of parts: holds one of them), or meets a :class:`Where`
    condition (``factor=Where("True or label parts", lambda p: p is not False)``). Calling the judge with that
    parameter off its default and the selector elsewhere raises ValueError naming the
    parameter and the selector's values where it applies, instead of ignoring it. The
    defaults are read from the judge's signature; decorators stack (one per selector).

    >>> @applies_only("variant", mass_factor=("corrected",))
    ... def judge(m, ctx, variant="printed", mass_factor="1"):
    ...     return variant, mass_factor
    >>> judge(None, None, "corrected", mass_factor="2"), judge(None, None, mass_factor="1")
    (('corrected', '2'), ('printed', '1'))
    >>> judge(None, None, mass_factor="2")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    ValueError: mass_factor applies only with variant in ['corrected'] (got variant='printed'); leave it at its
    default '1' otherwise, got '2'
    """
    def wrap(judge: Callable) -> Callable:
        sig = inspect.signature(judge)
        missing = [name for name in (selector, *where) if name not in sig.parameters]
        if missing:
            raise TypeError(f"{judge.__qualname__} has no parameter {missing}")
        defaults = {name: sig.parameters[name].default for name in where}

        @functools.wraps(judge)
        def checked(*args, **kwargs):
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
            chosen = bound.arguments[selector]
            several = isinstance(chosen, (tuple, list, set, frozenset))
            has = set(chosen) if several else {chosen}
            for name, values in where.items():
                given = bound.arguments[name]
                applies = values.test(chosen) if isinstance(values, Where) else bool(has & set(values))
                if not applies and given is not defaults[name] and given != defaults[name]:
                    within = (values.text if isinstance(values, Where)
                              else f"{'holding one of' if several else 'in'} {sorted(values)}")
                    raise ValueError(f"{name} applies only with {selector} {within} (got {selector}={chosen!r}); "
                                     f"leave it at its default {defaults[name]!r} otherwise, got {given!r}")
            return judge(*args, **kwargs)

        return checked

    return wrap


@dataclass(frozen=True, kw_only=True)
class Sampling:
    """How a Monte-Carlo measurement grows: ``draw(ctx, block)`` returns block number
    ``block`` (a :class:`~theory.core.records.Block`, its random streams named by the
    block index); looks at ``first`` blocks, growing by ``growth`` up to ``budget``
    blocks (both times ``--mc-scale``). The budget is counted in blocks, never in
    seconds, so a seed gives the same verdicts on any machine and any number of
    workers. ``threads`` limits BLAS threads while drawing (None: unchanged)."""

    draw: Callable[..., Any]
    first: int
    budget: int
    growth: float = 2.0
    threads: int | None = None

    def __post_init__(self):
        plan_looks(self.first, self.budget, 1.0, self.growth)  # validates

    def plan(self, scale: float) -> LookPlan:
        return plan_looks(self.first, self.budget, scale, self.growth)


@dataclass(frozen=True, kw_only=True)
class Claim:
    """One statement of one paper and its check. ``recorded`` is the verdict the
    catalogue expects (what the report last found); ``corrects`` names the printed
    claim this one corrects; ``note`` is text, or, when it quotes a measured number, a
    callable of the evidence that the report calls (:mod:`theory.core.notes`).

    ``severity`` (a key of :data:`~theory.core.severity.SEVERITIES`) and ``impact`` (a
    sentence: why that class, and for a ``step`` whether the conclusion survives) say
    how much a discrepancy matters: every claim recorded as ``fails`` has them, and so
    does a proof step that is true but does not follow from the steps it cites.

    A proof step is judged twice: is it true (``judge``), and does it follow from the
    printed steps it ``cites`` (labels as the paper prints them, "Eq. 56", or claim
    ids). ``derivation(ctx)`` answers the second: a dict with ``follows`` (bool) and
    ``why`` (a sentence naming the steps), computed from the printed forms of the cited
    steps, wrong ones included; the runner attaches it to the evidence
    (:attr:`~theory.core.evidence.Evidence.follows`). A step true only because two
    earlier errors cancel is true and does not follow.
    """

    id: str
    where: str
    statement: str
    kind: str
    recorded: Verdict
    measure: Callable[..., Any] | Sampling
    judge: Callable[..., Any]
    params: Mapping[str, Any] = field(default_factory=dict)
    mutations: tuple = ()
    corrects: str | None = None
    slow: bool = False
    note: Note = ""
    severity: str | None = None
    impact: str = ""
    cites: tuple = ()
    derivation: Callable[..., dict] | None = None

    def __post_init__(self):
        if self.severity is not None and self.severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {list(SEVERITIES)} or None, got {self.severity!r} "
                             f"(claim {self.id})")
        if self.severity is not None and not self.impact:
            raise ValueError(f"a claim with a severity says why in impact (claim {self.id})")
        object.__setattr__(self, "cites", tuple(self.cites))
        if bool(self.cites) != (self.derivation is not None):
            raise ValueError(f"a proof step gives both the steps it cites and the derivation that checks it follows "
                             f"from them, or neither (claim {self.id})")
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r} (claim {self.id})")
        if "." not in self.id:
            raise ValueError(f"id must be 'paper.name', got {self.id!r}")
        if not isinstance(self.recorded, Verdict):
            raise ValueError(f"recorded must be a Verdict, got {self.recorded!r} (claim {self.id})")
        check_note(self.note, self.id)  # a measured number in the note comes from a callable (:mod:`.notes`)
        object.__setattr__(self, "mutations", tuple(self.mutations))

    @property
    def paper(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def monte_carlo(self) -> bool:
        return isinstance(self.measure, Sampling)

    @property
    def group(self) -> str:
        """The name of the measurement: claims that share one share it (xdist runs a
        group on one worker so that it is drawn once)."""
        return callable_name(self.measure.draw if isinstance(self.measure, Sampling) else self.measure)

    @property
    def node_id(self) -> str:
        """The pytest node id: its paper's claim file (:func:`~theory.core.registry.claim_file`) and the id."""
        from .registry import claim_file

        return f"{claim_file(self.paper)}::{self.id}"

    @property
    def rerun(self) -> str:
        """The command that reruns exactly this claim."""
        return f'pytest "{self.node_id}"'


def callable_name(fn) -> str:
    """A name of ``fn`` that is the same in every process: ``module.qualname``, and for a
    ``functools.partial`` its function's name with the bound arguments. (A partial's repr
    holds the function's memory address, which differs between xdist workers under address
    randomization, so test ids built from it made workers collect different tests.)

    >>> import functools, math
    >>> callable_name(functools.partial(math.isclose, rel_tol=0.1))
    'math.isclose(rel_tol=0.1)'
    """
    if isinstance(fn, functools.partial):
        bound = [_argument_name(a) for a in fn.args]
        bound += [f"{k}={_argument_name(v)}" for k, v in sorted(fn.keywords.items())]
        return f"{callable_name(fn.func)}({', '.join(bound)})"
    name = getattr(fn, "__qualname__", None) or type(fn).__qualname__
    return f"{getattr(fn, '__module__', None) or type(fn).__module__}.{name}"


def _argument_name(value) -> str:
    """A bound argument in a :func:`callable_name`: a callable by its name, anything else
    by its repr, which must not hold a memory address."""
    if callable(value):
        return callable_name(value)
    text = repr(value)
    if " at 0x" in text:
        raise ValueError(f"a measurement's bound argument has no process-independent name: {text}")
    return text


@dataclass(frozen=True, kw_only=True)
class Paper:
    """One paper: its key (pytest marker, report section, claim-id prefix), public
    reference (authors, year, title, venue, arXiv id where it has one), ``url`` (where a
    reader finds it: the arXiv or OpenReview page of the version transcribed),
    transcription file (in ../shared/papers/, not shown to readers; None for a paper
    without one here, such as an installed paper), claims, statements left out (with
    why), coverage map (:mod:`theory.core.coverage`) and coverage goal: the share of
    checkable items that must have a claim, enforced only for a paper that declares one
    (a paper being added may leave items ``not_yet_checked``)."""

    key: str
    reference: str
    claims: tuple
    text: str | None = None
    left_out: tuple = ()
    coverage: tuple = ()
    url: str = ""
    coverage_goal: float | None = None

    def __post_init__(self):
        object.__setattr__(self, "claims", tuple(self.claims))
        goal = self.coverage_goal
        if goal is not None and (isinstance(goal, bool) or not isinstance(goal, (int, float)) or not 0 < goal <= 1):
            raise ValueError(f"coverage_goal must be a number in (0, 1] or None, got {goal!r} (paper {self.key})")
        bad = [c.id for c in self.claims if c.paper != self.key]
        if bad:
            raise ValueError(f"claim ids of paper {self.key!r} must start with '{self.key}.', got {bad}")
