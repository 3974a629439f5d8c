"""The command line: readable evidence, filters, and one-line errors with exit status 2."""
import json

import pytest

from theory.cli import main


def test_list_filters_by_paper_and_verdict(capsys):
    assert main(["list", "--paper", "arpit2019", "--verdict", "fails"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(x.startswith("arpit2019.") and x.endswith("fails") for x in lines)


def test_check_renders_the_evidence_as_text_and_json(capsys):
    assert main(["check", "arpit2019.thm3.range"]) == 0
    text = capsys.readouterr().out
    assert "Verdict: holds (recorded: holds)" in text and 'Rerun: pytest "theory/catalogue.py::arpit2019.thm3.range"' in text
    assert main(["check", "arpit2019.thm3.range", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "holds"


@pytest.mark.parametrize("argv,message", [
    (["check", "arpit2019.thm3.rnage"], "claim id 'arpit2019.thm3.rnage' is not in the catalogue; closest: arpit2019.thm3.range"),
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
    for extra in (["--claim", "arpit2019.thm3.range"], ["--workers", "0"], ["--scheduler", ""], ["--no-plots"]):
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
