"""Two claims of He et al. (2015), declared once, as data: one exact, one Monte Carlo."""
import sympy as sp

from theory.core import Paper
from theory.kinds import Named, grid_sampling, identity_claim, mean_claim

# z is real, not positive: max(0, z) (like Heaviside(z) or sign(z)) depends on its sign, and a positive z
# would make max(0, z) = z, so the integral below would silently be sigma^2 instead of sigma^2 / 2.
z = sp.Symbol("z", real=True)
s = sp.Symbol("sigma", positive=True)


def relu_second_moment():
    """E[max(0, z)^2] for z ~ N(0, sigma^2), by integration over the whole line."""
    density = sp.exp(-z**2 / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2)
    return sp.integrate(sp.Max(0, z) ** 2 * density, (z, -sp.oo, sp.oo))


def he_layer(be, replicates, n):
    """||ReLU(W x)||^2 / ||x||^2 for W with iid N(0, 2/n) entries, a ReLU after the layer."""
    xp = be.xp
    W = be.normal((replicates, n, n)) * (2.0 / n) ** 0.5
    x = be.normal((replicates, n))
    y = xp.maximum(xp.matmul(W, x[..., None])[..., 0], 0)
    return {"ratio": xp.sum(y * y, -1) / xp.sum(x * x, -1)}


CLAIMS = (
    identity_claim(id="he2015.eq7.relu_half", where="Sec. 2.2, Eq. 7",
                   statement="E[max(0, z)^2] = Var[z] / 2 for zero-mean symmetric z (here Gaussian)",
                   lhs=relu_second_moment, rhs=lambda half: half * s**2,
                   constants={"half": Named("1/2", wrong=(1, "1/4"))}),
    mean_claim(id="he2015.eq10.forward", where="Sec. 2.2, Eq. 10",
               statement="With Var[w] = 2/n_l, a ReLU layer keeps the squared norm: E||ReLU(W x)||^2 = ||x||^2",
               sampling=grid_sampling(name="he2015.layer", grid={"n": (16, 64)}, simulate=he_layer, replicates=2000),
               value="ratio", target=lambda r, gain: gain / 2, constants={"gain": Named(2, wrong=(1,))},
               labels=("n",), tol=0.05, method="Monte Carlo, one weight draw per replicate"),
)

PAPER = Paper(key="he2015", reference="He, Zhang, Ren & Sun (2015), Delving deep into rectifiers", claims=CLAIMS,
              left_out=("Everything else: this package is a worked example.",))
