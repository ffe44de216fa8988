"""Proofs of the code itself (docs/proven.md): HAND-CODE runs the fast paths of
reference/melds.py on a symbolic hand and proves them equal to the per-suit path; re-planting the
J-Q-K counter bug an audit found in a copy of the module makes the proof fail."""

from __future__ import annotations

import pytest
from ginspec.reference import melds
from ginspec.reference.proofs.hand_code import hand_code
from ginspec.spec.cards import parse_cards
from planting import plant


@pytest.mark.parametrize("size", [10, 11])
def test_hand_code_fast_paths_equal_the_per_suit_path(size: int) -> None:
    result = hand_code(sizes=(size,))
    assert result.holds, result.counterexample


def test_dropped_jqk_counters_fail_hand_code() -> None:
    broken = plant(melds, "for q in range(4) for r in range(NUM_RANKS - 2)",
                   "for q in range(4) for r in range(NUM_RANKS - 3)")  # no J-Q-K stretch counter
    hand = parse_cards("JC QC KC 2D 4H 6S 8D 9H 5C 3S")
    assert broken.min_deadwood(hand) == 67 and melds.min_deadwood(hand) == 37  # the bug is real
    result = hand_code(broken, sizes=(10,))
    assert not result.holds and "fast path gives" in (result.counterexample or "")


def test_wrong_top_value_fails_hand_code() -> None:
    broken = plant(melds, "rank_value(max(0, (length - 1 - _CODE_RANKS_AT) // 4), STANDARD)",
                   "rank_value(max(0, (length - 2 - _CODE_RANKS_AT) // 4), STANDARD)")
    result = hand_code(broken, sizes=(11,))
    assert not result.holds, "an off-by-one in the highest-card table must be caught"
