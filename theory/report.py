"""paper_checks.md (for reviewers) and paper_checks.json (for machines), generated
from the catalogue: every number in them comes from running the checks."""
from __future__ import annotations

import json
import platform
from pathlib import Path

import mpmath
import numpy as np
import scipy
import sympy

from . import stats
from .catalogue import CLAIMS, evaluate, get, monte_carlo_count
from .evidence import PAPERS, Context

__all__ = ["run_all", "write_report", "refresh_report", "render_markdown", "LEFT_OUT"]

#: Statements of each paper that no number here can check, and why.
LEFT_OUT = {
    "arpit2019": [
        "Sec. 5.1-5.3, Figures 2-4, Tables 1-2 (MNIST/CIFAR training accuracy, seed robustness, Hessian spectral "
        "norms of trained-size WRNs): need the datasets, GPUs and days of training that this suite does not have.",
        "App. B, Figure 6 (A3C on Atari Pong): reinforcement-learning runs, out of scope.",
        "Footnote 3 (convolutional fan-in k^2 c): the gain sqrt(2 n_{l-1}/n_l) is the same under the k^2 c and c "
        "conventions for equal kernel sizes; a convention, not a checkable statement (the convolutional simulators "
        "of simulations/relu_nets/conv.py would make it checkable for unequal kernels, which the paper does not use).",
        "Eq. 56 prints h^b := x + alpha F_b(h^{b-1}) (x instead of h^{b-1}): a typo that the rest of the proof does "
        "not use; Eq. 59 writes dl/dh^{b-1} inside the middle term where dl/dh^b is meant. Recorded here, not checked.",
        "Eq. 5 multiplies g^{l+1} (length n_{l+1}) with 1(a^l) (length n_l); for scalar gains g 1 this is harmless, "
        "and the simulators use the correct dl/da^l = 1(a^l) * W_hat^{l+1 T} (g^{l+1} * dl/da^{l+1}).",
    ],
    "daneshmand2021": [
        "Sec. 5.1-5.2, Figures 4-5 (CIFAR-10 SGD training: loss after 30 epochs, the gap during training, "
        "iterative orthogonalization vs Xavier) and Appendices H-I: training experiments, out of scope here; "
        "the construction of Eq. 6 itself is checked.",
        "The appendices (proofs, Appendix C's function that decays without A1, Appendix D, Appendix G's formal "
        "conjecture, Table 2) are not in the transcription; Appendix Eq. 12's drift condition is cited but "
        "not printed, so it cannot be checked as stated.",
        "Sec. 3.2's geometric drift inequality |E phi(H_l) - E_pi phi| <= alpha^l |...| is quoted from Hairer "
        "(2010) for an unspecified phi and Lyapunov function: no number to check.",
        "Table 1's vanilla rows (Matthews et al. 2018; Garriga-Alonso et al. 2019) and the convolutional "
        "networks of Figure 6: results of other papers / no convolutional BN simulator here.",
        "Figure 3's pixels: the caption is the specification (no public code); H_0 is iid Gaussian scaled to "
        "unit Frobenius norm (the scale of every H_l), an assumption recorded in the figure's module.",
    ],
    "zeroinit2019": [
        "Sec. 4.1 / Table 1 as printed (WideResNet-10-1 and -64-1 on the first 1024 CIFAR-10/SVHN images, power "
        "method, 3 trials): needs the datasets; the synthetic analogue is catalogued (table1.*). It differs in: dense "
        "pre-activation blocks instead of 3x3 convolutions, no downsampling groups, N(0, I) inputs with random labels, "
        "a narrower width (see each claim's method line), Lanczos instead of the power method (tested to agree), "
        "ratios of geometric means.",
        "Tables 2-4 (CIFAR-10, ImageNet, IWSLT/WMT training results) and Figure 2 (first-epoch accuracy up to "
        "10,000 layers): need datasets and GPUs, out of scope.",
        "Reconstructed from the lossy extraction: Eq. 2-5 and Eq. 10 (see theory/zeroinit2019/checks.py), the "
        "L^(-1/(2m-2)) scaling and the 1/2-scaling recurrence (theory/zeroinit2019/principles.py).",
    ],
    "defazio_bottou": [
        "Sec. 9-11.2 (LIBSVM, AlexNet/CIFAR-10, ResNet-50/ImageNet training results): out of scope.",
        "Sec. 11.1's last step ('mirrors the initial operation with a downscaling convolution') is not printed; "
        "the reading used is stated in the claim.",
        "Table 1 (which layers keep the scaling factor; pooling and striding) is not in the transcription: its "
        "ReLU and scaling rows are checked symbolically, the strided-convolution case through Figure 1.",
        "Figure 2's colour values are not printed; our heat maps use the mean over 25 setups per init of the "
        "per-sample Gauss-Newton block norms (off-diagonal blocks normalized by sqrt(P_l P_r)).",
    ],
}


def run_all(ctx: Context | None = None, progress: bool = True, claims=CLAIMS) -> list[dict]:
    """Evaluate every claim (or the given ones); returns the JSON records in order."""
    from tqdm import tqdm

    ctx = ctx or Context()
    records = []
    for c in tqdm(claims, desc="claims", disable=not progress):
        ev = evaluate(c, ctx)
        records.append({
            "id": c.id, "paper": c.paper, "where": c.where, "statement": c.statement, "kind": c.kind,
            "verdict": ev.verdict.value, "recorded_verdict": c.verdict.value, "corrects": c.corrects,
            "slow": c.slow, "monte_carlo": c.monte_carlo, "note": c.note, "rerun": c.rerun,
            "evidence": ev.to_json(),
        })
    return records


