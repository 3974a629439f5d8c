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
    (["calibrate", "--stability", "--judges-only"],
     "choose one of --sensitivity, --stability, --judges-only, --counts-only, --welch-only and --deep-only"),
    (["calibrate", "--claim", "daneshmand2021.fig1.vanilla_rises"], "--claim goes with --stability or --sensitivity"),
    (["calibrate", "--stability", "--paper", "arpit2019", "--claim", "daneshmand2021.fig1.vanilla_rises"],
     "choose one of --paper and --claim"),
    (["calibrate", "--stability", "--claim", "arpit2019.thm3.range"], "must be Monte-Carlo claims"),
    (["calibrate", "--judges-only", "--welch-only"],
     "choose one of --sensitivity, --stability, --judges-only, --counts-only, --welch-only and --deep-only"),
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


def test_calibrate_judges_only_keeps_the_recorded_tail_rates(tmp_path, monkeypatch):
    """``--judges-only`` measures the cases and leaves the tail sections as recorded."""
    import theory.calibration as calibration

    real = calibration.run_calibration
    few = tuple(c for c in calibration.CASES if c.name == "mean")
    monkeypatch.setattr(calibration, "run_calibration", lambda out, **kw: real(out, **{**kw, "reseeds": 2, "cases": few}))
    (tmp_path / "calibration.json").write_text(json.dumps({"tails": "recorded", "tails_is": "recorded"}))
    assert main(["calibrate", "--judges-only", "--jobs", "1", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "calibration.json").read_text())
    assert data["tails"] == data["tails_is"] == "recorded" and len(data["judges"]["rows"]) == len(few[0].truths)


def test_calibrate_counts_only_keeps_every_other_section(tmp_path, monkeypatch, capsys):
    """``--counts-only`` measures the direct tail counts, records their code and leaves
    the rest as recorded."""
    import theory.calibration.tails as tails

    real = tails.run_tails
    monkeypatch.setattr(tails, "run_tails", lambda **kw: real(sizes=(25,), levels=((1e-2, 2e4),), **kw))
    (tmp_path / "calibration.json").write_text(json.dumps({"judges": "recorded", "tails_is": "recorded",
                                                          "measured_at": {"judges": "recorded"}}))
    assert main(["calibrate", "--counts-only", "--jobs", "1", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "calibration.json").read_text())
    assert data["judges"] == data["tails_is"] == data["measured_at"]["judges"] == "recorded"
    assert [(r["n"], r["alpha"], r["reseeds"]) for r in data["tails"]] == [(25, 1e-2, 800)]
    assert "tails" in data["measured_at"] and "worst at" in capsys.readouterr().out


def test_calibrate_welch_only_keeps_every_other_section(tmp_path, monkeypatch, capsys):
    """``--welch-only`` measures the Welch far-tail rows and leaves the rest as recorded."""
    import theory.calibration.tails_welch as tails_welch

    real = tails_welch.run_tails_welch
    monkeypatch.setattr(tails_welch, "run_tails_welch",
                        lambda **kw: real(sizes=(25,), levels=(1e-4,), reseeds=200, **kw))
    (tmp_path / "calibration.json").write_text(json.dumps({"judges": "recorded", "tails_is": "recorded"}))
    assert main(["calibrate", "--welch-only", "--jobs", "1", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "calibration.json").read_text())
    assert data["judges"] == data["tails_is"] == "recorded"
    assert [(r["n"], r["control"]) for r in data["tails_welch"]] == [(25, False), (25, True)]
    assert "tails_welch" in data["measured_at"] and "worst" in capsys.readouterr().out


def test_calibrate_deep_only_keeps_every_other_section(tmp_path, monkeypatch, capsys):
    """``--deep-only`` measures the rows below a claim's level; a proposal that does not
    reach the critical value is kept as such, not raised."""
    import theory.calibration.tails_deep as tails_deep

    real = tails_deep.run_tails_deep
    monkeypatch.setattr(tails_deep, "run_tails_deep", lambda **kw: real(sizes=(25,), levels=(1e-6,), reseeds=200, **kw))
    (tmp_path / "calibration.json").write_text(json.dumps({"judges": "recorded", "tails_welch": "recorded"}))
    assert main(["calibrate", "--deep-only", "--jobs", "1", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "calibration.json").read_text())
    assert data["judges"] == data["tails_welch"] == "recorded" and "tails_deep" in data["measured_at"]
    assert [(r["n"], r["control"]) for r in data["tails_deep"]] == [(25, False), (25, True)]
    assert all("truth" in data["tails_deep"][1][k] for k in ("both_t", "welch_t"))
    assert "of the 2 lognormal cells usable" in capsys.readouterr().out
