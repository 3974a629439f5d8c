"""Figure 1 of Arpit et al. (2019) run on several threads: the same random numbers as a
serial run (results equal to rounding: BLAS on fewer threads sums in another order), and
a clear error for a bad thread count."""
import numpy as np
import pytest

from simulations.figures import arpit2019_fig1 as fig1

QUICK = {**fig1.DEFAULTS, **fig1.QUICK, "n_networks": 3}


def test_threads_draw_the_same_networks_as_a_serial_run():
    """Only BLAS's summation order may differ: each of the ``layers`` products sums at most
    ``width`` terms, and reordering a sum moves it by at most (terms) x eps relative, so
    the ratios agree to ``width * layers * eps`` (1.9e-12 at these sizes; the layer-0 and
    last-layer ratios are exactly 1 in both, so no absolute slack is needed)."""
    serial = fig1.compute(seed=4, workers=1, **QUICK)
    threaded = fig1.compute(seed=4, workers=3, **QUICK)
    width = max(QUICK["dim"], fig1.WIDTHS["wide"][1])  # hidden widths are drawn from WIDTHS
    layers = max(QUICK["depth"], 2 * QUICK["blocks"])
    rtol = width * layers * np.finfo(np.float64).eps
    assert serial.keys() == threaded.keys()
    for key, value in serial.items():
        assert value.shape == (QUICK["n_networks"], threaded[key].shape[1])
        np.testing.assert_allclose(threaded[key], value, rtol=rtol, atol=0, err_msg=key)


def test_networks_of_a_curve_differ():
    """Each network has its own stream: a keying that reused one stream per curve (or
    per thread) would repeat rows."""
    data = fig1.compute(seed=4, workers=2, **QUICK)
    rows = data["mlp/narrow/he/forward/mean"]
    assert len({tuple(np.round(r, 12)) for r in rows}) == QUICK["n_networks"]


@pytest.mark.parametrize("bad", [0, -1, 1.5, True])
def test_bad_workers_named_in_the_error(bad):
    with pytest.raises(ValueError, match="workers must be an integer >= 1"):
        fig1.compute(seed=0, workers=bad, **QUICK)


def test_default_workers_follow_the_blas_threads(monkeypatch):
    """One network per BLAS thread this process may use, capped at MAX_WORKERS (memory);
    one at a time on CuPy."""
    assert fig1.default_workers("cupy") == 1
    for blas, expected in ((1, 1), (3, min(3, fig1.MAX_WORKERS)), (16, fig1.MAX_WORKERS)):
        monkeypatch.setattr(fig1, "_blas_threads", lambda: blas)
        assert fig1.default_workers("numpy") == expected


def test_side_by_side_splits_the_blas_threads():
    """Inside ``side_by_side(w)`` each network's products get ``blas // w`` BLAS threads
    (at least one); the limit is lifted afterwards."""
    from threadpoolctl import threadpool_info, threadpool_limits

    if not any(info.get("user_api") == "blas" for info in threadpool_info()):
        pytest.skip("threadpoolctl sees no BLAS library here")
    with threadpool_limits(2):
        blas = fig1._blas_threads()  # 2, or 1 on a one-core machine
        with fig1.side_by_side(2):
            assert fig1._blas_threads() == max(1, blas // 2)
        with fig1.side_by_side(1):
            assert fig1._blas_threads() == blas
        assert fig1._blas_threads() == blas
