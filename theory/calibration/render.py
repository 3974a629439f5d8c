"""The report's Calibration section, from calibration.json."""
from __future__ import annotations

from .tails import COUNTED, RULES, covers_truth, require_rules

#: Column titles of the tail rules, and the rule the judges use.
_RULE_TITLE = {"plain_t": "plain t", "corrected_t": "corrected t", "both_t": "both reject (the judges' test)",
               "welch_t": "Welch against a Gaussian sample"}
_USED = "both_t"

__all__ = ["render_calibration"]


def _rate(r: dict) -> str:
    lo, hi = r["interval"]
    return f"{r['rate']:.4f} [{lo:.4f}, {hi:.4f}]"


def render_calibration(data: dict) -> list:
    require_rules(data.get("tails"), COUNTED, "tail counts")
    require_rules(data.get("tails_is"), RULES, "importance-sampled tail rates")
    out = ["## Calibration", ""] + _render_measured_at(data.get("measured_at"))
    j = data.get("judges")
    if j:
        bad = [r for r in j["rows"] if not r["consistent"]]
        out += [f"Every judge on synthetic data with known truth, through the sequential runner, {j['reseeds']} "
                f"reseeds per row at claim alpha {j['alpha']:g} (a level where rates are measurable; the "
                "catalogue runs at 1e-6 with the same code). Rates with exact 95% intervals. "
                f"{len(j['rows']) - len(bad)} of {len(j['rows'])} rows are consistent with what is promised.", "",
                "| judge | case | truth | checked verdict | measured rate [95%] | promised | holds | inconclusive | "
                "mean looks |", "|---|---|---|---|---|---|---|---|---|"]
        for r in j["rows"]:
            c = r["counts"]
            n = r["reseeds"]
            out.append(f"| {r['judge']} | {r['case']} | {r['truth']} | {r['checked']} ({r['meaning']}) | {_rate(r)} | "
                       f"{r['expect']}{'' if r['consistent'] else ' **(not met)**'} | "
                       f"{(c['holds'] + c['holds_approximately']) / n:.3f} | {c['inconclusive'] / n:.3f} | "
                       f"{r['mean_looks']:.2f} |")
        out.append("")
    tails = data.get("tails")
    if tails:
        alphas = sorted({r["alpha"] for r in tails}, reverse=True)
        rules = COUNTED
        out += ["Tail accuracy of the one-sample mean test on skewed replicates (lognormal, skewness "
                f"{tails[0]['skewness']:.2f}, like the catalogue's per-network ratios) at alpha "
                f"{', '.join(f'{a:g}' for a in alphas)} (the last is the catalogue's per-claim level; the tests inside "
                "a claim run lower, at alpha split over looks and rows: see the importance-sampled rates below), "
                "counted directly: false-alarm rate of the plain Student-t test, of Hall's skewness-corrected test, "
                "and of the rule the judges use (reject only where both reject); in the last column, the Welch "
                "comparison of those replicates with as many Gaussian ones of the same mean and spread (no skewness "
                "correction). Where a rate's "
                "interval reaches 0 the size resolves only an upper limit. The 1e-6 rows reuse the 1e-4 rows' "
                "draws and add as many again (the levels are not independent).", "",
                "| alpha | replicates | reseeds | " + " | ".join(f"{_RULE_TITLE[k]}: rate [95%] (x alpha)" for k in rules)
                + " |", "|---|---|---|" + "---|" * len(rules)]
        for r in sorted(tails, key=lambda r: (-r["alpha"], r["n"])):
            cells = [f"{r[k]['rate']:.2e} [{r[k]['interval'][0]:.1e}, {r[k]['interval'][1]:.1e}] "
                     f"({r[k]['over_alpha']:.2f}){' **(above alpha)**' if r[k]['interval'][0] > r['alpha'] else ''}"
                     for k in rules]
            out.append(f"| {r['alpha']:g} | {r['n']} | {r['reseeds']} | " + " | ".join(cells) + " |")
        out.append("")
        for a in alphas:
            level = [r for r in tails if r["alpha"] == a]
            for key, test in ((_USED, "the judges' one-sample test"), ("welch_t", "the Welch comparison")):
                above = [r for r in level if r[key]["interval"][0] > a]
                if above:
                    worst = max(above, key=lambda r: r[key]["over_alpha"])
                    out += [f"Not met at alpha {a:g}: on skewed replicates {test}'s false-alarm rate lies above "
                            f"alpha for {len(above)} of {len(level)} sample sizes (up to "
                            f"{worst[key]['over_alpha']:.2f} x alpha at {worst['n']} replicates). For Monte-Carlo "
                            "claims decided by it on few skewed replicates the catalogue's per-claim alpha is "
                            "therefore a nominal level, not a guaranteed one.", ""]
    out += _render_tails_is(data.get("tails_is"))
    out += _render_tails_welch(data.get("tails_welch"))
    out += _render_tails_deep(data.get("tails_deep"))
    s = data.get("stability")
    if s:
        n_claims = len(s["verdicts"])
        runs = sum(len(v) for v in s["verdicts"].values())
        out += [f"Seed stability of the catalogue: {n_claims} Monte-Carlo claims, {runs} claim-runs (seeds "
                f"{s['fast_seeds'][0]}..{s['fast_seeds'][-1]} for the others, {s['slow_seeds']} for the slow ones): "
                f"**{len(s['flips'])} flips** between holds and fails"
                + (f" ({', '.join(s['flips'])})" if s["flips"] else "")
                + f"; {len(s['to_inconclusive'])} claims inconclusive at some seed"
                + (f" ({', '.join(sorted(s['to_inconclusive']))})." if s["to_inconclusive"] else "."), ""]
    out += _render_sensitivity(data.get("sensitivity"))
    if not j and not s and not tails and not data.get("tails_is"):
        out += ["Not measured yet: run `python -m theory calibrate`.", ""]
    return out


