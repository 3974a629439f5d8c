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

def _claim(name, recorded, found, corrects=None):
    return Claim(id="fake." + name, where="Sec. 1", statement=name, kind="identity", recorded=Verdict(recorded),
                 measure=_measure, judge=_judge, params={"verdict": found}, corrects=corrects,
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
    _claim("c", "inconclusive", "holds_approximately"),
    _claim("d", "inconclusive", "inconclusive"),
)'''


def test_statuses_are_verdicts_and_agreement_exits_0(pytester):
    _setup(pytester, AGREEING)
    r = pytester.runpytest("-p", "theory.pytest_plugin", "theory/catalogue.py", "-v", "-p", "no:cacheprovider")
    assert r.ret == 0
    r.stdout.fnmatch_lines([
        "*fake.a HOLDS*", "*fake.b FAILS AS PRINTED*", "*fake.c HOLDS APPROXIMATELY*", "*fake.d INCONCLUSIVE*",
        "*claims that fail as printed (1)*", "fake.b (Sec. 1): measured 1; printed 1; corrected: fake.b_corrected holds",
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
    r.stdout.fnmatch_lines(["*claims that fail as printed (1)*"])
    assert _summary_counts(r) == SUMMARY
