"""Card notation and the integer encoding (clauses CARD.DECK, CARD.NOTATION, CARD.ENCODING,
CARD.VALUE).

A card is an ``int`` from 0 to 51: ``suit * 13 + rank`` with suits ``C D H S`` = 0..3 and
ranks ``A 2 3 4 5 6 7 8 9 T J Q K`` = 0..12, so ``AC`` is 0, ``KC`` is 12, ``AD`` is 13 and
``KS`` is 51. A set of cards is a 52-bit ``int`` mask with bit ``card`` set; suit ``s`` occupies
bits ``13*s`` to ``13*s + 12``, so ``(mask >> 13*s) & 0x1FFF`` is that suit's ranks.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, TypeAlias

from ginspec.spec.clauses import implements
from ginspec.spec.errors import CardError, DuplicateCardError, shown

Card: TypeAlias = int
"""A card, 0..51 (CARD.ENCODING)."""
CardMask: TypeAlias = int
"""A set of cards as a 52-bit mask (CARD.ENCODING)."""
Rank: TypeAlias = int
"""0 (ace) .. 12 (king)."""
Suit: TypeAlias = int
"""0 clubs, 1 diamonds, 2 hearts, 3 spades."""

RANK_CHARS: Final = "A23456789TJQK"
SUIT_CHARS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
NUM_RANKS: Final = 13
NUM_SUITS: Final = 4
NUM_CARDS: Final = 52
SUIT_BITS: Final = 0x1FFF
FULL_DECK: Final[CardMask] = (1 << NUM_CARDS) - 1

CLUBS: Final[Suit] = 0
DIAMONDS: Final[Suit] = 1
HEARTS: Final[Suit] = 2
SPADES: Final[Suit] = 3

ACE: Final[Rank] = 0
TEN: Final[Rank] = 9
KING: Final[Rank] = 12


@implements("CARD.ENCODING")
def make_card(rank: Rank, suit: Suit) -> Card:
    """The card of ``rank`` and ``suit`` (CARD.ENCODING)."""
    if not (0 <= rank < NUM_RANKS and 0 <= suit < NUM_SUITS):
        raise CardError(f"no card with rank {rank} and suit {suit}")
    return suit * NUM_RANKS + rank


def rank_of(card: Card) -> Rank:
    """The rank index of ``card``, 0 for an ace (CARD.ENCODING)."""
    return card % NUM_RANKS


def suit_of(card: Card) -> Suit:
    """The suit index of ``card`` (CARD.ENCODING)."""
    return card // NUM_RANKS


@implements("CARD.VALUE")
def card_value(card: Card, ace_value: int = 1) -> int:
    """Deadwood value (CARD.VALUE): ace 1 (or ``ace_value``), 2-9 face, T J Q K 10."""
    rank = card % NUM_RANKS
    if rank == ACE:
        return ace_value
    return min(rank + 1, 10)


@implements("CARD.NOTATION")
def card_str(card: Card) -> str:
    """Canonical two-character text of ``card``, e.g. ``'TS'`` (CARD.NOTATION)."""
    if not 0 <= card < NUM_CARDS:
        raise CardError(f"no card with number {card}")
    return RANK_CHARS[card % NUM_RANKS] + SUIT_CHARS[card // NUM_RANKS]


_RANK_ALIASES: Final = {c: i for i, c in enumerate(RANK_CHARS)} | {"10": TEN, "1": ACE}
_SUIT_ALIASES: Final = {c: i for i, c in enumerate(SUIT_CHARS)} | {
    s: i for i, s in enumerate(SUIT_SYMBOLS)
} | {"♧": 0, "♢": 1, "♡": 2, "♤": 3}


_CANONICAL: Final[dict[str, Card]] = {
    RANK_CHARS[c % NUM_RANKS] + SUIT_CHARS[c // NUM_RANKS]: c for c in range(NUM_RANKS * 4)}
"""Each canonical token (``TS``) and its card."""


@implements("CARD.NOTATION")
def parse_card(token: str) -> Card:
    """Parse one card token (CARD.NOTATION).

    Accepts the canonical form (``TS``), lower case (``ts``), ``10`` for ten (``10S``) and the
    suit symbols (``T♠``, ``♠T`` is not accepted). Raises :class:`CardError` naming the token
    (also for a token that is not text).
    """
    if type(token) is str and token in _CANONICAL:  # the common case, read from a table
        return _CANONICAL[token]
    if not isinstance(token, str):
        raise CardError(f"a card is written as text such as '7H', not {type(token).__name__} "
                        f"{shown(token)}")
    text = token.strip().upper()
    if len(text) < 2:
        raise CardError(f"unknown card {token!r}: expected rank then suit, e.g. 'TS' or '7H'")
    rank_part, suit_part = text[:-1], text[-1]
    rank = _RANK_ALIASES.get(rank_part)
    suit = _SUIT_ALIASES.get(suit_part)
    if rank is None or rank_part == "1":
        raise CardError(f"unknown card {token!r}: rank {rank_part!r} is not one of {RANK_CHARS} or 10")
    if suit is None:
        raise CardError(f"unknown card {token!r}: suit {suit_part!r} is not one of C D H S ♣♦♥♠")
    return suit * NUM_RANKS + rank


def split_tokens(text: str) -> list[str]:
    """Split a card list written with spaces and/or commas into tokens."""
    return [t for t in text.replace(",", " ").split() if t]


@implements("CARD.DECK")
def parse_cards(tokens: str | Iterable[str], *, distinct: bool = True) -> list[Card]:
    """Parse card tokens (a string or an iterable of tokens) in order.

    With ``distinct`` (the default) a repeated card raises :class:`DuplicateCardError` (CARD.DECK);
    anything that is not text or an iterable of text raises :class:`CardError`.
    """
    if type(tokens) is list or type(tokens) is tuple:  # canonical tokens, read from a table
        try:
            cards = [_CANONICAL[t] for t in tokens]
        except (KeyError, TypeError):
            pass
        else:
            if not distinct or len(set(cards)) == len(cards):
                return cards
    if isinstance(tokens, str):
        items = split_tokens(tokens)
    elif isinstance(tokens, Iterable) and not isinstance(tokens, bytes):
        items = [t for tok in tokens for t in (split_tokens(tok) if isinstance(tok, str) else [tok])]
    else:
        raise CardError(f"cards are written as text such as '7H 8H 9H', not "
                        f"{type(tokens).__name__} {shown(tokens)}")
    cards = [parse_card(t) for t in items]
    if distinct:
        seen: set[Card] = set()
        for token, card in zip(items, cards, strict=True):
            if card in seen:
                raise DuplicateCardError(f"duplicate card {token!r} ({card_str(card)})")
            seen.add(card)
    return cards


def check_card(card: object) -> Card:
    """``card`` itself when it is a card number 0..51 (an ``int``, not a ``bool``); raises
    :class:`CardError` naming it otherwise (CARD.ENCODING)."""
    if type(card) is not int or not 0 <= card < NUM_CARDS:
        raise CardError(f"no card with number {shown(card)}")
    return card


def mask_of(cards: Iterable[Card]) -> CardMask:
    """The mask of a collection of cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: CardMask) -> list[Card]:
    """The cards of ``mask`` in ascending card number (clubs first, ace low)."""
    cards: list[Card] = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


@implements("CARD.RANK-ORDER")
def sort_key(card: Card) -> tuple[int, int]:
    """Display order: by suit C D H S, then rank ace low."""
    return (card // NUM_RANKS, card % NUM_RANKS)


def format_cards(cards: Iterable[Card] | CardMask) -> str:
    """Space-separated canonical text; a mask is printed in card-number order."""
    items = cards_of(cards) if isinstance(cards, int) else list(cards)
    return " ".join(card_str(c) for c in items)