def _render_tails_is(rows) -> list:
    """The importance-sampled tail rates: lognormal rows, then the Gaussian controls with
    their known truths; cells whose weights fail the diagnostics are marked."""
    if not rows:
        return []

    def cell(r, k):
        lo, hi = r[k]["interval"]
        flag = " **(above alpha)**" if lo > r["alpha"] else ""
        mark = "" if r[k].get("reliable", True) else " (weights unreliable)"
        truth = r[k].get("truth")
        known = f"; exact {truth['over_alpha']:.3g} +- {truth['half_width']:.2g}" if truth else ""
        return f"{r[k]['over_alpha']:.3g} [{lo / r['alpha']:.3g}, {hi / r['alpha']:.3g}]{flag}{mark}{known}"

    rules, used = RULES, _USED
    skewed = [r for r in rows if not r.get("control")]
    control = [r for r in rows if r.get("control")]
    out = ["Far-tail rates by importance sampling (`theory/calibration/tails_is.py`: a Gaussian proposal on the "
           "log scale tuned by the cross-entropy method, each tail estimated separately, "
           f"{rows[0]['reseeds']} weighted draws per tail; normal 95% intervals, trusted only where every tail's "
           "weights have an effective sample size of at least 1000 and no weight holds more than 1% of the sum, "
           "otherwise marked), as multiples of alpha. The lowest level is that of the tests inside a claim (the "
           "claim's 1e-6 split over looks and rows). The control rows draw near-Gaussian replicates (log-sd 1e-3), "
           "where the plain t test's rate is alpha (truth 1) and the other tests' rates are computed exactly "
           "('exact', without importance sampling); at 1e-4 and 1e-6 the lognormal rows can be set beside the "
           "direct counts above.", "",
           "| replicates | alpha | " + " | ".join(f"lognormal: {_RULE_TITLE[k]}" for k in rules) + " | "
           + " | ".join(f"Gaussian control: {_RULE_TITLE[k]}" + (" (truth 1)" if k == "plain_t" else "")
                        for k in rules) + " |",
           "|---|---|" + "---|" * (2 * len(rules))]
    ctrl = {(r["n"], r["alpha"]): r for r in control}
    for r in sorted(skewed, key=lambda r: (r["n"], -r["alpha"])):
        c = ctrl.get((r["n"], r["alpha"]))
        out.append(f"| {r['n']} | {r['alpha']:g} | " + " | ".join(cell(r, k) for k in rules) + " | "
                   + (" | ".join(cell(c, k) for k in rules) if c else " | " * (len(rules) - 1)) + " |")
    out.append("")
    low = min(r["alpha"] for r in rows)
    at_low = sorted((r for r in skewed if r["alpha"] == low), key=lambda r: r["n"])
    ok = [r["n"] for r in at_low if r[used]["interval"][1] <= low]
    worst = max(at_low, key=lambda r: r[used]["over_alpha"])

    def raised(r, k):
        truth = r[k].get("truth")
        return truth["over_alpha"] - truth["half_width"] > 1 if truth else r[k]["interval"][0] > low

    hurt = {k: [r["n"] for r in control if r["alpha"] == low and raised(r, k)] for k in rules if k != "plain_t"}

    def sizes(ns):
        return f"{', '.join(map(str, sorted(ns)))} replicates" if ns else "none of the sizes"

    out += [f"At alpha {low:g} the judges' test keeps alpha on lognormal replicates for "
            + (f"{', '.join(map(str, ok))} replicates" if ok else "none of the sizes measured")
            + f" (worst: {worst[used]['over_alpha']:.3g} x alpha at {worst['n']} replicates). On Gaussian "
            f"replicates Hall's correction alone raises the rate above alpha for {sizes(hurt['corrected_t'])} "
            "(the sample skewness is noisy with few replicates and shifts the statistic's tails), "
            f"the judges' test for {sizes(hurt[used])}."
            + (" Where few skewed replicates decide a claim, its alpha is a nominal level." if len(ok) < len(at_low)
               else ""), ""]
    return out


