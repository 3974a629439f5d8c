"""The cheap part of the calibration, run in CI: the judges keep their promises on
synthetic data with known truth (false alarms at most alpha, power at the resolution at
least POWER), the vectorized tail statistic is the judges' statistic, flips are counted."""
import json

import numpy as np
import pytest

from theory.calibration import CASES, corrected_t, flips, measure_case, render_calibration
from theory.stats import estimate

CASE = {c.name: c for c in CASES}


@pytest.mark.parametrize("name,truth", [("mean", "true"), ("mean", "false_1x"), ("comparison", "true"),
                                        ("exponent", "true"), ("limit", "outside_band"), ("gof", "true"),
                                        ("limit_rms", "rms_boundary"), ("limit_rms", "rms_flat"), ("limit_rms", "false_3x"),
                                        ("decay", "true"), ("phase", "false_1x"), ("phase", "true_soft"),
                                        ("phase", "outside_soft"), ("radius", "true"), ("radius", "false_1x")])
def test_judge_keeps_its_promise(name, truth):
    r = measure_case(CASE[name], truth, reseeds=100, alpha=0.05)
    assert r["consistent"], r


def test_radius_case_catches_a_judge_that_rejects_on_the_estimate(monkeypatch):
    """The radius case can fail: a judge that rejects "O(d^-0.25)" when a Lipschitz gap's
    fitted exponent (not its interval's lower end) lies above -0.25 raises false alarms
    on the boundary far above alpha."""
    from theory.daneshmand2021 import figure_judges

    real = figure_judges._lower_fits

    def on_the_estimate(rows, alpha):
        return [(name, f, None if f is None else (float(f[0].coef[1]),) * 2) for name, f, _ in real(rows, alpha)]

    monkeypatch.setattr(figure_judges, "_lower_fits", on_the_estimate)
    r = measure_case(CASE["radius"], "true", reseeds=100, alpha=0.05)
    assert not r["consistent"] and r["rate"] > 0.3, r


def test_vectorized_statistic_is_the_judges_statistic():
    x = np.random.default_rng(0).lognormal(0, 0.5, (5, 40))
    t, th = corrected_t(x, 1.0)
    for row, value in zip(x, th):
        assert estimate(row).t(1.0) == pytest.approx(value)
    assert not np.allclose(t, th)


def test_vectorized_welch_is_the_judges_welch():
    from theory.calibration.tails import welch_t
    from theory.stats import difference

    rng = np.random.default_rng(2)
    x, y = rng.lognormal(0, 0.5, (6, 25)), rng.normal(1.0, 0.3, (6, 40))
    tw, df = welch_t(x, y)
    for a, b, t, d in zip(x, y, tw, df):
        e = difference(a, b)
        assert e.mean / e.se == pytest.approx(t) and e.df == pytest.approx(d)


def test_vectorized_rule_rejects_where_the_judges_test_does():
    """oriented(..., "both_t") past the critical value on either side is exactly where
    MeanEstimate's two-sided p-value falls below alpha; an unknown rule is refused."""
    from scipy import stats as st

    from theory.calibration.tails import oriented

    x = np.random.default_rng(1).lognormal(0, 0.8, (400, 12)) * 1.4
    t, th = corrected_t(x, 1.0)
    for alpha in (0.2, 0.01):
        crit = st.t.isf(alpha / 2, x.shape[1] - 1)
        vec = (oriented(t, th, 1, "both_t") > crit) | (oriented(t, th, -1, "both_t") > crit)
        one = np.array([estimate(row).p_two_sided(1.0) < alpha for row in x])
        assert vec.any() and (vec == one).all()
    with pytest.raises(ValueError, match="rule must be one of"):
        oriented(t, th, 1, "hall")


def test_flips_are_holds_against_fails():
    got = flips({"a": {"1": "holds", "2": "fails"}, "b": {"1": "holds", "2": "inconclusive"},
                 "c": {"1": "holds_approximately", "2": "fails"}})
    assert sorted(got) == ["a", "c"]


def test_render_lists_unmet_promises():
    row = {"judge": "judge_means", "case": "mean", "truth": "true", "checked": "fails", "meaning": "false alarm",
           "rate": 0.2, "interval": [0.1, 0.3], "expect": "at most 0.05", "consistent": False,
           "counts": {"holds": 0, "holds_approximately": 0, "fails": 2, "inconclusive": 8}, "reseeds": 10,
           "mean_looks": 1.0}
    text = "\n".join(render_calibration({"judges": {"alpha": 0.05, "reseeds": 10, "rows": [row]}}))
    assert "(not met)" in text and "0 of 1 rows" in text


