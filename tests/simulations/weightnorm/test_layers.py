"""The WN layer's hand-written vector-Jacobian product against central finite differences,
on numpy and on the strict device stand-in."""
import numpy as np
from hypothesis import given

from simulations import WNLinear, get_backend, to_host, wn_forward, wn_vjp
from tests.strategies import layer_shapes, seeds

EPS = 1e-6


@given(shape=layer_shapes(), seed=seeds)
def test_wn_layer_vjp_matches_finite_differences(backend_name, shape, seed):
    N, batch, n_in, n_out = shape
    be = get_backend(backend_name, seed=seed)
    layer = WNLinear(be.normal((N, n_out, n_in)), be.normal((N, n_out)), be.normal((N, n_out)))
    h = be.normal((N, batch, n_in))
    delta = be.normal((N, batch, n_out))
    dh, g = wn_vjp(layer, h, delta)

    def loss(**kw):
        lay = WNLinear(kw.get("v", layer.v), kw.get("g", layer.g), kw.get("b", layer.b))
        return float((delta * wn_forward(lay, kw.get("h", h))).sum())

    for name, val, grad in (("h", h, dh), ("v", layer.v, g["v"]), ("g", layer.g, g["g"]), ("b", layer.b, g["b"])):
        d = be.normal(val.shape)
        fd = (loss(**{name: val + EPS * d}) - loss(**{name: val - EPS * d})) / (2 * EPS)
        assert np.isclose(fd, float(to_host((grad * d).sum())), rtol=1e-5, atol=1e-7), name
