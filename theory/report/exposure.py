"""Where the catalogue's own mean tests sit against the calibration of their tails: per
claim, the replicate counts and sample skewness of the one-sample mean tests and of
the Welch comparisons of its last look (recorded by the runner,
``sampling.one_sample_tests`` and ``sampling.welch_tests``), set against the sizes at
which the importance-sampled rates of ``calibration.json`` keep alpha at the lowest
level of those sections, the level of the tests inside a claim (the claim's alpha split
over its looks and rows; the deeper rows of ``tails_deep`` serve the alpha headroom of
:mod:`.headroom`): ``tails_is`` for the judges' one-sample test on lognormal replicates,
``tails_welch`` for Welch's comparison of lognormal replicates with as many Gaussian
ones. A Welch comparison is placed by its smaller sample; the calibration measured
equal sizes, where the difference of the means keeps 2^{-3/2} (about 0.35) of the
skewed side's skewness, so a skewed small sample against a much larger one is nearer
the one-sample plain t, whose excess is far larger: the report counts such pairs.

The last look is the one whose tests gave the verdict; the looks before it (fewer
replicates) decided nothing, or the run would have stopped there. Not counted: the
one-sample means that feed fits, whose intervals take the fit's Student-t quantiles.

The sample skewness is shown, not used to sort claims out: it is biased low (on the
calibrated law, skewness 1.75, its median is about 1.0 with 25 replicates and 1.6 with
400), and with n replicates it cannot exceed (n - 2)/sqrt(n - 1), so a small one says
little about the law. Below ``SKEW_CORRECTION_FROM`` replicates the plain t test alone
decides a one-sample test, outside what the calibration of the judges' rule measures."""
from __future__ import annotations

from ..stats.skewness import SKEW_CORRECTION_FROM
from .headroom import checked_by_controls, claim_status, headroom_cell, headroom_summary, placed_size, usable

__all__ = ["kept_from", "exposure_lines", "sizes_text"]


def kept_from(rows: list, alpha: float, rule: str = "both_t") -> int | None:
    """The smallest measured size from which on every measured size keeps alpha (the
    upper 95% limit of ``rule``'s rate at or below alpha, with reliable weights) on the
    skewed law at level ``alpha``; None when the largest size does not.

    >>> cell = lambda hi: {"both_t": {"interval": [0.0, hi], "reliable": True}}
    >>> rows = [{"n": 25, "alpha": 1e-6, **cell(3e-5)}, {"n": 400, "alpha": 1e-6, **cell(1e-6)},
    ...         {"n": 1600, "alpha": 1e-6, **cell(7e-7)}, {"n": 400, "alpha": 1e-8, **cell(1.6e-8)}]
    >>> kept_from(rows, 1e-6), kept_from(rows, 1e-8)
    (400, None)
    """
    at = sorted((r for r in rows if r["alpha"] == alpha and not r.get("control")), key=lambda r: -r["n"])
    size = None
    for r in at:
        cell = r[rule]
        if cell["interval"][1] > alpha or cell.get("reliable") is False:
            break
        size = r["n"]
    return size


#: Per kind of test: the runner's record, the calibration section and rule, the words.
_KINDS = (("one_sample_tests", "tails_is", "both_t", "one-sample tests", "the judges' one-sample test",
           "importance-sampled rates"),
          ("welch_tests", "tails_welch", "welch_t", "Welch comparisons", "Welch's comparison with a Gaussian sample",
           "importance-sampled Welch rates"))


def sizes_text(test: dict) -> str:
    """A recorded test's replicate count as text: '25', or a Welch pair's '25+400'."""
    n = test["replicates"]
    return "+".join(map(str, n)) if isinstance(n, list) else str(n)


