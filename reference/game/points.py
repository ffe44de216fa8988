"""Hand and match points for the engine: the ONE adapter to ``ginspec.reference.scoring``.

The engine labels outcomes more finely than scoring's ``knock | gin | big_gin`` (undercut, tie,
cancelled gin, void); :func:`outcome_of` derives the label from scoring's result.
"""

from __future__ import annotations

from ginspec.reference.scoring import HandScore
from ginspec.reference.vocabulary import Outcome


def outcome_of(score: HandScore) -> Outcome:
    """The engine's outcome label of a scored hand."""
    if score.void:
        return Outcome.VOID
    if score.outcome in ("gin", "big_gin"):
        if score.winner is None:
            return Outcome.GIN_CANCELLED
        return Outcome.GIN if score.outcome == "gin" else Outcome.BIG_GIN
    if score.undercut:
        return Outcome.UNDERCUT
    return Outcome.KNOCK if score.winner == "knocker" else Outcome.TIE
