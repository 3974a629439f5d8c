"""Command line: ``python -m theory list|check|report|calibrate|new`` (also ``paperchecks``).

- ``list [--paper KEY] [--verdict V]``: claim ids with their recorded verdicts;
- ``check ID [--json]``: run one claim and print its evidence (the same text as a
  failing pytest item), or JSON for machines;
- ``report [--paper KEY | --claim ID ...] [--out DIR] [--workers N | --scheduler ADDR]``:
  regenerate paper_checks.md/.json (one paper or some claims merged into the existing report);
  ``report --render-only`` rewrites paper_checks.md from the existing JSON and calibration.json;
- ``calibrate [--rates-only | --judges-only] [--case NAME ...] [--reseeds N]``: count every
  test's false-alarm rate at the level it runs at inside a claim, then measure every
  judge's false alarms and power on synthetic data with known truth through the runner
  (writes calibration.json, read by the report; each part keeps the other's record).
- ``new KEY [--dir DIR] [--reference TEXT]``: scaffold a paper package of its own
  (:mod:`theory.scaffold`).

Bad input (an unknown claim id, paper or verdict, a scale <= 0, NaN or above the ceiling
:data:`~theory.core.context.MAX_SCALE`, a negative seed, ``--backend cupy`` where CuPy
sees no CUDA device, a worker count below 1, a malformed scheduler address, a report file
this version cannot read) gives a one-line error naming the option and exit status 2. A
run above the default scale says its estimated cost first (``theory.core.cost``) and
shows the blocks drawn as they come.
"""
from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack, contextmanager
from pathlib import Path

from .core.context import BACKENDS, DEFAULT_SEED, MAX_SCALE, OptionError, RunContext
from .core.verdicts import Verdict

_OPTION = {"seed": "--seed", "scale": "--mc-scale", "backend": "--backend"}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit status 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="paperchecks", description="Claims checker for deep-network initialization theory.")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of every Monte-Carlo draw (>= 0)")
    p.add_argument("--mc-scale", type=float, default=1.0,
                   help=f"multiply every Monte-Carlo sample budget (> 0 and <= {MAX_SCALE}); above 1 a run says its "
                        "estimated cost first")
    p.add_argument("--backend", default="numpy", choices=BACKENDS)
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    ls = sub.add_parser("list", help="claim ids with their recorded verdicts")
    ls.add_argument("--paper", help="only this paper's claims")
    ls.add_argument("--verdict", choices=[v.value for v in Verdict], help="only claims with this recorded verdict")
    c = sub.add_parser("check", help="run one claim and print its evidence")
    c.add_argument("claim_id")
    c.add_argument("--json", action="store_true", help="print the evidence as JSON")
    r = sub.add_parser("report", help="regenerate paper_checks.md and paper_checks.json")
    r.add_argument("--out", default=".", help="directory of the report (default: here)")
    which = r.add_mutually_exclusive_group()
    which.add_argument("--paper", help="re-evaluate only this paper and merge it into the existing report")
    which.add_argument("--claim", action="append", metavar="ID", help="re-evaluate only this claim (repeatable)")
    where = r.add_mutually_exclusive_group()
    where.add_argument("--workers", type=_jobs, help="draw Monte-Carlo blocks on a local Dask cluster of N workers "
                                                     "(integer >= 1)")
    where.add_argument("--scheduler", type=_address,
                       help="draw Monte-Carlo blocks on the Dask scheduler at this address (HOST:PORT or "
                            "tcp://HOST:PORT)")
    r.add_argument("--no-plots", action="store_true", help="skip the evidence plots")
    r.add_argument("--render-only", action="store_true",
                   help="evaluate nothing: rewrite paper_checks.md from the existing paper_checks.json and "
                        "calibration.json (after a calibration run)")
    k = sub.add_parser("calibrate", help="measure the judges' false-alarm rates and power (writes calibration.json)")
    k.add_argument("--reseeds", type=int, default=None, help="reseeds per judge and truth (default: the suite's)")
    k.add_argument("--out", default=".", help="directory of calibration.json (default: here)")
    part = k.add_mutually_exclusive_group()
    part.add_argument("--judges-only", action="store_true", help="measure only the judges' cases")
    part.add_argument("--rates-only", action="store_true", help="count only the tests' false-alarm rates")
    k.add_argument("--case", action="append", default=None, metavar="NAME",
                   help="only this judges' case (repeatable), merged into the recorded ones")
    k.add_argument("--jobs", type=_jobs, default=None,
                   help="worker processes (integer >= 1; default: the CPUs available); the numbers do not depend on it")
    from .scaffold import add_parser as add_new  # paperchecks new KEY: a paper package of its own

    add_new(sub)
    return p


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}")
    return n


