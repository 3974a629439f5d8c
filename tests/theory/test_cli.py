"""The command line: readable evidence, filters, and one-line errors with exit status 2."""
import json
import sys

import pytest

from theory.cli import main


def test_list_filters_by_paper_and_verdict(capsys):
    assert main(["list", "--paper", "arpit2019", "--verdict", "fails"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(x.startswith("arpit2019.") and x.endswith("fails") for x in lines)


def test_check_renders_the_evidence_as_text_and_json(capsys):
    assert main(["check", "arpit2019.thm3.range"]) == 0
    text = capsys.readouterr().out
    assert "Verdict: holds (recorded: holds)" in text
    assert 'Rerun: pytest "theory/catalogue.py::arpit2019.thm3.range"' in text
    assert main(["check", "arpit2019.thm3.range", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "holds"


@pytest.mark.parametrize("argv,message", [
    (["check", "arpit2019.thm3.rnage"],
     "claim id 'arpit2019.thm3.rnage' is not in the catalogue; closest: arpit2019.thm3.range"),
    (["list", "--paper", "nope"], "paper must be one of"),
    (["--mc-scale", "0", "list"], "--mc-scale must be a finite number > 0, got 0.0"),
    (["--mc-scale", "nan", "list"], "--mc-scale must be a finite number > 0, got nan"),
    (["--seed", "-2", "list"], "--seed must be a non-negative integer, got -2"),
    (["calibrate", "--case", "nope"], "--case must be one of ['mean', 'bound'"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_unknown_option_value_exits_2(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--backend", "torch", "list"])
    assert e.value.code == 2 and len(capsys.readouterr().err.strip().splitlines()) == 1


def test_partial_report_without_a_full_one_is_one_line_and_exit_2(capsys, tmp_path):
    assert main(["report", "--out", str(tmp_path), "--claim", "arpit2019.thm3.range", "--no-plots"]) == 2
    err = capsys.readouterr().err
    assert "run a full report first" in err and len(err.strip().splitlines()) == 1
    (tmp_path / "paper_checks.json").write_text(json.dumps({"context": {"seed": 1}, "claims": []}))
    assert main(["report", "--out", str(tmp_path), "--claim", "arpit2019.thm3.range", "--no-plots"]) == 2
    assert "settings must match" in capsys.readouterr().err


def test_render_only_rewrites_the_markdown_and_nothing_else(capsys, tmp_path):
    """``report --render-only`` evaluates nothing: the markdown is rendered from the JSON
    and calibration.json in --out, the JSON is untouched; evaluation options are refused
    in one line, and so is a directory without a report."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    assert main(["report", "--out", str(tmp_path), "--render-only"]) == 2
    assert "run a full report first" in capsys.readouterr().err
    for name in ("paper_checks.json", "calibration.json"):
        (tmp_path / name).write_bytes((root / name).read_bytes())
    assert main(["report", "--out", str(tmp_path), "--render-only"]) == 0
    assert "nothing evaluated" in capsys.readouterr().out
    assert (tmp_path / "paper_checks.json").read_bytes() == (root / "paper_checks.json").read_bytes()
    md = (tmp_path / "paper_checks.md").read_text()
    assert "## Calibration" in md and "figures/evidence/" not in md  # no plots in tmp_path: none linked
    for extra in (["--claim", "arpit2019.thm3.range"], ["--workers", "2"], ["--scheduler", "tcp://127.0.0.1:8786"],
                  ["--no-plots"], ["--paper", ""]):
        assert main(["report", "--out", str(tmp_path), "--render-only", *extra]) == 2
        err = capsys.readouterr().err
        assert "evaluates nothing" in err and len(err.strip().splitlines()) == 1
    assert main(["--seed", "3", "report", "--out", str(tmp_path), "--render-only"]) == 2
    assert "evaluates nothing" in capsys.readouterr().err
    (tmp_path / "paper_checks.json").write_text("{not json")
    assert main(["report", "--out", str(tmp_path), "--render-only"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_calibrate_judges_only_keeps_the_recorded_rates(tmp_path, monkeypatch, capsys):
    """``--judges-only`` measures the cases and leaves the rates as recorded; ``--case``
    runs some cases and keeps the others' rows; mixing the two parts is refused."""
    import theory.calibration as calibration

    real = calibration.run_calibration
    monkeypatch.setattr(calibration, "run_calibration", lambda out, **kw: real(out, **{**kw, "reseeds": 2}))
    (tmp_path / "calibration.json").write_text(json.dumps({"rates": "recorded"}))
    assert main(["calibrate", "--judges-only", "--case", "mean", "--jobs", "1", "--out", str(tmp_path)]) == 0
    assert main(["calibrate", "--judges-only", "--case", "bound", "--jobs", "1", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "calibration.json").read_text())
    assert data["rates"] == "recorded" and {r["case"] for r in data["judges"]["rows"]} == {"mean", "bound"}
    assert "calibration rows consistent" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        main(["calibrate", "--judges-only", "--rates-only"])
    assert e.value.code == 2


def test_calibrate_rates_only_keeps_the_recorded_cases(tmp_path, monkeypatch, capsys):
    import theory.calibration as calibration

    real = calibration.run_calibration
    monkeypatch.setattr(calibration, "run_calibration", lambda out, **kw: real(
        out, **{**kw, "rate_reseeds": 20, "rate_rows": (("one-sample mean", "Gaussian", 20),)}))
    (tmp_path / "calibration.json").write_text(json.dumps({"judges": "recorded"}))
    assert main(["calibrate", "--rates-only", "--jobs", "1", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "calibration.json").read_text())
    assert data["judges"] == "recorded" and len(data["rates"]["rows"]) == 1 and "rates" in data["measured_at"]
    assert "1 of 1 tests meet their level" in capsys.readouterr().out


# --- the bad-input probes of the command line and of the pytest options (issue 40) ------
from tests.support import bad_inputs  # noqa: E402

pytest_plugins = ["pytester"]


def _pytester_runner(pytester):
    """pytest in process on the real catalogue (an empty theory/catalogue.py in the
    pytester directory collects it)."""
    (pytester.path / "theory").mkdir(exist_ok=True)
    (pytester.path / "theory" / "catalogue.py").write_text("")

    def run(args):
        r = pytester.runpytest("-p", "theory.pytest_plugin", "theory/catalogue.py", "-p", "no:cacheprovider", "-q",
                               *args)
        return int(r.ret), r.stdout.str(), r.stderr.str()
    return run


def _probes(surface, announce):
    return [pytest.param(bad_inputs.expected_for_this_machine(p), id=p.id) for p in bad_inputs.PROBES
            if p.surface == surface and p.announce == announce]


@pytest.mark.parametrize("probe", _probes("theory", False))
def test_command_line_probe_gets_a_clean_answer(probe):
    """Every probe of ``python -m theory`` (bar calibrate, being rewritten) gives a one-line
    error naming the option and its range with exit status 2, or runs correctly."""
    answer = bad_inputs.run_probe(probe)
    assert answer.outcome in ("clean", "correct"), answer.text
    assert answer.outcome == ("clean" if probe.expects_error else "correct"), answer.text


@pytest.mark.parametrize("probe", _probes("pytest", False))
def test_pytest_option_probe_gets_a_clean_answer(probe, pytester):
    """Every probe of the pytest options gives a one-line usage error (exit status 4)
    naming the option and its range, or runs correctly; a mistyped ``-m`` key names
    the known ones instead of selecting nothing."""
    answer = bad_inputs.run_probe(probe, pytest_runner=_pytester_runner(pytester))
    assert answer.outcome == ("clean" if probe.expects_error else "correct"), answer.text


@pytest.mark.parametrize("probe", _probes("theory", True) + _probes("pytest", True))
def test_an_expensive_run_says_its_cost_first_or_is_refused(probe):
    """End to end (a subprocess, stopped once it has spoken): far above the default scale
    a run states its estimate before it starts; above the ceiling it is refused in one line."""
    answer = bad_inputs.run_probe(probe)
    assert answer.outcome in ("clean", "correct"), answer.text
    if answer.outcome == "correct":
        assert bad_inputs.ANNOUNCED.search(answer.text) and "at the last report's timings" in answer.text


def test_a_mistyped_paper_key_names_the_known_keys(pytester):
    status, out, err = _pytester_runner(pytester)(["-m", "arpit2091 and not slow"])
    assert status == pytest.ExitCode.USAGE_ERROR
    assert "'arpit2091' is not a marker" in err and "arpit2019, daneshmand2021, defazio_bottou, zeroinit2019" in err


def test_the_estimate_is_printed_before_the_claims_run(pytester):
    """A serial pytest run above the default scale writes the estimate of the selected
    claims before the first item's status."""
    status, out, _ = _pytester_runner(pytester)(["--mc-scale", "1.5", "-k", "arpit2019.thm3.range"])
    assert status == 0
    lines = out.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("--mc-scale 1.5: up to about"))
    assert "for 1 claim " in lines[at] and at < next(i for i, x in enumerate(lines) if x.startswith("H"))


def test_check_above_the_default_scale_announces_and_shows_progress(capsys, monkeypatch):
    """``check`` at --mc-scale 2 prints the estimate on stderr, and a bar of blocks there
    only when stderr is a terminal (a log gets no progress updates), then the same
    evidence text as any run."""
    import io

    from theory.catalogue import get

    budget = get(bad_inputs.CHEAP_MC).measure.budget
    assert main(["--mc-scale", "2", "check", bad_inputs.CHEAP_MC]) == 0
    captured = capsys.readouterr()
    head = f"--mc-scale 2: up to about {2 * budget} blocks of Monte-Carlo draws for 1 claim ({budget} at"
    assert captured.err.startswith(head)
    assert "Monte-Carlo blocks" not in captured.err and "Verdict:" in captured.out

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stderr", Terminal())
    assert main(["--mc-scale", "2", "check", bad_inputs.CHEAP_MC]) == 0
    assert "Monte-Carlo blocks" in sys.stderr.getvalue()


def test_the_scale_ceiling_is_one_line_in_both_entry_points(capsys):
    assert main(["--mc-scale", "10001", "list"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "paperchecks: error: --mc-scale must be at most 10000 (the ceiling of a run), got 10001"
    assert main(["--mc-scale", "10000", "list", "--paper", "arpit2019"]) == 0


from hypothesis import given  # noqa: E402

from tests.strategies import cli_options  # noqa: E402


@given(cli_options())
def test_any_option_values_give_a_run_or_one_line_naming_a_bad_option(case):
    """Over the global options and ``list``'s: valid values list claims (exit 0); any bad
    value is a one-line error naming one of the bad options (exit 2), never a traceback."""
    import contextlib
    import io

    argv, bad = case
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            status = main(argv)
        except SystemExit as e:
            status = e.code
    if not bad:
        assert status == 0, err.getvalue()
    else:
        lines = err.getvalue().strip().splitlines()
        assert status == 2 and len(lines) == 1 and any(b in lines[0] for b in bad), (argv, err.getvalue())
