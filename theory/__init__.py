"""paperchecks.theory: exact evaluators, statistics and the claim catalogue.

Run ``pytest theory`` for one verdict per claim, ``python -m theory report`` to
regenerate paper_checks.md/.json.
"""
from .evidence import Claim, Context, Evidence, Mutation, PAPERS, Verdict
from .catalogue import CLAIMS, evaluate, get, ids, measure, monte_carlo_count

__all__ = ["Claim", "Context", "Evidence", "Mutation", "PAPERS", "Verdict",
           "CLAIMS", "evaluate", "get", "ids", "measure", "monte_carlo_count"]
