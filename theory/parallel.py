"""Fan Monte-Carlo blocks out to Dask workers (the ``[dist]`` extra).

Block b of a measurement holds the numbers of the streams (seed, measurement, row, b),
so a report drawn on a cluster equals the serial one, number for number; a cluster
only makes a large ``--mc-scale`` affordable. ``--workers N`` starts a LocalCluster
of N single-threaded worker processes; ``--scheduler ADDRESS`` joins a running one.
"""
from __future__ import annotations

from contextlib import contextmanager

from .core.runner import set_executor

__all__ = ["block_executor"]


@contextmanager
def block_executor(workers: int | None = None, scheduler: str | None = None):
    """Within the block, Monte-Carlo blocks are drawn by Dask (when asked for)."""
    if not workers and not scheduler:
        yield None
        return
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be an integer >= 1, got {workers}")
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise RuntimeError("--workers and --scheduler need Dask: pip install -e '.[dist]'") from None
    cluster = None
    if scheduler:
        client = Client(scheduler)
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        set_executor(client.get_executor(pure=False))
        yield client
    finally:
        set_executor(None)
        client.close()
        if cluster is not None:
            cluster.close()
