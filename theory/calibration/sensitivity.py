"""Alpha stress test of the catalogue: every Monte-Carlo claim again at the per-claim
alpha divided by the worst far-tail excess that :mod:`.tails_is` and :mod:`.tails_welch`
measured for the mean tests on skewed replicates, at the report's seed, scale and backend, against the recorded
verdicts (which the report reproduces). A verdict that moves (to ``inconclusive``) is
listed. It is a stress test, not a guarantee: the excess grows as alpha shrinks, and it
was measured for two tests (the judges' one-sample rule, and Welch's comparison with one
skewed side) on one law.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

from ..core import RunContext, Verdict
from ..stats import CLAIM_ALPHA
from .stability import chosen_claims, current_verdicts, record_section, verdicts_at
from .tails import require_rules

__all__ = ["worst_excess", "run_sensitivity", "changed_verdicts"]


def worst_excess(tails_is: list, tails_welch: list | None = None) -> float:
    """The largest upper 95% limit of (rate / alpha) on skewed replicates, over the sizes
    and levels measured (at least 1): of the judges' test (reject only where the plain
    and the corrected t both reject), and of Welch's comparison where ``tails_welch``
    holds its rows."""
    skewed = [r for r in tails_is if not r.get("control")]
    if not skewed:
        raise ValueError("calibration.json has no importance-sampled tail rates: run `python -m theory calibrate` first")
    require_rules(skewed, ("both_t",), "importance-sampled tail rates")
    welch = [r for r in tails_welch or [] if not r.get("control")]
    require_rules(welch, ("welch_t",), "importance-sampled Welch rates")
    return max(1.0, max(r["both_t"]["interval"][1] / r["alpha"] for r in skewed),
               *(r["welch_t"]["interval"][1] / r["alpha"] for r in welch))


def changed_verdicts(recorded: dict, found: dict) -> dict:
    """{claim id: [recorded, found]} for the claims whose verdicts differ."""
    return {cid: [recorded[cid], v] for cid, v in found.items() if v != recorded[cid]}


def run_sensitivity(out: str | Path = ".", factor: float | None = None, progress: bool = True, jobs: int = 1,
                    claims=None) -> dict:
    """Evaluate every Monte-Carlo claim (or the ids in ``claims``, merged into the
    recorded run, which must have the same factor) at CLAIM_ALPHA / ``factor`` (default:
    the worst measured excess, rounded up to a whole number), one claim per task on
    ``jobs`` processes; merge into ``out``/calibration.json under ``sensitivity``."""
    from simulations.core.provenance import git_state

    from .pool import map_tasks

    start = git_state()
    path = Path(out) / "calibration.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    if factor is None:
        factor = float(math.ceil(worst_excess(data.get("tails_is", []), data.get("tails_welch"))))
        source = "the worst far-tail excess measured above, rounded up"
    else:
        if not (isinstance(factor, (int, float)) and factor >= 1):
            raise ValueError(f"factor must be a number >= 1, got {factor!r}")
        factor, source = float(factor), "given"
    chosen = chosen_claims(ids=claims)
    found = {}
    if claims is not None:
        before = data.get("sensitivity") or {}
        if before.get("factor") != factor:
            raise ValueError(f"a run of some claims merges into a recorded stress test at the same factor; recorded "
                             f"{before.get('factor')!r}, now {factor:g}: run it for every claim")
        found = current_verdicts(before["verdicts"])
    alpha = CLAIM_ALPHA / factor
    ctx = RunContext(claim_alpha=alpha)
    for part in map_tasks(verdicts_at, [(ctx, (c.id,)) for c in chosen], jobs, "alpha sensitivity", progress):
        found.update(part)
    recorded = {c.id: Verdict(c.recorded).value for c in chosen_claims()}
    data["sensitivity"] = {"factor": factor, "factor_from": source, "base_alpha": CLAIM_ALPHA, "claim_alpha": alpha,
                           "verdicts": found,
                           "changed": changed_verdicts(recorded, found)}
    record_section(data, "sensitivity", None, claims, start=start)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return data
