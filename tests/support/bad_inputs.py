"""The bad-input probes of issue 40: the two command lines (``python -m theory``,
``python -m simulations.figures``), the pytest options and the public simulators, each
with what a clean answer is, and a runner that sorts every answer into one of

- ``clean``: a one-line error naming the option or parameter (exit status 2 from a
  command line, 4 from pytest, an exception from a simulator);
- ``correct``: the input is valid and the run did what it should (for an expensive
  run: it said its estimate before it started);
- ``traceback``: a traceback, or an error that does not name what was wrong, spans
  several lines or has another exit status;
- ``silent``: bad input accepted without a word (a run that went on, NaN out of NaN in,
  a selection of nothing), or a valid run that went wrong;
- ``unannounced``: an expensive run that started without saying what it would cost.

Run the table: ``python -m tests.support.bad_inputs`` (counts, and one line per probe
that is not clean or correct; ``-v`` every probe; ``--root DIR`` probes the code in DIR,
e.g. an export of main). The calibrate subcommand is left out (it is being rewritten).
The tests run the same table (tests/theory/test_bad_inputs.py), pytest's probes through
pytester in process, the few expensive ones through a subprocess.
"""
from __future__ import annotations

import contextlib
import io
import math
import os
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

OUTCOMES = ("clean", "correct", "traceback", "silent", "unannounced")
ROOT = Path(__file__).resolve().parents[2]
#: A Monte-Carlo claim that decides in a fraction of a second at the default scale.
CHEAP_MC = "daneshmand2021.fig1.vanilla_rises"
#: An exact claim (no sampling).
EXACT = "arpit2019.thm3.range"
#: What an announced estimate looks like (``theory.core.cost``).
ANNOUNCED = re.compile(r"estimated .*(second|minute|hour|day|year)|about [\d,.e+]+ blocks")
#: Seconds an expensive run may take to say its estimate (imports included).
ANNOUNCE_WITHIN = 60.0
#: Seconds a simulator probe may run (a hang is a silent answer).
HANG_AFTER = 30


@dataclass(frozen=True)
class Probe:
    """One bad (or valid) input. ``call`` is an argv (command lines, pytest) or a
    function of a fresh numpy backend (simulators). An error is expected when ``names``
    is given: its message must hold one of them; otherwise a run, which ``check``
    (given the output text, or a simulator's return value) must accept. ``announce``
    marks an expensive run: it must state its estimate before it starts, or refuse in
    one line. ``files`` are written under ``{tmp}`` (a fresh directory) first; ``{tmp}``
    in an argv names it."""

    id: str
    surface: str
    call: Any
    names: tuple = ()
    check: Callable | None = None
    announce: bool = False
    files: dict = field(default_factory=dict)

    @property
    def expects_error(self) -> bool:
        return bool(self.names)


@dataclass
class Answer:
    probe: Probe
    outcome: str
    text: str

    def line(self) -> str:
        first = next((x for x in self.text.strip().splitlines()[-1:]), "")
        return f"{self.outcome:11s} {self.probe.surface:9s} {self.probe.id}: {first[:150]}"


# --- the table -------------------------------------------------------------------------

def _cupy() -> bool:
    from simulations import cupy_available

    return cupy_available()


_REPORT = {"paper_checks.json": ("copy", "paper_checks.json")}
_GOOD_REPORT = {"good/paper_checks.json": ("copy", "paper_checks.json"),
                "good/calibration.json": ("copy", "calibration.json")}


def _theory(id, argv, names=(), check=None, files=None, announce=False):
    return Probe(id, "theory", tuple(argv), tuple(names), check, announce, files or {})


def _has(*parts):
    return lambda text: all(p in text for p in parts)


