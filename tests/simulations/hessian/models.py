"""The small Table 1 models the Hessian tests share."""
from simulations import build_classifier, get_backend, parameters, set_parameters, synthetic_batch


def model_of(seed, scheme, width=4, blocks=3, classes=3, n=2, batch=7, perturb=True, name="numpy", be=None):
    """(backend, model, x, labels); ``perturb`` moves off ZeroInit's zeros and unit scalars,
    so that every term of the Hessian is exercised."""
    be = be or get_backend(name, seed=seed)
    x, y = synthetic_batch(be, n, batch, width, classes)
    model = build_classifier(be, scheme, width, blocks, classes, n, data=x)
    if perturb:
        set_parameters(model, [p + 0.3 * be.normal(p.shape) for p in parameters(model)])
    return be, model, x, y
