"""A judge parameter that applies only to some values of its judge's selector (variant,
reading, place, check, parts, cases, form, factor, perturb) is never silently ignored: off its default
with the selector elsewhere it raises ValueError naming the parameter and the selector
values where it applies; an unknown selector value raises too. The checks run before the
measurement is read, so the judges are called without one."""
import re

import pytest

from theory.arpit2019 import exact_claims as ax
from theory.arpit2019 import proof_ranges as ar
from theory.arpit2019 import proof_steps as ap
from theory.core import JudgeContext, RunContext
from theory.core.claims import applies_only
from theory.daneshmand2021 import exact_claims as dx
from theory.daneshmand2021 import figure_judges as dfj
from theory.daneshmand2021 import proof_steps as dp
from theory.defazio_bottou import exact_claims as bx
from theory.zeroinit2019 import sec2_symbolic as zs
from theory.zeroinit2019 import sec3_5_exact as zx

#: (judge, arguments, the message's start): each parameter at a selector where it does not apply.
IGNORED = [
    (ax.judge_kn, {"place": "eq3", "reading": "n_sphere", "product": "literal"},
     "product applies only with place in ['eq9']"),
    (ax.judge_eq18, {"variant": "printed", "mass_factor": "2"},
     "mass_factor applies only with variant in ['corrected']"),
    (ar.judge_eq35, {"parts": ("sum", "eq36"), "eq35_factor": "1"},
     "eq35_factor applies only with parts holding one of ['eq35']"),
    (ar.judge_eq35, {"parts": ("eq35",), "j_range": ("1", "m")},
     "j_range applies only with parts holding one of ['eq36']"),
    (ar.judge_eq35, {"parts": ("sum",), "eq39_cross": "2"},
     "eq39_cross applies only with parts holding one of ['eq39']"),
    (ap.judge_fn8_deterministic, {"variant": "printed", "value": 1.5},
     "value applies only with variant in ['corrected']"),
    (ap.judge_fn8_deterministic, {"variant": "printed", "tol": 1e-3}, "tol applies only with variant in ['corrected']"),
    (dx.judge_inverse, {"variant": "printed", "power": -0.999}, "power applies only with variant in ['pseudo']"),
    (dx.judge_smin_printed, {"variant": "printed", "t": 2.0}, "t applies only with variant in ['concentration']"),
    (dx.judge_eq6, {"check": "equality", "strict": False}, "strict applies only with check in ['decrease']"),
    (dx.judge_eq6, {"check": "orthogonal", "factor": 0.9},
     "factor applies only with check in ['decrease', 'equality']"),
    (dx.judge_eq6, {"check": "decrease", "equality_at": "near_scalar"},
     "equality_at applies only with check in ['equality']"),
    (dp.judge_cor3_index, {"variant": "printed", "depth_constant": 5},
     "depth_constant applies only with variant in ['corrected']"),
    (dp.judge_cor3_index, {"variant": "printed", "width_n_power": 1},
     "width_n_power applies only with variant in ['corrected']"),
    (dp.judge_l0, {"variant": "printed", "factor": 0.6}, "factor applies only with variant in ['corrected']"),
    (ax.judge_wallis, {"cases": ("odd",)}, "cases applies only with factor != 1 (the products it multiplies)"),
    (dx.judge_eq6, {"variant": "orthogonal", "check": "orthogonal", "power": -0.999},
     "power applies only with variant in ['whitening']"),
    (dx.judge_eq6, {"variant": "whitening", "check": "decrease", "power": -0.999},
     "power applies only with check in ['orthogonal']"),
    (bx.judge_symbolic, {"factor": 2}, "factor applies only with perturb True or label parts"),
    (dfj.judge_centered, {"variant": "printed", "limit_scale": 1.04},
     "limit_scale applies only with variant in ['corrected']"),
    (dp.judge_a1_alpha, {"variant": "corrected", "alpha": 0.25}, "alpha applies only with variant in ['printed']"),
    (dp.judge_a1_alpha, {"variant": "printed", "exponent": 0.4}, "exponent applies only with variant in ['corrected']"),
    (dp.judge_a1_alpha, {"variant": "printed", "equality_at": "orthogonal_columns"},
     "equality_at applies only with variant in ['corrected']"),
    (dp.judge_intro_rate, {"variant": "printed", "rename": 1}, "rename applies only with variant in ['corrected']"),
    (dp.judge_intro_rate, {"variant": "printed", "width_constant": 3},
     "width_constant applies only with variant in ['corrected']"),
    (zs.judge_eq5_toy, {"reading": "realized_norm", "log_c_term": 0.0},
     "log_c_term applies only with reading in ['conditional']"),
    (zs.judge_eq11_toy, {"form": "printed", "bound_factor": 2.0},
     "bound_factor applies only with form in ['corrected']"),
    (zs.judge_eq11_toy, {"form": "printed", "order": 1}, "order applies only with form in ['corrected']"),
]