THEORY = [
    _theory("seed negative", ["--seed", "-2", "list"], ["--seed"]),
    _theory("seed not a number", ["--seed", "abc", "list"], ["--seed"]),
    _theory("seed fractional", ["--seed", "1.5", "list"], ["--seed"]),
    _theory("seed huge", ["--seed", "99999999999999999999999", "check", CHEAP_MC], check=_has("Verdict:")),
    _theory("scale zero", ["--mc-scale", "0", "list"], ["--mc-scale"]),
    _theory("scale negative", ["--mc-scale", "-1", "list"], ["--mc-scale"]),
    _theory("scale nan", ["--mc-scale", "nan", "list"], ["--mc-scale"]),
    _theory("scale inf", ["--mc-scale", "inf", "list"], ["--mc-scale"]),
    _theory("scale not a number", ["--mc-scale", "abc", "list"], ["--mc-scale"]),
    _theory("scale 1e308", ["--mc-scale", "1e308", "check", CHEAP_MC], ["--mc-scale"]),
    _theory("scale 1e7", ["--mc-scale", "1e7", "check", CHEAP_MC], ["--mc-scale"], announce=True),
    _theory("scale 1e7 report", ["--mc-scale", "1e7", "report", "--claim", CHEAP_MC, "--no-plots", "--out", "{tmp}"],
            ["--mc-scale"], announce=True, files=_REPORT),
    _theory("scale 1000", ["--mc-scale", "1000", "check", CHEAP_MC], ["--mc-scale"], announce=True),
    _theory("scale tiny", ["--mc-scale", "1e-300", "check", CHEAP_MC], check=_has("Verdict:")),
    _theory("scale 4", ["--mc-scale", "4", "check", CHEAP_MC], check=_has("Verdict:")),
    _theory("backend unknown", ["--backend", "torch", "list"], ["--backend"]),
    _theory("backend upper case", ["--backend", "CUPY", "list"], ["--backend"]),
    _theory("backend cupy", ["--backend", "cupy", "check", CHEAP_MC], ["--backend"]),
    _theory("no subcommand", [], ["list", "cmd", "subcommand"]),
    _theory("unknown subcommand", ["frobnicate"], ["frobnicate"]),
    _theory("unknown option", ["list", "--bogus"], ["--bogus"]),
    _theory("list unknown paper", ["list", "--paper", "nope"], ["paper"]),
    _theory("list empty paper", ["list", "--paper", ""], ["paper"]),
    _theory("list unknown verdict", ["list", "--verdict", "maybe"], ["--verdict"]),
    _theory("list one paper", ["list", "--paper", "arpit2019"], check=_has("arpit2019.")),
    _theory("check no id", ["check"], ["claim_id", "CLAIM_ID"]),
    _theory("check typo", ["check", "arpit2019.thm3.rnage"], ["claim id"]),
    _theory("check empty id", ["check", ""], ["claim id"]),
    _theory("check paper key", ["check", "arpit2019"], ["claim id"]),
    _theory("check json", ["check", EXACT, "--json"], check=_has('"verdict": "holds"')),
    _theory("report unknown claim", ["report", "--claim", "nope", "--out", "{tmp}"], ["claim id"]),
    _theory("report unknown paper", ["report", "--paper", "nope", "--out", "{tmp}"], ["paper"]),
    _theory("report paper and claim", ["report", "--paper", "arpit2019", "--claim", EXACT], ["--claim", "--paper"]),
    _theory("report workers negative", ["report", "--workers", "-3", "--claim", EXACT, "--out", "{tmp}"],
            ["--workers"], files=_REPORT),
    _theory("report workers zero", ["report", "--workers", "0", "--claim", EXACT, "--out", "{tmp}"], ["--workers"],
            files=_REPORT),
    _theory("report workers not a number", ["report", "--workers", "abc"], ["--workers"]),
    _theory("report scheduler empty", ["report", "--scheduler", "", "--claim", EXACT, "--out", "{tmp}"],
            ["--scheduler"], files=_REPORT),
    _theory("report scheduler malformed", ["report", "--scheduler", "nowhere", "--claim", EXACT, "--out", "{tmp}"],
            ["--scheduler"], files=_REPORT),
    _theory("report out is a file", ["report", "--claim", EXACT, "--no-plots", "--out", "{tmp}/file.txt"], ["--out"],
            files={"file.txt": "not a directory"}),
    _theory("report into a malformed report", ["report", "--claim", EXACT, "--no-plots", "--out", "{tmp}"],
            ["paper_checks.json"], files={"paper_checks.json": '{"claims": 3}'}),
    _theory("report into a file not json", ["report", "--paper", "arpit2019", "--no-plots", "--out", "{tmp}"],
            ["paper_checks.json"], files={"paper_checks.json": "{not json"}),
    _theory("report other settings", ["--seed", "3", "report", "--claim", EXACT, "--no-plots", "--out", "{tmp}"],
            ["settings"], files=_REPORT),
    _theory("render-only no report", ["report", "--render-only", "--out", "{tmp}"], ["paper_checks.json"]),
    _theory("render-only not json", ["report", "--render-only", "--out", "{tmp}"], ["paper_checks.json"],
            files={"paper_checks.json": "{not json"}),
    _theory("render-only json list", ["report", "--render-only", "--out", "{tmp}"], ["paper_checks.json"],
            files={"paper_checks.json": "[]"}),
    _theory("render-only missing keys", ["report", "--render-only", "--out", "{tmp}"], ["paper_checks.json"],
            files={"paper_checks.json": '{"claims": [{"id": "x"}]}'}),
    _theory("render-only claims not a list", ["report", "--render-only", "--out", "{tmp}"], ["paper_checks.json"],
            files={"paper_checks.json": '{"provenance": {}, "context": {}, "claims": "abc"}'}),
    _theory("render-only with seed", ["--seed", "3", "report", "--render-only", "--out", "{tmp}"], ["--seed"]),
    _theory("render-only", ["report", "--render-only", "--out", "{tmp}/good"], check=_has("nothing evaluated"),
            files=_GOOD_REPORT),
]