def test_render_flags_tail_rates_above_alpha():
    def rate(r):
        return {"rate": r * 1e-4, "interval": [0.9 * r * 1e-4, 1.1 * r * 1e-4], "over_alpha": r}

    tails = [{"n": 25, "alpha": 1e-4, "reseeds": 10**6, "skewness": 1.75, "plain_t": rate(15.0), "corrected_t": rate(5.0),
              "both_t": rate(4.0), "welch_t": rate(0.5)},
             {"n": 1600, "alpha": 1e-4, "reseeds": 10**6, "skewness": 1.75, "plain_t": rate(1.5),
              "corrected_t": rate(1.0), "both_t": rate(0.9), "welch_t": rate(0.5)}]
    text = "\n".join(render_calibration({"tails": tails}))
    assert text.count("**(above alpha)**") == 4 and "Not met at alpha 0.0001" in text and "1 of 2 sample sizes" in text
    assert "up to 4.00 x alpha at 25 replicates" in text  # the judges' test decides, not the corrected one
    assert "| Welch against a Gaussian sample: rate" in text and "the Welch comparison's" not in text
    loud = [{**r, "welch_t": rate(3.0)} for r in tails]
    assert "the Welch comparison's false-alarm rate lies above alpha for 2 of 2" in "\n".join(
        render_calibration({"tails": loud}))
    with pytest.raises(ValueError, match="lack welch_t"):
        render_calibration({"tails": [{k: v for k, v in r.items() if k != "welch_t"} for r in tails]})
    deeper = [{**r, "alpha": 1e-6, "plain_t": {**r["plain_t"], "interval": [0.0, 1e-5]}} for r in tails]
    text = "\n".join(render_calibration({"tails": tails + deeper}))
    assert "| 1e-06 | 25 |" in text and "at alpha 0.0001, 1e-06" in text and "Not met at alpha 1e-06" in text


def test_jobs_do_not_change_the_numbers(tmp_path):
    """Calibration on 2 processes gives the rows of a serial run, in the same order."""
    from theory.calibration import CASES, run_calibration

    cases = [c for c in CASES if c.name == "mean"]
    strip = lambda d: [{k: v for k, v in r.items() if k != "seconds"} for r in d["judges"]["rows"]]
    serial = run_calibration(tmp_path / "a", reseeds=8, cases=cases, progress=False, tails=False, jobs=1)
    pooled = run_calibration(tmp_path / "b", reseeds=8, cases=cases, progress=False, tails=False, jobs=2)
    assert strip(serial) == strip(pooled)


def test_jobs_must_be_positive():
    from theory.calibration.pool import map_tasks

    with pytest.raises(ValueError, match="jobs must be an integer >= 1"):
        map_tasks(print, [()], 0, "x", progress=False)


def test_render_states_the_far_tail_rates_and_the_control():
    def row(n, alpha, rate, control=False, reliable=True):
        cell = {"rate": rate, "se": rate / 100, "interval": [rate * 0.98, rate * 1.02], "over_alpha": rate / alpha,
                "reliable": reliable}
        out = {"n": n, "alpha": alpha, "reseeds": 10, "control": control, "plain_t": cell, "corrected_t": dict(cell),
               "both_t": dict(cell)}
        if control:  # the known truth decides, not the importance-sampled estimate
            out["corrected_t"]["truth"] = {"over_alpha": 2.0, "half_width": 0.1}
            out["both_t"]["truth"] = {"over_alpha": 0.6, "half_width": 0.1}
        return out

    text = "\n".join(render_calibration({"tails_is": [row(25, 1e-8, 5e-6, reliable=False), row(400, 1e-8, 1.0e-8),
                                                      row(25, 1e-8, 1e-8, control=True)]}))
    assert "Far-tail rates by importance sampling" in text
    assert "keeps alpha on lognormal replicates for none" in text and "(worst: 500 x alpha at 25 replicates)" in text
    assert "raises the rate above alpha for 25 replicates" in text and "exact 2 +- 0.1" in text
    assert "the judges' test for none of the sizes" in text and "exact 0.6 +- 0.1" in text
    assert "its alpha is a nominal level" in text  # 25 replicates miss alpha
    kept = "\n".join(render_calibration({"tails_is": [row(400, 1e-8, 0.9e-8), row(25, 1e-8, 1e-8, control=True)]}))
    assert "keeps alpha on lognormal replicates for 400 replicates" in kept and "nominal level" not in kept
    assert text.count("(weights unreliable)") == 3  # every statistic of the unreliable row


