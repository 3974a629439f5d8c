"""The machinery every paper shares: verdicts, evidence, run settings, the claim data
model, the typed Monte-Carlo record, paper discovery and the sequential runner.

Flow: catalogue (``Paper.claims``) -> ``measure`` (exact) or ``Sampling.draw`` (blocks
of a Monte-Carlo measurement, a :class:`Samples` record) -> ``judge`` -> ``Evidence``
-> pytest item / report / CLI.
"""
from .claims import CLAIM_FILE, KINDS, Claim, Mutation, Paper, Sampling
from .context import BACKENDS, DEFAULT_SEED, JudgeContext, OptionError, RunContext
from .evidence import Evidence, jsonable
from .records import Block, Row, Samples, TooFewReplicates
from .registry import UnknownClaimError, UnknownPaperError, claims, get, ids, paper, papers
from .render import one_line, render_evidence
from .runner import clear_caches, evaluate, measure, samples, set_executor
from .verdicts import DECIDED, Verdict, band_verdict, combine, decided

__all__ = [
    "Claim", "Mutation", "Paper", "Sampling", "KINDS", "CLAIM_FILE",
    "RunContext", "JudgeContext", "OptionError", "BACKENDS", "DEFAULT_SEED",
    "Evidence", "jsonable", "Block", "Row", "Samples", "TooFewReplicates",
    "papers", "paper", "claims", "get", "ids", "UnknownClaimError", "UnknownPaperError",
    "render_evidence", "one_line",
    "evaluate", "measure", "samples", "set_executor", "clear_caches",
    "Verdict", "DECIDED", "combine", "band_verdict", "decided",
]
