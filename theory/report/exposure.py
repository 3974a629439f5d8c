"""Where the catalogue's own one-sample tests sit against the calibration of their
tails: per claim, the replicate counts and sample skewness of the one-sample mean
tests of its last look (recorded by the runner, ``sampling.one_sample_tests``), set
against the sizes at which the importance-sampled rates of ``calibration.json``
(lognormal replicates, skewness 1.75) keep alpha."""
from __future__ import annotations

__all__ = ["kept_from", "exposure_lines"]

#: Skewness of the calibration's skewed law (lognormal, sd of log 0.5).
CALIBRATED_SKEWNESS = 1.75


def kept_from(tails_is: list, alpha: float) -> int | None:
    """The smallest measured size from which on every measured size keeps alpha (the
    upper 95% limit of the judges' test's rate at or below alpha) on the skewed law at
    level ``alpha``; None when the largest size does not.

    >>> cell = lambda hi: {"both_t": {"interval": [0.0, hi]}}
    >>> rows = [{"n": 25, "alpha": 1e-6, **cell(3e-5)}, {"n": 400, "alpha": 1e-6, **cell(1e-6)},
    ...         {"n": 1600, "alpha": 1e-6, **cell(7e-7)}]
    >>> kept_from(rows, 1e-6)
    400
    """
    at = sorted((r for r in tails_is if r["alpha"] == alpha and not r.get("control")), key=lambda r: -r["n"])
    size = None
    for r in at:
        if r["both_t"]["interval"][1] > alpha:
            break
        size = r["n"]
    return size


def _claim_tests(record: dict) -> list:
    return ((record.get("evidence") or {}).get("sampling") or {}).get("one_sample_tests") or []


def exposure_lines(records: list, tails_is: list | None, claim_alpha: float) -> list:
    """A paragraph and a table: the one-sample tests of the report's Monte-Carlo claims
    by replicate count, and the claims whose tests are at least as skewed as the
    calibrated law with fewer replicates than where it keeps alpha at ``claim_alpha``."""
    mc = [r for r in records if r.get("monte_carlo")]
    tested = [(r, _claim_tests(r)) for r in mc]
    tested = [(r, t) for r, t in tested if t]
    if not tested:
        return []
    kept = kept_from(tails_is or [], claim_alpha)
    sizes = sorted({row["n"] for row in tails_is or [] if not row.get("control")})
    edges = [0] + sizes + [None]
    out = ["Exposure of the catalogue's own one-sample tests (the last look of each Monte-Carlo claim; a test is "
           "one estimate whose interval or p-value was used): replicate counts against the sizes measured above, "
           f"and the largest absolute sample skewness among the tests (the calibrated law has {CALIBRATED_SKEWNESS}).",
           "", "| replicates | tests | claims | largest abs. skewness |", "|---|---|---|---|"]
    for lo, hi in zip(edges, edges[1:]):
        rows = [(r["id"], t) for r, ts in tested for t in ts if t["replicates"] >= lo and (hi is None or t["replicates"] < hi)]
        if not rows:
            continue
        label = f"{lo}..{hi - 1}" if hi is not None else f">= {lo}"
        out.append(f"| {label} | {sum(t['tests'] for _, t in rows)} | {len({c for c, _ in rows})} | "
                   f"{max(t['largest_abs_skewness'] for _, t in rows):.3g} |")
    out.append("")
    if kept is None:
        out += [f"No measured size keeps alpha {claim_alpha:g} on the skewed law, so no claim's one-sample tests are "
                "covered there.", ""]
        return out
    exposed = [(r, min(t["replicates"] for t in ts if t["replicates"] < kept and
                       t["largest_abs_skewness"] >= CALIBRATED_SKEWNESS),
                max(t["largest_abs_skewness"] for t in ts if t["replicates"] < kept))
               for r, ts in tested
               if any(t["replicates"] < kept and t["largest_abs_skewness"] >= CALIBRATED_SKEWNESS for t in ts)]
    out.append(f"{len(tested)} of {len(mc)} Monte-Carlo claims run one-sample tests; at the claim level ({claim_alpha:g}) "
               f"the judges' test keeps alpha on the skewed law from {kept} replicates on. "
               + (f"**{len(exposed)}** claims have a test with fewer replicates and a sample skewness at least "
                  f"{CALIBRATED_SKEWNESS} (as skewed as the calibrated law, where the measured excess applies):"
                  if exposed else f"No claim has a test with fewer replicates and a sample skewness of at least "
                  f"{CALIBRATED_SKEWNESS}."))
    out.append("")
    if exposed:
        out += ["| claim | verdict | fewest replicates (such a test) | largest abs. skewness below "
                f"{kept} replicates |", "|---|---|---|---|"]
        out += [f"| {r['id']} | {r['verdict']} | {n} | {g:.3g} |" for r, n, g in exposed]
        out.append("")
    return out
