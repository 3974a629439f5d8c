"""The cheap part of the calibration, run in CI: the judges keep their promises on
synthetic data with known truth (false alarms at most alpha, power at the resolution at
least POWER), and the vectorized tests of the rate rows are the judges' tests."""
import json
import math

import numpy as np
import pytest

from theory import stats
from theory.calibration import all_cases, measure_case, rates, run_calibration

CASE = {c.name: c for c in all_cases()}


@pytest.mark.parametrize("name,truth", [("mean", "true"), ("mean", "false_1x"), ("comparison", "true"),
                                        ("exponent", "true"), ("exponent", "inside_off_centre_1x"),
                                        ("limit", "outside_band"), ("limit", "inside_off_centre_1x"),
                                        ("limit_rms", "rms_boundary"), ("limit_rms", "rms_flat"),
                                        ("decay", "true"), ("phase", "true_soft"), ("radius", "true")])
def test_judge_keeps_its_promise(name, truth):
    r = measure_case(CASE[name], truth, reseeds=100, alpha=0.05)
    assert r["consistent"], r


def test_papers_cases_are_found_through_the_registry():
    """daneshmand2021's figure judges bring their own cases; the core has none of a paper's."""
    from theory.calibration import CASES, paper_cases

    assert {c.name for c in paper_cases()} == {"decay", "phase", "radius"}
    assert not {c.name for c in CASES} & {c.name for c in paper_cases()}


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


def test_the_off_centre_limit_sits_inside_the_band():
    """The unmodelled w^-2 term biases the fitted limit by 60% of the band (exact means)."""
    from theory.calibration.cases import _LIM_TOL, _WIDTHS, _w2_term

    w = np.asarray(_WIDTHS, float)
    fit = stats.limit(w, 1 + 0.5 / w + _w2_term() / w**2, 1 / np.sqrt(w))
    assert float(fit.coef[0]) - 1 == pytest.approx(0.6 * _LIM_TOL)


@pytest.mark.parametrize("level", [0.2, 0.02])
def test_vectorized_tests_reject_where_the_judges_tests_do(level):
    """Each rate row's vectorized test rejects in each tail at ``level`` exactly where
    theory.stats's one-sided p-value falls below 2 ``level`` (a test puts half its level in
    each tail)."""
    rng = np.random.default_rng(1)
    n = stats.MIN_REPLICATES
    x = rates.draw("lognormal, sd of log 0.5", rng, (60, n)).astype(float)
    y = rng.standard_normal((60, n))
    ones = [stats.estimate(r) for r in x]
    diffs = [stats.difference(a, b) for a, b in zip(x, y)]
    for got, ests in ((rates.one_sample_rejects(x, level), ones), (rates.welch_rejects(x, y, level), diffs)):
        want = [sum(e.p_value(0.0, side) < 2 * level for e in ests) for side in ("upper", "lower")]
        assert got.tolist() == want and sum(want) > 0


def test_vectorized_median_test_is_the_judges_interval():
    """The median row counts, in each tail at ``level``, the samples whose
    theory.stats.median_difference interval at 2 ``level`` lies above or below 0."""
    rng = np.random.default_rng(4)
    x, y = rng.standard_normal((400, 32)), 4 * rng.standard_normal((400, 32))
    got = rates.median_rejects(x, y, 0.05)
    ivs = [stats.median_difference(a, b, 0.1) for a, b in zip(x, y)]
    assert got.tolist() == [sum(r.lo > 0 for r in ivs), sum(r.hi < 0 for r in ivs)] and got.sum() > 0


@pytest.mark.parametrize("model", ["exponent", "limit"])
def test_vectorized_fits_are_the_judges_fits(model):
    rng = np.random.default_rng(2)
    P = stats.MIN_REPLICATES if model == "limit" else stats.MIN_POINT_REPLICATES  # a limit needs a mean test's
    x = rates.draw("chi-square, 1 d.o.f.", rng, (40, 5, P)).astype(float)
    w = np.array([8.0, 16, 32, 64, 128])
    got = rates.fit_rejects(x, 0.1, model)
    up = lo = 0
    for noise in x:
        if model == "exponent":
            y = w[:, None] ** -0.5 * (1 + noise / 4)
            f, i, truth = stats.power_law(w, y.mean(-1), y.std(-1, ddof=1) / math.sqrt(P), P - 1), 1, -0.5
        else:
            y = 1 + 1 / w[:, None] + noise / (4 * np.sqrt(w[:, None]))
            f, i, truth = stats.limit(w, y.mean(-1), y.std(-1, ddof=1) / math.sqrt(P), point_df=P - 1), 0, 1.0
        a, b = f.interval(i, 0.2)
        up, lo = up + (a > truth), lo + (b < truth)
    assert got.tolist() == [up, lo]


def test_exact_rows_are_at_most_their_level():
    """Clopper-Pearson and empirical-Bernstein limits keep their level by construction;
    the exact rates say by how much."""
    for row in (rates.measure_row("exact binomial interval", "Bernoulli", 50, level=1e-3),
                rates.measure_row("empirical-Bernstein limit", "Bernoulli", 50, level=1e-3)):
        assert row["met"] and 0 <= row["rate"] <= 1e-3 and 0 < row["worst_p"] < 1


