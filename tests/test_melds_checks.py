"""check_meld and check_arrangement: validity and the reason given (MELD.SET, MELD.RUN,
MELD.RUN.ACE-LOW, MELD.RUN.NO-WRAP, DEADWOOD.ARRANGEMENT), and hand-worked examples."""

from __future__ import annotations

import pytest
from ginspec.reference.meld_rules import STANDARD, MeldRules
from ginspec.reference.melds import (
    Arrangement,
    Meld,
    MeldKind,
    analyse_discards,
    check_arrangement,
    check_meld,
    make_meld,
    min_deadwood,
    min_deadwood_after_discard,
    optimal_arrangements,
)
from ginspec.spec.cards import parse_card, parse_cards
from ginspec.spec.errors import CardError, DuplicateCardError, GinspecError, MeldError
from hypothesis import given
from hypothesis import strategies as st
from meld_hands import dense_pool, hands, variants
from meld_oracle import Rules, is_run_ranks, meld_kind, oracle_melds, rank, suit, value

Variant = tuple[MeldRules, Rules]


def expected_reason(cards: list[int], oracle_rules: Rules) -> str | None:
    """A phrase the reason must contain, worked out from the rules (None: it is a meld)."""
    if len(set(cards)) != len(cards):
        return "twice"
    if len(cards) < 3:
        return "at least 3"
    if meld_kind(cards, oracle_rules) is not None:
        return None
    if len({rank(c) for c in cards}) > 1 and len({suit(c) for c in cards}) > 1:
        return "neither one rank"
    ranks = frozenset(rank(c) for c in cards)
    if is_run_ranks(ranks, Rules(ace_high=True, wrap=True)):
        # Consecutive only if the ace may be high or the run may turn the corner.
        return "corner" if {12, 0, 1} <= ranks else "ace is low"
    return "not consecutive"


@st.composite
def card_groups(draw: st.DrawFn) -> list[int]:
    """0 to 6 cards, mostly from a dense pool, sometimes with a repeat."""
    pool = draw(dense_pool())
    group = draw(st.permutations(pool))[: draw(st.integers(0, 6))]
    if group and draw(st.integers(0, 9)) == 0:
        group.append(draw(st.sampled_from(group)))
    return group


@given(card_groups(), variants)
def test_check_meld_validity_and_reason(cards: list[int], variant: Variant) -> None:
    rules, oracle_rules = variant
    check = check_meld(cards, rules)
    reason = expected_reason(cards, oracle_rules)
    if reason is None:
        assert check.valid
        assert check.kind is not None
        assert check.kind.value == meld_kind(cards, oracle_rules)
        assert check.reason == ""
        assert sorted(make_meld(cards, rules).cards) == sorted(cards)
    else:
        assert not check.valid
        assert reason in check.reason
        with pytest.raises(MeldError, match=reason):
            make_meld(cards, rules)


@pytest.mark.parametrize(
    ("text", "rules", "reason"),
    [
        ("QS KS AS", STANDARD, "ace is low"),
        ("KS AS 2S", STANDARD, "corner"),
        ("KS AS 2S", MeldRules(ace_high_runs=True), "corner"),
        ("JH QH KH AH 2H", MeldRules(ace_high_runs=True), "corner"),
        ("2C 3C 5C", STANDARD, "not consecutive"),
        ("7C 7D 8C", STANDARD, "neither one rank"),
        ("7C 7D", STANDARD, "at least 3"),
    ],
)
def test_check_meld_named_reasons(text: str, rules: MeldRules, reason: str) -> None:
    check = check_meld(parse_cards(text), rules)
    assert not check.valid
    assert reason in check.reason


@pytest.mark.parametrize(
    ("text", "rules", "kind"),
    [
        ("AC 2C 3C", STANDARD, MeldKind.RUN),
        ("QS KS AS", MeldRules(ace_high_runs=True), MeldKind.RUN),
        ("KS AS 2S", MeldRules(ace_high_runs=True, wraparound_runs=True), MeldKind.RUN),
        ("9D TD JD QD KD", STANDARD, MeldKind.RUN),
        ("7S 7C 7H", STANDARD, MeldKind.SET),
        ("7S 7C 7H 7D", STANDARD, MeldKind.SET),
    ],
)
def test_check_meld_named_melds(text: str, rules: MeldRules, kind: MeldKind) -> None:
    assert check_meld(parse_cards(text), rules).kind is kind


def test_meld_display_order_and_repr() -> None:
    assert str(Meld.parse("7S 7C 7H")) == "7C 7H 7S"
    assert str(Meld.parse("KS QS AS", MeldRules(ace_high_runs=True))) == "QS KS AS"
    assert str(Meld.parse("3D AD 2D")) == "AD 2D 3D"
    meld = Meld.parse("TC 9C 8C")
    assert eval(repr(meld), {"Meld": Meld}) == meld


# --- check_arrangement ---------------------------------------------------------------------


@st.composite
def declarations(draw: st.DrawFn) -> tuple[list[int], list[list[int]], Variant]:
    """A hand and declared melds: disjoint melds of the hand, then maybe one fault."""
    variant = draw(variants)
    hand = draw(hands(max_size=13))
    melds = oracle_melds(hand, variant[1])
    declared: list[list[int]] = []
    used: set[int] = set()
    for m in draw(st.permutations(melds))[: draw(st.integers(0, 4))]:
        if not m & used:
            declared.append(draw(st.permutations(sorted(m))))
            used |= m
    fault = draw(st.sampled_from(["none", "foreign", "shared", "not-a-meld"]))
    position = draw(st.integers(0, len(declared)))
    if fault == "foreign":
        outside = [c for c in range(52) if c not in hand]
        pool = oracle_melds(outside, variant[1])
        if pool:
            declared.insert(position, sorted(draw(st.sampled_from(pool))))
    elif fault == "shared" and declared:
        declared.insert(position, list(draw(st.sampled_from(declared))))
    elif fault == "not-a-meld":
        declared.insert(position, draw(st.permutations(hand))[: draw(st.integers(0, 4))])
    return hand, declared, variant


