"""ZeroInit/Fixup ICLR 2019 submission: p.h. networks, gradient lower bounds (Theorems
1-2) and variance growth (Eq. 2) — checks (checks) and the claim catalogue (catalogue)."""
from .catalogue import CLAIMS

__all__ = ["CLAIMS"]
