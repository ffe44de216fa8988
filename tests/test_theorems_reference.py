"""The lemmas the reference's optimiser relies on (docs/proven.md): LONG-RUNS-SPLIT,
RUN-ENUMERATION-COMPLETE, SET-CHOICES-COMPLETE, DISCARD-BY-SUIT; plus the reference's own
invariance under suit permutation and its discard formula against brute force (Hypothesis)."""

from __future__ import annotations

import os
from itertools import permutations

import pytest
from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.melds import min_deadwood, min_deadwood_after_discard
from ginspec.reference.proofs.optimiser_lemmas import (
    block_exhaustive,
    discard_by_suit,
    last_rank_closed_form,
    long_runs_split,
    run_enumeration_complete,
    set_choices_complete,
)
from ginspec.spec.cards import NUM_RANKS, Card
from hypothesis import given
from hypothesis import strategies as st

RULES = st.sampled_from([MeldRules(), MeldRules(ace_high_runs=True),
                         MeldRules(ace_high_runs=True, wraparound_runs=True)])
HANDS = st.lists(st.integers(0, 51), max_size=14, unique=True)


def test_long_runs_split() -> None:
    result = long_runs_split()
    assert result.holds, result.counterexample


def test_run_enumeration_complete() -> None:
    result = run_enumeration_complete()
    assert result.holds, result.counterexample


def test_set_choices_complete() -> None:
    result = set_choices_complete()
    assert result.holds, result.counterexample


def test_discard_by_suit() -> None:
    result = discard_by_suit()
    assert result.holds, result.counterexample


def test_last_rank_closed_form() -> None:
    result = last_rank_closed_form()
    assert result.holds, result.counterexample


BLOCKS = [
    ((0, 1, 2), MeldRules()),
    ((10, 11, 12), MeldRules()),
    ((5, 6, 7), MeldRules(ace_value=11)),
    ((11, 12, 0), MeldRules(ace_high_runs=True)),
    ((12, 0, 1), MeldRules(ace_high_runs=True, wraparound_runs=True, ace_value=11)),
]


@pytest.mark.parametrize(("ranks", "rules"), BLOCKS, ids=[str(r) for r, _ in BLOCKS])
def test_block_exhaustive(ranks: tuple[int, ...], rules: MeldRules) -> None:
    stride = 5 if rules.wraparound_runs else 1  # the wrap-around rank DP is ~4 ms a call
    result = block_exhaustive(ranks, rules, dp_stride=stride)
    assert result.holds, result.counterexample


@pytest.mark.skipif(os.environ.get("HYPOTHESIS_PROFILE") != "thorough",
                    reason="2^16 hands, ~20 s: run with HYPOTHESIS_PROFILE=thorough")
@pytest.mark.parametrize("ranks", [(0, 1, 2, 3), (9, 10, 11, 12)])
def test_block_exhaustive_four_ranks(ranks: tuple[int, ...]) -> None:
    result = block_exhaustive(ranks)
    assert result.holds, result.counterexample


def _permute(hand: list[Card], perm: tuple[int, ...]) -> list[Card]:
    return [perm[c // NUM_RANKS] * NUM_RANKS + c % NUM_RANKS for c in hand]


@given(HANDS, st.sampled_from(list(permutations(range(4)))), RULES)
def test_reference_deadwood_is_invariant_under_suit_permutation(
    hand: list[Card], perm: tuple[int, ...], rules: MeldRules
) -> None:
    assert min_deadwood(_permute(hand, perm), rules) == min_deadwood(hand, rules)


@given(st.lists(st.integers(0, 51), min_size=1, max_size=12, unique=True), RULES)
def test_discard_formula_is_the_minimum_over_discards(hand: list[Card], rules: MeldRules) -> None:
    brute = min(min_deadwood([c for c in hand if c != d], rules) for d in hand)
    assert min_deadwood_after_discard(hand, rules) == brute
