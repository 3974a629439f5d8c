"""The pytest plugin, run through pytester on a small fake catalogue: statuses are the
verdicts, the exit status follows the documented rule, the summary lists the claims
that fail as printed, bad options give one-line errors, rerun hints select one claim,
and a parallel run (-n 2) gives the same verdicts."""
import pytest

pytest_plugins = ["pytester"]

FAKE = '''
import pytest
from theory.core import Claim, Evidence, Mutation, Paper, Verdict, registry

def _measure(ctx):
    return 1.0

def _judge(m, ctx, verdict="holds"):
    return Evidence(Verdict(verdict), m, 1.0, "fake", "exact")

def _claim(name, recorded, found, corrects=None, severity=None):
    if recorded == "fails" and severity is None:
        severity = "result"
    return Claim(id="fake." + name, where="Sec. 1", statement=name, kind="identity", recorded=Verdict(recorded),
                 measure=_measure, judge=_judge, params={"verdict": found}, corrects=corrects,
                 severity=severity, impact="a fake discrepancy" if severity else "",
                 mutations=(Mutation("wrong", {"verdict": "fails"}),))

CLAIMS = {CLAIMS}
PAPER = Paper(key="fake", reference="A fake paper", text="fake.txt", claims=CLAIMS)

_SAVED = {}


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    _SAVED.update(papers=registry.papers, claims=registry.claims)
    registry.papers = lambda: (PAPER,)
    registry.claims = lambda paper_key=None: CLAIMS


def pytest_unconfigure(config):
    registry.papers, registry.claims = _SAVED["papers"], _SAVED["claims"]
'''


def _summary_counts(result) -> dict:
    """{category: count} from the final summary line (order-free)."""
    import re

    line = [x for x in result.stdout.lines if " in " in x and x.startswith("=")][-1]
    return {k.strip(): int(n) for n, k in re.findall(r"(\d+) ([a-z ]+?)(?:,| in )", line)}


SUMMARY = {"holds": 2, "fail as printed": 1, "holds approximately": 1, "inconclusive": 1}


def _setup(pytester, claims: str):
    pytester.makeconftest(FAKE.replace("{CLAIMS}", claims))
    pytester.mkdir("theory")
    (pytester.path / "theory" / "catalogue.py").write_text("")


AGREEING = '''(
    _claim("a", "holds", "holds"),
    _claim("b", "fails", "fails"),
    _claim("b_corrected", "holds", "holds", corrects="fake.b"),
    _claim("c", "holds_approximately", "holds_approximately"),
    _claim("d", "inconclusive", "inconclusive"),
)'''


def test_statuses_are_verdicts_and_agreement_exits_0(pytester):
    _setup(pytester, AGREEING)
    r = pytester.runpytest("-p", "theory.pytest_plugin", "theory/catalogue.py", "-v", "-p", "no:cacheprovider")
    assert r.ret == 0
    r.stdout.fnmatch_lines([
        "*fake.a HOLDS*", "*fake.b FAILS AS PRINTED*", "*fake.c HOLDS APPROXIMATELY*", "*fake.d INCONCLUSIVE*",
        "*claims that fail as printed, severity result: *(1)*",
        "fake.b (Sec. 1): measured 1; printed 1; corrected: fake.b_corrected holds",
        "*inconclusive claims (1)*", "fake.d: *",
    ])
    assert _summary_counts(r) == SUMMARY


def test_progress_letters(pytester):
    _setup(pytester, AGREEING)
    r = pytester.runpytest("-p", "theory.pytest_plugin", "theory/catalogue.py", "-p", "no:cacheprovider")
    r.stdout.fnmatch_lines(["theory/catalogue.py HXHh? *"])


def test_strict_exits_1_when_a_claim_fails_as_printed(pytester):
    _setup(pytester, AGREEING)
    r = pytester.runpytest("-p", "theory.pytest_plugin", "theory/catalogue.py", "--paperchecks-strict",
                           "-p", "no:cacheprovider")
    assert r.ret == 1


def test_strict_counts_only_its_classes(pytester):
    _setup(pytester, '(_claim("a", "holds", "holds"), _claim("b", "fails", "fails", severity="wording"), '
                     '_claim("c", "fails", "fails", severity="misprint"))')
    base = ["-p", "theory.pytest_plugin", "theory/catalogue.py", "--paperchecks-strict", "-p", "no:cacheprovider"]
    assert pytester.runpytest(*base).ret == 0  # result and step by default
    assert pytester.runpytest(*base, "--paperchecks-strict-classes=result,misprint").ret == 1
    r = pytester.runpytest(*base, "--paperchecks-strict-classes=result,typo")
    assert r.ret == pytest.ExitCode.USAGE_ERROR and "--paperchecks-strict-classes must be" in r.stderr.str()