def _render_tails_welch(rows) -> list:
    """The importance-sampled Welch rates: lognormal against Gaussian rows beside the
    Gaussian controls with their exact rates."""
    if not rows:
        return []

    def cell(r):
        w = r["welch_t"]
        lo, hi = (v / r["alpha"] for v in w["interval"])
        return (f"{w['over_alpha']:.3g} [{lo:.3g}, {hi:.3g}]{' **(above alpha)**' if lo > 1 else ''}"
                f"{'' if w.get('reliable', True) else ' (weights unreliable)'}")

    require_rules(rows, ("welch_t",), "importance-sampled Welch rates")
    skewed = sorted((r for r in rows if not r.get("control")), key=lambda r: (r["n"], -r["alpha"]))
    if not skewed:
        return ["The importance-sampled Welch rates hold control rows only: rerun `python -m theory calibrate "
                "--welch-only`.", ""]
    ctrl = {(r["n"], r["alpha"]): r for r in rows if r.get("control")}
    out = ["Far-tail rates of the Welch comparison by importance sampling (`theory/calibration/tails_welch.py`: "
           f"n lognormal replicates, skewness {skewed[0]['skewness']:.2f}, against n Gaussian ones of the same mean "
           "and spread; one proposal per sample, tuned and diagnosed as above; "
           f"{rows[0]['reseeds']} weighted draws per tail), as multiples of alpha. The control rows draw "
           "near-Gaussian replicates on both sides, where the rate is known exactly (two Gaussian samples of equal "
           "size and variance: the pooled t, independent of the variance ratio that sets Welch's degrees of "
           "freedom; an integral over the F law).", "",
           "| replicates per sample | alpha | lognormal against Gaussian | Gaussian control | exact |",
           "|---|---|---|---|---|"]
    for r in skewed:
        c = ctrl.get((r["n"], r["alpha"]))
        truth = c["welch_t"].get("truth") if c else None
        out.append(f"| {r['n']} | {r['alpha']:g} | {cell(r)} | {cell(c) if c else ''} | "
                   + (f"{truth['over_alpha']:.4g}" if truth else "") + " |")
    out.append("")
    low = min(r["alpha"] for r in skewed)
    at_low = [r for r in skewed if r["alpha"] == low]
    ok = [r["n"] for r in at_low if r["welch_t"]["interval"][1] <= low and r["welch_t"].get("reliable", True)]
    worst = max(at_low, key=lambda r: r["welch_t"]["over_alpha"])
    known = [r for r in rows if r.get("control") and r["welch_t"].get("truth")]
    missed = [(r["n"], r["alpha"]) for r in known if not covers_truth(r, "welch_t")]
    sides = {t["side"]: t["rate"] for t in worst["welch_t"].get("tails", [])}
    heavier = max(sides, key=sides.get) if sides else None
    out += [f"At alpha {low:g} Welch's comparison keeps alpha with one skewed side for "
            + (f"{', '.join(map(str, ok))} replicates per sample" if ok else "none of the sizes measured")
            + f" (worst: {worst['welch_t']['over_alpha']:.3g} x alpha at {worst['n']}"
            + (f", {sides[heavier] / sum(sides.values()):.1%} of it in the {heavier} tail" if heavier else "") + "). "
            + ("No control row has a known rate." if not known else
               f"{len(missed)} control row(s) miss their exact rate: {missed}." if missed else
               f"Each of the {len(known)} control rows' intervals covers its exact rate."), ""]
    return out


