"""The lower-bound proof a certificate carries for checkers without a solver (FORMAL.CERTIFICATE).

One *case* per choice of set cards (per rank held 3 or 4 times: none, all, or any 3 of 4); for
each case the run deadwood of every suit's remaining cards, and for the after-discard question the
run deadwood of each suit after its best discard (``None`` for a suit with no card left). The
numbers come from the model's per-suit optimum (:func:`ginspec.spec.formal.definition.suit_optimum`);
:mod:`ginspec.spec.formal.checker` re-checks them by counting, without this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product
from typing import Any, Final

from ginspec.spec.cards import NUM_RANKS, Card, card_str, rank_of, suit_of
from ginspec.spec.formal.definition import rank_set_value, suit_optimum
from ginspec.spec.formal.rules import FormalRules

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


def lower_bound(hand: Sequence[Card], rules: FormalRules, *, discard: bool) -> dict[str, Any] | None:
    """The cases of the lower-bound proof for ``hand`` (JSON-ready); None above MAX_CASES."""
    if choice_count(hand) > MAX_CASES:
        return None
    best = suit_optimum(rules)
    cases = []
    for sets in set_card_choices(hand):
        used = {c for s in sets for c in s}
        masks = [sum(1 << rank_of(c) for c in hand if suit_of(c) == q and c not in used)
                 for q in range(4)]
        dead = [rank_set_value(m, rules) - best[m] for m in masks]
        case: dict[str, Any] = {"sets": [[card_str(c) for c in s] for s in sets], "suits": dead}
        if discard:
            case["after_discard"] = [
                min(rank_set_value(m & ~(1 << r), rules) - best[m & ~(1 << r)]
                    for r in range(NUM_RANKS) if m >> r & 1) if m else None
                for m in masks
            ]
        cases.append(case)
    return {"method": METHOD, "cases": cases}
