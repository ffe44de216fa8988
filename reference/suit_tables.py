"""Per-suit run tables: for every set of ranks of one suit (a 13-bit mask), the value that the
best choice of disjoint runs covers (MELD.RUN, DEADWOOD.MINIMUM).

Once the set cards are chosen, runs in different suits never interact, so the run part of the
optimum is the sum of four table look-ups (lemma SUIT-INDEPENDENCE in docs/proven.md). The tables
are built once per :class:`MeldRules` by dynamic programming over the 8,192 masks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ginspec.reference.meld_rules import MeldRules
from ginspec.spec.cards import NUM_RANKS, SUIT_BITS
from ginspec.spec.clauses import implements
from ginspec.spec.errors import ParameterError

RankRun = tuple[int, ...]
"""A run of one suit as its ranks in playing order, e.g. ``(11, 12, 0)`` for Q-K-A."""


@implements("MELD.RUN", "MELD.RUN.ACE-LOW", "MELD.RUN.NO-WRAP")
def run_patterns(rules: MeldRules) -> tuple[RankRun, ...]:
    """Every run of one suit that ``rules`` allow, once per set of ranks.

    Standard: 3 or more consecutive ranks, ace low only (A-2-3 yes, Q-K-A no, K-A-2 no).
    With ace_high_runs the ace may also follow the king (Q-K-A, J-Q-K-A, ...).
    With wraparound_runs any circular stretch of 3..13 ranks is a run (K-A-2).
    """
    seen: set[int] = set()
    runs: list[RankRun] = []

    def add(ranks: RankRun) -> None:
        mask = 0
        for r in ranks:
            mask |= 1 << r
        if mask not in seen:
            seen.add(mask)
            runs.append(ranks)

    for start in range(NUM_RANKS):
        for length in range(3, NUM_RANKS - start + 1):
            add(tuple(range(start, start + length)))
    if rules.ace_high_runs:
        for start in range(1, NUM_RANKS - 1):
            add((*range(start, NUM_RANKS), 0))
    if rules.wraparound_runs:
        for start in range(NUM_RANKS):
            for length in range(3, NUM_RANKS + 1):
                add(tuple((start + k) % NUM_RANKS for k in range(length)))
    return tuple(runs)


def rank_value(rank: int, rules: MeldRules) -> int:
    """Deadwood value of a card of this rank (CARD.VALUE)."""
    return rules.ace_value if rank == 0 else min(rank + 1, 10)


@dataclass(frozen=True)
class SuitTables:
    """Look-up tables for one ruleset, indexed by a 13-bit rank mask."""

    rules: MeldRules
    runs: tuple[RankRun, ...]
    run_masks: tuple[int, ...]
    runs_with_lowest: tuple[tuple[int, ...], ...]
    """For each rank b, the indices of the runs that contain b."""
    value: tuple[int, ...]
    cover: tuple[int, ...]
    dead: tuple[int, ...]
    """``value[m] - cover[m]``: deadwood of the suit if its cards in ``m`` are used for runs only."""
    gain: tuple[int, ...]
    """``dead[m] - min(dead[m - b] for b in m)``: the most that discarding one card of this suit
    lowers its deadwood (may be negative); ``NO_CARD`` for the empty mask, which has no card."""


NO_CARD = -(1 << 20)
"""Sentinel gain of an empty suit: no card there can be discarded."""


def suit_tables(rules: MeldRules) -> SuitTables:
    """The per-suit tables for ``rules``, built once; ``rules`` that are no :class:`MeldRules`
    raise :class:`~ginspec.spec.errors.ParameterError` naming them."""
    if not isinstance(rules, MeldRules):
        raise ParameterError(f"rules: expected MeldRules such as MeldRules(), not {rules!r:.40}")
    return _build_suit_tables(rules)


@cache
def _build_suit_tables(rules: MeldRules) -> SuitTables:
    """Build the per-suit tables for ``rules``."""
    runs = run_patterns(rules)
    run_masks = tuple(sum(1 << r for r in run) for run in runs)
    containing = tuple(
        tuple(i for i, m in enumerate(run_masks) if m >> b & 1) for b in range(NUM_RANKS)
    )
    size = SUIT_BITS + 1
    rv = [rank_value(r, rules) for r in range(NUM_RANKS)]
    value = [0] * size
    for m in range(1, size):
        low = m & -m
        value[m] = value[m ^ low] + rv[low.bit_length() - 1]
    # a run inside m holding m's lowest rank b has b as its own lowest rank: only those runs
    # are tried for the masks whose lowest rank is b
    starting = [[(rm, value[rm]) for rm in run_masks if rm & -rm == 1 << b]
                for b in range(NUM_RANKS)]
    cover = [0] * size
    for m in range(1, size):
        low = m & -m
        best = cover[m ^ low]
        for rm, v in starting[low.bit_length() - 1]:
            if rm & m == rm:
                c = v + cover[m ^ rm]
                if c > best:
                    best = c
        cover[m] = best
    dead = tuple(v - c for v, c in zip(value, cover, strict=True))
    # least[m] = min(dead[m - b] for b in m), one rank b at a time: the masks holding b are
    # m = base + bit + j (0 <= j < bit, base a multiple of 2 * bit), without it base + j
    least = [1 << 20] * size
    for b in range(NUM_RANKS):
        bit = 1 << b
        step = 2 * bit
        if bit <= size // step:  # few offsets j: one strided slice each
            for j in range(bit):
                least[bit + j::step] = map(min, least[bit + j::step], dead[j::step])
        else:  # few blocks: one contiguous slice each
            for base in range(0, size, step):
                top = base + bit
                least[top:top + bit] = map(min, least[top:top + bit], dead[base:top])
    gain = (NO_CARD, *(d - low for d, low in zip(dead[1:], least[1:], strict=True)))
    return SuitTables(rules, runs, run_masks, containing, tuple(value), tuple(cover), dead, gain)


def run_partitions(mask: int, tables: SuitTables) -> list[list[int]]:
    """Every way to cover the ranks in ``mask`` with disjoint runs reaching ``cover[mask]``.

    Each partition is a list of indices into ``tables.runs``; cards left out are deadwood.
    Every partition is produced exactly once: the lowest rank is either deadwood or in exactly
    one run of the partition (lemma RUN-ENUMERATION-COMPLETE).
    """
    if mask == 0:
        return [[]]
    target = tables.cover[mask]
    low = mask & -mask
    b = low.bit_length() - 1
    out: list[list[int]] = []
    if tables.cover[mask ^ low] == target:
        out.extend(run_partitions(mask ^ low, tables))
    for i in tables.runs_with_lowest[b]:
        rm = tables.run_masks[i]
        if rm & mask == rm and tables.value[rm] + tables.cover[mask ^ rm] == target:
            out.extend([i, *rest] for rest in run_partitions(mask ^ rm, tables))
    return out
