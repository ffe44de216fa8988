"""An engine that never lays off: the reference with automatic showdowns (``melding.automatic``,
``layoff.automatic``), except that the defender spreads his melds and lays off no card.

One cause (the defender's layoffs are missing) shows in many fields of a hand's result: the
defender's deadwood, then the outcome it decides (an undercut scored as a knock), the winner,
the points and the boxes, and in every outcome a knock can have. The live mode reports it once.
"""

from __future__ import annotations

from typing import Any

from ginspec.conformance.adapters.reference import AutomaticReference


class NoLayoffs(AutomaticReference):
    def showdown_steps(self, state: Any) -> list[tuple[int, str]]:
        return [(who, text) for who, text in super().showdown_steps(state)
                if not text.startswith("layoff")]
