"""Hand and match points for the engine: the ONE adapter to ``ginspec.reference.scoring``.

The engine labels outcomes more finely than scoring's ``knock | gin | big_gin`` (undercut, tie,
cancelled gin, void); :func:`outcome_of` derives the label from scoring's result.
"""

from __future__ import annotations

from enum import Enum

from ginspec.reference.scoring import HandScore


class Outcome(Enum):
    """How a hand ended."""

    KNOCK = "knock"
    """The knocker won: less deadwood than the defender after layoffs (SCORE.KNOCK), or a tie
    under undercut_on_tie = knocker_scores_zero (SCORE.TIE)."""
    GIN = "gin"
    BIG_GIN = "big_gin"
    UNDERCUT = "undercut"
    """The defender won (SCORE.UNDERCUT)."""
    TIE = "tie"
    """Equal deadwood and nobody scores (undercut_on_tie = no_score)."""
    GIN_CANCELLED = "gin_cancelled"
    """layoff_after_gin = allowed_zero_cancels and the defender reached zero (SCORE.ZERO-CANCELS)."""
    VOID = "void"
    """The hand reached the wall with no knock (SCORE.VOID)."""


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