def test_alpha_sensitivity_reads_the_worst_excess_and_lists_what_moves():
    from theory.calibration import changed_verdicts, worst_excess

    cell = {"interval": [0.0, 5e-6]}
    rows = [{"alpha": 1e-8, "control": False, "both_t": cell, "corrected_t": {"interval": [0.0, 9e-6]}},
            {"alpha": 1e-8, "control": True, "both_t": {"interval": [0.0, 1e-5]}}]  # controls do not count
    assert worst_excess(rows) == pytest.approx(500.0)
    welch = [{"alpha": 1e-8, "control": False, "welch_t": {"interval": [0.0, 7e-6]}},
             {"alpha": 1e-8, "control": True, "welch_t": {"interval": [0.0, 1e-5]}}]
    assert worst_excess(rows, welch) == pytest.approx(700.0)  # Welch's excess counts where it is the worst
    assert worst_excess(rows, welch[1:]) == pytest.approx(500.0)
    with pytest.raises(ValueError, match="Welch rates lack welch_t"):
        worst_excess(rows, [{"alpha": 1e-8, "control": False, "both_t": cell}])
    with pytest.raises(ValueError, match="no importance-sampled tail rates"):
        worst_excess([])
    with pytest.raises(ValueError, match="lack both_t"):
        worst_excess([{"alpha": 1e-8, "control": False, "corrected_t": cell}])
    moved = changed_verdicts({"a": "holds", "b": "fails"}, {"a": "holds", "b": "inconclusive"})
    assert moved == {"b": ["fails", "inconclusive"]}
    text = "\n".join(render_calibration({"sensitivity": {"factor": 500.0, "factor_from": "given", "base_alpha": 1e-6,
                                                         "claim_alpha": 2e-9,
                                                         "verdicts": {"a": "holds", "b": "inconclusive"},
                                                         "changed": moved}}))
    assert "**1 of 2** verdicts are unchanged; these move: b (fails -> inconclusive)" in text
    assert "stress test, not a guarantee" in text


def test_stability_keeps_only_the_catalogue_s_monte_carlo_claims():
    from theory.calibration.stability import current_verdicts
    from theory.core.registry import claims

    mc = next(c.id for c in claims() if c.monte_carlo)
    exact = next(c.id for c in claims() if not c.monte_carlo)
    kept = current_verdicts({mc: {"1": "holds"}, "gone.renamed_claim": {"1": "fails"}, exact: {"1": "holds"}})
    assert kept == {mc: {"1": "holds"}}


def test_each_section_records_the_code_it_was_measured_with(tmp_path):
    from theory.calibration import CASES, run_calibration
    from theory.calibration.measure import record_code

    data = run_calibration(tmp_path, reseeds=2, cases=[c for c in CASES if c.name == "mean"], progress=False,
                           tails=False)
    state = data["measured_at"]["judges"]
    assert set(state) == {"commit", "dirty"} and "tails" not in data["measured_at"]
    record_code(data, "stability")
    text = "\n".join(render_calibration({"measured_at": data["measured_at"]}))
    assert text.count("Measured at: ") == 1 and "the judges' cases, the seed stability at" in text
    record_code(data, "sensitivity (p.a, p.b)")
    text = "\n".join(render_calibration({"measured_at": data["measured_at"]}))
    assert "the alpha stress test of p.a, p.b at" in text


