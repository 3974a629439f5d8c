"""How much each discrepancy of Daneshmand et al. (2021) matters: the severity class
(:data:`theory.core.severity.SEVERITIES`) and a sentence of impact for every claim of the
catalogue recorded as ``fails`` (and for a step that holds but does not follow from the
steps it cites), judged with the paper open (../shared/papers/
daneshmand2021_bn_orthogonalizes.txt). :func:`with_severity` attaches them to the
claims declared in :mod:`.catalogue` and :mod:`.catalogue_steps`.

The ``wording`` class is used only where the evident intended reading is checked beside
the literal one as its own claim (``corrects=``) and holds. The impact sentences quote no
measured number (numbers reach the report only through note fields filled from the
evidence); they name the claims that carry the numbers.
"""
from __future__ import annotations

import dataclasses

__all__ = ["SEVERITY", "with_severity", "severity_of"]

K = "daneshmand2021."

#: claim id -> (severity, impact)
SEVERITY = {
    K + "intro.rate_printed": (
        "wording",
        "The first display is an informal O-summary of Theorem 1 whose alpha is a generic constant: read with "
        "alpha' = 2 alpha/3 it is Eq. 3 exactly (intro.rate_corrected), and Theorem 1 states the rate correctly, so "
        "only the literal identification with A1's alpha fails (agreeing with the issue)."),
    K + "intro.plateau_inverse_width": (
        "misprint",
        "The abstract's and contribution 1's 'inversely proportional to the network width' (width^-1) is "
        "contradicted by the paper's own Theorem 1 (3 n/(alpha sqrt d)), by Sec. 1's body ('inversely related') and "
        "by Sec. 3.3 ('the O(1/sqrt(d)) dependency is almost tight'), which get the rate right; the measured plateau "
        "follows width^(-1/2) (intro.plateau_inverse_sqrt_width), so the abstract overstates the rate by a square "
        "root where the theorem does not."),
    K + "intro.radius_inverse_width": (
        "misprint",
        "Corollary 3 gives a W_2 radius O(width^(-1/4)) and Table 1 prints exactly that; Sec. 1's 'inversely "
        "proportional to the network width' (width^-1) is wrong where the table is right (Sec. 4.1's O(1/sqrt(width)) "
        "is a third rate, sec41.radius_printed); Corollary 3 itself is unaffected."),
    K + "sec21.mean_correction": (
        "wording",
        "The sentence claims only that the mean correction does not change the properties qualitatively (citing "
        "Daneshmand et al. 2020): centring forces H 1 = 0, so the n samples can never be exactly orthogonal "
        "(V >= 1/sqrt(n(n-1))), but the centred chain approaches that floor as the width grows, orthogonality within "
        "the centred subspace (sec21.mean_correction_corrected), which is the qualitative property; only the literal "
        "'the gap vanishes' reading fails (agreeing with the issue)."),
    K + "a1.absolute_alpha_printed": (
        "result",
        "||H_k||_F = 1 forces sigma_min(H_k) <= 1/sqrt(n), so no alpha independent of the batch size exists and A1 "
        "as stated fails for every n > 1/alpha^2; Theorem 1 and Corollary 3 survive with alpha = alpha(n) <= "
        "1/sqrt(n) (a1.alpha_le_inv_sqrt_n), but then their width terms grow at least as n^(3/2) and n^(5/2), not as "
        "the 'batchsize' and 'batchsize^2' that Sec. 1 presents with an absolute alpha."),
    K + "fig1.vanilla_aligns": (
        "wording",
        "The sentence describes Figure 1, which stops at 50 layers, where the vanilla pair is still well short of "
        "aligned (the claim's per-layer means); the evident intended reading, that a vanilla chain drives two "
        "orthogonal samples to almost aligned representations in deep layers, holds further down the chain "
        "(fig1.vanilla_aligns_deeper), and the figure's contrast with BN stands."),
    K + "sec32.exact_inverse": (
        "wording",
        "The remark is informal (it writes diag(M)^{-1} for Eq. 1's diag(M M^T)^{-1/2}): for d > n the d x d matrix "
        "M M^T has rank n and no inverse, but the evident intended operation, whitening by its pseudo-inverse square "
        "root, makes every representation exactly orthogonal (sec32.exact_inverse_corrected), so the remark's point, "
        "BN as a cheap diagonal approximation of orthogonalization, stands."),
    K + "sec32.drift_display_printed": (
        "step",
        "The display misquotes Theorem 3.6 of Hairer (2010) without its start-dependent constant and is false as "
        "printed (a full-rank start near E_pi V moves away from it at the first layer); Hairer's form with the "
        "constant holds (sec32.drift_display_corrected) and no result of the paper rests on the display, so the "
        "conclusions survive."),
    K + "fig2a.exponential_decay": (
        "result",
        "Figure 2 (left) is offered as validating Theorem 1's exponential rate, 'log(V_l) linearly decreases for "
        "l = 1, ..., 20', but in the authors' own setting log V stays flat over the first layers, then falls steeply "
        "and slows, so the figure shows a fast decrease (fig2a.decay_corrected), not a linear one at one rate; "
        "Theorem 1 itself does not rest on the figure."),
    K + "fig2b.caption_average": (
        "misprint",
        "The caption's (1/500) sum_{l=100}^{600} has 501 terms; the text ('the average of V(H_l), over 500 layers') "
        "says an average was meant, and the factor 501/500 shifts the plotted log by a constant, leaving the slope "
        "the figure is read for unchanged."),
    K + "sec33.smin_printed": (
        "wording",
        "As a statement about every draw 'sigma_min(H_0) > sqrt d - sqrt n' is false for iid zero-mean unit-variance "
        "entries (a random-sign 2 x 2 matrix is singular half the time), but the standard fact it abbreviates, "
        "Gordon's E sigma_min >= sqrt d - sqrt n for Gaussian entries (and its high-probability form), holds "
        "(sec33.smin_expectation) and serves the sentence's purpose, an input far from singular when n << d."),
    K + "fig3.printed_curve": (
        "result",
        "The caption's blue curve d = (n - 28)^1.8 is drawn as the boundary above which A1 holds, but pixels above it "
        "fail (near d = n, where sigma_min collapses) and the measured switch-on width lies far above it; the "
        "figure's message, A1 for d = Omega(n^2), holds (fig3.a1_omega_n2). No code for this figure was published, "
        "so the setting is reconstructed (note)."),
    K + "lemma2.l0_printed": (
        "wording",
        "Lemma 2 and Corollary 3 are stated for the chain's representations, which Eq. 1 normalizes ('all matrices "
        "{H_k}_k have unit Frobenius norm'); only the literal reading that admits an unnormalized input at l = 0 "
        "fails, and the intended reading (l >= 1, or a normalized H_0) holds (lemma2.l0_corrected), agreeing with "
        "the issue."),
    K + "cor3.index_printed": (
        "step",
        "Lemma 2 at index l needs E V(H_l), which Theorem 1 bounds at index l - 1, so the combination gives "
        "4 n (1 - 2 alpha/3)^(l-1) under A1(alpha, l - 1), not the printed exponent l; Corollary 3 survives with the "
        "index shifted (its depth term larger by the factor 1/(1 - 2 alpha/3)), and the printed form is not refuted "
        "by the simulations (cor3.bound)."),
    K + "sec41.radius_printed": (
        "misprint",
        "Eq. 5 bounds the squared distance by O(width^(-1/2)), so the radius is O(width^(-1/4)), as Table 1 prints; "
        "the sentence's O(1/sqrt(width)) takes W_2^2's rate for W_2's, where the table gets it right."),
    K + "eq6.decrease_printed": (
        "step",
        "Sec. 5.2 asks for a V' that is 'orthogonal ... obtained by slicing V', but a slice of V is not orthogonal, "
        "and with the slice (as the formula reads and the authors' code does) V(W H) exceeds V(H) on many draws, so "
        "the 'easy to check' decrease holds only for an orthogonal V' (non-strict, eq6.decrease_corrected); the "
        "initialization's purpose survives with an orthogonal V'."),
    K + "eq6.strict_printed": (
        "wording",
        "With an orthogonal V' the strict inequality fails only where the nonzero singular values of H are equal "
        "(an already orthogonal H among them), a set of measure zero for the random representations the method is "
        "applied to; the evident reading, V(W H) <= V(H) with equality only there, holds (eq6.equality_cases), "
        "agreeing with the issue."),
    K + "fig6b.constant_in_depth": (
        "result",
        "Sec. 6 reads Figure 6 as showing that with BN the gap 'stabilizes at a term that is constant with regard to "
        "depth' and conjectures the same stability for modern BN networks, but in the authors' ConvNet (random "
        "correlated inputs standing in for CIFAR-10, which the deep layers forget) the low level the figure shows is "
        "a minimum: the gap rises again past the figure's 30 layers; what the figure itself shows, a fall to a "
        "level flat at its resolution, holds (fig6b.convnet), and the MLP panel's level is constant "
        "(fig6a.authors_setting)."),
    K + "cor3.bound": (
        "step",
        "Corollary 3 as printed (exponent l) is not refuted on the grid (holds, loose), but it does not follow from "
        "the steps it cites: Lemma 2 (Eq. 4) at index l needs E V(H_l), which Theorem 1 (Eq. 3) bounds at index "
        "l - 1 (cor3.index_printed); the proof gives the exponent l - 1 under A1(alpha, l - 1), so the conclusion "
        "survives with the index shifted."),
    K + "eq6.orthogonal_output": (
        "misprint",
        "Eq. 6 with Sigma^{-1/2} gives (W H)(W H)^T proportional to V' Sigma V'^T, not to I; the surrounding text "
        "('ensures orthogonality') and the authors' code (improved_init, Sigma^{-1}) get it right: with Sigma^{-1} "
        "the rows are orthonormal (eq6.orthogonal_output_corrected), so the exponent is a misprint of the formula, "
        "not an error of the method."),
}


def with_severity(claim):
    """``claim`` with its severity and impact from :data:`SEVERITY` (unchanged when it has
    none)."""
    if claim.id not in SEVERITY:
        return claim
    severity, impact = SEVERITY[claim.id]
    return dataclasses.replace(claim, severity=severity, impact=impact)


def severity_of(claim_id: str) -> dict:
    """The severity and impact of ``claim_id`` from :data:`SEVERITY` as the keyword
    arguments of :func:`theory.kinds.reading` (a printed claim declared with its correction)."""
    severity, impact = SEVERITY[claim_id]
    return {"severity": severity, "impact": impact}