def test_a_rate_row_counts_both_tails_and_meets_when_their_sum_is_within_the_guarded_level():
    """A row meets the claim's alpha when both tails together reject at most ALPHA_GUARD
    times the level the test runs at (a rate between the level and that multiple meets it;
    one above it does not)."""
    from theory.stats import ALPHA_GUARD

    row = rates.measure_row("one-sample mean", "chi-square, 1 d.o.f.", 30, 20000, level=0.02)
    assert row["upper"] + row["lower"] == round(row["rate"] * 20000) and row["lower"] > row["upper"]  # right skew
    assert row["met"] == (row["rate"] <= ALPHA_GUARD * 0.02) and row["interval"][0] < row["rate"] < row["interval"][1]
    assert ALPHA_GUARD == 2 and 0.02 < row["rate"] <= 0.04 and row["met"]  # 1.7x its level at 30 skewed replicates


def test_jobs_do_not_change_the_numbers(tmp_path):
    """Calibration on 2 processes gives the rows of a serial run, in the same order."""
    cases = [CASE["mean"]]
    few = (("one-sample mean", "Gaussian", 20), ("fitted limit", "Gaussian", 20),
           ("exact binomial interval", "Bernoulli", 20))

    def strip(d):
        return [{k: v for k, v in r.items() if k != "seconds"} for r in d["judges"]["rows"] + d["rates"]["rows"]]

    kw = dict(reseeds=4, cases=cases, progress=False, rate_reseeds=500, rate_rows=few)
    assert strip(run_calibration(tmp_path / "a", jobs=1, **kw)) == strip(run_calibration(tmp_path / "b", jobs=2, **kw))


def _blas_threads():
    from threadpoolctl import threadpool_info

    return sorted({i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"})


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_workers_run_one_blas_thread_whatever_the_start_method(monkeypatch, method):
    """The workers' initializer limits BLAS to one thread, also where a worker starts bare
    (spawn, as on macOS, or forkserver, Python 3.14's default on Linux)."""
    import functools
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from simulations.core.backend import available_cores
    from theory.calibration import measure

    if available_cores() < 2:
        pytest.skip("one core: BLAS runs one thread anyway, so the limit cannot be seen")
    monkeypatch.setattr(measure, "ProcessPoolExecutor",
                        functools.partial(ProcessPoolExecutor, mp_context=multiprocessing.get_context(method)))
    assert measure.map_tasks(_blas_threads, [()] * 2, 2, "x", progress=False) == [[1], [1]]


def test_jobs_must_be_positive():
    from theory.calibration.measure import map_tasks

    with pytest.raises(ValueError, match="jobs must be an integer >= 1"):
        map_tasks(print, [()], 0, "x", progress=False)


def test_sections_keep_each_other_and_record_the_code(tmp_path, monkeypatch):
    """A run of the judges keeps the recorded rates (and the reverse); a run of some cases
    keeps the other cases' rows at the same alpha and reseeds, each with the commit it was
    measured at; each section records the commit it was measured at, taken before it ran."""
    import importlib

    from tests.support.moving_git import START, moving_git_state

    (tmp_path / "calibration.json").write_text(json.dumps({"rates": "recorded"}))
    data = run_calibration(tmp_path, reseeds=2, cases=[CASE["mean"]], progress=False, rates=False)
    assert data["rates"] == "recorded" and set(data["measured_at"]["judges"]) == {"commit", "dirty"}
    first = data["measured_at"]["judges"]
    with monkeypatch.context() as m:  # the next two runs are measured at commits c and d (first: the real one)
        runs = iter({"commit": c * 40, "dirty": False} for c in "cd")
        m.setattr(importlib.import_module("simulations.core.provenance"), "state_since", lambda start=None: next(runs))
        data = run_calibration(tmp_path, reseeds=2, cases=[CASE["bound"]], progress=False, rates=False,
                               keep_other_cases=True)
        assert [(r["case"], r.get("measured_at")) for r in data["judges"]["rows"]] == [("mean", first)] * 3 + [
            ("bound", None)] * 2  # kept rows keep theirs; new rows go with the section's
        data = run_calibration(tmp_path, reseeds=2, cases=[CASE["comparison"]], progress=False, rates=False,
                               keep_other_cases=True)  # chained: rows kept twice still name the first run
        assert [(r["case"], r.get("measured_at")) for r in data["judges"]["rows"]] == [("mean", first)] * 3 + [
            ("bound", {"commit": "c" * 40, "dirty": False})] * 2 + [("comparison", None)] * 2
        assert data["measured_at"]["judges"]["commit"] == "d" * 40
    with pytest.raises(ValueError, match="run every case"):
        run_calibration(tmp_path, reseeds=3, cases=[CASE["bound"]], progress=False, rates=False, keep_other_cases=True)
    moving_git_state(monkeypatch)
    data = run_calibration(tmp_path, progress=False, judges=False, rate_reseeds=10,
                           rate_rows=(("one-sample mean", "Gaussian", 20),))
    assert data["measured_at"]["rates"] == {"commit": START["commit"], "dirty": True}
    assert len(data["judges"]["rows"]) == 7
