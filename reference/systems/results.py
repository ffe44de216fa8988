"""A two-player hand's result as the multi-player systems see it: who won, who lost, the points
and boxes the winner earned, or a void hand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ginspec.reference.game.state import HandResult
from ginspec.reference.scoring import HandScore, score_hand
from ginspec.reference.typed_rules import Rules
from ginspec.spec.errors import GinspecError
from ginspec.spec.parameters import Value


class SystemsError(GinspecError):
    """Inputs no legal game of a multi-player system can produce."""




@dataclass(frozen=True)
class Won:
    """A hand won by ``winner`` against ``loser`` for ``points`` (and ``boxes`` boxes)."""

    winner: int
    loser: int
    points: int
    boxes: int = 1

    def __post_init__(self) -> None:
        if self.winner == self.loser or self.points < 0 or self.boxes < 0:
            raise SystemsError(f"not a hand result: {self!r}")


Result = Won | None
"""A hand's result; None is a void hand (or one nobody won)."""


def result_of(knocker: int, defender: int, score: HandScore) -> Result:
    """The result of a scored two-player hand between seats ``knocker`` and ``defender``."""
    if score.winner is None:
        return None
    if score.winner == "knocker":
        return Won(knocker, defender, score.knocker, score.knocker_boxes)
    return Won(defender, knocker, score.defender, score.defender_boxes)


def result_in_seats(res: HandResult, seats: tuple[int, int]) -> Result:
    """The result, in seats, of a hand the two-player engine finished: its player 0 sat in seat
    ``seats[0]`` and its player 1 in ``seats[1]``."""
    if res.winner is None:
        return None
    w = res.winner
    return Won(seats[w], seats[1 - w], res.points[w], res.boxes[w])


def scored(rules: Rules | Mapping[str, Value], knocker: int, defender: int, outcome: str,
           knocker_deadwood: int, defender_deadwood: int) -> Result:
    """Score a hand with ``ginspec.reference.scoring`` and return its result."""
    score = score_hand(outcome, knocker_deadwood, defender_deadwood, rules)  # type: ignore[arg-type]
    return result_of(knocker, defender, score)
