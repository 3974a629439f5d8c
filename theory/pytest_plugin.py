"""pytest plugin: one test item per catalogued claim, collected from
``theory/catalogue.py``. An item passes when the check's verdict equals the verdict
recorded in the catalogue; a failure reads like a referee's note.

Options (declared here, loaded from the root conftest):
``--paperchecks-seed`` (default seed of every Monte-Carlo draw), ``--mc-scale``
(multiplies Monte-Carlo sample sizes), ``--backend`` (numpy or cupy).
"""
from __future__ import annotations

import json

import pytest

from .evidence import Context, Verdict


def pytest_addoption(parser):
    g = parser.getgroup("paperchecks")
    g.addoption("--paperchecks-seed", type=int, default=Context.seed, help="seed of the Monte-Carlo draws")
    g.addoption("--mc-scale", type=float, default=1.0, help="multiply Monte-Carlo sample sizes")
    g.addoption("--backend", default="numpy", choices=("numpy", "cupy"), help="array backend of the simulators")


def context_from(config) -> Context:
    return Context(seed=config.getoption("--paperchecks-seed"), scale=config.getoption("--mc-scale"),
                   backend=config.getoption("--backend"))


def pytest_collect_file(file_path, parent):
    if file_path.name == "catalogue.py" and file_path.parent.name == "theory":
        return ClaimFile.from_parent(parent, path=file_path)
    return None


class ClaimFile(pytest.File):
    def collect(self):
        from .catalogue import CLAIMS

        for claim in CLAIMS:
            item = ClaimItem.from_parent(self, name=claim.id, claim=claim)
            item.add_marker(getattr(pytest.mark, claim.paper))
            if claim.slow:
                item.add_marker(pytest.mark.slow)
            yield item


class ClaimMismatch(Exception):
    def __init__(self, claim, evidence):
        super().__init__(claim.id)
        self.claim, self.evidence = claim, evidence


class ClaimItem(pytest.Item):
    def __init__(self, *, claim, **kwargs):
        super().__init__(**kwargs)
        self.claim = claim

    def runtest(self):
        from .catalogue import evaluate

        ev = evaluate(self.claim, context_from(self.config))
        self.user_properties.append(("verdict", ev.verdict.value))
        if ev.verdict != self.claim.verdict:
            raise ClaimMismatch(self.claim, ev)

    def repr_failure(self, excinfo):
        if not isinstance(excinfo.value, ClaimMismatch):
            return super().repr_failure(excinfo)
        c, ev = excinfo.value.claim, excinfo.value.evidence
        lines = [
            f"Claim {c.id} ({c.paper}, {c.where})",
            f"  Statement: {c.statement}",
            f"  Recorded verdict: {c.verdict.value}; this run: {ev.verdict.value}",
            f"  Measured: {json.dumps(ev.to_json()['measured'])}",
            f"  Expected: {json.dumps(ev.to_json()['expected'])}",
            f"  Margin: {ev.margin} ({ev.margin_unit})",
            f"  Method: {ev.method}",
            f"  Resolution: {ev.resolution}",
        ]
        if ev.counterexample is not None:
            lines.append(f"  Counterexample: {json.dumps(ev.to_json()['counterexample'])}")
        if ev.verdict == Verdict.INCONCLUSIVE:
            lines.append("  The check could not resolve the required deviation: rerun with a larger --mc-scale.")
        lines.append(f"  Rerun: {c.rerun}")
        return "\n".join(lines)

    def reportinfo(self):
        return self.path, None, f"claim {self.claim.id}"
