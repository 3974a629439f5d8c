"""Shared by every simulator: array backends and random streams (``backend``), the array
namespace and dtype policy (``namespace``), input validation (``validation``) and random
matrices with the project's one Haar sampler (``random_matrices``), and its draws kept
as reflectors and applied without being formed (``haar_factor``), with the inverses of
their triangular blocks (``triangular``)."""
# backends and random streams
from .backend import Backend, cupy_available, get_backend, stream_key, to_host

# random matrices
from .haar_factor import HaarFactor, haar_factor

# array namespace and dtype policy
from .namespace import array_namespace, eps, tiny

# provenance of generated artifacts
from .provenance import git_state, provenance
from .random_matrices import CONTROL_LAWS, HAAR_METHODS, ISOTROPIC_LAWS, ROW_LAWS, haar_orthogonal, sample_rows
from .triangular import TRIANGULAR_INVERSE_METHODS, upper_triangular_inverse, upper_triangular_inverses

# validation
from .validation import (
                         check_choice,
                         check_finite,
                         check_int,
                         check_labels,
                         check_positive,
                         check_real,
                         check_widths,
                         entry_point,
)

__all__ = [
    "Backend", "cupy_available", "get_backend", "stream_key", "to_host",
    "git_state", "provenance",
    "array_namespace", "eps", "tiny",
    "HaarFactor", "haar_factor",
    "CONTROL_LAWS", "HAAR_METHODS", "ISOTROPIC_LAWS", "ROW_LAWS", "haar_orthogonal", "sample_rows",
    "TRIANGULAR_INVERSE_METHODS", "upper_triangular_inverse", "upper_triangular_inverses",
    "check_choice", "check_finite", "check_int", "check_labels", "check_positive", "check_real", "check_widths",
    "entry_point",
]
