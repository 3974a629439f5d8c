"""Arpit, Campos & Bengio (2019): weight-normalized ReLU nets and ResNets."""
from .catalogue import PAPER

__all__ = ["PAPER"]
