"""The layers of ``theory/`` import one way: verdicts < stats < core < judges < calibration, report < papers.

Every ``import`` in every module of ``theory/`` (top-level or inside a function) is
resolved to the layer it names; no module may import a layer above its own. A paper's
calibration cases live in its own package and are found through the registry
(:func:`theory.calibration.cases.paper_cases`), never imported by name.
"""
from __future__ import annotations

import ast
from pathlib import Path

import theory

ROOT = Path(theory.__file__).parent
#: The machinery's layers, lowest first; every other sub-package of ``theory`` is a paper.
LAYERS = {"verdicts": -1, "stats": 0, "core": 1, "judges": 2, "kinds": 2, "calibration": 3, "report": 3}
#: What each layer must never import (the issue's rules, and no paper below the papers).
FORBIDDEN = {
    "verdicts": {"stats", "core", "judges", "kinds", "calibration", "report", "papers", "top"},
    "stats": {"core", "judges", "kinds", "calibration", "report", "papers", "top"},
    "core": {"judges", "kinds", "calibration", "report", "papers", "top"},
    "judges": {"calibration", "report", "papers"},
    "kinds": {"calibration", "report", "papers"},
    "calibration": {"papers"},
    "report": {"papers"},
}


def _layer(parts: tuple) -> str | None:
    """The layer of the module ``theory.<parts...>``; 'papers' for a paper package."""
    if not parts:
        return None
    head = parts[0].removesuffix(".py")
    if head in LAYERS:
        return head
    if (ROOT / head / "__init__.py").exists():
        return "papers"
    return "top"  # cli, catalogue, parallel, pytest_plugin, __main__


def _imports(path: Path) -> list[tuple[int, tuple]]:
    """(line, the module path inside ``theory`` as parts) of each import of ``theory`` in a file."""
    rel = path.relative_to(ROOT).with_suffix("").parts
    package = rel[:-1] if rel[-1] != "__init__" else rel[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "theory":
                    out.append((node.lineno, tuple(a.name.split(".")[1:])))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if node.module and node.module.split(".")[0] == "theory":
                    base = tuple(node.module.split(".")[1:])
                    out += [(node.lineno, base or (a.name,)) for a in node.names]
                continue
            base = package[:len(package) - (node.level - 1)] + tuple(node.module.split(".") if node.module else ())
            out += [(node.lineno, base if base else (a.name,)) for a in node.names]
    return out


def back_arrows() -> list[str]:
    bad = []
    for path in sorted(ROOT.rglob("*.py")):
        own = _layer(path.relative_to(ROOT).parts)
        for line, target in _imports(path):
            to = _layer(target)
            if to in FORBIDDEN.get(own, ()):
                bad.append(f"{path.relative_to(ROOT.parent)}:{line}: {own} imports {to} (theory.{'.'.join(target)})")
    return bad


def test_no_back_arrow():
    assert back_arrows() == []


def test_the_check_sees_a_back_arrow(tmp_path, monkeypatch):
    """The check is not vacuous: a stats module importing core is reported."""
    fake = tmp_path / "theory"
    (fake / "stats").mkdir(parents=True)
    (fake / "core").mkdir()
    (fake / "__init__.py").write_text("")
    (fake / "core" / "__init__.py").write_text("")
    (fake / "stats" / "__init__.py").write_text("from ..core import x\nfrom theory.core.runner import y\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", fake)
    found = back_arrows()
    assert len(found) == 2 and all("stats imports core" in f for f in found)
