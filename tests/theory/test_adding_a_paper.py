"""docs/adding_a_paper.md runs: the guide shows the worked examples' real code and
commands the CLI takes; the worked external paper (examples/external_paper) meets every
rule the guide states, on its own data; and the in-repository example (docs/example_paper)
copied into the catalogue is discovered with no other edit, its claims decide, their
mutations fail, and pytest collects it under its own marker."""
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

import theory
from tests.support.external_paper import installed_example
from theory.core import RunContext, Verdict, coverage, evaluate, registry

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "example_paper" / "he2015"
GUIDE = ROOT / "docs" / "adding_a_paper.md"


@pytest.fixture
def he2015(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "he2015")
    theory.__path__.append(str(tmp_path))
    registry.papers.cache_clear()
    try:
        yield registry.paper("he2015")
    finally:
        theory.__path__.remove(str(tmp_path))
        registry.papers.cache_clear()
        for name in [m for m in sys.modules if m.startswith("theory.he2015")]:
            del sys.modules[name]


def test_a_new_paper_is_discovered_and_checked(he2015):
    assert [c.id for c in registry.claims("he2015")] == ["he2015.eq7.relu_half", "he2015.eq10.forward"]
    for c in he2015.claims:
        assert evaluate(c).verdict == Verdict.HOLDS, c.id
        assert all(evaluate(c, **m.params).verdict == m.expect for m in c.mutations), c.id


def test_the_guide_shows_the_package_code():
    """Every code block of the guide is the file named just before it, character for
    character, and the guide shows the external example's catalogue, simulator, coverage
    map and pyproject, and the in-repository example's catalogue."""
    guide = GUIDE.read_text()
    shown = re.findall(r"`([\w./-]+)`:\n\n```(?:python|toml)\n(.*?)```", guide, flags=re.S)
    assert len(shown) == len(re.findall(r"```(?:python|toml)\n", guide))
    assert {path: (ROOT / path).read_text() for path, _ in shown} == dict(shown)
    assert {path for path, _ in shown} == {
        "examples/external_paper/pyproject.toml", "examples/external_paper/glorot2010_checks/catalogue.py",
        "examples/external_paper/glorot2010_checks/linear_net.py",
        "examples/external_paper/glorot2010_checks/coverage.py", "docs/example_paper/he2015/catalogue.py"}


def test_the_guide_s_sessions_run_as_shown():
    """Every ``pycon`` block of the guide (the sizing rule's example) prints what it shows
    with the code's own alpha and looks: a change of either fails here, not in a reader's
    session."""
    import doctest

    blocks = re.findall(r"```pycon\n(.*?)```", GUIDE.read_text(), flags=re.S)
    assert blocks
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, text in enumerate(blocks):
        runner.run(parser.get_doctest(text, {}, f"adding_a_paper.md[{i}]", str(GUIDE), 0))
    assert runner.summarize(verbose=False).failed == 0


def test_the_guide_s_tables_name_the_code_s_parameters_and_simulators():
    """The table of callables names the helpers' real parameters, the fields line the
    helpers' pass-through fields, and the simulator table every init name of the code."""
    import inspect

    import simulations
    import theory.kinds as kinds
    from theory.kinds.base import CLAIM_FIELDS

    guide = GUIDE.read_text()
    for helper, names in {"precision_claim": ("shared", "lhs", "rhs", "grid"), "grid_sampling": ("simulate",),
                          "mean_claim": ("target",), "bound_claim": ("bound", "attainable"),
                          "identity_claim": ("lhs", "rhs"), "constant_claim": ("value",)}.items():
        assert set(names) <= set(inspect.signature(getattr(kinds, helper)).parameters), helper
    assert ", ".join(f"`{f}`" for f in CLAIM_FIELDS[:-1]) + f" and `{CLAIM_FIELDS[-1]}`" in " ".join(guide.split())
    for name in (*simulations.WEIGHT_INITS, *simulations.INIT_SCHEMES, *simulations.BRANCH_SCHEMES,
                 *simulations.TABLE1_SCHEMES):
        assert f"`{name}`" in guide, name
    for fn in ("draw_mlp", "mlp_forward", "draw_net", "draw_resnet", "draw_branch_resnet", "resnet_forward",
               "build_mlp", "build_resnet", "forward", "simulate_chain", "build_classifier", "haar_orthogonal",
               "sample_rows"):
        assert callable(getattr(simulations, fn)) and f"`{fn}(" in guide, fn


