"""Numbers and recorded values in words: what the evidence renderer (:mod:`.render`)
builds its sentences from.

Numbers are shown at 4 significant digits and never cut: an integer with thousands
separators, a float in plain notation between 1e-4 and 1e6 and in ``e`` notation
outside, a number inside a text (``"E[V] <= 0.144721"``) rounded the same way. A dict
of a judge's row becomes a phrase: the part it checks, where (``at n=2, d=1,024``),
the quantity with its interval and sample size, then what it was compared with; the
bookkeeping of the tests (degrees of freedom, p-values, row verdicts) is left to the
JSON, which keeps every number at full precision.

>>> num(16000), num(1.5018735317657004), num(1.3322676295501878e-15), num(2.0), num(9.721814310366127e+24)
('16,000', '1.502', '1.332e-15', '2', '9.722e24')
>>> tidy("E[V(H_+) | H] <= 0.144721 at l = 3.")
'E[V(H_+) | H] <= 0.1447 at l = 3.'
>>> phrase({"mean": 1.5018735317657004, "se": 0.0017, "n": 16000, "interval": [1.4927290436586707, 1.5110396]},
...        name_main=False)
'1.502 (interval 1.493 to 1.511, 16,000 replicates)'
>>> phrase({"part": "Eq. 2", "d": 2, "n": 1, "P(sigma_min <= sqrt(d) - sqrt(n))": 0.08220978425157573})
'Eq. 2: at d=2, n=1: P(sigma_min <= sqrt(d) - sqrt(n)) = 0.08221'
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

__all__ = ["SIGNIFICANT", "num", "tidy", "value", "phrase", "parts", "Parts", "clip", "coordinates", "interval_text"]

#: Significant digits of every number shown in words.
SIGNIFICANT = 4

#: Keys that count a sample (shown as "16,000 replicates").
SIZES = {"replicates": "replicates", "networks": "networks", "runs": "runs", "draws": "draws",
         "pilot_runs": "pilot runs", "fit_runs": "fit runs", "layers_run": "layers run"}
#: Bookkeeping of the tests: kept in the JSON, not shown in words.
HIDDEN = frozenset({"se", "df", "welch_df", "residual_df", "t_df", "reduced_chi2", "lack_of_fit_p", "birge_ratio",
                    "p_value", "resolution", "verdict", "margin_se", "resolution_relative", "limit_resolution", "ok",
                    "widened_for_lack_of_fit", "informative", "counterexample", "rejected_but_cannot_fail"})
#: The quantity a row measures, in order of preference (its interval is shown beside it).
MAIN = ("mean", "exponent", "limit", "ratio", "geometric_mean_ratio", "difference", "increase", "estimate", "rate",
        "boundary_exponent", "radius_exponent_upper_bound")
#: Keys that say where a row was taken (shown as ``at key=value``).
COORDINATES = frozenset({"n", "d", "m", "l", "b", "B", "c", "layer", "depth", "width", "widths", "block", "unit",
                         "init", "variant", "scheme", "law", "kind", "set", "branch", "start", "n_in", "n_out",
                         "gain", "pass", "input", "other", "depths", "n_l", "n_l+1", "network", "cell", "case",
                         "side", "map", "quantity", "alpha", "sigma", "kappa", "x_0", "at_l", "block_input", "dim",
                         "entries", "norm", "shallowest", "deeper", "shallower", "order", "H", "H_0", "rescaling",
                         "h", "a", "mask", "W", "x", "label_index", "members"})
#: Texts that name what a row checks (shown first, before a colon).
LEADS = ("part", "label")

_NUMBER = re.compile(r"(?<![\w.])-?\d+\.\d+(?:[eE][+-]?\d+)?(?!\.?\d)|(?<![\w.])-?\d+[eE][+-]?\d+(?!\.?\d)")


def num(x) -> str:
    """``x`` at :data:`SIGNIFICANT` significant digits (an integer in full, with
    thousands separators up to 1e15); non-finite values as words.

    >>> num(0.99996), num(-0.08207561803573982), num(12345.6), num(1e-5), num(float("inf")), num(True)
    ('1', '-0.08208', '12,350', '1e-5', 'infinity', 'yes')
    """
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, str):
        special = {"inf": "infinity", "-inf": "minus infinity", "nan": "NaN", "infinity": "infinity"}
        return special.get(x.strip().lower(), x)
    if isinstance(x, int) and abs(x) < 10**15:
        return f"{x:,}"
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "infinity" if x > 0 else "minus infinity"
    if x == 0:
        return "0"
    if x.is_integer() and abs(x) < 1e6:
        return f"{int(x):,}"
    a = abs(x)
    if 1e-4 <= a < 1e6:
        digits = SIGNIFICANT - 1 - math.floor(math.log10(a))
        r = round(x, digits)
        if r != 0 and math.floor(math.log10(abs(r))) != math.floor(math.log10(a)):  # 9.9996 -> 10.00: one digit less
            digits -= 1
        text = f"{r:,.{max(digits, 0)}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text
    mantissa, exponent = f"{x:.{SIGNIFICANT - 1}e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exponent)}"


def _significant(text: str) -> int:
    digits = re.sub(r"[eE].*$", "", text).replace("-", "").replace(".", "").lstrip("0")
    return len(digits)


def tidy(text: str) -> str:
    """``text`` with every decimal number of more than :data:`SIGNIFICANT` significant
    digits rounded to them (integers and short decimals are kept as written).

    >>> tidy("1.55132889542179"), tidy("n in 2..1000000, tolerance 1e-12, version 3.11.7"), tidy("1.0")
    ('1.551', 'n in 2..1000000, tolerance 1e-12, version 3.11.7', '1.0')
    """
    def shorter(m):
        s = m.group(0)
        return num(float(s)) if _significant(s) > SIGNIFICANT else s

    return _NUMBER.sub(shorter, text)


def interval_text(pair) -> str:
    """``[lo, hi]`` as "lo to hi"."""
    return f"{value(pair[0])} to {value(pair[1])}"


def _is_pair(x) -> bool:
    return (isinstance(x, (list, tuple)) and len(x) == 2
            and all(isinstance(v, (int, float, str)) and not isinstance(v, bool) for v in x)
            and all(not isinstance(v, str) or _numeric(v) for v in x))


def _numeric(s: str) -> bool:
    try:
        float(s)
        return True
    except ValueError:
        return False


def value(x, limit: int = 160) -> str:
    """Any recorded value in words: a number (:func:`num`), a text (:func:`tidy`), a
    list in parentheses, a dict as its :func:`phrase`; at most ``limit`` characters,
    cut only between phrases (:func:`clip`).

    >>> value([8, 16, 10]), value([]), value(None), value("0.0822097842516"), value({"l=10": 19.2577, "l=50": 1.8e6})
    ('(8, 16, 10)', 'none', 'none', '0.08221', 'l=10: 19.26, l=50: 1.8e6')
    """
    if x is None:
        return "none"
    if isinstance(x, (bool, int, float)):
        return num(x)
    if isinstance(x, str):
        t = tidy(x.strip())
        if _numeric(t) and t.lower() not in ("inf", "-inf", "nan") and "." in t:
            return num(float(t))
        return num(t) if len(t) <= limit or "; " not in t else clip(t.split("; "), limit, sep="; ")
    if isinstance(x, dict):
        return phrase(x, limit=limit)
    if isinstance(x, (list, tuple)):
        if not x:
            return "none"
        if all(isinstance(v, dict) for v in x):
            return clip([phrase(v, limit=limit) for v in x], limit, sep="; ")
        return "(" + clip([value(v, limit) for v in x], limit) + ")"
    return tidy(str(x))


def clip(parts: list, limit: int | None, sep: str = ", ") -> str:
    """``parts`` joined by ``sep``, as many as fit in ``limit`` characters (at least
    one), the rest counted: never a cut inside a part.

    >>> clip(["a 1", "b 2", "c 3", "d 4", "e 5"], 22)
    'a 1, b 2 and 3 more'
    """
    parts = [p for p in parts if p]
    if limit is None or len(sep.join(parts)) <= limit:
        return sep.join(parts)
    shown = parts[:1]
    for p in parts[1:]:
        if len(sep.join(shown + [p])) + 12 > limit:
            break
        shown.append(p)
    rest = len(parts) - len(shown)
    return sep.join(shown) + (f" and {rest} more" if rest else "")


#: Short keys shown as words.
ALIASES = {"sd": "standard deviation", "se": "standard error"}


def _name(key: str) -> str:
    """A key as a word: underscores become spaces in plain names whose pieces are words
    (``rms_exponent``), symbols stay as written (``K_n``, ``E_pi_V``)."""
    if key in ALIASES:
        return ALIASES[key]
    pieces = key.split("_")
    return " ".join(pieces) if _plain(key) and all(len(p) > 1 for p in pieces) else key


def _plain(key: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z][A-Za-z0-9_ ]*", key))


def _worded(key: str) -> bool:
    """Whether a key reads as a word (shown "key value"; otherwise "key = value")."""
    return key in ALIASES or (_plain(key) and all(len(p) > 1 for p in key.split("_")) and len(key) > 2)


def _main_key(d: dict):
    """The quantity a row measures: only a row with an interval or a standard error has
    one (elsewhere every number is shown as one of equals)."""
    if not any(k in d for k in ("interval", "one_sided_limits", "se")) and \
            not any(k.endswith(("_interval", "_limits")) for k in d):
        return None
    for k in MAIN:
        if isinstance(d.get(k), (int, float)) and not isinstance(d.get(k), bool):
            return k
    keys = list(d)
    for anchor in ("se", "interval", "one_sided_limits"):
        if anchor in d:
            i = keys.index(anchor)
            if i > 0 and isinstance(d[keys[i - 1]], float):
                return keys[i - 1]
    return None


def coordinates(d: dict) -> list:
    """The ``key=value`` texts of a row's coordinates (where it was taken)."""
    out = []
    for k, v in d.items():
        if k in COORDINATES and k not in HIDDEN and not (k == "n" and _n_is_size(d)):
            if isinstance(v, (str, int, float, list, tuple)) and not isinstance(v, bool):
                out.append(f"{k}={value(v, 60)}")
    return out