def _address(text: str) -> str:
    """A Dask scheduler address: ``[scheme://]host:port`` with a port in 1..65535."""
    rest = text.split("://", 1)[-1]
    host, _, port = rest.rpartition(":")
    if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"must be a scheduler address HOST:PORT or tcp://HOST:PORT, got {text!r}")
    return text


def _fail(message: str) -> int:
    print(f"paperchecks: error: {message}", file=sys.stderr)
    return 2


def main(argv=None) -> int:
    a = _parser().parse_args(argv)
    if getattr(a, "run", None):  # a subcommand that runs itself (new)
        return a.run(a)
    try:
        ctx = RunContext(seed=a.seed, scale=a.mc_scale, backend=a.backend)
    except OptionError as e:
        return _fail(str(e).replace(e.option, _OPTION.get(e.option, e.option), 1))
    if ctx.backend == "cupy":
        from simulations import cupy_available

        if not cupy_available():
            return _fail("--backend cupy needs CuPy and a CUDA device, and CuPy sees none here (install "
                         "paperchecks[gpu] on a machine with a GPU); --backend must be numpy here")
    from .core import registry

    for key, message in registry.load_errors().items():  # the other papers load and run
        if key != getattr(a, "paper", None):  # that one's error says it
            print(f"paperchecks: warning: {message}; its claims are left out", file=sys.stderr)
    try:
        if a.cmd == "list":
            return _list(a, registry)
        if a.cmd == "check":
            return _check(a, ctx, registry)
        if a.cmd == "calibrate":
            return _calibrate(a)
        return _report(a, ctx, registry)
    except (registry.UnknownClaimError, registry.UnknownPaperError) as e:
        return _fail(str(e))


def _calibrate(a) -> int:
    from simulations.core.backend import available_cores

    from .calibration import all_cases, run_calibration

    cases = all_cases()
    if a.case:
        unknown = sorted(set(a.case) - {c.name for c in cases})
        if unknown:
            return _fail(f"--case must be one of {[c.name for c in cases]}, got {unknown}")
        cases = tuple(c for c in cases if c.name in a.case)
    try:
        data = run_calibration(a.out, reseeds=a.reseeds, cases=cases, jobs=a.jobs or available_cores(),
                               judges=not a.rates_only, rates=not a.judges_only, keep_other_cases=bool(a.case))
    except ValueError as e:
        return _fail(str(e))
    if not a.judges_only:
        rows = data["rates"]["rows"]
        print(f"{sum(r['met'] for r in rows)} of {len(rows)} tests meet their level")
    if not a.rates_only:
        rows = data["judges"]["rows"]
        print(f"{sum(r['consistent'] for r in rows)} of {len(rows)} calibration rows consistent with what is promised")
    return 0


def _list(a, registry) -> int:
    chosen = registry.claims(a.paper) if a.paper is not None else registry.claims()
    for c in chosen:
        if a.verdict is None or c.recorded.value == a.verdict:
            print(f"{c.id:55s} {c.recorded.value}")
    return 0


def _check(a, ctx, registry) -> int:
    from .core import evaluate, render_evidence

    claim = registry.get(a.claim_id)
    with _announced([claim], ctx):
        ev = evaluate(claim, ctx)
    print(json.dumps(ev.to_json(), indent=1) if a.json else render_evidence(claim, ev))
    return 0


