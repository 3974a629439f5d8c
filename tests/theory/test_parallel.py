"""Distributed drawing gives the same report as a serial run, number for number: a
small report on a Dask LocalCluster of 2 workers against the serial one (the looks
that draw several blocks at once send them to the workers)."""
import json

import pytest

from theory.calibration import CASES
from theory.core import RunContext, clear_caches, runner
from theory.core.registry import get
from theory.report.records import run_records


class _Counting:
    def __init__(self, executor):
        self.executor, self.blocks = executor, 0

    def map(self, fn, *iterables):
        out = list(self.executor.map(fn, *iterables))
        self.blocks += len(out)
        return out


def _claims():
    return [get("arpit2019.sec3.gain_discrepancy"), next(c for c in CASES if c.name == "mean").claim("true", 0.05)]


def _strip(records):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


def test_local_cluster_report_equals_serial():
    pytest.importorskip("dask.distributed")
    from theory.parallel import block_executor

    ctx = RunContext(scale=0.5)
    clear_caches()
    serial = _strip(run_records(_claims(), ctx, progress=False))
    clear_caches()
    with block_executor(workers=2):
        counting = _Counting(runner._EXECUTOR)
        runner.set_executor(counting)
        distributed = _strip(run_records(_claims(), ctx, progress=False))
    clear_caches()
    assert counting.blocks >= 4
    assert json.dumps(serial, sort_keys=True) == json.dumps(distributed, sort_keys=True)


def test_workers_must_be_positive():
    from theory.parallel import block_executor

    with pytest.raises(ValueError, match="workers must be an integer >= 1"):
        with block_executor(workers=-1):
            pass