def test_other_seed_is_red_only_on_a_contradiction(pytester):
    """Away from the default settings a decided verdict may go inconclusive on other
    draws (listed, not red); holds <-> fails is red at any settings."""
    _setup(pytester, '(_claim("a", "holds", "inconclusive"), _claim("b", "fails", "holds"), '
                     '_claim("c", "holds", "holds_approximately"))')
    r = pytester.runpytest("-p", "theory.pytest_plugin", "theory/catalogue.py", "--paperchecks-seed=7",
                           "-p", "no:cacheprovider")
    assert r.ret == 1
    assert _summary_counts(r)["failed"] == 1
    r.stdout.fnmatch_lines(["*verdicts that moved without contradicting the recorded ones (2*",
                            "fake.a: holds -> inconclusive", "fake.c: holds -> holds approximately"])
    r = pytester.runpytest("-p", "theory.pytest_plugin", "theory/catalogue.py", "-p", "no:cacheprovider")
    assert _summary_counts(r)["failed"] == 3  # at the default settings every move is news


def test_moved_verdict_fails_with_the_referee_text(pytester):
    _setup(pytester, '(_claim("a", "holds", "inconclusive"), _claim("b", "holds", "fails"))')
    r = pytester.runpytest("-p", "theory.pytest_plugin", "theory/catalogue.py", "-p", "no:cacheprovider")
    assert r.ret == 1
    r.stdout.fnmatch_lines(["*Verdict: inconclusive (recorded: holds)*", "*The check could not decide*",
                            "*The verdict moved from holds to fails*", '*Rerun: pytest "theory/catalogue.py::fake.b"*',
                            "*2 failed*"])


def test_rerun_hint_selects_exactly_one_claim(pytester):
    _setup(pytester, AGREEING)
    r = pytester.runpytest("-p", "theory.pytest_plugin", "theory/catalogue.py::fake.b", "-p", "no:cacheprovider")
    r.stdout.fnmatch_lines(["*1 fail as printed in*"])
    assert "holds" not in r.stdout.lines[-1]


@pytest.mark.parametrize("option,value,message", [
    ("--mc-scale", "0", "ERROR: --mc-scale must be a finite number > 0, got 0.0"),
    ("--mc-scale", "nan", "ERROR: --mc-scale must be a finite number > 0, got nan"),
    ("--mc-scale", "abc", "ERROR: --mc-scale must be a finite number > 0, got 'abc'"),
    ("--paperchecks-seed", "-1", "ERROR: --paperchecks-seed must be a non-negative integer, got -1"),
    ("--backend", "torch", "ERROR: --backend must be one of ['numpy', 'cupy'], got 'torch'"),
])
def test_bad_options_are_one_line_usage_errors(pytester, option, value, message):
    _setup(pytester, AGREEING)
    r = pytester.runpytest("-p", "theory.pytest_plugin", "theory/catalogue.py", f"{option}={value}",
                           "-p", "no:cacheprovider")
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    assert message in r.stderr.str()
    assert "Traceback" not in r.stderr.str() + r.stdout.str()


def test_parallel_run_gives_the_same_verdicts(pytester):
    _setup(pytester, AGREEING)
    r = pytester.runpytest_subprocess("-p", "theory.pytest_plugin", "theory/catalogue.py", "-n", "2",
                                      "-p", "no:cacheprovider")
    assert r.ret == 0
    r.stdout.fnmatch_lines(["*claims that fail as printed, severity result*(1)*"])
    assert _summary_counts(r) == SUMMARY


def test_claim_seconds_cover_the_catalogue(tmp_path):
    """The committed report times every claim, so the xdist order is informed for all of
    them; a missing or unreadable report gives no times (the catalogue order)."""
    from theory.core.registry import claims
    from theory.pytest_rules import claim_seconds

    seconds = claim_seconds()
    assert {c.id for c in claims(builtin_only=True)} <= set(seconds) and all(t >= 0 for t in seconds.values())
    (tmp_path / "bad.json").write_text("{not json")
    assert claim_seconds(tmp_path / "missing.json") == {} == claim_seconds(tmp_path / "bad.json")


