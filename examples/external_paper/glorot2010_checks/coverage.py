"""Every numbered item of Glorot & Bengio (2010), in the paper's order, with the claims
that check it or the reason it is not checked (theory.core.coverage.REASONS). The
example checks Sec. 4.2.1's forward analysis; the backward products (Eq. 6-7, 14) are
honestly marked not yet checked, so the paper declares no coverage goal yet."""
from theory.core.coverage import Item

COVERAGE = (
    Item("Eq. 1", "Sec. 2", "equation", "standard init W ~ U[-1/sqrt(n), 1/sqrt(n)], n the size of the previous "
         "layer (the number of columns of W)", claims=("glorot2010.eq1.columns_printed",
                                                       "glorot2010.eq15.standard_variance")),
    Item("Eq. 2", "Sec. 4.2.1", "equation", "back-propagation through s^i = z^i W^i + b^i", reason="definition"),
    Item("Eq. 3", "Sec. 4.2.1", "equation", "gradient of a weight: z^i_l dCost/ds^i_k", reason="definition"),
    Item("Eq. 4", "Sec. 4.2.1", "assumption", "linear regime at initialization, f'(s^i_k) = 1",
         reason="no_statement", note="the simulated network is linear (glorot2010_checks/linear_net.py)"),
    Item("Eq. 5", "Sec. 4.2.1", "equation", "Var[z^i] = Var[x] prod n_{i'} Var[W^{i'}]",
         claims=("glorot2010.eq5.forward_variance",)),
    Item("Eq. 6", "Sec. 4.2.1", "equation", "variance of the back-propagated gradient dCost/ds^i",
         reason="not_yet_checked", note="a Monte-Carlo mean over the backward pass of linear_net"),
    Item("Eq. 7", "Sec. 4.2.1", "equation", "variance of the weight gradients", reason="not_yet_checked"),
    Item("Eq. 8", "Sec. 4.2.1", "definition", "forward condition Var[z^i] = Var[z^i']", reason="definition"),
    Item("Eq. 9", "Sec. 4.2.1", "definition", "backward condition on dCost/ds^i", reason="definition"),
    Item("Eq. 10", "Sec. 4.2.1", "equation", "n_i Var[W^i] = 1", reason="definition"),
    Item("Eq. 11", "Sec. 4.2.1", "equation", "n_{i+1} Var[W^i] = 1", reason="definition"),
    Item("Eq. 12", "Sec. 4.2.1", "equation", "compromise Var[W^i] = 2/(n_i + n_{i+1})",
         claims=("glorot2010.eq16.normalized_variance",)),
    Item("Eq. 13", "Sec. 4.2.1", "equation", "equal widths: Var[dCost/ds^i] as a power of n Var[W]",
         reason="not_yet_checked"),
    Item("Eq. 14", "Sec. 4.2.1", "equation", "equal widths: Var[dCost/dw^i] the same for every layer",
         reason="not_yet_checked"),
    Item("Eq. 15", "Sec. 4.2.1", "equation", "standard init: n Var[W] = 1/3",
         claims=("glorot2010.eq15.standard_variance", "glorot2010.eq5.forward_variance")),
    Item("Eq. 16", "Sec. 4.2.1", "equation", "normalized init U[-sqrt(6)/sqrt(n_j + n_{j+1}), ...]",
         claims=("glorot2010.eq16.normalized_variance",)),
    Item("Figures", "Sec. 3-4", "figure_panel", "activations, gradients and training curves", reason="training"),
    Item("Table 1", "Sec. 5", "table", "test errors after training", reason="training"),
)