def test_the_example_s_symbols_are_real_where_the_sign_matters(he2015):
    """The in-repository example integrates max(0, z) over the whole line with z real:
    declared positive, the same code gives sigma^2 and its claim changes silently (the
    guide's note)."""
    import sympy as sp

    module = sys.modules["theory.he2015.catalogue"]
    assert module.z.is_real and module.z.is_positive is None
    assert sp.simplify(module.relu_second_moment() - module.s**2 / 2) == 0
    positive = sp.Symbol("z", positive=True)
    density = sp.exp(-positive**2 / (2 * module.s**2)) / sp.sqrt(2 * sp.pi * module.s**2)
    assert sp.simplify(sp.integrate(sp.Max(0, positive) ** 2 * density, (positive, -sp.oo, sp.oo))) == module.s**2


def test_the_guide_s_commands_are_the_cli_s():
    """Every ``paperchecks ...`` line of the guide's shell blocks parses with the CLI's own
    parser (a renamed option or subcommand fails here, not in a reader's shell)."""
    from theory.cli import _parser

    lines = [line.split("#")[0].strip() for block in re.findall(r"```bash\n(.*?)```", GUIDE.read_text(), flags=re.S)
             for line in block.replace("\\\n", " ").splitlines()]
    commands = [shlex.split(line)[1:] for line in lines if line.startswith("paperchecks ")]
    assert [a[0] for a in commands] == ["new", "list", "check", "report"]
    for argv in commands:
        _parser().parse_args(argv)


@pytest.fixture
def glorot(monkeypatch):
    with installed_example(monkeypatch):
        yield registry.paper("glorot2010")


def test_rule_every_check_can_fail_through_a_wrong_statement_that_is_not_a_mirror(glorot):
    """Rule 1, on the example: each claim that does not fail as printed has a failing
    mutation that is not a mirror, and (for the exact claims; the Monte-Carlo one runs in
    the example's own pytest) every mutation gets its declared verdict."""
    for c in glorot.claims:
        if c.recorded != Verdict.FAILS:
            assert any(m.expect == Verdict.FAILS and not m.mirror for m in c.mutations), c.id
        if not c.monte_carlo:
            assert evaluate(c).verdict == c.recorded, c.id
            assert [evaluate(c, RunContext(), **m.params).verdict for m in c.mutations] == [
                m.expect for m in c.mutations], c.id


def test_rule_a_failure_says_how_much_it_matters_and_its_correction_rejects_the_printed_form(glorot):
    """Rules 2-3: the claim that fails as printed has a severity and an impact and carries
    its correction as a mutation expecting holds; the corrected claim holds, names it, and
    its printed-form mutation fails on its own data."""
    failing = [c for c in glorot.claims if c.recorded == Verdict.FAILS]
    assert [c.id for c in failing] == ["glorot2010.eq1.columns_printed"]
    (printed,) = failing
    assert printed.severity == "wording" and printed.impact
    assert [m.expect for m in printed.mutations if m.expect == Verdict.HOLDS] == [Verdict.HOLDS]
    (fixed,) = [c for c in glorot.claims if c.corrects == printed.id]
    (form,) = [m for m in fixed.mutations if m.printed]
    assert evaluate(fixed).verdict == Verdict.HOLDS and evaluate(fixed, **form.params).verdict == Verdict.FAILS
    assert evaluate(printed).verdict == Verdict.FAILS


def test_rule_coverage_is_honestly_partial(glorot):
    """Rule 6: every item has a claim or a reason; the items still to do are marked not yet
    checked and counted as unchecked; the paper declares no goal, so none is enforced."""
    assert coverage.problems(glorot.coverage, registry.ids()) == []
    s = coverage.summarize(glorot.coverage)
    assert s["not_yet_checked"] == 4 and s["checked"] < s["checkable"] and glorot.coverage_goal is None


pytest_plugins = ["pytester"]


def test_pytest_collects_it_under_its_own_marker(he2015, pytester):
    r = pytester.runpytest_inprocess("-p", "theory.pytest_plugin", str(ROOT / "theory" / "catalogue.py"),
                                     "-m", "he2015", "-v", "-p", "no:cacheprovider", "--strict-markers")
    assert r.ret == 0
    r.stdout.fnmatch_lines(["*he2015.eq7.relu_half HOLDS*", "*he2015.eq10.forward HOLDS*"])
