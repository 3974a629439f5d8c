"""Where the catalogue's own one-sample tests sit against the calibration of their
tails: per claim, the replicate counts and sample skewness of the one-sample mean
tests of its last look (recorded by the runner, ``sampling.one_sample_tests``), set
against the sizes at which the importance-sampled rates of ``calibration.json``
(``tails_is``: lognormal replicates) keep alpha at the lowest level measured, the level
of the tests inside a claim (the claim's alpha split over its looks and rows).

The last look is the one whose tests gave the verdict; the looks before it (fewer
replicates) decided nothing, or the run would have stopped there. Not counted: Welch
differences (their tails are counted separately in the calibration) and the one-sample
means that feed fits, whose intervals take the fit's Student-t quantiles.

The sample skewness is shown, not used to sort claims out: it is biased low (on the
calibrated law, skewness 1.75, its median is about 1.0 with 25 replicates and 1.6 with
400), and with n replicates it cannot exceed (n - 2)/sqrt(n - 1), so a small one says
little about the law. Below ``SKEW_CORRECTION_FROM`` replicates the plain t test alone
decides, outside what the calibration of the judges' rule measures."""
from __future__ import annotations

from ..stats.means import SKEW_CORRECTION_FROM

__all__ = ["kept_from", "exposure_lines"]


def kept_from(tails_is: list, alpha: float) -> int | None:
    """The smallest measured size from which on every measured size keeps alpha (the
    upper 95% limit of the judges' test's rate at or below alpha, with reliable weights)
    on the skewed law at level ``alpha``; None when the largest size does not.

    >>> cell = lambda hi: {"both_t": {"interval": [0.0, hi], "reliable": True}}
    >>> rows = [{"n": 25, "alpha": 1e-6, **cell(3e-5)}, {"n": 400, "alpha": 1e-6, **cell(1e-6)},
    ...         {"n": 1600, "alpha": 1e-6, **cell(7e-7)}, {"n": 400, "alpha": 1e-8, **cell(1.6e-8)}]
    >>> kept_from(rows, 1e-6), kept_from(rows, 1e-8)
    (400, None)
    """
    at = sorted((r for r in tails_is if r["alpha"] == alpha and not r.get("control")), key=lambda r: -r["n"])
    size = None
    for r in at:
        cell = r["both_t"]
        if cell["interval"][1] > alpha or cell.get("reliable") is False:
            break
        size = r["n"]
    return size


def _claim_tests(record: dict) -> list:
    return ((record.get("evidence") or {}).get("sampling") or {}).get("one_sample_tests") or []


def exposure_lines(records: list, tails_is: list | None) -> list:
    """A paragraph, a table of the one-sample tests of the report's Monte-Carlo claims
    by replicate count, and the claims with tests below the size from which the
    calibration keeps alpha at its lowest level."""
    mc = [r for r in records if r.get("monte_carlo")]
    tested = [(r, t) for r in mc for t in [_claim_tests(r)] if t]
    if not tested:
        return []
    skewed = [r for r in tails_is or [] if not r.get("control")]
    if not skewed:
        return ["The catalogue's one-sample tests cannot be set against the tail calibration: calibration.json has "
                "no importance-sampled rates (run `python -m theory calibrate`).", ""]
    low = min(r["alpha"] for r in skewed)
    law = skewed[0].get("skewness")
    kept = kept_from(skewed, low)
    edges = [0, SKEW_CORRECTION_FROM] + sorted({r["n"] for r in skewed if r["n"] > SKEW_CORRECTION_FROM}) + [None]
    out = ["Exposure of the catalogue's own one-sample tests (the last look of each Monte-Carlo claim, whose tests "
           "gave the verdict; a test is one estimate whose interval or p-value was used; not counted: Welch "
           "differences and the means that feed fits): replicate counts against the sizes measured above, and the "
           f"largest absolute sample skewness among the tests (the calibrated law has {law:.3g}; the sample skewness "
           "is biased low, so a smaller one says little about a test's law; below "
           f"{SKEW_CORRECTION_FROM} replicates the plain t test alone decides).", "",
           "| replicates | tests | claims | of them failing | largest abs. sample skewness |", "|---|---|---|---|---|"]
    for lo, hi in zip(edges, edges[1:]):
        rows = [(r, t) for r, ts in tested for t in ts if t["replicates"] >= lo and (hi is None or t["replicates"] < hi)]
        if not rows:
            continue
        claims = {r["id"]: r["verdict"] for r, _ in rows}
        out.append(f"| {f'{lo}..{hi - 1}' if hi is not None else f'>= {lo}'} | {sum(t['tests'] for _, t in rows)} | "
                   f"{len(claims)} | {sum(v == 'fails' for v in claims.values())} | "
                   f"{max(t['largest_abs_skewness'] for _, t in rows):.3g} |")
    out.append("")
    if kept is None:
        out += [f"{len(tested)} of {len(mc)} Monte-Carlo claims run one-sample tests; at alpha {low:g} no measured size "
                "keeps alpha on the skewed law, so for every one of them alpha is a nominal level.", ""]
        return out
    below = [(r, [t for t in ts if t["replicates"] < kept]) for r, ts in tested]
    below = [(r, ts) for r, ts in below if ts]
    out.append(f"{len(tested)} of {len(mc)} Monte-Carlo claims run one-sample tests. At alpha {low:g} the judges' "
               f"test keeps alpha on the skewed law from {kept} replicates on; "
               + (f"**{len(below)}** claims have tests with fewer replicates (their alpha is a nominal level where "
                  "their replicates are as skewed as the calibrated law; the alpha stress test above reruns them at "
                  "a smaller alpha):" if below else "no claim has a test with fewer replicates."))
    out.append("")
    if below:
        out += [f"| claim | verdict | tests below {kept} replicates | fewest replicates | largest abs. sample skewness |",
                "|---|---|---|---|---|"]
        out += [f"| {r['id']} | {r['verdict']} | {sum(t['tests'] for t in ts)} | {ts[0]['replicates']} | "
                f"{max(t['largest_abs_skewness'] for t in ts):.3g} |" for r, ts in below]
        out.append("")
    return out
