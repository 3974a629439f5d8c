"""Every checkable claim of Arpit, Campos & Bengio (2019), declared once, as data:
Section 3 and the proofs of Theorems 5-6 in :mod:`.claims_sec3`, Section 4 and the
proofs of Theorems 7-8 in :mod:`.claims_sec4`; the coverage map in :mod:`.coverage`
(App. C's items in :mod:`.coverage_proofs`).

Locations refer to ../shared/papers/arpit2019_weightnorm_resnet_init.txt.
"""
from __future__ import annotations

from ..core import Paper
from . import claims_sec3, claims_sec4
from .coverage import COVERAGE

CLAIMS = claims_sec3.CLAIMS + claims_sec4.CLAIMS

PAPER = Paper(
    key="arpit2019",
    reference="Arpit, Campos & Bengio (2019), How to Initialize your Network? Robust Initialization for WeightNorm "
              "& ResNets, NeurIPS 2019 (Advances in Neural Information Processing Systems 32), arXiv:1906.02341",
    url="https://arxiv.org/abs/1906.02341",
    text="arpit2019_weightnorm_resnet_init.txt",
    claims=CLAIMS,
    left_out=(
        "Sec. 5.1-5.3, Figures 2-4, Tables 1-4, Fig. 3 and the Hessian norms of Table 2 (MNIST/CIFAR training "
        "accuracy, seed robustness, Hessian spectral norms of trained-size WRNs): need the datasets, GPUs and days of "
        "training that this suite does not have; sec5.depth_robustness checks the initialization-time expectation "
        "behind Fig. 3 (right).",
        "App. B, Figure 6 and footnote 7 (A3C on Atari Pong): reinforcement-learning runs, out of scope.",
        "Footnote 3 (convolutional fan-in k^2 c): the gain sqrt(2 n_{l-1}/n_l) is the same under the k^2 c and c "
        "conventions for equal kernel sizes; a convention, not a checkable statement.",
        "Notation only, no claim: Eq. 37 writes E[z_j^2] outside the sum with a free index j; Eq. 44 and 48 and the "
        "proof of Theorem 8 number the blocks F_1..F_B where Eq. 6 uses F_0..F_{B-1}; 'dl/da^l ~ dl/da_L' in Sec. 3 "
        "lacks the norm on its right side; App. A.1 says 'gamma parameter' where the gain g is meant; Sec. 4 calls "
        "||F_b(h)|| = ||h|| the 'second' assumption though it is stated first.",
    ),
    coverage=COVERAGE,
)