def _render_tails_deep(rows) -> list:
    """The rates below the level of a claim's tests: per size and level, the judges'
    one-sample test and Welch's comparison, lognormal and control (with exact rates);
    cells the estimator could not reach or whose weights fail the diagnostics marked."""
    if not rows:
        return []

    def cell(r, k):
        c = r[k]
        if not c.get("reached", True):
            return "not reached"
        lo, hi = (v / r["alpha"] for v in c["interval"])
        truth = c.get("truth")
        return (f"{c['over_alpha']:.3g} [{lo:.3g}, {hi:.3g}]{'' if c.get('reliable', True) else ' (weights unreliable)'}"
                + (f"; exact {truth['over_alpha']:.3g}" if truth else ""))

    ctrl = {(r["n"], r["alpha"]): r for r in rows if r.get("control")}
    out = ["Rates below the level of a claim's tests (`theory/calibration/tails_deep.py`, the same importance "
           f"sampling, {rows[0]['reseeds']} weighted draws per tail), as multiples of alpha: where a verdict's alpha "
           "headroom sends its tests (see the exposure lists below). Only cells with reliable weights whose control "
           "covers its exact rate are used there.",
           "", "| replicates | alpha | judges' one-sample test | Welch against a Gaussian sample | "
           "control: judges' test | control: Welch |", "|---|---|---|---|---|---|"]
    for r in sorted((r for r in rows if not r.get("control")), key=lambda r: (r["n"], -r["alpha"])):
        c = ctrl.get((r["n"], r["alpha"]))
        out.append(f"| {r['n']} | {r['alpha']:g} | {cell(r, 'both_t')} | {cell(r, 'welch_t')} | "
                   + (f"{cell(c, 'both_t')} | {cell(c, 'welch_t')} |" if c else " | |"))
    return out + [""]


def _render_sensitivity(sens) -> list:
    if not sens:
        return []
    changed = sens["changed"]
    listed = ", ".join(f"{cid} ({a} -> {b})" for cid, (a, b) in sorted(changed.items()))
    return [f"Alpha stress test: every Monte-Carlo claim again at claim alpha {sens['claim_alpha']:.2g}, the "
            f"{sens['base_alpha']:g} divided by {sens['factor']:g} ({sens['factor_from']}): "
            f"**{len(sens['verdicts']) - len(changed)} of {len(sens['verdicts'])}** verdicts are unchanged"
            + (f"; these move: {listed}." if changed else ".")
            + " This is a stress test, not a guarantee: the excess grows as alpha shrinks (a test run at the smaller "
            "alpha has an excess of its own), and it was measured for two tests (the judges' one-sample mean test "
            "and Welch's comparison with one skewed side) on one law (lognormal), while the claims also use exact "
            "binomial and fit tests. A verdict that moves needs more data before it can be trusted at that level.",
            ""]


_SECTIONS = {"judges": "the judges' cases", "tails": "the tail counts", "tails_is": "the importance-sampled rates",
             "tails_welch": "the importance-sampled Welch rates", "tails_deep": "the rates below a claim's level",
             "stability": "the seed stability", "sensitivity": "the alpha stress test"}


def _render_measured_at(measured: dict | None) -> list:
    """One line: the commit each section was measured at (and whether the code differed from it).
    A later run of one paper or some claims names them (each claim in one record only:
    :func:`theory.calibration.stability.record_section`); the whole-catalogue run of that
    section then stands for the other claims.

    >>> _render_measured_at({"stability": {"commit": "a" * 40}, "stability (p.x)": {"commit": "b" * 40}})[0]
    'Measured at: the seed stability of the other claims at `aaaaaaa`; the seed stability of p.x at `bbbbbbb` (...'
    """
    if not measured:
        return []
    by_code = {}
    partial = {k.partition(" (")[0] for k in measured if " (" in k}
    for key, state in measured.items():
        code = (state.get("commit") or "")[:7], bool(state.get("dirty"))
        base, _, which = key.partition(" (")  # a run of one paper or some claims: "stability (ids)"
        name = _SECTIONS.get(base, base) + (f" of {which[:-1]}" if which else
                                            " of the other claims" if base in partial else "")
        by_code.setdefault(code, []).append(name)
    parts = [f"{', '.join(names)} at " + (f"`{commit}`" if commit else "an unknown commit")
             + (" with uncommitted changes" if dirty else "") for (commit, dirty), names in by_code.items()]
    return ["Measured at: " + "; ".join(parts) + " (`python -m theory calibrate` records the commit of each section "
            "it writes).", ""]
