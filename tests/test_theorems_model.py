"""Theorems about the formal model, for all hands (docs/proven.md): ENCODING-EXACT, STRETCH-COVER,
SUIT-INDEPENDENCE, SUIT-PERMUTATION, ELIGIBILITY (a counterexample found by Z3)."""

from __future__ import annotations

import os

import pytest
from ginspec.reference.melds import analyse_discards, min_deadwood, optimal_arrangements
from ginspec.spec.cards import card_value, parse_cards
from ginspec.spec.formal.rules import STANDARD, VARIANTS, FormalRules
from ginspec.spec.formal.theorems import (
    encoding_exact,
    encoding_exact_discard,
    encoding_exact_sets,
    encoding_pruning,
    find_naive_gap,
    naive_after_discard,
    stretch_cover,
    suit_independence,
    suit_permutation,
)

IDS = [r.variant for r in VARIANTS]


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_encoding_exact(rules: FormalRules) -> None:
    result = encoding_exact(rules)
    assert result.holds, result.counterexample


@pytest.mark.parametrize("rules", [STANDARD, VARIANTS[2], FormalRules(ace_value=11)],
                         ids=["standard", "wraparound", "ace11"])
def test_stretch_cover(rules: FormalRules) -> None:
    result = stretch_cover(rules)
    assert result.holds, result.counterexample


def test_stretch_cover_is_not_claimed_for_the_ace_high_line() -> None:
    with pytest.raises(ValueError):
        stretch_cover(VARIANTS[1])


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_suit_independence(rules: FormalRules) -> None:
    result = suit_independence(rules)
    assert result.holds, result.counterexample


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
@pytest.mark.parametrize("discard", [False, True], ids=["whole", "after-discard"])
def test_suit_permutation(rules: FormalRules, discard: bool) -> None:
    result = suit_permutation(rules, discard=discard)
    assert result.holds, result.counterexample


# --- ELIGIBILITY ----------------------------------------------------------------------------------

STATED = parse_cards("AC AD 2D 3D 4D AH 4H AS 2S 3S 4S")
"""The counterexample docs/proven.md states (found by find_naive_gap(ranks=4))."""


def _naive_by_reference(hand: list[int]) -> int:
    """The naive rule computed from the reference's full list of optimal 11-card arrangements."""
    return min(a.deadwood - max(card_value(c) for c in a.deadwood_cards)
               for a in optimal_arrangements(hand) if a.deadwood_cards)


def test_z3_finds_a_hand_where_naive_eligibility_is_wrong() -> None:
    gap = find_naive_gap(ranks=4)
    assert gap is not None
    assert gap.naive > gap.after_best_discard
    hand = list(gap.hand)
    # the reference, computed independently, agrees on all three numbers
    assert min_deadwood(hand) == gap.eleven_card_optimum
    assert analyse_discards(hand).deadwood == gap.after_best_discard
    assert _naive_by_reference(hand) == gap.naive


def test_stated_counterexample() -> None:
    # All 11 cards: the one optimal arrangement is AD 2D 3D / 4D 4H 4S / AS 2S 3S, leaving AC AH
    # (deadwood 2); dropping the highest leftover leaves 1. Discarding 4H instead leaves
    # AC AD AH AS / 2D 3D 4D / 2S 3S 4S: gin (0).
    assert min_deadwood(STATED) == 2
    assert naive_after_discard(STATED, STANDARD) == 1
    assert _naive_by_reference(STATED) == 1
    best = analyse_discards(STATED)
    assert best.deadwood == 0 and best.best_discards == tuple(parse_cards("4H"))


def test_openspiel_example_shows_the_same_gap() -> None:
    hand = parse_cards("4C 5C 6C 7C 6D 3H 5H 6H 3S 5S 6S")  # OpenSpiel's 11-card rule says 11
    assert min_deadwood(hand) == 16
    assert naive_after_discard(hand, STANDARD) == 11 == _naive_by_reference(hand)
    assert analyse_discards(hand).deadwood == 10


@pytest.mark.skipif(os.environ.get("HYPOTHESIS_PROFILE") != "thorough",
                    reason="full-deck search takes 2-12 minutes: run with HYPOTHESIS_PROFILE=thorough")
def test_z3_finds_a_gap_in_the_full_deck() -> None:
    gap = find_naive_gap()
    assert gap is not None and gap.naive > gap.after_best_discard
    assert _naive_by_reference(list(gap.hand)) == gap.naive


@pytest.mark.parametrize("rules", VARIANTS, ids=[r.variant for r in VARIANTS])
def test_encoding_exact_for_sets_and_pruning(rules: FormalRules) -> None:
    for result in (encoding_exact_sets(rules), encoding_pruning(rules)):
        assert result.holds, (result.name, result.counterexample)


def test_broken_set_constraint_and_pruning_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    import ginspec.spec.formal.encoding as encoding

    real = encoding._at_least
    monkeypatch.setattr(encoding, "_at_least", lambda items, k: real(items, 2))  # sets of 2
    assert not encoding_exact_sets(STANDARD).holds
    monkeypatch.undo()
    monkeypatch.setattr(encoding, "windows", lambda rules: ((0, 1, 2),))  # forgets most windows
    assert not encoding_pruning(STANDARD).holds


def test_discard_constraint_and_its_broken_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    import ginspec.spec.formal.encoding as encoding

    result = encoding_exact_discard()
    assert result.holds, result.counterexample
    real = encoding._pseudo_boolean

    def loose(make: object, terms: list[tuple[object, int]], k: int) -> object:
        # "exactly one discard" weakened to "at most one"
        return real(encoding.z3core.Z3_mk_pble if make is encoding.z3core.Z3_mk_pbeq else make,
                    terms, k)  # type: ignore[arg-type]

    monkeypatch.setattr(encoding, "_pseudo_boolean", loose)
    assert not encoding_exact_discard().holds
