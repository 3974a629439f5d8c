"""Hypothesis profiles: ``ci`` (derandomized, used when CI is set) and ``dev``
(random, more examples). Choose with HYPOTHESIS_PROFILE.

The ``backend_name`` fixture runs a simulator test on numpy, on the strict device
stand-in (``tests/support/strict_device.py``, installed as ``cupy`` for that test only)
and, where CuPy sees a CUDA device, on the real CuPy (marked ``gpu``; skipped elsewhere);
tests build their backend with ``get_backend(backend_name, ...)``."""
import os

import pytest
from hypothesis import HealthCheck, settings

from simulations import cupy_available
from tests.support.strict_device import installed

_GPU = pytest.mark.skipif(not cupy_available(), reason="CuPy with a CUDA device is not available")

# backend_name is function-scoped but the same for every example of a test (it only
# patches sys.modules), so Hypothesis's fixture health check does not apply.
_QUIET = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
settings.register_profile("ci", derandomize=True, max_examples=25, deadline=None, suppress_health_check=_QUIET)
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=_QUIET[1:])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(params=["numpy", "strict", pytest.param("gpu", marks=[pytest.mark.gpu, _GPU])])
def backend_name(request):
    """"numpy"; "cupy" with the strict stand-in installed as the cupy module; or "cupy",
    the real one, on a machine with a CUDA device."""
    if request.param in ("numpy", "gpu"):
        yield {"numpy": "numpy", "gpu": "cupy"}[request.param]
        return
    with installed():
        yield "cupy"


@pytest.fixture
def strict_cupy():
    """"cupy", with the strict stand-in installed as the cupy module (device-only tests)."""
    with installed():
        yield "cupy"