def _kind_lines(mc: list, key: str, skewed: list, rule: str, plural: str, test_name: str, missing: str,
                stress: dict | None = None, measured: list = (), status: dict | None = None) -> list:
    tested = [(r, t) for r in mc for t in [((r.get("evidence") or {}).get("sampling") or {}).get(key) or []] if t]
    if not tested:
        return []
    if not skewed:
        return [f"The catalogue's {plural} cannot be set against the tail calibration: calibration.json has no "
                f"{missing} (run `python -m theory calibrate`).", ""]
    low = min(r["alpha"] for r in skewed)
    kept = kept_from(skewed, low, rule)
    edges = [0, SKEW_CORRECTION_FROM] + sorted({r["n"] for r in skewed if r["n"] > SKEW_CORRECTION_FROM}) + [None]
    out = [f"| replicates{' (smaller sample)' if key == 'welch_tests' else ''} | {plural} | claims | of them failing | "
           "largest abs. sample skewness |", "|---|---|---|---|---|"]
    for lo, hi in zip(edges, edges[1:]):
        rows = [(r, t) for r, ts in tested for t in ts
                if placed_size(t) >= lo and (hi is None or placed_size(t) < hi)]
        if not rows:
            continue
        claims = {r["id"]: r["verdict"] for r, _ in rows}
        out.append(f"| {f'{lo}..{hi - 1}' if hi is not None else f'>= {lo}'} | {sum(t['tests'] for _, t in rows)} | "
                   f"{len(claims)} | {sum(v == 'fails' for v in claims.values())} | "
                   f"{max(t['largest_abs_skewness'] for _, t in rows):.3g} |")
    out.append("")
    below = [(r, [t for t in ts if kept is None or placed_size(t) < kept]) for r, ts in tested]
    below = [(r, ts) for r, ts in below if ts]
    nominal = ("(their alpha is a nominal level where their replicates are as skewed as the calibrated law; the alpha "
               "stress test above reruns them at a smaller alpha):")
    if kept is None:
        out += [f"{len(tested)} of {len(mc)} Monte-Carlo claims run {plural}; at alpha {low:g} no measured size keeps "
                f"alpha for {test_name} on the skewed law, so **all {len(below)}** are listed {nominal}", ""]
    else:
        out += [f"{len(tested)} of {len(mc)} Monte-Carlo claims run {plural}. At alpha {low:g} {test_name} keeps "
                f"alpha on the skewed law from {kept} replicates on; "
                + (f"**{len(below)}** claims have {plural} with fewer replicates {nominal}" if below else
                   f"no claim has {plural} with fewer replicates."), ""]
    if below:
        out += [f"| claim | verdict | {plural}{'' if kept is None else f' below {kept} replicates'} | fewest replicates | "
                "largest abs. sample skewness | alpha headroom |", "|---|---|---|---|---|---|"]
        out += [f"| {r['id']} | {r['verdict']} | {sum(t['tests'] for t in ts)} | {sizes_text(ts[0])} | "
                f"{max(t['largest_abs_skewness'] for t in ts):.3g} | {headroom_cell(r)} |" for r, ts in below]
        rows = list(measured) or skewed
        levels = sorted({r["alpha"] for r in rows if usable(r[rule])}, reverse=True)
        law = min(r.get("skewness", float("inf")) for r in rows)
        out += ["", headroom_summary([r for r, _ in below], status or {}, levels, law, stress), ""]
    return out


def exposure_lines(records: list, calibration: dict) -> list:
    """A paragraph, then per kind of test (one-sample, Welch) a table of the report's
    Monte-Carlo claims' tests by replicate count and the claims with tests below the
    size from which the calibration (``calibration.json``'s data) keeps alpha at its
    lowest level."""
    mc = [r for r in records if r.get("monte_carlo")]
    parts = []
    cal = calibration or {}
    deep = {rule: checked_by_controls(cal.get("tails_deep") or [], rule) for _, _, rule, *_ in _KINDS}
    rows = {key: checked_by_controls(cal.get(section) or [], rule) + deep[rule] for key, section, rule, *_ in _KINDS}
    kinds = [(key, rows[key], rule) for key, _, rule, *_ in _KINDS]
    status = {r["id"]: claim_status(r, kinds) for r in mc}
    for key, section, rule, plural, test_name, missing in _KINDS:
        skewed = [r for r in (calibration or {}).get(section) or [] if not r.get("control")]
        parts += _kind_lines(mc, key, skewed, rule, plural, test_name, missing, cal.get("sensitivity"), rows[key],
                             status)
    if not parts:
        return []
    law = next((r["skewness"] for s in ("tails_is", "tails_welch") for r in (calibration or {}).get(s) or []
                if not r.get("control")), None)
    pairs = [t for r in mc for t in ((r.get("evidence") or {}).get("sampling") or {}).get("welch_tests") or []]
    unequal = sum(t["tests"] for t in pairs if len(set(t["replicates"])) > 1)
    return ["Exposure of the catalogue's own mean tests (the last look of each Monte-Carlo claim, whose tests gave "
            "the verdict; a test is one estimate or Welch difference whose interval or p-value was used; not counted: "
            "the means that feed fits): replicate counts against the sizes measured above, and the largest absolute "
            "sample skewness among the tests"
            + (f" (the calibrated law has {law:.3g}; the sample skewness is biased low, so a smaller one says little "
               "about a test's law)" if law is not None else "")
            + f"; below {SKEW_CORRECTION_FROM} replicates the plain t test alone decides a one-sample test."
            + (" A Welch comparison is placed by its smaller sample; its calibration drew equal sizes, one side skewed "
               "(a skewed small sample against a much larger one approaches the one-sample plain t, whose excess is "
               "far larger): "
               + (f"**{unequal}** of the {sum(t['tests'] for t in pairs)} Welch comparisons compare unequal sizes."
                  if unequal else f"all {sum(t['tests'] for t in pairs)} Welch comparisons compare equal sizes.")
               if pairs else ""),
            ""] + parts
