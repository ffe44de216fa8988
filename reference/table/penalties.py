"""Penalty points and the prize pool of seed 001's table game (chapter 14: TABLE.UNDERCUT,
TABLE.PENALTY, TABLE.GAME-END, TABLE.PRIZE).

Pure functions of integers: a hand's deadwoods give every player's penalty; the game's penalty
totals give the winner and the split of a prize pool (in whole units, e.g. cents).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from ginspec.spec.clauses import implements
from ginspec.spec.errors import GinspecError

HandKind: TypeAlias = Literal["knock", "gin", "undercut", "void"]


class TableScoreError(GinspecError):
    """Inputs no legal table hand or game can produce (e.g. a knocker's deadwood above 10)."""


@dataclass(frozen=True)
class TablePenalties:
    """The penalty points of one hand, per seat, and who won it.

    ``kind``: knock, gin, undercut or void; ``winner``: the knocker, or the undercutter
    (None for a void hand); ``penalties``: per seat, the winner's is 0.
    """

    kind: HandKind
    knocker: int | None
    winner: int | None
    penalties: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.penalties)


def void_penalties(players: int) -> TablePenalties:
    """A void hand (TABLE.WALL): nobody is charged."""
    return TablePenalties("void", None, None, (0,) * players)


@implements("TABLE.UNDERCUT", "TABLE.PENALTY")
def table_penalties(
    knocker: int, deadwood: Sequence[int], gin_bonus: int = 25, undercut_bonus: int = 25,
    tie_undercuts: bool = False,
) -> TablePenalties:
    """Penalties of a hand ended by ``knocker``; ``deadwood[seat]`` after all layoffs.

    Gin (the knocker's deadwood is 0): every other player is charged his deadwood + gin_bonus.
    Otherwise the undercutter is the defender with the least deadwood if that is strictly less
    than the knocker's, or equal to it when ``tie_undercuts`` (``undercut_on_tie=undercut``,
    SCORE.TIE); a tie between defenders goes to the first in turn order from the knocker's
    left. No undercut: each defender is charged his deadwood minus the knocker's.
    Undercut: every other player is charged his deadwood minus the undercutter's, and the
    knocker undercut_bonus more.
    """
    n = len(deadwood)
    if not 2 <= n <= 4:
        raise TableScoreError(f"a table has 2 to 4 players, not {n}")
    if not 0 <= knocker < n:
        raise TableScoreError(f"knocker {knocker} is not a seat of {n} players")
    if any(d < 0 for d in deadwood):
        raise TableScoreError("deadwood is never negative")
    dk = deadwood[knocker]
    if dk > 10:
        raise TableScoreError(f"the knocker's deadwood {dk} is above any knock limit")
    order = [(knocker + k) % n for k in range(1, n)]
    if dk == 0:
        pens = [0 if s == knocker else deadwood[s] + gin_bonus for s in range(n)]
        return TablePenalties("gin", knocker, knocker, tuple(pens))
    low = min(deadwood[s] for s in order)
    if low > dk or (low == dk and not tie_undercuts):
        pens = [0 if s == knocker else deadwood[s] - dk for s in range(n)]
        return TablePenalties("knock", knocker, knocker, tuple(pens))
    under = next(s for s in order if deadwood[s] == low)
    pens = [deadwood[s] - low for s in range(n)]
    pens[under] = 0
    pens[knocker] += undercut_bonus
    return TablePenalties("undercut", knocker, under, tuple(pens))


@implements("TABLE.GAME-END")
def table_winner(totals: Sequence[int], penalty_limit: int) -> int | None:
    """The winner once the game is over, else None: over when some total has reached
    ``penalty_limit`` and exactly one player has the lowest total (a shared lowest total plays
    on)."""
    if max(totals) < penalty_limit:
        return None
    low = min(totals)
    lows = [s for s, t in enumerate(totals) if t == low]
    return lows[0] if len(lows) == 1 else None


@dataclass(frozen=True)
class PrizeSplit:
    """The prize pool's split: ``shares[seat]`` in pool units; they add up to ``pool``."""

    pool: int
    winner: int
    shares: tuple[int, ...]
    weights: tuple[int, ...]
    """Each other player's weight: prize_window minus his gap to the winner, 0 if not positive."""


@implements("TABLE.PRIZE")
def prize_split(
    pool: int, totals: Sequence[int], winner: int, winner_share: int = 75, window: int = 50
) -> PrizeSplit:
    """Split ``pool`` (whole units) after a game with penalty ``totals``.

    The winner is set aside floor(pool x winner_share / 100). Every other player whose total is
    less than ``window`` above the winner's has weight window - gap; the rest of the pool is
    shared in proportion to the weights, each share rounded down, the units left over going one
    each to the largest remainders (ties: lower seat first). With no positive weight, the winner
    takes the whole pool.
    """
    n = len(totals)
    if pool < 0:
        raise TableScoreError(f"the prize pool cannot be negative ({pool})")
    if not 0 <= winner < n:
        raise TableScoreError(f"winner {winner} is not a seat of {n} players")
    if any(t < totals[winner] for t in totals):
        raise TableScoreError("the winner has the lowest penalty total")
    if not 0 <= winner_share <= 100:
        raise TableScoreError(f"winner_share {winner_share} is not a percentage")
    weights = [0 if s == winner else max(0, window - (totals[s] - totals[winner]))
               for s in range(n)]
    rest = pool - pool * winner_share // 100
    total_weight = sum(weights)
    shares = [0] * n
    if total_weight and rest:
        exact = [rest * w for w in weights]
        shares = [e // total_weight for e in exact]
        left = rest - sum(shares)
        by_remainder = sorted(range(n), key=lambda s: (-(exact[s] % total_weight), s))
        for s in by_remainder[:left]:
            shares[s] += 1
    shares[winner] = pool - sum(shares)
    return PrizeSplit(pool, winner, tuple(shares), tuple(weights))


__all__ = [
    "PrizeSplit", "TablePenalties", "TableScoreError", "prize_split", "table_penalties",
    "table_winner", "void_penalties",
]
