"""The ten- and eleven-card fast path of the meld engine (DEADWOOD.MINIMUM, KNOCK.ELIGIBLE).

``min_deadwood`` on ten cards and ``min_deadwood_after_discard`` on eleven, under standard rules,
add up a *hand code* per pair of cards (reference/melds.py). Here: the answers equal the
independent exhaustive search (tests/meld_oracle.py) for those sizes in every input form, the
code's meld test agrees with the oracle's own list of melds, and bad input of exactly those sizes
still raises the typed errors.
"""

from __future__ import annotations

import pytest
from ginspec.reference import melds
from ginspec.reference.melds import min_deadwood, min_deadwood_after_discard
from ginspec.spec.errors import CardError, DuplicateCardError
from hypothesis import given, settings
from meld_hands import hands
from meld_oracle import Rules, meld_kind, oracle_melds, oracle_min_deadwood, value

STANDARD = Rules()

more = settings(max_examples=settings().max_examples * 4)
"""Ten- and eleven-card hands are cheap for the oracle: four times the profile's examples."""


@more
@given(hands(min_size=10, max_size=10))
def test_ten_cards_equal_exhaustive_search(hand: list[int]) -> None:
    expected = oracle_min_deadwood(hand, STANDARD)
    assert min_deadwood(hand) == expected
    assert min_deadwood(tuple(hand)) == expected


@more
@given(hands(min_size=11, max_size=11))
def test_eleven_cards_best_discard_equals_exhaustive_search(hand: list[int]) -> None:
    expected = min(oracle_min_deadwood([x for x in hand if x != c], STANDARD) for c in hand)
    assert min_deadwood_after_discard(hand) == expected
    assert min_deadwood_after_discard(tuple(hand)) == expected
    assert min_deadwood(hand) == oracle_min_deadwood(hand, STANDARD)  # eleven: the general path


@more
@given(hands(min_size=10, max_size=11))
def test_hand_code_fields_and_meld_test_agree_with_the_oracle(hand: list[int]) -> None:
    code = sum(melds._CARD_CODES[c] for c in hand)
    assert code >> melds._CODE_MASK_AT == sum(1 << c for c in hand)
    assert code & melds._CODE_VALUE == sum(value(c, STANDARD) for c in hand)
    full = (code + melds._CODE_FIVES) & melds._CODE_EIGHTS
    found = oracle_melds(hand, STANDARD)
    assert bool(full) == bool(found)
    assert bool(full & melds._CODE_RANK_EIGHTS) == any(meld_kind(sorted(m), STANDARD) == "set" for m in found)


def test_pair_codes_are_the_sum_of_card_codes() -> None:
    for a in range(52):
        for b in range(52):
            assert melds._PAIR_CODES[a][b] == melds._CARD_CODES[a] + melds._CARD_CODES[b]


def test_no_meld_eleven_cards_discard_the_highest() -> None:
    # AC 3C 5C 7C 9C JD KD 2H 4H 6S 8S: eleven ranks, no three in a row: every card is deadwood
    # (CARD.VALUE: 65 in all), and the best discard is a card worth 10 (JD or KD).
    hand = [0, 2, 4, 6, 8, 23, 25, 27, 29, 44, 46]
    total = 1 + 3 + 5 + 7 + 9 + 10 + 10 + 2 + 4 + 6 + 8
    assert min_deadwood_after_discard(hand) == total - 10
    assert min_deadwood(hand[:10]) == total - 8  # without 8S


TEN = [0, 1, 2, 3, 4, 5, 6, 7, 8]


@pytest.mark.parametrize(
    ("last", "error"),
    [(8, DuplicateCardError), (-1, CardError), (-53, CardError), (52, CardError), (1.5, CardError),
     (None, CardError), ([1], CardError), ("9C", CardError)],
)
def test_bad_ten_and_eleven_card_input_raises_typed_errors(last: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        min_deadwood([*TEN, last])
    with pytest.raises(error):
        min_deadwood_after_discard([*TEN, 20, last])


@pytest.mark.parametrize("size", [10, 11])
def test_many_repeats_of_one_card_are_duplicates(size: int) -> None:
    """No field of the hand code spills into the next even for one card repeated eleven times."""
    for card in (0, 12, 51):
        with pytest.raises(DuplicateCardError):
            min_deadwood([card] * size)
        with pytest.raises(DuplicateCardError):
            min_deadwood_after_discard([card] * size)