def _figures(id, argv, names=(), check=None, files=None):
    out = [] if "--out" in argv else ["--out", "{tmp}"]
    return Probe(id, "figures", tuple(argv) + tuple(out), tuple(names), check, False, files or {})


def _provenance_has(*parts):
    def check(text, tmp):
        import json

        prov = json.loads((Path(tmp) / "daneshmand2021_fig1_provenance.json").read_text())
        return all(p in prov["command"] for p in parts)
    check.needs_tmp = True
    return check


_F1 = ["--only", "daneshmand2021_fig1", "--quick"]
FIGURES = [
    _figures("unknown figure", ["--only", "nope"], ["--only"]),
    _figures("seed negative", ["--seed", "-1", *_F1], ["--seed"]),
    _figures("seed not a number", ["--seed", "abc", *_F1], ["--seed"]),
    _figures("backend unknown", ["--backend", "torch", *_F1], ["--backend"]),
    _figures("backend cupy", ["--backend", "cupy", *_F1], ["--backend"]),
    _figures("set without =", ["--set", "runs", *_F1], ["--set"]),
    _figures("set without name", ["--set", "=3", *_F1], ["--set"]),
    _figures("set unknown name", ["--set", "nope=3", *_F1], ["nope"]),
    _figures("set seed", ["--set", "seed=3", *_F1], ["--seed", "seed"]),
    _figures("set runs zero", ["--set", "runs=0", *_F1], ["runs"]),
    _figures("set runs text", ["--set", "runs=abc", *_F1], ["runs"]),
    _figures("set width negative", ["--set", "d=-4", *_F1], ["d must", "d "]),
    _figures("set width below batch", ["--set", "d=1", *_F1], ["d must"]),
    _figures("set eps nan", ["--set", "eps=nan", *_F1], ["eps"]),
    _figures("set depth fractional", ["--set", "depth=2.5", *_F1], ["depth"]),
    _figures("set depth negative", ["--set", "depth=-1", "--only", "daneshmand2021_fig2", "--quick"], ["depth"]),
    _figures("set widths negative", ["--set", "widths=(8,-1)", "--only", "daneshmand2021_fig2", "--quick"],
             ["widths"]),
    _figures("set dtype unknown", ["--set", "dtype=float16", "--only", "daneshmand2021_fig2", "--quick"], ["dtype"]),
    _figures("set factor negative", ["--set", "factor=-0.1", "--only", "daneshmand2021_fig3", "--quick"], ["factor"]),
    _figures("set workers zero", ["--set", "workers=0", "--only", "arpit2019_fig1", "--quick"], ["workers"]),
    _figures("set inputs zero", ["--set", "n_inputs=0", "--only", "arpit2019_fig1", "--quick"], ["n_inputs"]),
    _figures("set setups not a multiple", ["--set", "setups=3", "--only", "defazio_bottou_fig1", "--quick"],
             ["setups"]),
    _figures("set batch zero", ["--set", "batch=0", "--only", "defazio_bottou_fig2", "--quick"], ["batch"]),
    _figures("set size too small", ["--set", "size=10", "--only", "defazio_bottou_fig1", "--quick"], ["size"]),
    _figures("out under a file", [*_F1, "--out", "{tmp}/file.txt/sub"], ["--out"], files={"file.txt": "x"}),
    _figures("quick run", _F1, check=_provenance_has("--quick", "--only daneshmand2021_fig1")),
    _figures("quick run with a setting", ["--set", "runs=3", *_F1], check=_provenance_has("--quick", "--set runs=3")),
]


def _pytest(id, args, names=(), check=None, announce=False):
    return Probe(id, "pytest", tuple(args), tuple(names), check, announce)


PYTEST = [
    _pytest("scale zero", ["--mc-scale", "0"], ["--mc-scale"]),
    _pytest("scale nan", ["--mc-scale", "nan"], ["--mc-scale"]),
    _pytest("scale not a number", ["--mc-scale", "abc"], ["--mc-scale"]),
    _pytest("scale negative", ["--mc-scale=-1"], ["--mc-scale"]),
    _pytest("scale inf", ["--mc-scale", "inf"], ["--mc-scale"]),
    _pytest("scale 1e308", ["--mc-scale", "1e308", "-k", CHEAP_MC], ["--mc-scale"]),
    _pytest("scale 1e7", ["--mc-scale", "1e7", "-k", CHEAP_MC], ["--mc-scale"], announce=True),
    _pytest("scale 1000", ["--mc-scale", "1000", "-k", CHEAP_MC], ["--mc-scale"], announce=True),
    _pytest("seed negative", ["--paperchecks-seed=-1"], ["--paperchecks-seed"]),
    _pytest("seed not a number", ["--paperchecks-seed", "abc"], ["--paperchecks-seed"]),
    _pytest("seed fractional", ["--paperchecks-seed", "1.5"], ["--paperchecks-seed"]),
    _pytest("backend unknown", ["--backend", "torch"], ["--backend"]),
    _pytest("backend cupy", ["--backend", "cupy", "-k", CHEAP_MC], ["--backend"]),
    _pytest("marker typo", ["-m", "arpit2091"], ["arpit2091"]),
    _pytest("marker typo negated", ["-m", "not arpit2091", "--co"], ["arpit2091"]),
    _pytest("marker typo in a disjunction", ["-m", "arpit2019 or dansehmand2021", "--co"], ["dansehmand2021"]),
    _pytest("strict classes unknown", ["--paperchecks-strict-classes", "nope"], ["--paperchecks-strict-classes"]),
    _pytest("marker", ["-m", "zeroinit2019 and not slow", "--co"], check=_has("zeroinit2019.")),
]


