"""The rules that turn an interval into a verdict (``theory.verdicts``): against a bound,
strict or not, on either side."""
import pytest

from theory.verdicts import inequality_verdict


@pytest.mark.parametrize("lower,upper,bound,claim,expect", [
    (0.1, 0.2, 0.5, "<=", "holds"), (0.6, 0.7, 0.5, "<=", "fails"), (0.4, 0.6, 0.5, "<=", "inconclusive"),
    (0.6, 0.7, 0.5, ">", "holds"), (0.1, 0.2, 0.5, ">", "fails"), (0.4, 0.6, 0.5, ">=", "inconclusive"),
    (0.5, 0.7, 0.5, ">=", "holds"), (0.5, 0.7, 0.5, ">", "inconclusive"), (0.3, 0.5, 0.5, ">", "fails"),
])
def test_inequality_verdicts(lower, upper, bound, claim, expect):
    assert inequality_verdict(lower, upper, bound, claim).value == expect