def test_workers_run_the_longest_claims_first(pytester):
    """With the report's seconds, the xdist controller hands the claims' groups out longest
    first (not xdist's largest group first); a serial run keeps the catalogue order."""
    import json

    _setup(pytester, AGREEING)
    report = pytester.path / "report.json"
    report.write_text(json.dumps({"claims": [{"id": "fake.d", "seconds": 9.0}, {"id": "fake.b", "seconds": 5.0}]}))
    # one measurement group per claim (the fake claims share one measure function), but
    # fake.a and fake.c share one: xdist's own reorder would put that larger group first
    own_groups = ('tuple(__import__("dataclasses").replace(c, measure=__import__("functools").partial('
                  f'_measure_k, k=0 if c.id == "fake.c" else i)) for i, c in enumerate({AGREEING}))')
    pytester.makeconftest("def _measure_k(ctx, k):\n    return 1.0\n" + FAKE.replace("{CLAIMS}", own_groups) +
                          f"\nimport theory.pytest_rules\ntheory.pytest_rules.REPORT_JSON = {str(report)!r}\n")
    args = ("-p", "theory.pytest_plugin", "theory/catalogue.py", "-v", "-p", "no:cacheprovider")

    def order(result):  # claim ids in the order they were first named
        import re

        return list(dict.fromkeys(m for line in result.stdout.lines for m in re.findall(r"::(fake\.\w+)", line)))

    parallel = pytester.runpytest_subprocess(*args, "-n", "1", "--dist", "loadgroup")
    assert parallel.ret == 0
    assert any(line.endswith("fake.c@conftest._measure_k(k=0)") for line in map(str.rstrip, parallel.stdout.lines))
    assert order(parallel) == ["fake.d", "fake.b", "fake.a", "fake.c", "fake.b_corrected"]
    serial = pytester.runpytest_subprocess(*args)
    assert serial.ret == 0
    assert order(serial) == ["fake.a", "fake.b", "fake.b_corrected", "fake.c", "fake.d"]


def test_claims_of_one_group_run_on_one_worker(pytester):
    """Under ``--dist loadgroup`` the claims that share a measurement carry the group in
    their node id and run on one worker (pytest-xdist 3.8 loses the suffix under pytest
    9.2, which pyproject.toml therefore excludes). Deterministic:
    two groups on two workers split one per worker."""
    import re

    _setup(pytester, AGREEING)
    one_group = ('tuple(__import__("dataclasses").replace(c, measure=__import__("functools").partial('
                 f'_measure_k, k=int(c.id in ("fake.a", "fake.c", "fake.d")))) for c in {AGREEING})')
    pytester.makeconftest("def _measure_k(ctx, k):\n    return 1.0\n" + FAKE.replace("{CLAIMS}", one_group))
    r = pytester.runpytest_subprocess("-p", "theory.pytest_plugin", "theory/catalogue.py", "-v", "-n", "2",
                                      "--dist", "loadgroup", "-p", "no:cacheprovider")
    assert r.ret == 0
    ran = [m for line in r.stdout.lines for m in re.findall(r"\[(gw\d)\].*::(fake\.\w+)(@\S+)?", line)]
    worker = {name: gw for gw, name, _ in ran}
    assert all(suffix.startswith("@conftest._measure_k") for _, _, suffix in ran), ran
    assert len(worker) == 5 and worker["fake.a"] == worker["fake.c"] == worker["fake.d"], worker


def test_unreadable_seconds_leave_xdist_order(pytester):
    """If the report's seconds cannot be turned into group times, the worker warns and
    the groups go out in collection order: the run itself goes on."""
    _setup(pytester, AGREEING)
    pytester.makeconftest(FAKE.replace("{CLAIMS}", AGREEING) + "\nimport theory.pytest_plugin\n"
                          "def _broken(path=None):\n    raise RuntimeError('broken registry')\n"
                          "theory.pytest_plugin.group_seconds = _broken\n")
    r = pytester.runpytest_subprocess("-p", "theory.pytest_plugin", "theory/catalogue.py", "-v", "-n", "1",
                                      "--dist", "loadgroup", "-p", "no:cacheprovider")
    assert r.ret == 0
    assert _summary_counts(r) == {**SUMMARY, "warning": 1}
    assert "handed out in collection order" in r.stdout.str()  # the patch took, and the worker said so


# --- an installed paper that does not load ------------------------------------------------------------------------

