"""Card notation and encoding (CARD.NOTATION, CARD.ENCODING, CARD.VALUE, CARD.DECK)."""

from __future__ import annotations

import pytest
from ginspec.spec.cards import (
    card_str,
    card_value,
    cards_of,
    format_cards,
    mask_of,
    parse_card,
    parse_cards,
)
from ginspec.spec.errors import CardError, DuplicateCardError
from hypothesis import given
from hypothesis import strategies as st

RANK_TEXT = "A23456789TJQK"
SUIT_TEXT = "CDHS"


def test_encoding_landmarks() -> None:
    # suit * 13 + rank, suits C D H S, ace low.
    assert parse_card("AC") == 0
    assert parse_card("KC") == 12
    assert parse_card("AD") == 13
    assert parse_card("2H") == 27
    assert parse_card("KS") == 51


def test_every_card_round_trips() -> None:
    names = [card_str(c) for c in range(52)]
    assert len(set(names)) == 52
    for number, name in enumerate(names):
        assert name == RANK_TEXT[number % 13] + SUIT_TEXT[number // 13]
        assert parse_card(name) == number
        assert parse_card(name.lower()) == number


@pytest.mark.parametrize(
    ("token", "canonical"),
    [
        ("10S", "TS"),
        ("10h", "TH"),
        ("ts", "TS"),
        ("aH", "AH"),
        ("T♠", "TS"),
        ("7♥", "7H"),
        ("Q♦", "QD"),
        ("2♣", "2C"),
        ("K♤", "KS"),
        ("3♡", "3H"),
        ("J♢", "JD"),
        ("A♧", "AC"),
        (" 9d ", "9D"),
    ],
)
def test_aliases_parse_to_the_canonical_card(token: str, canonical: str) -> None:
    assert card_str(parse_card(token)) == canonical


@pytest.mark.parametrize("token", ["", "S", "1S", "11S", "XS", "TX", "♠T", "S7", "7", "0H", "10"])
def test_bad_tokens_raise_card_error_naming_the_token(token: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(token)
    assert repr(token) in str(info.value)


def test_parse_cards_accepts_commas_and_lists() -> None:
    assert parse_cards("7H, 7D ,7S") == parse_cards(["7H", "7D", "7S"]) == [32, 19, 45]
    assert parse_cards("") == []


def test_duplicates_raise_naming_the_card() -> None:
    with pytest.raises(DuplicateCardError, match="TS"):
        parse_cards("TS 9S 10s")
    assert parse_cards("TS TS", distinct=False) == [48, 48]


@pytest.mark.parametrize("number", [-1, 52, 100])
def test_card_str_rejects_numbers_outside_the_deck(number: int) -> None:
    with pytest.raises(CardError):
        card_str(number)


def test_card_values() -> None:
    expected = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    for suit in range(4):
        assert [card_value(suit * 13 + r) for r in range(13)] == expected
    assert card_value(parse_card("AS"), 15) == 15


@given(st.sets(st.integers(0, 51)))
def test_masks_round_trip(cards: set[int]) -> None:
    mask = mask_of(cards)
    assert cards_of(mask) == sorted(cards)
    assert parse_cards(format_cards(mask)) == sorted(cards)
