"""Run settings are validated with messages naming the setting; unknown ids list the closest."""
import pytest

from theory.core import OptionError, RunContext, get


@pytest.mark.parametrize("kwargs,option", [({"scale": 0.0}, "scale"), ({"scale": float("inf")}, "scale"),
                                           ({"seed": -1}, "seed"), ({"seed": 1.5}, "seed"),
                                           ({"backend": "jax"}, "backend"), ({"dps": 5}, "dps"),
                                           ({"claim_alpha": 0.7}, "claim_alpha")])
def test_bad_settings_name_the_setting(kwargs, option):
    with pytest.raises(OptionError, match=option) as e:
        RunContext(**kwargs)
    assert e.value.option == option


def test_unknown_claim_lists_the_closest_ids():
    with pytest.raises(KeyError, match="closest: arpit2019.thm1.monte_carlo"):
        get("arpit2019.thm1.montecarlo")


def test_host_stream_is_numpy_float64_and_names_the_stream():
    """A host-side draw (footnote 2's Haar V') names the same stream as ctx.stream with
    the same parts, on numpy in float64 whatever the run's backend is."""
    import numpy as np

    ctx = RunContext(seed=4)
    host = ctx.host_stream("a", "b")
    assert host.xp is np and host.dtype is np.float64 and host.key == ctx.stream("a", "b").key
    np.testing.assert_array_equal(host.normal((3,)), ctx.stream("a").child("b").normal((3,)))
