"""The formal model of melds and arrangements, and per-hand certificates (FORMAL.*).

* :mod:`.rules` — the meld parameters and the rank line of a suit;
* :mod:`.definition` — melds and arrangements by their definition, in plain Python;
* :mod:`.encoding` — the same in SMT (Z3), for concrete or symbolic hands;
* :mod:`.certificate` — :func:`certify`: a checked witness plus an UNSAT lower bound.

Nothing here imports :mod:`ginspec.reference`: the model is what the reference is checked against.
"""

from ginspec.spec.formal.certificate import Certificate, FormalModelError, certify, formal_optimum
from ginspec.spec.formal.definition import arrangement_deadwood, is_run, is_set, meld_shape
from ginspec.spec.formal.encoding import ArrangementEncoding, WitnessArrangement, symbolic_hand
from ginspec.spec.formal.rules import STANDARD, VARIANTS, FormalRules, MeldParams

__all__ = [
    "STANDARD",
    "VARIANTS",
    "ArrangementEncoding",
    "Certificate",
    "FormalModelError",
    "FormalRules",
    "MeldParams",
    "WitnessArrangement",
    "arrangement_deadwood",
    "certify",
    "formal_optimum",
    "is_run",
    "is_set",
    "meld_shape",
    "symbolic_hand",
]
