"""Run independent calibration tasks in worker processes: each task's numbers depend
only on its own seeds, so any number of jobs gives the same results, in task order."""
from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

__all__ = ["default_jobs", "map_tasks"]


def default_jobs() -> int:
    """The CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _one_thread(fn, args):
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):
        return fn(*args)


def map_tasks(fn, tasks: list, jobs: int, desc: str, progress: bool = True) -> list:
    """[fn(*t) for t in tasks], on ``jobs`` processes (one BLAS thread each) when jobs > 1;
    with ``progress`` a bar, shown only on a terminal."""
    from tqdm import tqdm

    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an integer >= 1, got {jobs!r}")
    if jobs == 1 or len(tasks) <= 1:
        return [fn(*t) for t in tqdm(tasks, desc=desc, disable=None if progress else True)]
    with ProcessPoolExecutor(min(jobs, len(tasks))) as pool:
        futures = [pool.submit(_one_thread, fn, t) for t in tasks]
        return [f.result() for f in tqdm(futures, desc=desc, disable=None if progress else True)]