# Simulators: each call gets a fresh numpy backend ``be``.
def _nan(shape, at=0, value=math.nan):
    import numpy as np

    a = np.random.default_rng(0).standard_normal(shape)
    a.flat[at] = value
    return a


def _ok(shape):
    import numpy as np

    return np.random.default_rng(1).standard_normal(shape)


def _wn(be):
    import simulations as S

    return S.build_mlp(be, [4, 8, 3], "proposed_orthogonal", n_networks=2)


def _relu(be):
    import simulations as S

    return S.draw_mlp(be, [4, 6, 3], "he_fan_in", n_networks=2)


def _resnet(be):
    import simulations as S

    return S.draw_branch_resnet(be, 4, 3, 2, "he", n_networks=2)


def _classifier(be):
    import simulations as S

    x, y = S.synthetic_batch(be, 2, 8, 4, 3)
    return S.build_classifier(be, "baseline", 4, 2, 3, n_networks=2), x, y


def _chain_start(be):
    import simulations as S

    return S.initial_representation(be, "gaussian", 2, 8, 3)


def _sim(id, fn, names=(), check=None):
    return Probe(id, "simulator", fn, tuple(names), check)


def _finite(value) -> bool:
    import numpy as np

    from simulations import to_host

    arrays = value if isinstance(value, (list, tuple)) else [value]
    return all(np.isfinite(to_host(a)).all() for a in arrays if a is not None)


def _import():
    import simulations as S

    return S


