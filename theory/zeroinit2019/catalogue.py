"""Every checkable claim of the ZeroInit/Fixup ICLR 2019 submission, declared once, as
data (Sec. 2 and App. A in :mod:`.claims_sec2`, Sec. 3-5 in :mod:`.claims_sec3_5`), and
the paper's declaration. Locations refer to
../shared/papers/zeroinit_fixup_iclr2019_submission.txt, a lossy extraction."""
from __future__ import annotations

from ..core import Paper
from .claims_sec2 import CLAIMS as SEC2
from .claims_sec3_5 import CLAIMS as SEC3_5
from .coverage import COVERAGE

CLAIMS = SEC2 + SEC3_5

PAPER = Paper(
    key="zeroinit2019",
    reference="Anonymous (2019), The Unreasonable Effectiveness of (Zero) Initialization in Deep Residual Learning, "
              "ICLR 2019 submission (OpenReview H1gsz30cKX); published as Zhang, Dauphin & Ma, Fixup Initialization: "
              "Residual Learning Without Normalization, ICLR 2019, arXiv:1901.09321",
    url="https://openreview.net/forum?id=H1gsz30cKX",
    text="zeroinit_fixup_iclr2019_submission.txt",
    claims=CLAIMS,
    left_out=(
        "Sec. 4.1 / Table 1 as printed (WideResNet-10-1 and -64-1 on the first 1024 CIFAR-10/SVHN images, power "
        "method, 3 trials): needs the datasets; the synthetic analogue is catalogued (table1.*). It differs in: dense "
        "pre-activation blocks instead of 3x3 convolutions, no downsampling groups (BatchNorm's row: the WRN's three "
        "groups with their projection shortcuts, but no spatial downsampling), N(0, I) inputs with random labels, "
        "a narrower width (see each claim's method line), Lanczos instead of the power method (tested to agree), "
        "ratios of geometric means. The authors' public code has no Table 1 code (no Hessian, 1/2-scaling or LSUV), "
        "so the WRN shortcut type, LSUV's details and the parameters the Hessian covers stay readings.",
        "Tables 2-4, Figures 2-4 (CIFAR-10, SVHN, ImageNet, IWSLT/WMT training results; first-epoch accuracy up to "
        "10,000 layers): need datasets and training runs.",
        "Reconstructed from the lossy extraction: Eq. 2-5 and Eq. 10 (theory/zeroinit2019/homogeneity.py), the "
        "L^(-1/(2m-2)) scaling (claims_sec3_5.py, confirmed by the authors' code) and the 1/2-scaling recurrence "
        "(sec3_5_exact.py).",
    ),
    coverage=COVERAGE,
)