def test_welch_rows_render_with_their_exact_controls_and_say_where_alpha_is_kept():
    def row(n, alpha, hi, control=False, truth=None):
        cell = {"rate": hi * 0.9, "interval": [hi * 0.8, hi], "over_alpha": hi * 0.9 / alpha, "reliable": True}
        if truth is not None:
            cell["truth"] = {"over_alpha": truth, "half_width": 1e-12}
        return {"n": n, "alpha": alpha, "reseeds": 100, "skewness": 0.0 if control else 1.75, "control": control,
                "welch_t": cell}

    rows = [row(25, 1e-8, 9e-8), row(1600, 1e-8, 0.95e-8), row(25, 1e-8, 0.9e-8, True, 0.85),
            row(1600, 1e-8, 1.05e-8, True, 0.5)]
    text = "\n".join(render_calibration({"tails_welch": rows}))
    assert "| 25 | 1e-08 | 8.1 [7.2, 9] **(above alpha)** | 0.81 [0.72, 0.9] | 0.85 |" in text
    assert "keeps alpha with one skewed side for 1600 replicates per sample (worst: 8.1 x alpha at 25" in text
    assert "1 control row(s) miss their exact rate: [(1600, 1e-08)]" in text  # the control check can fail
    bare = "\n".join(render_calibration({"tails_welch": rows[:2]}))
    assert "No control row has a known rate." in bare and "covers" not in bare
    assert "control rows only" in "\n".join(render_calibration({"tails_welch": rows[2:]}))
    shaky = [dict(rows[1], welch_t=dict(rows[1]["welch_t"], reliable=False)), rows[0], rows[2]]
    shaky_text = "\n".join(render_calibration({"tails_welch": shaky}))
    assert "(weights unreliable)" in shaky_text and "for none of the sizes measured" in shaky_text
    tails = [{"side": "lower", "rate": 6e-8}, {"side": "upper", "rate": 2e-8}]
    split = [dict(rows[0], welch_t=dict(rows[0]["welch_t"], tails=tails))] + rows[1:]
    assert "75.0% of it in the lower tail" in "\n".join(render_calibration({"tails_welch": split}))


def test_stability_and_stress_test_of_some_claims_merge_into_the_recorded_runs(tmp_path):
    """A run of some claims replaces their verdicts, keeps the other claims', drops
    renamed ones, and records its code under its own key; the stress test refuses to
    merge into a run at another factor."""
    from theory.calibration import run_sensitivity, run_stability

    cid, other = "daneshmand2021.fig1.vanilla_rises", "daneshmand2021.fig1.bn_orthogonalizes"
    skewed = [{"alpha": 1e-8, "control": False, "both_t": {"interval": [0.0, 4.2e-8]}}]  # factor ceil(4.2) = 5
    (tmp_path / "calibration.json").write_text(json.dumps({
        "tails_is": skewed,
        "stability": {"verdicts": {other: {"1": "holds"}, "gone.renamed": {"1": "fails"}}},
        "sensitivity": {"factor": 5.0, "verdicts": {other: "fails", "gone.renamed": "holds"}}}))
    data = run_stability(tmp_path, fast_seeds=(1, 2), slow_seeds=(), progress=False, claims=[cid])
    assert data["stability"]["verdicts"] == {other: {"1": "holds"}, cid: {"1": "holds", "2": "holds"}}
    assert f"stability ({cid})" in data["measured_at"] and "stability" not in data["measured_at"]
    data = run_sensitivity(tmp_path, progress=False, claims=[cid])["sensitivity"]
    assert data["verdicts"] == {other: "fails", cid: "holds"} and data["changed"] == {other: ["holds", "fails"]}
    with pytest.raises(ValueError, match="same factor"):
        run_sensitivity(tmp_path, factor=7, progress=False, claims=[cid])
    with pytest.raises(ValueError, match="must be Monte-Carlo claims; not: arpit2019.thm3.range"):
        run_stability(tmp_path, progress=False, claims=["arpit2019.thm3.range"])