@contextmanager
def _announced(claims, ctx, inner=None):
    """Above the default scale: print the run's estimated cost (``theory.core.cost``) to
    stderr before it starts and show the blocks drawn as they come (drawn by ``inner``,
    an executor, or in this process)."""
    from .core import cost
    from .core.runner import set_executor

    if not cost.worth_announcing(ctx.scale):
        yield
        return
    est = cost.estimate(claims, ctx.scale)
    print(cost.announcement(est, ctx.scale), file=sys.stderr, flush=True)
    progress = cost.ProgressExecutor(est.blocks, inner)
    set_executor(progress)
    try:
        yield
    finally:
        set_executor(inner)
        progress.close()


def _render_only(a) -> int:
    from . import report

    try:
        recs = report.render_report(a.out)
    except report.ReportError as e:
        return _fail(f"report --render-only: {e}")
    except json.JSONDecodeError as e:
        return _fail(f"report --render-only: {Path(a.out) / report.REPORT_JSON} is not JSON ({e})")
    except (KeyError, IndexError, TypeError, AttributeError) as e:  # a JSON of another shape than a report's
        what = f"lacks the field {e}" if isinstance(e, KeyError) else f"is not shaped like a report ({e})"
        return _fail(f"report --render-only: {Path(a.out) / report.REPORT_JSON} {what}: regenerate it with "
                     "python -m theory report")
    print(f"{len(recs)} claims rendered from {report.REPORT_JSON} and {report.CALIBRATION_JSON}; nothing evaluated")
    return 0


def _unmergeable(path: Path) -> str | None:
    """Why the report at ``path`` cannot take a partial refresh when it is not shaped
    like a report (a missing one is the merge's own error); None when it is."""
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        return f"{path} cannot be read as JSON ({e}): run a full report"
    claims = data.get("claims") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(data.get("context"), dict) or not isinstance(claims, list) \
            or not all(isinstance(r, dict) and "id" in r for r in claims):
        return f"{path} is not shaped like a report (context and claims with ids): run a full report"
    return None


def _report(a, ctx, registry) -> int:
    from . import report
    from .parallel import block_executor

    if a.render_only:
        evaluating = (a.paper is not None, a.claim, a.workers is not None, a.scheduler is not None, a.no_plots,
                      ctx != RunContext())
        if any(evaluating):
            return _fail("report --render-only evaluates nothing: drop --paper, --claim, --workers, --scheduler, "
                         "--no-plots, --seed, --mc-scale and --backend")
        return _render_only(a)
    out = Path(a.out)
    if out.exists() and not out.is_dir():
        return _fail(f"--out must be a directory, got a file: {out}")
    if a.paper is not None:
        registry.paper(a.paper)
    chosen = [registry.get(cid) for cid in a.claim or ()] or list(registry.claims(a.paper))
    if a.paper is not None or a.claim:
        unreadable = _unmergeable(out / report.REPORT_JSON)
        if unreadable:
            return _fail(unreadable)
    else:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            return _fail(f"--out must be a directory that can be made, got {out} ({e.strerror})")
    with ExitStack() as stack:
        try:
            client = stack.enter_context(block_executor(workers=a.workers, scheduler=a.scheduler))
        except (OSError, TimeoutError, ValueError) as e:
            if a.scheduler is None:
                raise
            return _fail(f"--scheduler: cannot reach a Dask scheduler at {a.scheduler} ({e})")
        inner = client.get_executor(pure=False) if client is not None else None
        try:
            with _announced(chosen, ctx, inner):
                recs = report.write_report(a.out, ctx, paper=a.paper, claim_ids=a.claim, plots=not a.no_plots)
        except (report.PartialRefreshError, report.NoteFieldError) as e:
            return _fail(str(e))
    bad = [x["id"] for x in recs if x["verdict"] != x["recorded_verdict"]]
    print(f"{len(recs)} claims; {len(bad)} differ from the recorded verdict{': ' + ', '.join(bad) if bad else ''}")
    return 1 if bad else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
