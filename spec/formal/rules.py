"""The meld-legality parameters as the formal model sees them, and the rank line of a suit.

The model reads three parameters (MELD.RUN.ACE-LOW, MELD.RUN.NO-WRAP, CARD.VALUE): any object
with the attributes ``ace_high_runs``, ``wraparound_runs`` and ``ace_value`` will do (the
reference's ``MeldRules`` has them), so ``ginspec.spec`` never imports the reference.

Runs are intervals on a *line of positions* (docs/proven.md, "The formal model"):

* standard: positions 0..12 hold A..K; a run is 3 or more adjacent positions.
* ace_high_runs: positions 0..13; the ace may stand at 0 (below the two) or at 13 (above the
  king), but one ace card stands at one position only, so Q-K-A and A-2-3 are runs and
  K-A-2 is not.
* wraparound_runs: the 13 positions form a circle; a run is 3..13 adjacent positions on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Protocol

from ginspec.spec.errors import ParameterError
from ginspec.spec.parameters import rules_repr

NUM_RANKS: Final = 13


class MeldParams(Protocol):
    """What the formal model needs to know about a ruleset."""

    @property
    def ace_high_runs(self) -> bool: ...

    @property
    def wraparound_runs(self) -> bool: ...

    @property
    def ace_value(self) -> int: ...


@dataclass(frozen=True)
class FormalRules:
    """A plain, hashable copy of the meld parameters (the spec's own, no reference import)."""

    ace_high_runs: bool = False
    wraparound_runs: bool = False
    ace_value: int = 1

    def __post_init__(self) -> None:
        if self.wraparound_runs and not self.ace_high_runs:
            raise ParameterError("wraparound_runs=true needs ace_high_runs=true")
        if not 1 <= self.ace_value <= 15:
            raise ParameterError(f"ace_value must be 1..15, not {self.ace_value}")

    @classmethod
    def of(cls, params: MeldParams) -> FormalRules:
        """Copy the three parameters from any object that has them."""
        return cls(bool(params.ace_high_runs), bool(params.wraparound_runs), int(params.ace_value))

    def to_json(self) -> dict[str, Any]:
        return {
            "ace_high_runs": self.ace_high_runs,
            "wraparound_runs": self.wraparound_runs,
            "ace_value": self.ace_value,
        }

    @property
    def variant(self) -> str:
        """``standard``, ``ace_high`` or ``wraparound`` (the run shape, ignoring ace_value)."""
        if self.wraparound_runs:
            return "wraparound"
        return "ace_high" if self.ace_high_runs else "standard"

    def __repr__(self) -> str:
        return rules_repr("FormalRules", self, ("ace_high_runs", "wraparound_runs", "ace_value"))


STANDARD: Final = FormalRules()
VARIANTS: Final = (
    FormalRules(),
    FormalRules(ace_high_runs=True),
    FormalRules(ace_high_runs=True, wraparound_runs=True),
)
"""One ruleset per run shape (ace_value does not change which cards form melds)."""


def rank_value(rank: int, rules: MeldParams) -> int:
    """Deadwood value of a card of this rank (CARD.VALUE): ace, face value, ten and court 10."""
    if rank == 0:
        return int(rules.ace_value)
    return min(rank + 1, 10)


def line_size(rules: MeldParams) -> int:
    """How many positions the rank line of a suit has (14 when the ace may be high)."""
    if rules.ace_high_runs and not rules.wraparound_runs:
        return NUM_RANKS + 1
    return NUM_RANKS


def is_circular(rules: MeldParams) -> bool:
    return bool(rules.wraparound_runs)


def positions_of(rank: int, rules: MeldParams) -> tuple[int, ...]:
    """The positions a card of this rank may take on the line (the ace may take two)."""
    if rank == 0 and rules.ace_high_runs and not rules.wraparound_runs:
        return (0, NUM_RANKS)
    return (rank,)


def rank_at(position: int) -> int:
    """The rank standing at a position of the line (position 13 is the high ace)."""
    return position % NUM_RANKS


def windows(rules: MeldParams) -> tuple[tuple[int, int, int], ...]:
    """Every three adjacent positions of the line (on the circle when runs wrap around)."""
    size = line_size(rules)
    if is_circular(rules):
        return tuple((p, (p + 1) % size, (p + 2) % size) for p in range(size))
    return tuple((p, p + 1, p + 2) for p in range(size - 2))
