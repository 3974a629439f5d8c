"""ZeroInit/Fixup ICLR 2019 submission: positively homogeneous networks, gradient lower
bounds (Theorems 1-2), variance growth (Eq. 2), the ZeroInit design principles, a
synthetic Table 1 and the related-work recurrences."""
from .catalogue import PAPER

__all__ = ["PAPER"]