def test_a_run_drops_the_code_records_it_supersedes():
    """measured_at names each claim in one record only: a whole-catalogue run drops the
    partial ones; a claim or paper run takes the claims it reran out of earlier records
    (dropping a record left empty; a paper's record stands for its Monte-Carlo claims) and
    drops records naming claims the catalogue no longer has; ids are sorted and counted
    once; a paper run that left claims out is recorded under the ids it ran, a whole run
    under the section's name, the old whole record kept for the claims it left out."""
    from theory.calibration.stability import chosen_claims, record_section, section_key

    a, b = "daneshmand2021.fig1.vanilla_rises", "daneshmand2021.fig1.bn_orthogonalizes"
    assert section_key("stability", None, [b, a, b]) == f"stability ({', '.join(sorted({a, b}))})"
    data = {"measured_at": {"stability": 1, f"stability ({a})": 2, "stability (gone.claim)": 3,
                            f"stability ({', '.join(sorted({a, b}))})": 4, "sensitivity (gone.claim)": 5}}
    record_section(data, "stability", None, [a])
    assert data["measured_at"].keys() == {"stability", f"stability ({a})", f"stability ({b})",
                                          "sensitivity (gone.claim)"}
    assert data["measured_at"][f"stability ({b})"] == 4 and data["measured_at"][f"stability ({a})"] != 2
    record_section(data, "stability")
    assert set(data["measured_at"]) == {"stability", "sensitivity (gone.claim)"}
    data = {"measured_at": {f"stability ({a})": 1, f"stability ({b})": 2}}
    record_section(data, "stability", None, None, ran=[b])  # a whole run that left a out (as slow claims are)
    assert set(data["measured_at"]) == {"stability", f"stability ({a})"}
    assert data["measured_at"][f"stability ({a})"] == 1
    # a paper's record loses the claims a later run reran, and a paper run supersedes claim records of that paper
    paper_ids = sorted(c.id for c in chosen_claims("daneshmand2021"))
    data = {"measured_at": {"stability (daneshmand2021)": 6, "stability (zeroinit2019)": 7}}
    record_section(data, "stability", None, [a])
    assert data["measured_at"][section_key("stability", None, set(paper_ids) - {a})] == 6
    assert data["measured_at"]["stability (zeroinit2019)"] == 7
    assert "stability (daneshmand2021)" not in data["measured_at"]
    record_section(data, "stability", "daneshmand2021")
    assert set(data["measured_at"]) == {"stability (daneshmand2021)", "stability (zeroinit2019)"}
    slow = [c.id for c in chosen_claims("daneshmand2021") if c.slow]
    data["measured_at"]["stability (daneshmand2021)"] = 8
    record_section(data, "stability", "daneshmand2021", ran=set(paper_ids) - set(slow))
    assert data["measured_at"][section_key("stability", None, slow)] == 8  # the slow ones keep their record
    assert isinstance(data["measured_at"][section_key("stability", None, set(paper_ids) - set(slow))], dict)
    assert "stability (daneshmand2021)" not in data["measured_at"]  # the run is recorded under what it ran
    # a record keeps its live claims when one of them left the catalogue or is exact now
    data = {"measured_at": {f"stability ({a}, arpit2019.thm3.range, gone.claim)": 9}}
    record_section(data, "stability", None, [b])
    assert data["measured_at"][f"stability ({a})"] == 9 and len(data["measured_at"]) == 2
    # a whole-catalogue run that left the slow claims out: the old whole record stays theirs,
    # less the ones a partial record names
    every = {c.id for c in chosen_claims()}
    slow_all = sorted(c.id for c in chosen_claims() if c.slow)
    data = {"measured_at": {"stability": 10, f"stability ({slow_all[0]})": 11, f"stability ({a})": 12}}
    record_section(data, "stability", None, None, ran=every - set(slow_all))
    assert data["measured_at"][section_key("stability", None, slow_all[1:])] == 10
    assert data["measured_at"][f"stability ({slow_all[0]})"] == 11 and f"stability ({a})" not in data["measured_at"]
    assert isinstance(data["measured_at"]["stability"], dict) and len(data["measured_at"]) == 3


def test_calibration_runs_record_the_commit_they_started_at(tmp_path, monkeypatch):
    """A section run (tails), a stability run and a stress test take the code's state
    before they run: a commit of code landing meanwhile leaves the starting commit in
    measured_at, marked dirty."""
    from theory.calibration import run_sensitivity, run_stability
    from theory.calibration.measure import _run_section
    from tests.support.moving_git import START, moving_git_state

    moved = {"commit": START["commit"], "dirty": True}
    cid = "daneshmand2021.fig1.vanilla_rises"
    moving_git_state(monkeypatch)
    assert _run_section(tmp_path, "tails", lambda: [])["measured_at"]["tails"] == moved
    moving_git_state(monkeypatch)
    assert run_stability(tmp_path, fast_seeds=(1,), slow_seeds=(), progress=False, claims=[cid])[
        "measured_at"][f"stability ({cid})"] == moved
    data = json.loads((tmp_path / "calibration.json").read_text())
    (tmp_path / "calibration.json").write_text(json.dumps(dict(data, sensitivity={"factor": 2.0, "verdicts": {}})))
    moving_git_state(monkeypatch)
    assert run_sensitivity(tmp_path, factor=2, progress=False, claims=[cid])[
        "measured_at"][f"sensitivity ({cid})"] == moved