def _n_is_size(d: dict) -> bool:
    return "mean" in d and "interval" in d and "replicates" not in d and isinstance(d.get("n"), int)


def _interval_keys(d: dict, key: str) -> list:
    """The interval keys of ``d`` that belong to the quantity ``key``."""
    own = [k for k in (f"{key}_interval", f"{key}_limits") if _is_pair(d.get(k))]
    return own


@dataclass
class Parts:
    """A row in pieces: ``lead`` (the part it checks), ``coords`` (``key=value``),
    ``main`` (the quantity with its interval and sample size), ``compare`` (what it was
    compared with: target and band, bound) and ``rest`` (the other quantities)."""

    lead: str | None = None
    coords: list = field(default_factory=list)
    main: str | None = None
    compare: list = field(default_factory=list)
    rest: list = field(default_factory=list)


def parts(d: dict, name_main: bool = True, level: str = "", limit: int = 160) -> Parts:
    """``d`` in :class:`Parts`; ``level`` follows an interval ("at the claim's alpha")."""
    p, used = Parts(), set(HIDDEN)
    lead = next((d[k] for k in LEADS if isinstance(d.get(k), str) and d[k]), None)
    used.update(LEADS)
    if lead and lead != _main_key(d):
        p.lead = tidy(lead)
    p.coords = coordinates(d)
    used.update(k for k in d if k in COORDINATES and not (k == "n" and _n_is_size(d)))
    if isinstance(d.get("at"), dict):
        p.coords += [f"{k}={value(v, 60)}" for k, v in d["at"].items()]
        used.add("at")
    main = _main_key(d)
    sizes = [f"{num(d[k])} {w}" for k, w in SIZES.items() if isinstance(d.get(k), int) and not isinstance(d[k], bool)]
    if _n_is_size(d):
        sizes.insert(0, f"{num(d['n'])} replicates")
        used.add("n")
    used.update(SIZES)
    if main is not None:
        extra = []
        for k in ("interval", "one_sided_limits", *_interval_keys(d, main)):
            if _is_pair(d.get(k)):
                extra.append(("interval " if k != "one_sided_limits" else "one-sided limits ") + interval_text(d[k])
                             + (f" {level}" if level else ""))
                used.add(k)
                break
        if not any(k in used for k in ("interval", "one_sided_limits", f"{main}_interval", f"{main}_limits")) \
                and isinstance(d.get("se"), (int, float)):
            extra.append(f"standard error {num(d['se'])}")
        if d.get("widened_for_lack_of_fit") is True:
            extra.append("widened for lack of fit")
        text = num(d[main]) if not name_main and main == "mean" else f"{_name(main)} {num(d[main])}"
        p.main = text + (f" ({', '.join(extra + sizes)})" if extra or sizes else "")
        used.add(main)
    else:
        p.rest += sizes
    if "target" in d and "bound" not in d:
        band = f" (band {interval_text(d['band'])})" if _is_pair(d.get("band")) else ""
        p.compare.append(f"target {value(d['target'])}{band}")
        used.update(("target", "band"))
    if "bound" in d:
        att = d.get("attainable")
        p.compare.append(f"bound {value(d['bound'])}" + (f" (largest attainable {value(att)})"
                                                         if isinstance(att, (int, float)) else ""))
        used.update(("bound", "attainable", "target", "band"))
    for k, v in d.items():
        if k in used:
            continue
        if k.endswith(("_interval", "_limits")) and _is_pair(v):
            p.rest.append(f"{_name(k.rsplit('_', 1)[0])} interval {interval_text(v)}")
        elif isinstance(v, str) and (" " in v.strip() or len(v) > 40):
            if tidy(v) != p.lead:
                p.rest.append(f"{k}: {tidy(v)}")
        elif isinstance(v, dict):
            p.rest.append(f"{_name(k)} ({phrase(v, limit=limit)})" if v else f"{_name(k)} none")
        elif re.fullmatch(r"[\w.]+=[\w.]+", k) or _numeric(k):
            p.rest.append(f"{k}: {value(v, limit)}")
        elif _worded(k):
            p.rest.append(f"{_name(k)} {value(v, limit)}")
        else:
            p.rest.append(f"{k} = {value(v, limit)}")
    return p


def phrase(d: dict, name_main: bool = True, limit: int | None = 160, level: str = "") -> str:
    """A row (a dict of a judge's evidence) in words; see the module text. At most
    ``limit`` characters in its quantities, cut only between them."""
    p = parts(d, name_main, level, limit or 160)
    head = (f"{p.lead}: " if p.lead else "") + (f"at {', '.join(p.coords)}: " if p.coords else "")
    body = clip(([p.main] if p.main else []) + p.compare + p.rest, limit)
    return (head + body).strip().rstrip(":")