S_ = _import
SIMULATORS = [
    _sim("backend unknown", lambda be: S_().get_backend("torch"), ["backend must"]),
    _sim("backend seed negative", lambda be: S_().get_backend(seed=-1), ["seed must"]),
    _sim("backend dtype", lambda be: S_().get_backend(dtype="float16"), ["dtype must"]),
    _sim("backend cupy", lambda be: S_().get_backend("cupy"), ["backend"]),
    _sim("stream key negative", lambda be: be.child(-1), ["key parts must"]),
    _sim("wn widths zero", lambda be: S_().build_mlp(be, [4, 0, 3], "he"), ["widths[1] must"]),
    _sim("wn widths short", lambda be: S_().build_mlp(be, [4], "he"), ["widths must"]),
    _sim("wn init unknown", lambda be: S_().build_mlp(be, [4, 8], "xavier"), ["init must"]),
    _sim("wn networks zero", lambda be: S_().build_mlp(be, [4, 8], "he", n_networks=0), ["n_networks must"]),
    _sim("wn data missing", lambda be: S_().build_mlp(be, [4, 8], "data_dependent"), ["data"]),
    _sim("wn data nan", lambda be: S_().build_mlp(be, [4, 8], "data_dependent", data=_nan((1, 5, 4))), ["data must"]),
    _sim("wn haar method", lambda be: S_().build_mlp(be, [4, 8], "he", haar_method="qr"), ["haar_method must"]),
    _sim("wn resnet hidden", lambda be: S_().build_resnet(be, [4, 4], [2], [3, 3], "he"), ["hidden"]),
    _sim("wn resnet alpha nan", lambda be: S_().build_resnet(be, [4, 4], [2], [3], "he", alpha=math.nan),
         ["alpha must"]),
    _sim("wn forward nan", lambda be: S_().forward(_wn(be), _nan((2, 5, 4))), ["x must"]),
    _sim("wn forward inf", lambda be: S_().forward(_wn(be), _nan((2, 5, 4), 3, math.inf)), ["x must"]),
    _sim("wn forward width", lambda be: S_().forward(_wn(be), _ok((2, 5, 3))), ["x must"]),
    _sim("wn forward networks", lambda be: S_().forward(_wn(be), _ok((3, 5, 4))), ["x must"]),
    _sim("wn backward nan", lambda be: S_().backward(_wn(be), S_().forward(_wn(be), _ok((2, 5, 4))),
                                                    _nan((2, 5, 3))), ["error must"]),
    _sim("wn backward width", lambda be: S_().backward(_wn(be), S_().forward(_wn(be), _ok((2, 5, 4))),
                                                      _ok((2, 5, 4))), ["error must"]),
    _sim("wn layer nan", lambda be: S_().wn_forward(_wn(be)[0].layer, _nan((2, 5, 4))), ["h must"]),
    _sim("wn layer missing", lambda be: S_().WNLinear(), ["WNLinear needs"]),
    _sim("wn forward", lambda be: S_().forward(_wn(be), _ok((2, 5, 4))).log_norms,
         check=lambda v: v.shape == (2, 5, 3) and not __import__("numpy").isnan(v).any()),
    _sim("relu forward nan", lambda be: S_().mlp_forward(_relu(be), _nan((2, 5, 4))), ["x must"]),
    _sim("relu forward inf", lambda be: S_().mlp_forward(_relu(be), _nan((2, 5, 4), 1, -math.inf)), ["x must"]),
    _sim("relu forward width", lambda be: S_().mlp_forward(_relu(be), _ok((2, 5, 5))), ["x must"]),
    _sim("relu weights nan", lambda be: S_().mlp_forward([_nan((2, 6, 4)), _ok((2, 3, 6))], _ok((2, 5, 4))),
         ["Ws[0] must"]),
    _sim("relu backward nan", lambda be: S_().mlp_backward(_relu(be), S_().mlp_forward(_relu(be), _ok((2, 5, 4))),
                                                          _nan((2, 5, 3))), ["dz must"]),
    _sim("relu forward", lambda be: S_().mlp_forward(_relu(be), _ok((2, 5, 4)))["z"],
         check=lambda v: v.shape == (2, 5, 3) and _finite(v)),
    _sim("relu init unknown", lambda be: S_().draw_mlp(be, [5, 7], "nope"), ["init must"]),
    _sim("weight variance fan-in", lambda be: S_().weight_variance("he_fan_in", 0, 3), ["fan_in must"]),
    _sim("weight variance c", lambda be: S_().weight_variance("geometric", 3, 3, c=-1), ["c must"]),
    _sim("conv kernel larger", lambda be: S_().conv_output_size(3, 5), ["k must"]),
    _sim("conv channels", lambda be: S_().conv2d(_ok((1, 2, 5, 5)), _ok((1, 3, 3, 3))), ["x has", "x must"]),
    _sim("conv nan", lambda be: S_().conv2d(_nan((1, 3, 5, 5)), _ok((1, 3, 3, 3))), ["x must"]),
    _sim("conv stride zero", lambda be: S_().conv2d(_ok((1, 3, 5, 5)), _ok((1, 3, 3, 3)), stride=0), ["stride must"]),
    _sim("conv pad negative", lambda be: S_().conv2d(_ok((1, 3, 5, 5)), _ok((1, 3, 3, 3)), pad=-1), ["pad must"]),
    _sim("conv weight grad nan", lambda be: S_().conv2d_weight_grad(_nan((1, 1, 3, 3)), _ok((1, 3, 5, 5)), 3),
         ["dy must"]),
    _sim("lenet size", lambda be: S_().lenet_spec(size=10), ["size must"]),
    _sim("lenet channels", lambda be: S_().lenet_spec(channels=0), ["channels must"]),
    _sim("net c zero", lambda be: S_().draw_net(be, S_().lenet_spec(), "he_fan_in", c=0), ["c must"]),
    _sim("lenet forward nan", lambda be: S_().net_forward(S_().lenet_spec(), S_().draw_net(be, S_().lenet_spec(),
                                                                                             "geometric"),
                                                          _nan((2, 3, 32, 32))), ["x must"]),
    _sim("gauss-newton nan", lambda be: S_().scaling_vs_hessian(S_().mlp_spec([4, 5, 3]),
                                                                S_().draw_net(be, S_().mlp_spec([4, 5, 3]), "xavier"),
                                                                _nan((6, 4)), _ok((3, 3))), ["x must"]),
    _sim("resnet forward nan", lambda be: S_().resnet_forward(_resnet(be), _nan((2, 5, 4))), ["x must"]),
    _sim("resnet s_out zero", lambda be: S_().resnet_forward(_resnet(be), _ok((2, 5, 4)), s_out=0), ["s_out must"]),

    _sim("resnet backward nan", lambda be: S_().resnet_backward(_resnet(be), S_().resnet_forward(_resnet(be),
                                                                                                 _ok((2, 5, 4))),
                                                                _nan((2, 5, 4))), ["dout must"]),
    _sim("resnet width zero", lambda be: S_().draw_resnet(be, width=0, blocks=2), ["width must"]),
    _sim("resnet inits string", lambda be: S_().draw_resnet(be, 4, 2, inits="he_fan_in"), ["inits must"]),
    _sim("resnet branch depth", lambda be: S_().draw_branch_resnet(be, 4, 2, m=1, scheme="he"), ["m must"]),
    _sim("zeroinit blocks", lambda be: S_().zeroinit_branch_scale(blocks=0, m=2), ["blocks must"]),
    _sim("sgd lr zero", lambda be: S_().sgd_step(_resnet(be), _resnet(be), lr=0), ["lr must"]),
    _sim("sgd grads nan", lambda be: S_().sgd_step(_resnet(be), [[_nan(W.shape) for W in b] for b in _resnet(be)],
                                                   lr=0.1), ["grads[0][0] must"]),
    _sim("chain nan", lambda be: S_().simulate_chain(be, _nan((2, 8, 3)), 3), ["H0 must"]),
    _sim("chain depth", lambda be: S_().simulate_chain(be, _chain_start(be), -1), ["depth must"]),
    _sim("chain variant", lambda be: S_().simulate_chain(be, _chain_start(be), 3, "nope"), ["variant must"]),
    _sim("chain two axes", lambda be: S_().simulate_chain(be, _ok((8, 3)), 3), ["H0 must"]),
    _sim("chain batch above width", lambda be: S_().simulate_chain(be, _ok((1, 4, 6)), 3), ["n must"]),
    _sim("chain start width", lambda be: S_().initial_representation(be, "gaussian", 2, d=2, n=4), ["n must"]),
    _sim("chain start unknown", lambda be: S_().initial_representation(be, "nope", 2, 4, 2), ["start must"]),
    _sim("chain start eps nan", lambda be: S_().initial_representation(be, "aligned", 2, 4, 2, eps=math.nan),
         ["eps must"]),
    _sim("a1 depth zero", lambda be: S_().a1_margin(be, _chain_start(be), 0), ["depth must"]),
    _sim("a1 factor negative", lambda be: S_().a1_margin(be, _chain_start(be), 10, factor=-1), ["factor must"]),
    _sim("a1 chunk zero", lambda be: S_().a1_margin(be, _chain_start(be), 10, chunk=0), ["chunk must"]),
    _sim("gap zero", lambda be: S_().orthogonality_gap(_ok((4, 2)) * 0), ["H must"]),
    _sim("gap nan", lambda be: S_().orthogonality_gap(_nan((4, 2))), ["H must"]),
    _sim("gap from gram nan", lambda be: S_().gap_from_gram(_nan((3, 3))), ["C must"]),
    _sim("batch norm nan", lambda be: S_().batch_norm(_nan((4, 3))), ["M must"]),
    _sim("eq6 batch below width", lambda be: S_().eq6_weight(_ok((4, 3))), ["n (columns of H) must"]),
    _sim("eq6 nan", lambda be: S_().eq6_weight(_nan((3, 4))), ["H must"]),
    _sim("eq6 power nan", lambda be: S_().eq6_weight(_ok((3, 4)), power=math.nan), ["power must"]),
    _sim("pair spectra nan", lambda be: S_().gaussian_pair_singular_values(be, _nan((3,)), d=4), ["lam must"]),
    _sim("pair width zero", lambda be: S_().gaussian_pair_singular_values(be, [0.5, 0.5], d=0), ["d must"]),
    _sim("centered floor", lambda be: S_().centered_gap_floor(1), ["n must"]),
    _sim("chain", lambda be: S_().simulate_chain(be, _chain_start(be), 3).gap,
         check=lambda v: v.shape == (2, 4) and _finite(v)),
    _sim("haar reps zero", lambda be: S_().haar_orthogonal(be, 0, 3, 3), ["reps must"]),
    _sim("haar method", lambda be: S_().haar_orthogonal(be, 2, 3, 3, method="qr"), ["method must"]),
    _sim("rows law", lambda be: S_().sample_rows("cauchy", be, 2, 3, 5), ["law must"]),
    _sim("haar factor block", lambda be: S_().haar_factor(be, 2, 3, 5, block=0), ["block must"]),
    _sim("classifier scheme", lambda be: S_().build_classifier(be, "nope", 4, 2, 3), ["scheme must"]),
    _sim("classifier classes", lambda be: S_().build_classifier(be, "baseline", 4, 2, classes=1), ["classes must"]),
    _sim("classifier lsuv data", lambda be: S_().build_classifier(be, "lsuv", 4, 2, 3), ["data must"]),
    _sim("batch zero", lambda be: S_().synthetic_batch(be, 1, 0, 4, 3), ["batch must"]),
    _sim("loss nan", lambda be: S_().loss_and_grad(_classifier(be)[0], _nan((2, 8, 4)), _classifier(be)[2]),
         ["x must"]),
    _sim("loss labels", lambda be: S_().loss_and_grad(_classifier(be)[0], _classifier(be)[1],
                                                      _classifier(be)[2] + 5), ["labels must"]),
    _sim("hvp direction shapes", lambda be: S_().hvp(*_classifier(be), [_ok((2, 1))]), ["v must"]),
    _sim("hvp direction nan", lambda be: S_().hvp(*_classifier(be), [_nan(p.shape) for p in
                                                                     S_().parameters(_classifier(be)[0])]),
         ["v[0] must"]),
    _sim("power tol zero", lambda be: S_().power_method(be, *_classifier(be), tol=0), ["tol must"]),
    _sim("lanczos iterations", lambda be: S_().lanczos_norm(be, *_classifier(be), max_iter=1), ["max_iter must"]),
    _sim("lsuv nan", lambda be: S_().lsuv_calibrate(_classifier(be)[0], _nan((2, 8, 4))), ["x must"]),
    _sim("softmax nan", lambda be: S_().softmax_xent(_nan((2, 4, 3)), [0, 1, 2, 0]), ["z must"]),
    _sim("softmax labels", lambda be: S_().softmax_xent(_ok((2, 4, 3)), [0, 1, 3, 0]), ["labels must"]),
    _sim("hessian", lambda be: S_().lanczos_norm(be, *_classifier(be))["norm"],
         check=lambda v: v.shape == (2,) and _finite(v)),
    _sim("lenet setups", lambda be: __import__("simulations.relu_nets.lenet_experiment",
                                               fromlist=["x"]).lenet_setups(setups=3), ["setups must"]),
]

