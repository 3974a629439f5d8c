"""Hypothesis profiles: ``ci`` (derandomized, used when CI is set) and ``dev``
(random, more examples). Choose with HYPOTHESIS_PROFILE."""
import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
