"""ACTION.REJECTION's order of codes: an action that breaks two rules at once is refused with the
code the spec lists first (spec/chapters/15-actions-and-observations.md). Each position below
breaks exactly the two rules its test names; the expected code is the spec's, not the engine's."""

from __future__ import annotations

import pytest
from ginspec.reference.game import HandState, Rejection, rules_for_profile
from ginspec.reference.game.deal import Deal
from ginspec.reference.game.rejections import Code

KNOCKER = "2C 3C 4C 7D 7H 7S JS QS KS QD"
FAR_FROM_KNOCKING = "2C 5C 9C 7D 7H 7S JS QS KS QD"
DEFENDER = "8C 8D 8H 9D 9H 9S AS 2S 3S 5H"
NON_DEALER, DEALER = 1, 0


def start(non_dealer: str = KNOCKER) -> HandState:
    """Pagat, the dealer is player 0, the upcard 5D; the non-dealer is offered it first."""
    return HandState.new(Deal.from_hands(non_dealer, DEFENDER, "5D", dealer=DEALER),
                         rules_for_profile("pagat"))


def refused(state: HandState, action: str, player: int | None) -> Code:
    with pytest.raises(Rejection) as info:
        state.apply(action, player)
    return info.value.code


def at_layoffs() -> HandState:
    """The non-dealer took the upcard and knocked with QD (deadwood 5); both spread; the defender
    is to lay off, holding 5H."""
    s = start().apply("take-upcard", NON_DEALER).apply("knock QD", NON_DEALER)
    s = s.apply("declare 2C 3C 4C / 7D 7H 7S / JS QS KS", NON_DEALER)
    return s.apply("meld 8C 8D 8H / 9D 9H 9S / AS 2S 3S", DEALER)


def test_the_turn_comes_before_the_phase() -> None:
    """The dealer discards during the upcard offer: not his turn, and no discard is offered."""
    assert refused(start(), "discard 8C", DEALER) is Code.NOT_YOUR_TURN


def test_the_grammar_comes_before_the_turn() -> None:
    assert refused(start(), "discard 8X", DEALER) is Code.MALFORMED_ACTION


def test_a_card_not_held_comes_before_the_knock_limit() -> None:
    s = start(FAR_FROM_KNOCKING).apply("take-upcard", NON_DEALER)
    assert refused(s, "knock 6H", NON_DEALER) is Code.CARD_NOT_IN_HAND


def test_the_taken_card_comes_before_the_knock_limit() -> None:
    """Knocking with the upcard just taken, and 26 deadwood left: both forbidden."""
    s = start(FAR_FROM_KNOCKING).apply("take-upcard", NON_DEALER)
    assert refused(s, "knock 5D", NON_DEALER) is Code.DISCARD_OF_TAKEN_CARD


@pytest.mark.parametrize(("declaration", "code"), [
    # the group of the lowest card (2C) is no meld; the other holds 7C, not the knocker's
    ("2C 3C 9D / 7C 7D 7H 7S", Code.DECLARATION_NOT_A_MELD),
    ("7C 7D 7H 7S / 2C 3C 9D", Code.DECLARATION_NOT_A_MELD),
    # the group of the lowest card holds 5C, not the knocker's; the other is no meld
    ("2C 3C 4C 5C / 7D 7H 9D", Code.DECLARATION_CARD_NOT_HELD),
    ("7D 7H 9D / 2C 3C 4C 5C", Code.DECLARATION_CARD_NOT_HELD),
])
def test_a_declaration_is_checked_meld_by_meld_in_canonical_order(
        declaration: str, code: Code) -> None:
    """Declared melds are order-free (ACTION.GRAMMAR): the code does not depend on how the
    declaration was written."""
    s = start().apply("take-upcard", NON_DEALER).apply("knock QD", NON_DEALER)
    assert refused(s, f"declare {declaration}", NON_DEALER) is code


def test_a_declared_card_twice_comes_before_the_knock_limit() -> None:
    s = start().apply("take-upcard", NON_DEALER).apply("knock QD", NON_DEALER)
    assert refused(s, "declare 2C 3C 4C / 2C 3C 4C", NON_DEALER) is Code.DECLARATION_CARD_TWICE


def test_a_layoff_anchor_comes_before_the_card() -> None:
    """9C is not the defender's, and 2H is in no meld of the knocker's."""
    assert refused(at_layoffs(), "layoff 9C to 2H", DEALER) is Code.LAYOFF_NO_SUCH_MELD


def test_a_layoff_card_not_held_comes_before_the_fit() -> None:
    """9C is not the defender's, and would not fit the sevens either."""
    assert refused(at_layoffs(), "layoff 9C to 7D", DEALER) is Code.LAYOFF_CARD_NOT_HELD