PROBES = THEORY + FIGURES + PYTEST + SIMULATORS


# --- running a probe -------------------------------------------------------------------

def _lines(text: str) -> list[str]:
    """The non-empty lines of ``text``, progress bars (tqdm's carriage returns) left out."""
    return [x for x in text.replace("\r", "\n").splitlines() if x.strip() and "it/s]" not in x and "s/it]" not in x]


def _write_files(probe: Probe, tmp: Path) -> None:
    for rel, content in probe.files.items():
        path = tmp / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, tuple) and content[0] == "copy":
            path.write_bytes((ROOT / content[1]).read_bytes())
        else:
            path.write_text(content)


def classify_error(probe: Probe, status_ok: bool, message: str, crashed: bool = False) -> str:
    """A failed run's class: ``clean`` when the status is the documented one and the
    message is one line naming one of the probe's names; ``traceback`` otherwise."""
    lines = _lines(message)
    if crashed or "Traceback" in message or not status_ok or len(lines) != 1:
        return "traceback"
    return "clean" if any(n in lines[0] for n in probe.names) else "traceback"


def _classify_run(probe: Probe, status: int, out: str, err: str, error_status: int, tmp: Path) -> str:
    if status == 0 and "Traceback" not in err:
        if probe.expects_error:
            return "silent"
        ok = probe.check(out, tmp) if getattr(probe.check, "needs_tmp", False) else probe.check(out + err)
        return "correct" if ok else "silent"
    if status == 5 and not _lines(err):  # pytest's "no tests ran", without a word on why
        return "silent"
    if not probe.expects_error:
        return "traceback"
    return classify_error(probe, status == error_status, err)


