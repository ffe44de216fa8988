"""Melds and arrangements by their definition, in plain Python (MELD.SET, MELD.RUN,
MELD.RUN.ACE-LOW, MELD.RUN.NO-WRAP, DEADWOOD.ARRANGEMENT).

This is the model's literal reading of the rules, written without any table or search: it is
what a witness arrangement is checked against, and what the exhaustive theorems compare the
SMT encoding (:mod:`ginspec.spec.formal.encoding`) and the reference's tables with.

* A **set** is 3 or 4 distinct cards of one rank.
* A **run** is 3 or more distinct cards of one suit whose positions on the rank line
  (:mod:`ginspec.spec.formal.rules`) are adjacent: an interval of the line, or an arc of the
  circle when runs wrap around. The ace takes one position (0, or 13 when it may be high).
* An **arrangement** of a hand is a collection of pairwise disjoint melds made of cards of the
  hand; its deadwood is the total value of the cards of the hand in no meld.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import product
from typing import Literal

from ginspec.spec.cards import NUM_RANKS, Card, card_str, rank_of, suit_of
from ginspec.spec.clauses import implements
from ginspec.spec.errors import MeldError
from ginspec.spec.formal.rules import (
    STANDARD,
    FormalRules,
    MeldParams,
    is_circular,
    line_size,
    positions_of,
    rank_value,
)

MeldShape = Literal["set", "run"]


def is_set(cards: Sequence[Card]) -> bool:
    """3 or 4 distinct cards of one rank (MELD.SET)."""
    return 3 <= len(cards) <= 4 and len(set(cards)) == len(cards) and len(
        {rank_of(c) for c in cards}
    ) == 1


def _is_interval(positions: Sequence[int], size: int, circular: bool) -> bool:
    """Are these distinct positions adjacent on a line (or circle) of ``size`` positions?"""
    n = len(positions)
    if len(set(positions)) != n:
        return False
    if not circular:
        return max(positions) - min(positions) + 1 == n
    held = set(positions)
    return any(all((p + k) % size in held for k in range(n)) for p in held)


def is_run(cards: Sequence[Card], rules: MeldParams = STANDARD) -> bool:
    """3 or more distinct cards of one suit standing at adjacent positions (MELD.RUN)."""
    if len(cards) < 3 or len(set(cards)) != len(cards) or len({suit_of(c) for c in cards}) != 1:
        return False
    size, circular = line_size(rules), is_circular(rules)
    choices = [positions_of(rank_of(c), rules) for c in cards]
    return any(_is_interval(pick, size, circular) for pick in product(*choices))


def meld_shape(cards: Sequence[Card], rules: MeldParams = STANDARD) -> MeldShape | None:
    """``'set'``, ``'run'`` or ``None`` when the cards are not one meld."""
    if is_set(cards):
        return "set"
    if is_run(cards, rules):
        return "run"
    return None


@implements("FORMAL.MODEL", "DEADWOOD.ARRANGEMENT")
def arrangement_deadwood(
    hand: Iterable[Card], melds: Iterable[Sequence[Card]], rules: MeldParams = STANDARD
) -> int:
    """The deadwood of a declared arrangement; raises MeldError when it is not an arrangement."""
    cards = list(hand)
    held = set(cards)
    if len(held) != len(cards):
        raise MeldError("a card appears twice in the hand")
    used: set[Card] = set()
    for meld in melds:
        text = " ".join(card_str(c) for c in meld)
        if meld_shape(meld, rules) is None:
            raise MeldError(f"not a meld: {text}")
        if not held.issuperset(meld):
            raise MeldError(f"meld {text} uses a card not in the hand")
        if used.intersection(meld):
            raise MeldError(f"meld {text} shares a card with another meld")
        used.update(meld)
    return sum(rank_value(rank_of(c), rules) for c in held - used)


# --- one suit: which rank sets are runs, and which are unions of disjoint runs ------------------


@cache
def run_rank_masks(rules: FormalRules) -> tuple[int, ...]:
    """Every 13-bit rank set that is a run, found by testing all 8,192 sets with :func:`is_run`."""
    out = []
    for mask in range(1 << NUM_RANKS):
        if mask.bit_count() >= 3:
            ranks = [r for r in range(NUM_RANKS) if mask >> r & 1]
            if is_run(ranks, rules):  # cards of clubs: card number == rank
                out.append(mask)
    return tuple(out)


@cache
def run_coverable(rules: FormalRules) -> tuple[bool, ...]:
    """For each 13-bit rank set: can it be split into disjoint runs? (by search over splits)

    The lowest rank of a non-empty set must lie in some run inside the set; remove that run and
    ask again. Memoised over the 8,192 sets.
    """
    runs = run_rank_masks(rules)
    ok = [False] * (1 << NUM_RANKS)
    ok[0] = True
    for mask in range(1, 1 << NUM_RANKS):
        low = mask & -mask
        ok[mask] = any(r & low and r & mask == r and ok[mask ^ r] for r in runs)
    return tuple(ok)


def rank_set_value(mask: int, rules: MeldParams) -> int:
    """Total deadwood value of a 13-bit rank set of one suit."""
    return sum(rank_value(r, rules) for r in range(NUM_RANKS) if mask >> r & 1)


@cache
def suit_optimum(rules: FormalRules) -> tuple[int, ...]:
    """For each 13-bit rank set: the most value disjoint runs inside it can cover.

    ``best[m] = max(value(m) if m splits into runs, best[m - r] for each rank r in m)``: the
    best run-covered subset of ``m`` is ``m`` itself or lies inside ``m`` minus some rank.
    Independent of the reference's tables, which go run by run.
    """
    ok = run_coverable(rules)
    best = [0] * (1 << NUM_RANKS)
    for mask in range(1, 1 << NUM_RANKS):
        b = rank_set_value(mask, rules) if ok[mask] else 0
        rest = mask
        while rest:
            low = rest & -rest
            b = max(b, best[mask ^ low])
            rest ^= low
        best[mask] = b
    return tuple(best)