def expected_fault(hand: list[int], declared: list[list[int]], oracle_rules: Rules) -> str | None:
    """The first fault in declaration order, as a phrase of the error (None: valid)."""
    used: set[int] = set()
    for cards in declared:
        if meld_kind(cards, oracle_rules) is None:
            return "not a meld"
        if not set(cards) <= set(hand):
            return "not in the hand"
        if set(cards) & used:
            return "shares"
        used |= set(cards)
    return None


@given(declarations())
def test_check_arrangement(case: tuple[list[int], list[list[int]], Variant]) -> None:
    hand, declared, (rules, oracle_rules) = case
    fault = expected_fault(hand, declared, oracle_rules)
    if fault is not None:
        with pytest.raises(MeldError, match=fault):
            check_arrangement(hand, declared, rules)
        return
    arrangement = check_arrangement(hand, declared, rules)
    covered = {c for m in declared for c in m}
    leftover = sorted(c for c in hand if c not in covered)
    assert list(arrangement.deadwood_cards) == leftover
    assert arrangement.deadwood == sum(value(c, oracle_rules) for c in leftover)
    assert sorted(tuple(sorted(m.cards)) for m in arrangement.melds) == sorted(
        tuple(sorted(m)) for m in declared
    )
    assert arrangement.deadwood >= min_deadwood(hand, rules)


def test_arrangement_parse_and_repr() -> None:
    a = Arrangement.parse("7H 7D 7S / 8C 9C TC | 2S 3D")
    assert a.deadwood == 5
    assert str(a) == "8C 9C TC / 7D 7H 7S | 3D 2S"
    assert eval(repr(a), {"Arrangement": Arrangement}) == a


# --- hand-worked examples ------------------------------------------------------------------


def test_ten_card_example() -> None:
    # 8C 9C TC and 7D 7H 7S meld; 2S 3D 4H KD are left: 2 + 3 + 4 + 10 = 19.
    hand = parse_cards("7H 7D 7S 8C 9C TC 2S 3D 4H KD")
    assert min_deadwood(hand) == 19
    [best] = optimal_arrangements(hand)
    assert str(best) == "8C 9C TC / 7D 7H 7S | 3D KD 4H 2S"


def test_eleven_card_best_discard_is_not_meld_then_drop() -> None:
    # All 11 cards: run 4C-7C + 6D 6H 6S leaves 5H 5S 3H 3S = 16 (the 11-card optimum); dropping
    # the highest leftover gives 11. Keeping the sets 5C 5H 5S and 6C 6D 6H 6S instead leaves
    # 4C 7C 3H 3S = 17, and discarding 7C leaves 10: the true best discard.
    hand = parse_cards("4C 5C 6C 7C 6D 3H 5H 6H 3S 5S 6S")
    assert min_deadwood(hand) == 16
    analysis = analyse_discards(hand)
    assert analysis.deadwood == 10
    assert analysis.best_discards == (parse_card("7C"),)
    assert not analysis.big_gin
    assert min_deadwood_after_discard(hand) == 10


def test_big_gin_example() -> None:
    # A-2-3 of clubs, three fours, 7-8-9-T-J of hearts: everything melds. Discarding 7H or JH
    # keeps a 4-card run; any other discard breaks a meld.
    hand = parse_cards("AC 2C 3C 4D 4H 4S 7H 8H 9H TH JH")
    analysis = analyse_discards(hand)
    assert analysis.big_gin
    assert analysis.deadwood == 0
    assert analysis.best_discards == (parse_card("7H"), parse_card("JH"))


def test_ace_value_variant_example() -> None:
    # AC AD KS: nothing melds; the aces count 15 each under ace_value=15.
    assert min_deadwood(parse_cards("AC AD KS")) == 12
    assert min_deadwood(parse_cards("AC AD KS"), MeldRules(ace_value=15)) == 40


def test_run_variant_examples() -> None:
    hand = parse_cards("QS KS AS 2S 3S")
    # Standard: only A-2-3 is a run; Q K are left (20). Ace high: Q-K-A or A-2-3 (either way 5 or
    # 20 left: best is leaving 2S 3S = 5). Wrap-around: the whole stretch is one run.
    assert min_deadwood(hand) == 20
    assert min_deadwood(hand, MeldRules(ace_high_runs=True)) == 5
    assert min_deadwood(hand, MeldRules(ace_high_runs=True, wraparound_runs=True)) == 0


# --- typed errors --------------------------------------------------------------------------


def test_engine_rejects_bad_input_with_typed_errors() -> None:
    with pytest.raises(DuplicateCardError):
        min_deadwood([3, 3])
    with pytest.raises(CardError):
        min_deadwood([52])
    with pytest.raises(CardError):
        min_deadwood([-1])
    with pytest.raises(CardError):
        min_deadwood(1 << 52)
    with pytest.raises(MeldError):
        min_deadwood_after_discard([])
    with pytest.raises(MeldError):
        analyse_discards(0)
    with pytest.raises(MeldError):
        Meld.parse("2C 3C 5C")
    assert issubclass(GinspecError, ValueError)