def _fmt(x) -> str:
    if isinstance(x, float):
        return f"{x:.6g}"
    if isinstance(x, (dict, list)):
        return "`" + json.dumps(x, default=str)[:400] + "`"
    return str(x)


def render_markdown(records: list[dict], ctx: Context) -> str:
    out = ["# Paper checks", "",
           "Generated by `python -m theory report` from the claim catalogue (`theory/catalogue.py`); do not edit by hand.",
           "",
           f"Settings: seed {ctx.seed}, Monte-Carlo scale {ctx.scale}, backend {ctx.backend}, mpmath at {ctx.dps} "
           f"and {ctx.dps + 20} digits. Family-wise false-alarm probability {stats.FAMILY_ALPHA:g} over "
           f"{monte_carlo_count()} Monte-Carlo claims (Bonferroni, then split over each claim's rows; at most "
           f"{stats.MAX_CHECK_ALPHA:g} per claim). Resolution: the deviation detected with probability {stats.POWER}.",
           f"Versions: Python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
           f"mpmath {mpmath.__version__}, sympy {sympy.__version__}.", ""]
    for paper in PAPERS:
        recs = [r for r in records if r["paper"] == paper]
        if not recs:
            continue
        out += [f"## {PAPERS[paper][0]}", "", "| claim | where | kind | verdict | corrects |", "|---|---|---|---|---|"]
        out += [f"| [{r['id']}](#{r['id'].replace('.', '')}) | {r['where']} | {r['kind']} | **{r['verdict']}** | "
                f"{r['corrects'] or ''} |" for r in recs]
        out.append("")
        for r in recs:
            ev = r["evidence"]
            out += [f"### {r['id']}", "", f"*{r['where']}* ({r['kind']}{', slow' if r['slow'] else ''})", "",
                    f"> {r['statement']}", "",
                    f"- Verdict: **{r['verdict']}** (recorded: {r['recorded_verdict']})",
                    f"- Measured: {_fmt(ev['measured'])}", f"- Expected: {_fmt(ev['expected'])}",
                    f"- Margin: {_fmt(ev['margin'])} ({ev['margin_unit']})", f"- Method: {ev['method']}",
                    f"- Resolution: {_fmt(ev['resolution'])}"]
            if ev["counterexample"] is not None:
                out.append(f"- Smallest counterexample: {_fmt(ev['counterexample'])}")
            if r["corrects"]:
                out.append(f"- Corrects: `{r['corrects']}`")
            if r["note"]:
                out.append(f"- Note: {r['note']}")
            out += [f"- Rerun: `{r['rerun']}`", ""]
        out += ["### Discrepancies found in the paper", ""]
        for r in recs:
            if r["verdict"] == "fails":
                fix = next((x["id"] for x in recs if x["corrects"] == r["id"]), None)
                ce = r["evidence"]["counterexample"]
                out.append(f"- `{r['id']}` ({r['where']}): fails; counterexample {_fmt(ce)}"
                           + (f"; corrected statement `{fix}`: {next(x['verdict'] for x in recs if x['id'] == fix)}" if fix else ""))
        out += ["", "### Statements left out", ""] + [f"- {s}" for s in LEFT_OUT.get(paper, [])] + [""]
    return "\n".join(out)


def refresh_report(root: Path | str, claim_ids, ctx: Context | None = None) -> list[dict]:
    """Re-evaluate ``claim_ids`` only and merge them into the committed report. Valid only
    when nothing else changed: same context and the same Monte-Carlo claim count (which
    sets every claim's alpha) and ids as the existing report; otherwise regenerate."""
    ctx = ctx or Context()
    root = Path(root)
    old = json.loads((root / "paper_checks.json").read_text())
    if old["context"] != ctx.__dict__:
        raise ValueError(f"ctx must match the report's context {old['context']}, got {ctx.__dict__}")
    if [r["id"] for r in old["claims"]] != [c.id for c in CLAIMS]:
        raise ValueError("the catalogue's ids changed since the report was written: run a full report")
    if sum(r["monte_carlo"] for r in old["claims"]) != monte_carlo_count():
        raise ValueError("the Monte-Carlo claim count changed (every alpha moves): run a full report")
    fresh = {r["id"]: r for r in run_all(ctx, progress=False, claims=[get(i) for i in claim_ids])}
    records = [fresh.get(r["id"], r) for r in old["claims"]]
    (root / "paper_checks.json").write_text(json.dumps({"context": ctx.__dict__, "claims": records}, indent=1) + "\n")
    (root / "paper_checks.md").write_text(render_markdown(records, ctx))
    return records


def write_report(root: Path | str = ".", ctx: Context | None = None, progress: bool = True) -> list[dict]:
    ctx = ctx or Context()
    records = run_all(ctx, progress)
    root = Path(root)
    (root / "paper_checks.json").write_text(json.dumps({"context": ctx.__dict__, "claims": records}, indent=1) + "\n")
    (root / "paper_checks.md").write_text(render_markdown(records, ctx))
    return records
