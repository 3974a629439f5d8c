"""The claims of Glorot & Bengio (2010), Understanding the difficulty of training deep
feedforward neural networks (AISTATS 2010), Sec. 2 and 4.2.1, declared once, as data:
the variance of the standard and the normalized initializations (exact, mpmath at two
precisions) and the forward variance of Eq. 5 (Monte Carlo), with one label of Eq. 1
recorded as printed beside its intended reading.
"""
import mpmath

from theory.core import Paper
from theory.kinds import Named, grid_sampling, mean_claim, precision_claim, reading

from .coverage import COVERAGE
from .linear_net import forward_variance

#: Layer sizes of the paper's networks: 32 x 32 inputs, 1000 hidden units, 10 classes.
WIDTHS = ({"n_in": 1024, "n_out": 1000}, {"n_in": 1000, "n_out": 1000}, {"n_in": 1000, "n_out": 10})


def unit_gain(n_in, n_out):
    """n_in E[w^2] for w ~ U[-1, 1] (quadrature): the forward gain of a layer whose weights
    have half-width 1; half-width 1/sqrt(N) divides it by N."""
    return n_in * mpmath.quad(lambda w: w * w / 2, [-1, 1])


def normalized_variance(n_in, n_out):
    """Var[W] for W ~ U[-a, a], a = sqrt(6) / sqrt(n_in + n_out) (Eq. 16), by quadrature."""
    a = mpmath.sqrt(6) / mpmath.sqrt(n_in + n_out)
    return mpmath.quad(lambda w: w * w / (2 * a), [-a, a])


def scaled_third(n_in, n_out, n_is, gain):
    """The gain Eq. 15 states (n Var[W] = gain) times N, the n of Eq. 1: the size of the
    previous layer (n_is="fan_in"), or the number of columns of W^i under s^i = z^i W^i
    (n_is="columns": the next layer's size)."""
    return gain * {"fan_in": n_in, "columns": n_out}[n_is]


STANDARD = precision_claim(
    id="glorot2010.eq15.standard_variance", where="Sec. 4.2.1, Eq. 15 (with Eq. 1)",
    statement="The standard initialization W ~ U[-1/sqrt(n), 1/sqrt(n)], n the size of the previous layer, "
              "gives n Var[W] = 1/3, at the paper's layer sizes",
    grid=WIDTHS, lhs=unit_gain, rhs=scaled_third,
    constants={"n_is": Named("fan_in"), "gain": Named("1/3", wrong=("1/2", 1))})

EQ1_PRINTED, EQ15 = reading(
    STANDARD, printed_id="glorot2010.eq1.columns_printed", printed={"n_is": "columns"},
    printed_where="Sec. 2, Eq. 1 (with the convention s^i = z^i W^i of Sec. 4.2.1)",
    printed_statement="W ~ U[-1/sqrt(n), 1/sqrt(n)] with n 'the number of columns of W' gives n_i Var[W^i] = 1/3, "
                      "read with W^i of shape n_i x n_{i+1} (s^i = z^i W^i)",
    severity="wording",
    impact="The same sentence says n is the size of the previous layer, the reading every implementation uses and "
           "Eq. 15 assumes; the parenthesis differs from it only between layers of unequal sizes (the input and "
           "output layers) and under the row convention of Sec. 4.2.1.")

EQ16 = precision_claim(
    id="glorot2010.eq16.normalized_variance", where="Sec. 4.2.1, Eq. 16 and Eq. 12",
    statement="The normalized initialization W ~ U[-sqrt(6)/sqrt(n_j + n_{j+1}), sqrt(6)/sqrt(n_j + n_{j+1})] has "
              "Var[W] = 2/(n_j + n_{j+1}) (Eq. 12)",
    grid=WIDTHS, lhs=normalized_variance, rhs=lambda n_in, n_out, k: k / (n_in + n_out),
    constants={"k": Named(2, wrong=(1, 3))})

LINEAR = grid_sampling(name="glorot2010.forward_variance", simulate=forward_variance, replicates=400, budget=32,
                       grid={"init": ("standard", "normalized"), "width": (32, 64), "layer": (1, 2, 4)})

EQ5 = mean_claim(
    id="glorot2010.eq5.forward_variance", where="Sec. 4.2.1, Eq. 5 (with Eq. 13 and 15)",
    statement="In the linear regime, Var[z^i] = Var[x] prod_{i'=0}^{i-1} n_{i'} Var[W^{i'}]: at equal widths "
              "(n Var[W])^i, with n Var[W] = 1/3 for the standard init and 1 for the normalized one",
    sampling=LINEAR, value="ratio", labels=("init", "width", "layer"), tol=0.05,
    target=lambda r, gain, extra: (gain if r.init == "standard" else 1.0) ** (r.layer + extra),
    constants={"gain": Named("1/3", wrong=("1/2", 1)), "extra": Named(0, wrong=(1,))},
    method="Monte Carlo, one linear network (f'(0) = 1, Eq. 4) and input per replicate")

CLAIMS = (EQ1_PRINTED, EQ15, EQ16, EQ5)

PAPER = Paper(
    key="glorot2010",
    reference="Glorot & Bengio (2010), Understanding the difficulty of training deep feedforward neural networks "
              "(AISTATS 2010)",
    claims=CLAIMS, coverage=COVERAGE,
    left_out=("The training experiments (Sec. 3-5 figures, Table 1): they need the datasets and training runs.",
              "No transcription of the paper is kept with this example: its equations are quoted from the "
              "published AISTATS 2010 text."))
