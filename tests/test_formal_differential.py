"""Differential tests: the reference's optimiser against the Z3 optimum of the formal model
(DEADWOOD.MINIMUM, KNOCK.ELIGIBLE). Hypothesis generates sparse and dense hands."""

from __future__ import annotations

from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.melds import min_deadwood, min_deadwood_after_discard
from ginspec.spec.cards import NUM_RANKS, Card
from ginspec.spec.formal import certify
from hypothesis import given, settings
from hypothesis import strategies as st

RULES = st.sampled_from(
    [MeldRules(), MeldRules(ace_high_runs=True), MeldRules(ace_high_runs=True, wraparound_runs=True),
     MeldRules(ace_value=11)]
)


def any_hand(min_size: int = 0, max_size: int = 14) -> st.SearchStrategy[list[Card]]:
    return st.lists(st.integers(0, 51), min_size=min_size, max_size=max_size, unique=True)


@st.composite
def dense_hand(draw: st.DrawFn) -> list[Card]:
    """Cards crowded onto a few adjacent ranks: many sets and runs that overlap."""
    low = draw(st.integers(0, NUM_RANKS - 1))
    width = draw(st.integers(3, 6))
    ranks = [(low + k) % NUM_RANKS for k in range(width)]
    pool = [s * NUM_RANKS + r for s in range(4) for r in ranks]
    size = draw(st.integers(min(9, len(pool)), min(len(pool), 18)))
    return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))


@st.composite
def crowded_hand(draw: st.DrawFn) -> list[Card]:
    """Six to nine ranks held three or four times: the reference's rank-DP path (> 5 set ranks)."""
    ranks = draw(st.lists(st.integers(0, NUM_RANKS - 1), min_size=6, max_size=9, unique=True))
    cards: list[Card] = []
    for r in ranks:
        suits = draw(st.lists(st.integers(0, 3), min_size=3, max_size=4, unique=True))
        cards.extend(s * NUM_RANKS + r for s in suits)
    extra = draw(st.lists(st.integers(0, 51), max_size=6, unique=True))
    return cards + [c for c in extra if c not in cards]


@given(st.one_of(any_hand(), dense_hand()), RULES)
def test_reference_min_deadwood_is_the_formal_optimum(hand: list[Card], rules: MeldRules) -> None:
    claim = min_deadwood(hand, rules)
    cert = certify(hand, claim, rules, discard=False)
    assert cert.ok, (cert.explain(), cert.witness)


@given(st.one_of(any_hand(1, 12), dense_hand()), RULES)
def test_reference_best_discard_is_the_formal_optimum(hand: list[Card], rules: MeldRules) -> None:
    claim = min_deadwood_after_discard(hand, rules)
    cert = certify(hand, claim, rules, discard=True)
    assert cert.ok, (cert.explain(), cert.witness)


FEW = max(5, settings.default.max_examples // 6)
"""Crowded hands cost ~0.1 s each (both sides): a sixth of the profile's examples."""


@settings(max_examples=FEW)
@given(crowded_hand(), RULES)
def test_crowded_hands_match_the_formal_optimum(hand: list[Card], rules: MeldRules) -> None:
    for discard in (False, True):
        claim = min_deadwood_after_discard(hand, rules) if discard else min_deadwood(hand, rules)
        cert = certify(hand, claim, rules, discard=discard)
        assert cert.ok, (discard, cert.explain(), cert.witness)
