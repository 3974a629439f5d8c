"""Seed stability of the real catalogue: every claim at many seeds; a flip is a claim
that says ``holds`` (or ``holds approximately``) at one seed and ``fails`` at another.
With a per-claim alpha of 1e-6 none is expected; moves to ``inconclusive`` are counted
separately (they cost a rerun, not a wrong verdict)."""
from __future__ import annotations

import json
from pathlib import Path

from ..core import RunContext, clear_caches, evaluate
from ..core.registry import claims as all_claims
from ..core.registry import get

__all__ = ["FAST_SEEDS", "SLOW_SEEDS", "run_stability", "flips", "verdicts_at", "current_verdicts", "chosen_claims",
           "section_key", "record_section", "supersede"]

FAST_SEEDS = tuple(range(1, 21))
SLOW_SEEDS = (1, 2, 3)


def flips(verdicts: dict) -> dict:
    """{claim id: {seed: verdict}} -> the claims whose verdicts include both a holding and a failing one."""
    out = {}
    for cid, by_seed in verdicts.items():
        vs = set(by_seed.values())
        if "fails" in vs and vs & {"holds", "holds_approximately"}:
            out[cid] = by_seed
    return out


def current_verdicts(verdicts: dict) -> dict:
    """The stored {claim id: verdicts} (per seed, or one) of the claims the catalogue still has as
    Monte-Carlo claims (a renamed or removed claim's old verdicts are dropped; a run of
    one paper keeps the other papers')."""
    ids = {c.id for c in all_claims() if c.monte_carlo}
    return {cid: v for cid, v in verdicts.items() if cid in ids}


def verdicts_at(ctx: RunContext, ids: tuple) -> dict:
    """{claim id: verdict} of the given claims in one run context."""
    out = {cid: evaluate(get(cid), ctx).verdict.value for cid in ids}
    clear_caches()
    return out


def chosen_claims(paper: str | None = None, ids=None) -> list:
    """The Monte-Carlo claims of the catalogue, of one paper if given, or those of
    ``ids`` (a clear error for an id that is not a Monte-Carlo claim)."""
    if ids is None:
        return [c for c in all_claims(paper) if c.monte_carlo]
    chosen = [get(cid) for cid in sorted(set(ids))]
    bad = [c.id for c in chosen if not c.monte_carlo]
    if bad:
        raise ValueError(f"claims must be Monte-Carlo claims; not: {', '.join(bad)}")
    return chosen


def section_key(section: str, paper: str | None, ids) -> str:
    """The ``measured_at`` key of a run of ``section`` over the whole catalogue, one
    paper or some claims (sorted, each once; each keeps the others' record)."""
    return section if paper is None and ids is None else f"{section} ({paper or ', '.join(sorted(set(ids)))})"


def record_section(data: dict, section: str, paper: str | None = None, ids=None, ran=None,
                   start: dict | None = None) -> None:
    """Record the code a run of ``section`` was measured with (:func:`.measure.record_code`)
    after trimming the records it supersedes (:func:`supersede`). ``ran``: the ids
    actually run, where fewer than chosen (slow claims left out); ``start``: the code's
    state when the run began (:func:`simulations.core.provenance.git_state`)."""
    from .measure import record_code

    record_code(data, supersede(data, section, paper, ids, ran), start=start)


def supersede(data: dict, section: str, paper: str | None = None, ids=None, ran=None) -> str:
    """Trim the ``measured_at`` records of ``section`` that a run supersedes, so that each
    Monte-Carlo claim is named by one record only, and return the key the run is to be
    recorded under.

    Partial records (``"section (names)"``, a paper's name standing for its Monte-Carlo
    claims) lose the claims the run reran, and the claims the catalogue no longer has
    (or that are no longer Monte-Carlo claims); a record left empty is dropped, one that
    shrinks is rekeyed by the ids it keeps (a legacy record already holding exactly those
    ids keeps its own state). A whole-catalogue run is recorded under the section's name:
    when it ran every claim it drops every partial record; when it left claims out (slow
    ones, ``slow=False``) it keeps the old whole-catalogue record for those of them no
    partial record names, keyed by their ids (a claim no run has reached is left to the
    new whole record). A paper or claim run that left claims out is recorded under the
    ids it ran."""
    papers = {c.paper for c in all_claims()}
    monte_carlo = {c.id for c in all_claims() if c.monte_carlo}
    chosen = {c.id for c in chosen_claims(paper, ids)}
    rerun = chosen if ran is None else set(ran)
    complete = rerun >= chosen  # every chosen claim was run (none left out as slow)
    whole = paper is None and ids is None
    records = data.setdefault("measured_at", {})
    old_whole = records.pop(section, None) if whole else None
    prefix = f"{section} ("
    covered = set()  # the claims the partial records kept still name
    for key in [k for k in records if k.startswith(prefix)]:
        named = set().union(*({c.id for c in chosen_claims(n)} if n in papers else {n}
                              for n in key[len(prefix):-1].split(", ")))
        left = (named & monte_carlo) - rerun
        covered |= left
        if not left:
            del records[key]
        elif left != named:
            records.setdefault(section_key(section, None, left), records.pop(key))
    if whole:
        left_out = chosen - rerun - covered  # left out by this run, last run by the old whole-catalogue one
        if old_whole is not None and left_out:
            records.setdefault(section_key(section, None, left_out), old_whole)
        return section
    return section_key(section, paper, ids) if complete else section_key(section, None, rerun)


def run_stability(out: str | Path = ".", paper: str | None = None, fast_seeds=FAST_SEEDS, slow_seeds=SLOW_SEEDS,
                  slow: bool = True, progress: bool = True, jobs: int = 1, claims=None) -> dict:
    """Evaluate the Monte-Carlo claims (of one paper, or the ids in ``claims``, if given)
    at every seed, one seed per task on ``jobs`` processes; merge the verdicts into
    ``out``/calibration.json under ``stability``."""
    from simulations.core.provenance import git_state

    from .pool import map_tasks

    start = git_state()
    chosen = [c for c in chosen_claims(paper, claims) if slow or not c.slow]
    Path(out).mkdir(parents=True, exist_ok=True)
    path = Path(out) / "calibration.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    verdicts = current_verdicts(data.get("stability", {}).get("verdicts", {}))
    seeds = sorted(set(fast_seeds) | set(slow_seeds))
    tasks = [(RunContext(seed=seed), tuple(c.id for c in chosen if seed in (slow_seeds if c.slow else fast_seeds)))
             for seed in seeds]
    for seed, found in zip(seeds, map_tasks(verdicts_at, tasks, jobs, "seeds", progress)):
        for cid, v in found.items():
            verdicts.setdefault(cid, {})[str(seed)] = v
    data["stability"] = {"fast_seeds": list(fast_seeds), "slow_seeds": list(slow_seeds), "verdicts": verdicts,
                         "flips": flips(verdicts),
                         "to_inconclusive": {k: v for k, v in verdicts.items() if "inconclusive" in v.values()}}
    ran = {cid for _, ids in tasks for cid in ids}  # a claim no seed was given to did not run
    record_section(data, "stability", paper, claims, ran=ran, start=start)  # the others keep theirs
    path.write_text(json.dumps(data, indent=1) + "\n")
    return data
