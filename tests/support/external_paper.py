"""The worked external paper (examples/external_paper) as if installed: its directory on
sys.path and the entry points its pyproject.toml declares, for in-process tests (.ci/run
installs it with pip)."""
import importlib.metadata
import sys
import tomllib
from contextlib import contextmanager
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "external_paper"


@contextmanager
def installed_example(monkeypatch):
    """Register examples/external_paper's papers for the duration (``monkeypatch``: pytest's)."""
    from theory.core import registry

    meta = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())
    points = tuple(importlib.metadata.EntryPoint(k, v, registry.GROUP)
                   for k, v in meta["project"]["entry-points"][registry.GROUP].items())
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.setattr(registry, "_entry_points", lambda: points)
    registry.papers.cache_clear()
    try:
        yield
    finally:
        registry.papers.cache_clear()
        for name in [m for m in sys.modules if m.startswith("glorot2010_checks")]:
            del sys.modules[name]