#: (judge, arguments, the parameter named): a selector outside its values.
UNKNOWN = [
    (ax.judge_kn, {"place": "eq4", "reading": "n_sphere"}, "place"),
    (ax.judge_eq18, {"variant": "fixed"}, "variant"),
    (ax.judge_factor_range, {"shift": 2}, "shift"),
    (ap.judge_eq5, {"variant": "fixed"}, "variant"),
    (ar.judge_eq35, {"parts": ("eq37",)}, "parts"),
    (ar.judge_eq35, {"parts": ()}, "parts"),
    (ap.judge_eq56, {"variant": "fixed"}, "variant"),  # no row matched: it held vacuously
    (ap.judge_eq59, {"square": "both"}, "square"),
    (ap.judge_eq61, {"variant": "fixed"}, "variant"),
    (ap.judge_fn8_deterministic, {"variant": "fixed"}, "variant"),
    (dx.judge_inverse, {"variant": "fixed"}, "variant"),
    (dx.judge_smin_printed, {"variant": "fixed"}, "variant"),
    (dx.judge_eq6, {"check": "increase"}, "check"),
    (dx.judge_eq6, {"variant": "fixed"}, "variant"),
    (dp.judge_cor3_index, {"variant": "fixed"}, "variant"),
    (dp.judge_l0, {"variant": "fixed"}, "variant"),
    (dfj.judge_centered, {"variant": "fixed"}, "variant"),
    (dp.judge_a1_alpha, {"variant": "fixed"}, "variant"),
    (dp.judge_intro_rate, {"variant": "fixed"}, "variant"),
    (dp.judge_orthogonal_weights, {"weights": "uniform"}, "weights"),
    (zs.judge_eq5_toy, {"reading": "expected_norm"}, "reading"),
    (zs.judge_eq11_toy, {"form": "fixed"}, "form"),
    (zx.judge_alpha, {"scale_exponent": "m"}, "scale_exponent"),  # None among its values
]


def _id(case):
    judge, kwargs = case[0], case[1]
    return f"{judge.__module__.split('.')[1]}.{judge.__name__}({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})"


@pytest.mark.parametrize("judge,kwargs,message", IGNORED, ids=[_id(c) for c in IGNORED])
def test_parameter_off_its_selector_is_rejected(judge, kwargs, message):
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        judge(None, None, **kwargs)


@pytest.mark.parametrize("judge,kwargs,name", UNKNOWN, ids=[_id(c) for c in UNKNOWN])
def test_unknown_selector_value_is_rejected(judge, kwargs, name):
    with pytest.raises(ValueError, match=f"^{name} must be"):
        judge(None, None, **kwargs)


def test_wallis_cases_select_where_factor_applies():
    with pytest.raises(ValueError, match=r"^cases applies only with factor != 1"):
        ax.judge_wallis(None, None, cases=("odd",))
    with pytest.raises(ValueError, match=r"^cases must be a non-empty subset of \('odd', 'even'\)"):
        ax.judge_wallis(None, None, factor=1.01, cases=())


def test_applies_only_names_a_parameter_the_judge_has():
    with pytest.raises(TypeError, match="has no parameter"):
        applies_only("variant", scale=("corrected",))(lambda m, ctx, variant="printed": None)


def test_default_values_pass_through():
    """At its default (the same value, not only the same object) a parameter is accepted
    with any selector value; the judge then reads its measurement."""
    with pytest.raises(TypeError, match="not subscriptable"):  # past the checks: None is not a measurement
        dp.judge_l0(None, JudgeContext.exact(RunContext()), variant="printed", factor=1)