def _in_process(main, argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(argv))
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            if not isinstance(e.code, (int, type(None))):
                print(e.code, file=sys.stderr)
        except BaseException:  # noqa: BLE001 - a crash is what the probe looks for
            traceback.print_exc(file=sys.stderr)
            status = 1
    return status, out.getvalue(), err.getvalue()


def _argv(probe: Probe, tmp: Path) -> list[str]:
    return [a.replace("{tmp}", str(tmp)) for a in probe.call]


def _command(probe: Probe, tmp: Path) -> list[str]:
    head = {"theory": ["-m", "theory"], "figures": ["-m", "simulations.figures"],
            "pytest": ["-m", "pytest", "theory/catalogue.py", "-p", "no:cacheprovider", "-q"]}[probe.surface]
    return [sys.executable, *head, *_argv(probe, tmp)]


def run_subprocess(probe: Probe, tmp: Path, root: Path = ROOT, timeout: float = 600) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONWARNINGS": "ignore"}
    r = subprocess.run(_command(probe, tmp), cwd=root, env=env, capture_output=True, text=True, timeout=timeout)
    err = r.stderr
    if probe.surface == "pytest":  # pytest writes usage errors to stderr, the rest to stdout
        out = r.stdout
        err = err if r.returncode == 4 else (err + out if r.returncode not in (0, 5) else err)
        return r.returncode, out, err
    return r.returncode, r.stdout, err


