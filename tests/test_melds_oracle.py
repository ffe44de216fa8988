"""The meld engine equals an independent exhaustive search (DEADWOOD.MINIMUM,
DEADWOOD.ARRANGEMENTS, KNOCK.ELIGIBLE, MELD.COUNT), under standard rules and the run/ace variants.

The oracle (tests/meld_oracle.py) enumerates melds from the rules as written and tries every
packing of pairwise-disjoint melds; it imports nothing from the engine.
"""

from __future__ import annotations

import itertools

import pytest
from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.melds import (
    MeldKind,
    _min_deadwood_rank_dp,
    all_melds,
    analyse_discards,
    min_deadwood,
    min_deadwood_after_discard,
    optimal_arrangements,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from meld_hands import VARIANTS, hands, large_hands, variants
from meld_oracle import (
    Rules,
    meld_kind,
    oracle_melds,
    oracle_min_deadwood,
    oracle_min_deadwood_memo,
    oracle_optimum,
    rank,
    suit,
    value,
)

Variant = tuple[MeldRules, Rules]

more = settings(max_examples=settings().max_examples * 4)
"""Small hands are cheap: run four times the profile's examples."""


@more
@given(hands(), variants)
def test_min_deadwood_equals_exhaustive_search(hand: list[int], variant: Variant) -> None:
    rules, oracle_rules = variant
    assert min_deadwood(hand, rules) == oracle_min_deadwood(hand, oracle_rules)


@more
@given(hands(), variants)
def test_all_melds_equals_enumeration_from_the_rules(hand: list[int], variant: Variant) -> None:
    rules, oracle_rules = variant
    found = all_melds(hand, rules)
    expected = oracle_melds(hand, oracle_rules)
    assert len(found) == len(expected)
    assert {frozenset(m.cards) for m in found} == set(expected)
    assert [m.key for m in found] == sorted(m.key for m in found)
    for m in found:
        assert m.kind.value == meld_kind(m.cards, oracle_rules)
        check_display_order(list(m.cards), m.kind, oracle_rules)


def check_display_order(cards: list[int], kind: MeldKind, oracle_rules: Rules) -> None:
    """Sets read in suit order C D H S; runs read upwards (Q K A when the ace is high)."""
    if kind is MeldKind.SET:
        assert [suit(c) for c in cards] == sorted(suit(c) for c in cards)
        return
    ranks = [rank(c) for c in cards]
    if len(ranks) == 13:
        assert sorted(ranks) == list(range(13))
        return
    for lower, upper in itertools.pairwise(ranks):
        assert upper == (lower + 1) % 13
    if not oracle_rules.wrap:
        assert 0 not in ranks[1:-1]  # the ace is only ever at an end


@more
@given(hands(), variants)
def test_optimal_arrangements_are_exactly_the_optimal_packings(
    hand: list[int], variant: Variant
) -> None:
    rules, oracle_rules = variant
    best, packings = oracle_optimum(hand, oracle_rules)
    expected_keys = sorted(tuple(sorted(tuple(sorted(m)) for m in p)) for p in packings)
    found = optimal_arrangements(hand, rules)
    assert [a.key for a in found] == expected_keys  # the exact set, in canonical order
    for arrangement in found:
        covered = {c for m in arrangement.melds for c in m.cards}
        leftover = sorted(c for c in hand if c not in covered)
        assert list(arrangement.deadwood_cards) == leftover
        assert arrangement.deadwood == best == sum(value(c, oracle_rules) for c in leftover)
        for m in arrangement.melds:
            assert m.kind.value == meld_kind(m.cards, oracle_rules)
            check_display_order(list(m.cards), m.kind, oracle_rules)


@more
@given(hands(min_size=1, max_size=12), variants)
def test_best_discard_equals_minimum_over_every_discard(hand: list[int], variant: Variant) -> None:
    rules, oracle_rules = variant
    per_card = {c: oracle_min_deadwood([x for x in hand if x != c], oracle_rules) for c in hand}
    best = min(per_card.values())
    assert min_deadwood_after_discard(hand, rules) == best
    analysis = analyse_discards(hand, rules)
    assert analysis.after_discard == tuple(sorted(per_card.items()))
    assert analysis.deadwood == best
    assert analysis.best_discards == tuple(sorted(c for c, d in per_card.items() if d == best))
    assert analysis.big_gin == (oracle_min_deadwood(hand, oracle_rules) == 0)


@given(st.data(), variants)
def test_input_forms_agree(data: st.DataObject, variant: Variant) -> None:
    """A list, a tuple, a generator and a mask of the same cards give the same answers."""
    rules, _ = variant
    hand = data.draw(hands(min_size=1, max_size=11))
    mask = sum(1 << c for c in hand)
    expected = min_deadwood(hand, rules)
    assert min_deadwood(tuple(hand), rules) == expected
    assert min_deadwood(iter(hand), rules) == expected
    assert min_deadwood(mask, rules) == expected
    assert min_deadwood_after_discard(mask, rules) == min_deadwood_after_discard(hand, rules)
    assert [a.key for a in optimal_arrangements(mask, rules)] == [
        a.key for a in optimal_arrangements(hand, rules)
    ]


# --- large hands: the rank dynamic programme -------------------------------------------------


@given(large_hands().filter(lambda h: len(h) <= 24))
def test_large_hand_after_discard_equals_memoised_search(hand: list[int]) -> None:
    expected = min(oracle_min_deadwood_memo([x for x in hand if x != c], Rules()) for c in hand)
    assert min_deadwood_after_discard(hand) == expected


def test_full_deck_and_nearly_full_decks() -> None:
    """Every card of the deck melds; so does the deck without any one card."""
    deck = list(range(52))
    assert min_deadwood(deck) == 0
    for c in (0, 12, 25, 51):
        assert min_deadwood([x for x in deck if x != c]) == 0
    assert min_deadwood_after_discard(deck) == 0


@given(hands(max_size=11), variants)
def test_memoised_search_agrees_with_exhaustive_search(hand: list[int], variant: Variant) -> None:
    """The large-hand oracle is itself checked against the exhaustive one."""
    _, oracle_rules = variant
    assert oracle_min_deadwood_memo(hand, oracle_rules) == oracle_min_deadwood(hand, oracle_rules)


@more
@given(hands(), variants)
def test_rank_dp_equals_exhaustive_search(hand: list[int], variant: Variant) -> None:
    """The rank DP (used for hands with six or more ranks held three times) on small hands too."""
    rules, oracle_rules = variant
    suits = [sum(1 << (c % 13) for c in hand if c // 13 == q) for q in range(4)]
    assert _min_deadwood_rank_dp(suits, rules) == oracle_min_deadwood(hand, oracle_rules)


@given(large_hands(), variants)
def test_large_hand_rank_dp_all_variants(hand: list[int], variant: Variant) -> None:
    rules, oracle_rules = variant
    if len(hand) > 30 and oracle_rules.ace_high:
        hand = hand[:30]  # the memoised oracle is slow on big ace-high hands
    assert min_deadwood(hand, rules) == oracle_min_deadwood_memo(hand, oracle_rules)


@pytest.mark.parametrize("variant", VARIANTS)
def test_full_deck_under_every_variant(variant: Variant) -> None:
    rules, _ = variant
    deck = list(range(52))
    assert min_deadwood(deck, rules) == 0
    # Without the four kings everything still melds (sets of the other ranks, or runs).
    assert min_deadwood([c for c in deck if c % 13 != 12], rules) == 0
