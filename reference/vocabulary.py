"""The words every part of the reference shares, each defined once: who plays, which side of a
knock, how the knocker went out, and how a hand ended."""

from __future__ import annotations

from enum import Enum
from typing import Final, Literal, TypeAlias

Player: TypeAlias = int
"""A seat: 0 or 1 in the two-player game (0 .. players-1 at a table)."""

Side: TypeAlias = Literal["knocker", "defender"]
"""A side of a knock (SHOWDOWN.DECLARATION, SHOWDOWN.DEFENDER-SPREAD)."""
KNOCKER: Final[Side] = "knocker"
DEFENDER: Final[Side] = "defender"

GoingOut: TypeAlias = Literal["knock", "gin", "big_gin"]
"""How the knocker went out: a knock (KNOCK.ELIGIBLE), gin (KNOCK.GIN) or big gin
(KNOCK.BIG-GIN-SHAPE)."""


class Outcome(Enum):
    """How a hand ended: the names hand results carry in the conformance protocol."""

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