def run_announced(probe: Probe, tmp: Path, root: Path = ROOT, within: float = ANNOUNCE_WITHIN) -> Answer:
    """An expensive run: started as a subprocess, it must print its estimate within
    ``within`` seconds (then it is stopped: ``correct``) or refuse in one line (``clean``);
    still running without an estimate: ``unannounced``."""
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONWARNINGS": "ignore"}
    proc = subprocess.Popen(_command(probe, tmp), cwd=root, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in iter(proc.stdout.readline, "")] + [lines.put(None)],
                     daemon=True).start()
    seen, deadline = [], time.monotonic() + within
    try:
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:  # output closed: the process is ending
                proc.wait(timeout=30)
                break
            seen.append(line)
            if ANNOUNCED.search(line) and not re.search(r"error", line, re.I):
                return Answer(probe, "correct", "".join(seen))
        status = proc.poll()
        if status is None:
            return Answer(probe, "unannounced", "".join(seen) + f"(still running after {within:.0f} s, no estimate)")
        proc.wait()
        text = "".join(seen)
        if probe.surface == "pytest":  # one usage-error line among pytest's own
            text = "\n".join(x for x in text.splitlines() if x.startswith("ERROR:")) or text
        expected = 4 if probe.surface == "pytest" else 2
        if status == 0:  # it ran to its end without a word on its cost
            return Answer(probe, "unannounced", text)
        return Answer(probe, classify_error(probe, status == expected, text), text)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


class _Hang(Exception):
    pass


def run_simulator(probe: Probe) -> Answer:
    import numpy as np

    from simulations import get_backend

    def alarm(signum, frame):
        raise _Hang(f"no answer after {HANG_AFTER} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(HANG_AFTER)
    try:
        with np.errstate(all="ignore"):
            value = probe.call(get_backend(seed=0))
    except _Hang as e:
        return Answer(probe, "silent", str(e))
    except Exception as e:  # noqa: BLE001 - any exception is an answer to classify
        text = f"{type(e).__name__}: {e}"
        if not probe.expects_error:
            return Answer(probe, "traceback", text)
        return Answer(probe, classify_error(probe, True, str(e)), text)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    if probe.expects_error:
        return Answer(probe, "silent", f"returned {type(value).__name__}")
    return Answer(probe, "correct" if probe.check(value) else "silent", f"returned {type(value).__name__}")


def run_probe(probe: Probe, root: Path = ROOT, pytest_runner: Callable | None = None) -> Answer:
    """Run one probe and classify its answer. Command lines run in process (the code
    imported from ``root`` when it is first on sys.path); pytest through
    ``pytest_runner(args) -> (status, out, err)`` (default: a subprocess in ``root``);
    expensive runs through a subprocess."""
    if probe.surface == "simulator":
        return run_simulator(probe)
    with tempfile.TemporaryDirectory(prefix="probe-") as name:
        tmp = Path(name)
        _write_files(probe, tmp)
        if probe.announce:
            return run_announced(probe, tmp, root)
        if probe.surface == "pytest":
            status, out, err = (pytest_runner or (lambda args: run_subprocess(probe, tmp, root)))(_argv(probe, tmp))
            return Answer(probe, _classify_run(probe, status, out, err, 4, tmp), err or out)
        if probe.surface == "theory":
            from theory.cli import main
        else:
            from simulations.figures.cli import main
        status, out, err = _in_process(main, _argv(probe, tmp))
        return Answer(probe, _classify_run(probe, status, out, err, 2, tmp), err or out)


def expected_for_this_machine(probe: Probe) -> Probe:
    """The ``backend cupy`` probes are valid where CuPy sees a CUDA device: there they
    must run (to any end without a traceback)."""
    if probe.id == "backend cupy" and _cupy():
        return Probe(probe.id, probe.surface, probe.call, (), lambda *a: True, probe.announce, probe.files)
    return probe


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m tests.support.bad_inputs", description=__doc__.split("\n\n")[0])
    p.add_argument("--root", default=str(ROOT), help="the code to probe (default: this checkout)")
    p.add_argument("--surface", action="append", choices=("theory", "figures", "pytest", "simulator"))
    p.add_argument("-k", dest="match", help="only the probes whose surface and id contain this text")
    p.add_argument("-v", "--verbose", action="store_true", help="one line per probe")
    a = p.parse_args(argv)
    root = Path(a.root).resolve()
    sys.path.insert(0, str(root))
    os.chdir(root)
    counts = dict.fromkeys(OUTCOMES, 0)
    t0 = time.perf_counter()
    chosen = [expected_for_this_machine(q) for q in PROBES if (not a.surface or q.surface in a.surface)
              and (not a.match or a.match in f"{q.surface} {q.id}")]
    for probe in chosen:
        answer = run_probe(probe, root)
        counts[answer.outcome] += 1
        if a.verbose or answer.outcome not in ("clean", "correct"):
            print(answer.line(), flush=True)
    print(f"{len(chosen)} probes in {time.perf_counter() - t0:.0f} s: " + ", ".join(f"{counts[k]} {k}"
                                                                                     for k in OUTCOMES))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
