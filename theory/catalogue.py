"""The one catalogue of claims, gathered from the paper packages (each declares a
``PAPER``); pytest collects one item per claim from this file, so every claim's node
id is ``theory/catalogue.py::<claim id>``.

>>> from theory.catalogue import claims, ids
>>> len(ids()) == len(set(ids())) and all(c.id.startswith(c.paper + ".") for c in claims())
True
"""
from .core.registry import claims, get, ids, paper, papers

__all__ = ["claims", "get", "ids", "paper", "papers"]
