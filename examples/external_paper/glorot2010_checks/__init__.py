"""Glorot & Bengio (2010), Understanding the difficulty of training deep feedforward neural
networks (AISTATS 2010): its claims, checked with paperchecks."""
from .catalogue import PAPER

__all__ = ["PAPER"]
