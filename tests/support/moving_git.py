"""A git state that moves during a run: the first read gives commit A (clean), every later
read commit B (clean), as when a commit of code lands while a report, a figure or a
calibration section runs. Patched into every module that reads it, so the tests see
whether a run records the state it started in (:func:`simulations.core.provenance.state_since`)."""
from __future__ import annotations

import importlib

START = {"commit": "a" * 40, "dirty": False}
LATER = {"commit": "b" * 40, "dirty": False}
#: Modules that read git_state at the start or at the end of a run.
READERS = ("simulations.core.provenance", "simulations.figures.cli", "theory.report")


def moving_git_state(monkeypatch) -> None:
    """Patch git_state (START, then LATER) and the code diff state_since asks git for (the
    code differs from START's commit, as it would after a commit of code)."""
    reads = iter([START])
    prov = importlib.import_module("simulations.core.provenance")

    def fake_state():
        return dict(next(reads, LATER))

    for name in READERS:
        monkeypatch.setattr(importlib.import_module(name), "git_state", fake_state)
    real_git = prov._git
    monkeypatch.setattr(prov, "_git", lambda *a: "code.py" if a[:1] == ("diff",) else real_git(*a))
