"""The lower-bound proof a certificate carries for checkers without a solver (FORMAL.CERTIFICATE).

One *case* per choice of set cards (per rank held 3 or 4 times: none, all, or any 3 of 4); for
each case the run deadwood of every suit's remaining cards, and for the after-discard question the
run deadwood of each suit after its best discard (``None`` for a suit with no card left). The
numbers come from the model's per-suit optimum (:func:`ginspec.spec.formal.definition.suit_optimum`);
:mod:`ginspec.spec.formal.checker` re-checks them by counting, without this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, product
from typing import Any, Final

from ginspec.spec.cards import NUM_RANKS, Card, card_str, rank_of, suit_of
from ginspec.spec.formal.definition import (
    rank_set_value,
    run_coverable,
    run_rank_masks,
    suit_optimum,
)
from ginspec.spec.formal.rules import FormalRules, is_circular, line_size, rank_at

METHOD: Final = "set-choices/suit-runs"
MAX_CASES: Final = 4096
"""Above this many choices of set cards (a hand with 6 ranks held four times has 15,625) the
certificate carries no solver-free bound (``lower_bound: null``): only the Z3 proof."""


def set_card_choices(hand: Sequence[Card]) -> list[tuple[tuple[Card, ...], ...]]:
    """Every choice of set cards of the hand, as tuples of sets (MELD.SET; SET-CHOICES-COMPLETE)."""
    per_rank: list[list[tuple[Card, ...]]] = []
    for rank in range(NUM_RANKS):
        held = tuple(sorted(c for c in hand if rank_of(c) == rank))
        if len(held) >= 3:
            per_rank.append([(), held, *(combinations(held, 3) if len(held) == 4 else [])])
    return [tuple(s for s in pick if s) for pick in product(*per_rank)]


def choice_count(hand: Sequence[Card]) -> int:
    """How many choices of set cards the hand has: 2 per rank held 3 times, 5 per rank held 4."""
    out = 1
    for rank in range(NUM_RANKS):
        out *= {3: 2, 4: 5}.get(sum(1 for c in hand if rank_of(c) == rank), 1)
    return out


@cache
def _run_deadwood(rules: FormalRules) -> tuple[int, ...]:
    """For each 13-bit rank set of one suit: its value less the most its runs can cover."""
    best = suit_optimum(rules)
    return tuple(rank_set_value(m, rules) - best[m] for m in range(1 << NUM_RANKS))


@cache
def _after_discard(rules: FormalRules) -> tuple[int | None, ...]:
    """For each 13-bit rank set: the least run deadwood after discarding one of its cards
    (None for the empty set)."""
    dead = _run_deadwood(rules)
    return tuple(min(dead[m & ~(1 << r)] for r in range(NUM_RANKS) if m >> r & 1) if m else None
                 for m in range(1 << NUM_RANKS))


def lower_bound(hand: Sequence[Card], rules: FormalRules, *, discard: bool) -> dict[str, Any] | None:
    """The cases of the lower-bound proof for ``hand`` (JSON-ready); None above MAX_CASES."""
    if choice_count(hand) > MAX_CASES:
        return None
    dead = _run_deadwood(rules)
    after = _after_discard(rules) if discard else ()
    held = [0, 0, 0, 0]
    for c in hand:
        held[suit_of(c)] |= 1 << rank_of(c)
    cases = []
    for sets in set_card_choices(hand):
        masks = list(held)
        for s in sets:
            for c in s:
                masks[suit_of(c)] &= ~(1 << rank_of(c))
        case: dict[str, Any] = {"sets": [[card_str(c) for c in s] for s in sets],
                                "suits": [dead[m] for m in masks]}
        if discard:
            case["after_discard"] = [after[m] for m in masks]
        cases.append(case)
    return {"method": METHOD, "cases": cases}


# --- the witness the bound points at (so that the solver only has to confirm the bound) ----------


def _cover(mask: int, rules: FormalRules) -> int:
    """A subset of ``mask`` that splits into runs and covers the most value (suit_optimum's
    recursion walked back)."""
    best, ok = suit_optimum(rules), run_coverable(rules)
    while not (ok[mask] and rank_set_value(mask, rules) == best[mask]):
        rest = mask
        while rest:
            low = rest & -rest
            if best[mask ^ low] == best[mask]:
                mask ^= low
                break
            rest ^= low
    return mask


def _runs(mask: int, rules: FormalRules) -> list[int]:
    """``mask`` (a union of disjoint runs) split into runs, as run_coverable's search does."""
    ok, out = run_coverable(rules), []
    while mask:
        low = mask & -mask
        run = next(r for r in run_rank_masks(rules) if r & low and r & mask == r and ok[mask ^ r])
        out.append(run)
        mask ^= run
    return out


def _in_line_order(run: int, suit: int, rules: FormalRules) -> tuple[Card, ...]:
    """The cards of a run of one suit in playing order (an ace above a king stands high)."""
    ranks = [r for r in range(NUM_RANKS) if run >> r & 1]
    high = line_size(rules) > NUM_RANKS and run >> (NUM_RANKS - 1) & 1
    positions = sorted(NUM_RANKS if r == 0 and high else r for r in ranks)
    if is_circular(rules):  # start after the gap of the arc
        gaps = [p for p in positions if (p - 1) % NUM_RANKS not in positions]
        start = positions.index(gaps[0]) if gaps else 0
        positions = positions[start:] + positions[:start]
    return tuple(suit * NUM_RANKS + rank_at(p) for p in positions)


def bound_witness(hand: Sequence[Card], rules: FormalRules, bound: dict[str, Any],
                  *, discard: bool) -> tuple[tuple[tuple[Card, ...], ...], Card | None]:
    """Melds (and the discard) of an arrangement reaching the least case of ``bound``: the set
    choice of that case and each suit's best runs. The caller checks it against the definition."""
    cases = bound["cases"]
    choices = set_card_choices(hand)
    dead, after = _run_deadwood(rules), _after_discard(rules)
    best_total, best_pick = None, None
    for sets, case in zip(choices, cases, strict=True):
        masks = [sum(1 << rank_of(c) for c in hand if suit_of(c) == q and all(c not in s for s in sets))
                 for q in range(4)]
        total = sum(case["suits"])
        options = [(total, None)] if not discard else [
            (total - case["suits"][q] + case["after_discard"][q], q) for q in range(4) if masks[q]]
        for value, q in options:
            if best_total is None or value < best_total:
                best_total, best_pick = value, (sets, masks, q)
    assert best_pick is not None
    sets, masks, q = best_pick
    thrown: Card | None = None
    if q is not None:
        rank = next(r for r in range(NUM_RANKS) if masks[q] >> r & 1
                    and dead[masks[q] & ~(1 << r)] == after[masks[q]])
        thrown = q * NUM_RANKS + rank
        masks[q] &= ~(1 << rank)
    melds: list[tuple[Card, ...]] = [tuple(sorted(s)) for s in sorted(sets, key=lambda s: rank_of(s[0]))]
    for suit in range(4):
        melds.extend(_in_line_order(run, suit, rules) for run in _runs(_cover(masks[suit], rules), rules))
    return tuple(melds), thrown
