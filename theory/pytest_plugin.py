"""pytest plugin: one test item per catalogued claim, whose status is the paper's verdict.
The items of a paper are collected from its claim file (theory/catalogue.py for the
built-in papers, the catalogue module an installed paper's entry point names:
:func:`theory.core.registry.claim_file`), so ``pytest`` in a paper's own repository runs it.
An installed paper that does not load is one failing item of its claim file whose report
is one line (:func:`theory.core.registry.load_errors`), or a line of the summary when
that file is not collected; the other papers' claims run.

Each item reports its verdict as its status: ``H`` holds, ``h`` holds approximately,
``X`` fails as printed (a discrepancy in the paper, confirmed), ``?`` inconclusive
(``-v`` prints the words). An item *fails* (red) only on news (:func:`agrees`): at the
default seed, scale and backend, any move from the verdict recorded in the catalogue;
under another seed, scale or backend, only a contradiction (holds <-> fails). A move
that is not a contradiction there (a decided verdict gone inconclusive, say) is listed
in the terminal summary. The summary lists every claim that fails as printed, by
severity (:mod:`theory.core.severity`), one line each with its corrected claim's
verdict, then the inconclusive ones and the moves.

Exit status: 0 when no item is red; 1 otherwise; with ``--paperchecks-strict``, also 1
when a claim fails as printed in one of the classes of ``--paperchecks-strict-classes``
(default ``result,step``: an author checking their own paper). Bad option values end
the run with a one-line usage error (exit status 4): a seed that is not a non-negative
integer, a scale that is not a finite number in (0, MAX_SCALE], ``--backend cupy``
where CuPy sees no CUDA device, and a ``-m`` expression that names a marker nobody
registered (a mistyped paper key would otherwise select nothing). A run above the
default scale says its estimated cost before the first claim runs (``theory.core.cost``).

Options (declared here; the plugin is loaded from the root conftest and, in any repository, from the
``pytest11`` entry point of the installed package): ``--paperchecks-seed``,
``--mc-scale``, ``--backend``, ``--paperchecks-strict``, ``--paperchecks-strict-classes``.
PYTEST_DONT_REWRITE: this module is left as it is when pytest marks the distribution's
packages for assertion rewriting (an in-process run that imported it already would warn).

Under pytest-xdist with ``--dist loadgroup`` (the project's default) the claims that share
a measurement run on one worker (``xdist_group`` markers), and the groups are handed out
longest first, by the seconds their claims took in the committed report
(``paper_checks.json``; untimed tests follow in collection order), so a two-minute claim
does not start last while the other workers idle (longest-processing-time scheduling).
Only public APIs: the collection is ordered in ``pytest_collection_modifyitems`` and
xdist's own reorder is switched off through its ``--no-loadscope-reorder`` option. A
serial run keeps the catalogue order. pytest 9.2 with pytest-xdist 3.8 loses the group
suffix of the node ids (each worker then measures a group again), so pyproject.toml pins
pytest below 9.2; tests/theory/test_pytest_plugin.py checks the split.
"""
from __future__ import annotations

import warnings

import pytest

from .core.context import DEFAULT_SEED, MAX_SCALE, OptionError, RunContext
from .core.severity import SEVERITIES, STRICT_DEFAULT, parse_classes
from .core.verdicts import Verdict
from .pytest_rules import agrees, at_default, contradicts, group_seconds, longest_first, unknown_markers

_OPTION = {"seed": "--paperchecks-seed", "scale": "--mc-scale", "backend": "--backend"}
_STATUS = {
    Verdict.HOLDS: ("holds", "H", "HOLDS"),
    Verdict.HOLDS_APPROXIMATELY: ("holds approximately", "h", "HOLDS APPROXIMATELY"),
    Verdict.FAILS: ("fail as printed", "X", "FAILS AS PRINTED"),
    Verdict.INCONCLUSIVE: ("inconclusive", "?", "INCONCLUSIVE"),
}


