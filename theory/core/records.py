"""The typed record between a Monte-Carlo measurement and its judge.

A Monte-Carlo measurement is drawn in *blocks*. Each block holds the same rows (one
row per setting: a law, a shape, a width, ...); a row holds per-replicate arrays
(axis 0 = the replicate, one independent network draw) on the host. Judges read a
:class:`Samples`: the blocks drawn so far, concatenated row by row. Because block b
always holds the same numbers (its random stream is named by the block index), the
first k blocks are the same data whether they were drawn in one call or in k.

>>> import numpy as np
>>> b0 = Block((Row({"n": 4}, {"x": np.array([1.0, 2.0])}),), meta={"depth": 3})
>>> b1 = Block((Row({"n": 4}, {"x": np.array([3.0])}),), meta={"depth": 3})
>>> s = Samples([b0, b1])
>>> s.row(n=4)["x"].tolist(), s.meta["depth"], s.replicates
([1.0, 2.0, 3.0], 3, 3)
>>> s.head(1).row(n=4)["x"].tolist()
[1.0, 2.0]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Mapping, Sequence

import numpy as np

from ..verdicts import TooFewReplicates

__all__ = ["Row", "Block", "Samples", "TooFewReplicates"]


@dataclass(frozen=True)
class Row:
    """One setting: ``labels`` name it; ``data`` maps names to host arrays whose axis 0
    is the replicate."""

    labels: Mapping[str, Any]
    data: Mapping[str, np.ndarray]

    def __post_init__(self):
        sizes = set()
        for k, v in self.data.items():
            if not isinstance(v, np.ndarray):
                raise TypeError(f"row data {k!r} must be a host numpy array (copy device arrays with to_host at the "
                                f"measure boundary), got {type(v).__name__}")
            sizes.add(v.shape[0] if v.ndim else None)
        if len(sizes) > 1 or None in sizes:
            raise ValueError(f"row data of {dict(self.labels)} must share axis 0 (replicates), got sizes {sizes}")

    def __getitem__(self, name: str) -> np.ndarray:
        return self.data[name]

    def __getattr__(self, name: str):
        labels = self.__dict__.get("labels", {})
        if name in labels:
            return labels[name]
        raise AttributeError(name)

    @property
    def replicates(self) -> int:
        return next(iter(self.data.values())).shape[0] if self.data else 0

    def matches(self, labels: Mapping[str, Any]) -> bool:
        return all(k in self.labels and self.labels[k] == v for k, v in labels.items())


@dataclass(frozen=True)
class Block:
    """The rows of one block of replicates, and constants shared by every block."""

    rows: tuple
    meta: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "rows", tuple(self.rows))


class Samples:
    """The blocks of a measurement drawn so far, concatenated row by row on demand."""

    def __init__(self, blocks: Sequence[Block]):
        if not blocks:
            raise ValueError("blocks must hold at least one block")
        first = blocks[0]
        for b in blocks[1:]:
            if [dict(r.labels) for r in b.rows] != [dict(r.labels) for r in first.rows]:
                raise ValueError("every block must hold the same rows in the same order")
        self._blocks = tuple(blocks)

    @property
    def n_blocks(self) -> int:
        return len(self._blocks)

    @property
    def meta(self) -> Mapping[str, Any]:
        return self._blocks[0].meta

    @cached_property
    def rows(self) -> tuple:
        if len(self._blocks) == 1:
            return self._blocks[0].rows
        out = []
        for i, r in enumerate(self._blocks[0].rows):
            data = {k: np.concatenate([b.rows[i].data[k] for b in self._blocks]) for k in r.data}
            out.append(Row(r.labels, data))
        return tuple(out)

    @property
    def replicates(self) -> int:
        """Replicates per row (the largest, where rows differ)."""
        return max(r.replicates for r in self.rows)

    def head(self, n_blocks: int) -> "Samples":
        """The first ``n_blocks`` blocks (the data a look at that size sees)."""
        return Samples(self._blocks[:n_blocks])

    def select(self, **labels) -> list:
        """The rows whose labels include ``labels``, in order."""
        return [r for r in self.rows if r.matches(labels)]

    def row(self, **labels) -> Row:
        """The one row whose labels include ``labels``."""
        found = self.select(**labels)
        if len(found) != 1:
            raise KeyError(f"labels {labels} must match exactly one row, matched {len(found)}")
        return found[0]

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)
