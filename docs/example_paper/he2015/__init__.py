"""He, Zhang, Ren & Sun (2015), Delving deep into rectifiers: the worked example of
docs/adding_a_paper.md (not one of the four papers: copy this package to
theory/he2015/ and it is discovered)."""
from .catalogue import PAPER

__all__ = ["PAPER"]
