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
