"""Run settings are validated with messages naming the setting; unknown ids list the closest."""
import re

import pytest

from theory.core import OptionError, RunContext, get


@pytest.mark.parametrize("kwargs,option", [({"scale": 0.0}, "scale"), ({"scale": float("inf")}, "scale"),
                                           ({"seed": -1}, "seed"), ({"seed": 1.5}, "seed"),
                                           ({"backend": "jax"}, "backend"), ({"dps": 5}, "dps"),
                                           ({"claim_alpha": 0.7}, "claim_alpha")])
def test_bad_settings_name_the_setting(kwargs, option):
    with pytest.raises(OptionError, match=option) as e:
        RunContext(**kwargs)
    assert e.value.option == option


def test_unknown_claim_lists_the_closest_ids():
    with pytest.raises(KeyError, match="closest: arpit2019.thm1.monte_carlo"):
        get("arpit2019.thm1.montecarlo")


def test_host_stream_is_numpy_float64_and_names_the_stream():
    """A host-side draw (footnote 2's Haar V') names the same stream as ctx.stream with
    the same parts, on numpy in float64 whatever the run's backend is."""
    import numpy as np

    ctx = RunContext(seed=4)
    host = ctx.host_stream("a", "b")
    assert host.xp is np and host.dtype is np.float64 and host.key == ctx.stream("a", "b").key
    np.testing.assert_array_equal(host.normal((3,)), ctx.stream("a").child("b").normal((3,)))


# --- installed papers: the entry-point group paperchecks.papers -------------------------------------------------

_PAPER_MODULE = '''
from theory.core import Mutation, Paper, Verdict
from theory.kinds import constant_claim

CLAIMS = (constant_claim(id="{key}.eq1.two", where="Eq. 1", statement="1 + 1 = 2", value=lambda: 1 + 1,
                         constant=2, wrong=(1, 3)),)
PAPER = Paper(key="{key}", reference="A test paper", claims=CLAIMS)
'''


@pytest.fixture
def install(tmp_path, monkeypatch):
    """``install(key, value=None, source=None)``: a paper module written to a temporary
    directory on sys.path and an entry point of group paperchecks.papers pointing at it
    (``value`` overrides the entry point's target)."""
    import importlib.metadata
    import sys

    from theory.core import registry

    points = []
    monkeypatch.setattr(registry, "_entry_points", lambda: tuple(points))
    monkeypatch.syspath_prepend(str(tmp_path))
    made = []

    def add(key, value=None, source=None, init=""):
        pkg = tmp_path / f"{key}_checks"
        pkg.mkdir(exist_ok=True)
        (pkg / "__init__.py").write_text(init)
        (pkg / "catalogue.py").write_text(source if source is not None else _PAPER_MODULE.format(key=key))
        made.append(pkg.name)
        points.append(importlib.metadata.EntryPoint(key, value or f"{pkg.name}.catalogue:PAPER", registry.GROUP))
        registry.papers.cache_clear()

    yield add
    registry.papers.cache_clear()
    for name in [m for m in sys.modules if m.split(".")[0] in made]:
        del sys.modules[name]


def test_an_installed_paper_is_found_beside_the_built_in_ones(install):
    from theory.core import evaluate, registry

    install("testpaper")
    assert "testpaper" in [p.key for p in registry.papers()]
    assert "testpaper" not in [p.key for p in registry.papers(builtin_only=True)]
    assert not registry.is_builtin("testpaper") and registry.is_builtin("arpit2019")
    claim = registry.get("testpaper.eq1.two")
    assert evaluate(claim).verdict.value == "holds"
    assert registry.claim_file("testpaper") == "testpaper_checks/catalogue.py"
    assert claim.node_id == "testpaper_checks/catalogue.py::testpaper.eq1.two"
    assert registry.papers_in_file("/repo/src/testpaper_checks/catalogue.py") == ("testpaper",)
    assert registry.papers_in_file("/repo/theory/catalogue.py") == tuple(p.key for p in
                                                                          registry.papers(builtin_only=True))
    assert "entry point testpaper" in registry.origin("testpaper")


@pytest.mark.parametrize("value,source,message", [
    ("testpaper_checks.catalogue:NOPE", None, "does not load: AttributeError"),
    (None, _PAPER_MODULE.format(key="otherkey"), "must point at a Paper with key 'testpaper'"),
    (None, "import no_such_module_here\n", "does not load: ModuleNotFoundError: No module named "
                                          "'no_such_module_here' (at testpaper_checks/catalogue.py:1)"),
    (None, "x = (\n", "does not load: SyntaxError"),
    (None, _PAPER_MODULE.format(key="testpaper").replace("wrong=(1, 3)", "wrong=(1, 3), method='sympy'"),
     "does not load: TypeError: constant_claim() got unknown field ['method']; it accepts id, where, "),
    (None, _PAPER_MODULE.format(key="testpaper").replace("(constant_claim", "2 * (constant_claim"),
     "declares claim ids twice: ['testpaper.eq1.two']"),
])
def test_a_broken_installed_paper_is_left_out_alone_in_one_line(install, value, source, message):
    """An installed paper that does not load (any exception on import or on building its
    Paper) is left out with one line naming it, its entry point and the error; the
    built-in papers and another installed paper still load, and asking for it by key
    raises that line."""
    from theory.core import registry

    install("goodpaper")
    install("testpaper", value=value, source=source)
    keys = [p.key for p in registry.papers()]
    assert "goodpaper" in keys and "arpit2019" in keys and "testpaper" not in keys
    (line,) = registry.load_errors().values()
    assert message in line and line.startswith("paper testpaper: entry point testpaper") and "\n" not in line
    assert list(registry.load_errors()) == ["testpaper"]
    with pytest.raises(registry.PaperLoadError, match=re.escape(message)):
        registry.paper("testpaper")
    assert registry.broken_in_file("/src/testpaper_checks/catalogue.py") == {"testpaper": line}
    assert registry.broken_in_file("/src/goodpaper_checks/catalogue.py") == {}


def test_an_entry_point_must_name_the_module_file_not_a_package(install):
    """pytest collects a paper's claims from the file of the module its entry point names."""
    from theory.core import registry

    install("testpaper", value="testpaper_checks:PAPER", init="from .catalogue import PAPER\n")
    assert "not a package" in registry.load_errors()["testpaper"]


def test_an_installed_paper_may_not_take_a_built_in_key(install):
    from theory.core import registry

    install("arpit2019", source=_PAPER_MODULE.format(key="arpit2019").replace("eq1.two", "eq1.test_two"))
    assert "key of a built-in paper" in registry.load_errors()["arpit2019"]
    assert registry.paper("arpit2019") is registry.papers(builtin_only=True)[0]
    assert "arpit2019.eq1.test_two" not in registry.ids()


def test_the_cli_names_a_broken_paper_in_one_line_and_lists_the_others(install, capsys):
    from theory.cli import main

    install("goodpaper")
    install("testpaper", source="import no_such_module_here\n")
    assert main(["list"]) == 0
    out, err = capsys.readouterr()
    assert "goodpaper.eq1.two" in out and "arpit2019." in out and "testpaper" not in out
    assert err.count("\n") == 1 and err.startswith("paperchecks: warning: paper testpaper: entry point testpaper")
    assert main(["list", "--paper", "testpaper"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not load: ModuleNotFoundError" in err