_INSTALLED = '''
from theory.core import Paper
from theory.kinds import constant_claim

CLAIMS = (constant_claim(id="{key}.eq1.two", where="Eq. 1", statement="1 + 1 = 2", value=lambda: 1 + 1,
                         constant=2, wrong=(1, 3){extra}),)
PAPER = Paper(key="{key}", reference="A test paper", claims=CLAIMS)
'''


@pytest.fixture
def good_and_broken(tmp_path, monkeypatch):
    """Two installed papers: goodpaper, and brokenpaper whose catalogue gives a claim
    helper a field it does not take (the new user's ``method=``)."""
    import importlib.metadata
    import sys

    from theory.core import registry

    points = []
    for key, extra in (("goodpaper", ""), ("brokenpaper", ", method='sympy'")):
        pkg = tmp_path / "site" / f"{key}_checks"
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "catalogue.py").write_text(_INSTALLED.format(key=key, extra=extra))
        points.append(importlib.metadata.EntryPoint(key, f"{key}_checks.catalogue:PAPER", registry.GROUP))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(registry, "_entry_points", lambda: tuple(points))
    registry.papers.cache_clear()
    yield tmp_path / "site"
    registry.papers.cache_clear()
    for name in [m for m in sys.modules if m.split(".")[0] in ("goodpaper_checks", "brokenpaper_checks")]:
        del sys.modules[name]


def test_a_paper_that_does_not_load_fails_alone_in_one_line(good_and_broken, pytester):
    """The broken paper is one failing item of its claim file, whose report is one line
    naming the paper, its entry point and the error; the other paper's claims run."""
    site = good_and_broken
    r = pytester.runpytest_inprocess("-p", "theory.pytest_plugin", "-p", "no:cacheprovider", "-v",
                                     str(site / "goodpaper_checks" / "catalogue.py"),
                                     str(site / "brokenpaper_checks" / "catalogue.py"))
    assert r.ret == 1
    out = r.stdout.str()
    assert "INTERNALERROR" not in out and "Traceback" not in out
    r.stdout.fnmatch_lines(["*goodpaper.eq1.two HOLDS*", "*brokenpaper_checks/catalogue.py::brokenpaper FAILED*"])
    (line,) = [x for x in r.stdout.lines if x.startswith("paper brokenpaper: ")]
    assert ("entry point brokenpaper = 'brokenpaper_checks.catalogue:PAPER' of group paperchecks.papers does not "
            "load: TypeError: constant_claim() got unknown field ['method']; it accepts id, where, ") in line
    assert line.endswith("(at brokenpaper_checks/catalogue.py:5)")
    assert "installed papers that do not load" not in out  # reported by its item already
    assert pytester.runpytest_inprocess("-p", "theory.pytest_plugin", "-p", "no:cacheprovider", "-m", "brokenpaper",
                                        str(site / "brokenpaper_checks" / "catalogue.py")).ret == 1  # a marker


def test_a_paper_package_that_does_not_import_is_one_line_too(good_and_broken, pytester):
    """Collected as a package whose __init__ imports the catalogue (the scaffold's), pytest
    imports it at setup: the item still reports the one line, not the traceback."""
    broken = good_and_broken / "brokenpaper_checks"
    (broken / "__init__.py").write_text("from .catalogue import PAPER\n")
    r = pytester.runpytest_inprocess("-p", "theory.pytest_plugin", "-p", "no:cacheprovider", str(broken))
    assert r.ret == 1
    out = r.stdout.str()
    assert "Traceback" not in out and "base.py" not in out and "installed papers that do not load" not in out
    r.stdout.fnmatch_lines(["*ERROR at setup of paper brokenpaper (does not load)*",
                            "paper brokenpaper: entry point brokenpaper*does not load: TypeError: constant_claim()*"])


def test_a_paper_that_does_not_load_is_named_in_the_summary_of_a_run_that_left_it_out(good_and_broken, pytester):
    """A run that does not collect its claim file (``pytest theory`` of the suite, another
    paper's directory) runs the others green and names it in the summary, one line."""
    r = pytester.runpytest_inprocess("-p", "theory.pytest_plugin", "-p", "no:cacheprovider",
                                     str(good_and_broken / "goodpaper_checks" / "catalogue.py"))
    assert r.ret == 0
    r.stdout.fnmatch_lines(["*installed papers that do not load, left out of this run (1)*",
                            "paper brokenpaper: entry point brokenpaper*does not load: TypeError: constant_claim()*"])