def _float(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise pytest.UsageError(f"--mc-scale must be a finite number > 0, got {text!r}") from None


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise pytest.UsageError(f"--paperchecks-seed must be a non-negative integer, got {text!r}") from None


def pytest_addoption(parser):
    g = parser.getgroup("paperchecks")
    g.addoption("--paperchecks-seed", default=str(DEFAULT_SEED),
                help=f"seed of every Monte-Carlo draw (non-negative integer, default {DEFAULT_SEED})")
    g.addoption("--mc-scale", default="1.0",
                help=f"multiply every Monte-Carlo sample budget (> 0 and <= {MAX_SCALE}, default 1; above 1 the run "
                     "says its estimated cost first)")
    g.addoption("--backend", default="numpy", help="array backend of the simulators: numpy (default) or cupy")
    g.addoption("--paperchecks-strict", action="store_true",
                help="exit non-zero when a claim fails as printed in one of the strict classes (for authors "
                     "checking their own paper)")
    g.addoption("--paperchecks-strict-classes", default=",".join(STRICT_DEFAULT),
                help=f"severity classes that --paperchecks-strict counts, comma-separated from {list(SEVERITIES)} "
                     f"(default {','.join(STRICT_DEFAULT)})")


def strict_classes(config) -> tuple:
    """The severity classes ``--paperchecks-strict`` counts (a usage error when malformed)."""
    try:
        return parse_classes(config.getoption("--paperchecks-strict-classes"))
    except ValueError as e:
        raise pytest.UsageError(f"--paperchecks-strict-{e}") from None


def context_from(config) -> RunContext:
    """The run settings given on the command line (cached on the config)."""
    ctx = getattr(config, "_paperchecks_ctx", None)
    if ctx is None:
        try:
            ctx = RunContext(seed=_int(config.getoption("--paperchecks-seed")),
                             scale=_float(config.getoption("--mc-scale")), backend=config.getoption("--backend"))
        except OptionError as e:
            option = _OPTION.get(e.option, e.option)
            raise pytest.UsageError(str(e).replace(e.option, option, 1)) from None
        if ctx.backend == "cupy":
            from simulations import cupy_available

            if not cupy_available():
                raise pytest.UsageError("--backend cupy needs CuPy and a CUDA device, and CuPy sees none here (install "
                                        "paperchecks[gpu] on a machine with a GPU); --backend must be numpy here")
        config._paperchecks_ctx = ctx
    return ctx


def check_markexpr(config) -> None:
    """A usage error when ``-m`` names a marker nobody registered, naming the paper keys
    and the project's other markers (pytest would select nothing, or everything under a
    ``not``, without a word)."""
    expression = config.getoption("markexpr", "") or ""
    if not expression:
        return
    known = {line.split(":")[0].split("(")[0].strip() for line in config.getini("markers")}
    unknown = unknown_markers(expression, known)
    if unknown:
        from .core.registry import papers

        names = ", ".join(repr(u) for u in unknown)
        raise pytest.UsageError(f"-m: {names} {'is not a marker' if len(unknown) == 1 else 'are not markers'} of this "
                                f"suite; the paper keys are {', '.join(p.key for p in papers())}, the other markers "
                                "slow and gpu (all: pytest --markers)")


def _share_cores(config) -> None:
    """In a pytest-xdist worker, limit BLAS and the random fill threads to this worker's
    share of the cores: k workers x the default threads each oversubscribe the machine,
    and spinning BLAS threads then slow batched small matmuls by 7x (a 129 x 129 Haar
    test: 3 s alone, 28 s beside a second worker). Numbers do not depend on threads."""
    workers = getattr(config, "workerinput", {}).get("workercount")
    if not workers:
        return
    from threadpoolctl import threadpool_limits

    from simulations.core.backend import available_cores, set_fill_threads

    share = max(1, available_cores() // int(workers))
    config._paperchecks_threads = threadpool_limits(share)  # held for the session
    set_fill_threads(share)


def pytest_collection_modifyitems(session, config, items):
    """Under pytest-xdist's ``--dist loadgroup``, order the collection longest group
    first (module text). xdist hands the work units out in collection order when its
    own reorder (largest unit first) is off, which :func:`pytest_configure` sees to: the
    public API only. Every worker computes the same order from the committed report, so
    the collections stay identical; a serial run keeps the catalogue order."""
    if not (getattr(config, "workerinput", None) and config.getvalue("loadgroup")):  # xdist sets it in workers
        return
    try:
        seconds = group_seconds()
    except Exception as exc:  # noqa: BLE001 - ordering is an optimisation; never stop the run
        warnings.warn(f"claims handed out in collection order: their seconds could not be read ({exc!r})",
                      stacklevel=1)
        return
    items[:] = longest_first(items, seconds)


@pytest.hookimpl(trylast=True)  # after the other plugins have registered their markers
def pytest_configure(config):
    context_from(config)  # validate the options before anything runs
    strict_classes(config)
    if config.getvalue("dist") == "loadgroup" and hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False  # hand groups out in collection order (longest first)
    _share_cores(config)
    from .core.registry import load_errors, papers

    for p in papers():
        config.addinivalue_line("markers", f"{p.key}: claims of {p.reference}")
    for key in load_errors():  # selectable, so that -m KEY reports why it does not load
        config.addinivalue_line("markers", f"{key}: an installed paper that does not load")
    config.addinivalue_line("markers", "slow: long fidelity checks (left out by -m 'not slow')")
    config.addinivalue_line("markers", "gpu: needs CuPy and a CUDA device (skipped cleanly otherwise)")
    check_markexpr(config)
    config.pluginmanager.register(VerdictLog(config), "paperchecks-verdicts")


def _announce(config, claim_ids) -> None:
    """Above the default scale, the estimated cost of the selected claims, once, before
    the first one runs (``theory.core.cost``)."""
    ctx = context_from(config)
    from .core import cost

    if getattr(config, "_paperchecks_announced", False) or not cost.worth_announcing(ctx.scale):
        return
    config._paperchecks_announced = True
    from .core.registry import claims

    by_id = {c.id: c for c in claims()}
    chosen = [by_id[i] for i in claim_ids if i in by_id]
    if not chosen:  # plain tests only: no Monte-Carlo budget to scale
        return
    line = cost.announcement(cost.estimate(chosen, ctx.scale), ctx.scale)
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(line)
    else:  # pragma: no cover - pytest always has one unless -p no:terminal
        print(line)


def pytest_collection_finish(session):
    """A serial run: announce the cost of the selected claims (:func:`_announce`)."""
    if not getattr(session.config, "workerinput", None):
        _announce(session.config, [item.claim.id for item in session.items if isinstance(item, ClaimItem)])


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    """Under xdist, on the controller: announce from the first worker's collection."""
    _announce(node.config, [i.split("::", 1)[1].split("@", 1)[0] for i in ids if "::" in i])


def pytest_collect_file(file_path, parent):
    """A claim file (:func:`theory.core.registry.claim_file`): theory/catalogue.py for the
    built-in papers, an installed paper's catalogue module (its entry point) for it."""
    if not file_path.suffix == ".py":
        return None
    from .core.registry import broken_in_file, papers_in_file

    if papers_in_file(file_path) or broken_in_file(file_path):
        return ClaimFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path, parent):
    """The claim file of a paper that does not load, named on the command line, is not
    also imported as a test module (its import error would stop the session): its
    :class:`LoadErrorItem` reports it."""
    from .core.registry import broken_in_file

    return _NoTests.from_parent(parent, path=module_path) if broken_in_file(module_path) else None


class _NoTests(pytest.File):
    def collect(self):
        return []


class ClaimFile(pytest.File):
    def collect(self):
        from .core.registry import broken_in_file, claims, papers_in_file

        for key, message in broken_in_file(self.path).items():  # a paper that does not load: one failing item
            item = LoadErrorItem.from_parent(self, name=key, key=key, message=message)
            item.add_marker(getattr(pytest.mark, key))
            yield item
        keys = papers_in_file(self.path)
        for claim in (c for c in claims() if c.paper in keys):
            item = ClaimItem.from_parent(self, name=claim.id, claim=claim)
            item.add_marker(getattr(pytest.mark, claim.paper))
            item.add_marker(pytest.mark.xdist_group(claim.group))
            if claim.slow:
                item.add_marker(pytest.mark.slow)
            yield item


class PaperLoadFailure(Exception):
    """The failure of a :class:`LoadErrorItem` (its report is the message alone)."""


class LoadErrorItem(pytest.Item):
    """An installed paper that does not load (:func:`theory.core.registry.load_errors`):
    one item of its claim file that fails with the one-line message, so that it is
    reported while the other papers' claims still run (a collection error would stop
    the whole session)."""

    def __init__(self, *, key, message, **kwargs):
        super().__init__(**kwargs)
        self.key, self.message = key, message
        self.user_properties.append(("paper_load_error", key))

    def runtest(self):
        raise PaperLoadFailure(self.message)

    def repr_failure(self, excinfo):
        return self.message

    def reportinfo(self):
        return self.path, None, f"paper {self.key} (does not load)"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A :class:`LoadErrorItem`'s report is its one line in every phase: at setup pytest
    imports the paper's package, which raises the same error with a long traceback."""
    report = yield
    if isinstance(item, LoadErrorItem) and call.excinfo is not None:
        report.longrepr = item.message
    return report


def pytest_terminal_summary(terminalreporter, config):
    """The installed papers that do not load and that no item of this run reported (their
    claim file was not collected, or they were deselected), one line each: the other
    papers ran."""
    from .core.registry import load_errors

    shown = {v for kind in ("failed", "error") for r in terminalreporter.stats.get(kind, ())
             for k, v in getattr(r, "user_properties", ()) if k == "paper_load_error"}
    left = {k: m for k, m in load_errors().items() if k not in shown}
    if left:
        terminalreporter.write_sep("=", f"installed papers that do not load, left out of this run ({len(left)})")
        for message in left.values():
            terminalreporter.write_line(message)


class ClaimMismatch(Exception):
    def __init__(self, claim, evidence):
        super().__init__(claim.id)
        self.claim, self.evidence = claim, evidence


class ClaimItem(pytest.Item):
    def __init__(self, *, claim, **kwargs):
        super().__init__(**kwargs)
        self.claim = claim

    def runtest(self):
        from .core.prose import tidy, value
        from .core.render import as_record, record_line, verdict_text
        from .core.runner import evaluate

        ctx = context_from(self.config)
        ev = evaluate(self.claim, ctx)
        rec = as_record(self.claim, ev)
        self.user_properties += [("claim", self.claim.id), ("verdict", ev.verdict.value),
                                 ("line", record_line(rec)),
                                 ("settle", tidy(ev.settle) if ev.settle else value(ev.resolution)),
                                 ("qualified", verdict_text(rec)), ("loose", ev.loose),
                                 ("not_following", bool(ev.follows) and ev.follows.get("follows") is False)]
        if not agrees(self.claim.recorded, ev.verdict, at_default(ctx)):
            raise ClaimMismatch(self.claim, ev)

    def repr_failure(self, excinfo):
        if not isinstance(excinfo.value, ClaimMismatch):
            return super().repr_failure(excinfo)
        from .core.render import render_evidence

        c, ev = excinfo.value.claim, excinfo.value.evidence
        lines = render_evidence(c, ev).split("\n")
        if ev.verdict == Verdict.INCONCLUSIVE:
            why = "  The check could not decide" + (" at this budget (see 'To settle')." if ev.settle else ".")
        else:
            why = (f"  The verdict moved from {c.recorded.words} to {ev.verdict.words}: if the code is right, "
                   "record the new verdict in the catalogue and regenerate the report.")
        return "\n".join(lines[:-1] + [why, lines[-1]])

    def reportinfo(self):
        return self.path, None, f"claim {self.claim.id}"


def _props(report) -> dict:
    return dict(getattr(report, "user_properties", ()) or ())


def pytest_report_teststatus(report, config):
    if report.when != "call" or not report.passed:
        return None
    verdict = _props(report).get("verdict")
    if verdict is None:
        return None
    return _STATUS[Verdict(verdict)]


class VerdictLog:
    """Collects the verdicts of the session (on the controller under xdist)."""

    def __init__(self, config):
        self.config = config
        self.found: dict = {}

    def pytest_runtest_logreport(self, report):
        props = _props(report)
        if report.when == "call" and "verdict" in props:
            self.found[props["claim"]] = props

    def pytest_terminal_summary(self, terminalreporter):
        from .core.registry import claims

        if not self.found:
            return
        by_id = {c.id: c for c in claims()}
        corrected_by: dict = {}
        for c in claims():
            if c.corrects:
                corrected_by.setdefault(c.corrects, []).append(c.id)
        tr = terminalreporter
        failing = [p for p in self.found.values() if p["verdict"] == "fails"]
        for severity in (*SEVERITIES, None):
            group = [p for p in failing if getattr(by_id.get(p["claim"]), "severity", None) == severity]
            if not group:
                continue
            title = f"severity {severity}: {SEVERITIES[severity]}" if severity else "no severity recorded"
            tr.write_sep("=", f"claims that fail as printed, {title} ({len(group)})")
            for p in group:
                fixes = [f"{fix} {self.found[fix]['verdict'].replace('_', ' ')}" if fix in self.found
                         else f"{fix} (not run in this session)" for fix in corrected_by.get(p["claim"], ())]
                tr.write_line(f"{p['line']}; " + (f"corrected: {'; '.join(fixes)}" if fixes
                                                  else "no corrected claim in the catalogue"))
        steps = [p for p in self.found.values() if p.get("not_following") and p["verdict"] != "fails"]
        if steps:
            tr.write_sep("=", f"proof steps that are true but do not follow from the steps they cite ({len(steps)})")
            for p in steps:
                tr.write_line(f"{p['claim']}: {p['qualified']}")
        loose = [p for p in self.found.values() if p.get("loose") and p["verdict"] != "fails"]
        if loose:
            tr.write_sep("=", f"bounds that hold with room of a factor 2 or more ({len(loose)})")
            for p in loose:
                tr.write_line(f"{p['claim']}: {p['qualified']}")
        unsure = [p for p in self.found.values() if p["verdict"] == "inconclusive"]
        if unsure:
            tr.write_sep("=", f"inconclusive claims ({len(unsure)})")
            for p in unsure:
                tr.write_line(f"{p['claim']}: {p['settle']}")
        moved = [(by_id[i], p) for i, p in self.found.items()
                 if i in by_id and p["verdict"] != by_id[i].recorded.value and not contradicts(
                     by_id[i].recorded, Verdict(p["verdict"]))]
        if moved and not at_default(context_from(self.config)):
            tr.write_sep("=", f"verdicts that moved without contradicting the recorded ones ({len(moved)}; not red "
                              "under these settings)")
            for c, p in moved:
                tr.write_line(f"{c.id}: {c.recorded.words} -> {Verdict(p['verdict']).words}")

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session, exitstatus):
        if not self.config.getoption("--paperchecks-strict") or session.exitstatus != 0:
            return
        from .core.registry import claims

        counted = strict_classes(self.config)
        severity = {c.id: c.severity for c in claims()}
        if any(p["verdict"] == "fails" and severity.get(p["claim"]) in counted for p in self.found.values()):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
