"""The bad-input probes of the public simulators and of the figures command (issue 40):
each gives a one-line error naming the parameter or option and its range (a ValueError
or RuntimeError from a simulator, exit status 2 from the command), or runs correctly. NaN
or infinite arrays are refused by name at every public entry point."""
import pytest

from tests.support import bad_inputs


def _probes(surface):
    return [pytest.param(bad_inputs.expected_for_this_machine(p), id=p.id) for p in bad_inputs.PROBES
            if p.surface == surface]


@pytest.mark.parametrize("probe", _probes("simulator"))
def test_simulator_probe_gets_a_clean_answer(probe):
    answer = bad_inputs.run_probe(probe)
    assert answer.outcome == ("clean" if probe.expects_error else "correct"), answer.text


@pytest.mark.parametrize("probe", _probes("figures"))
def test_figures_command_probe_gets_a_clean_answer(probe):
    """Bad settings are refused before any figure runs; a valid quick run records its
    whole command line (--quick and --set included) in its provenance."""
    answer = bad_inputs.run_probe(probe)
    assert answer.outcome == ("clean" if probe.expects_error else "correct"), answer.text


def test_the_probe_table_can_fail():
    """The classifier is not a rubber stamp: a traceback, a silent run, an error that
    names another parameter and a multi-line error are each told apart from a clean one."""
    probe = bad_inputs.Probe("x", "simulator", None, ("x must",))
    assert bad_inputs.classify_error(probe, True, "x must be finite (found NaN or inf)") == "clean"
    assert bad_inputs.classify_error(probe, True, "matmul: Input operand 1 has a mismatch") == "traceback"
    assert bad_inputs.classify_error(probe, True, "x must be finite\nsecond line") == "traceback"
    assert bad_inputs.classify_error(probe, False, "x must be finite") == "traceback"
    assert bad_inputs.run_simulator(bad_inputs.Probe("nan passes", "simulator", lambda be: 1.0, ("x must",))).outcome \
        == "silent"
