"""Deals: a full deck order and a dealer (DEAL.DECK-ORDER, DEAL.HANDS, DEAL.UPCARD, DEAL.STOCK).

The deck lists all 52 cards, the first card dealt first. With the upcard offer
(first_turn = upcard_offer): cards 1-20 go one at a time to the non-dealer, the dealer, the
non-dealer, ... (so the non-dealer gets cards 1, 3, ..., 19 and the dealer 2, 4, ..., 20); card 21
is the upcard, which starts the discard pile; cards 22-52 are the stock, card 22 on top. With the
eleven-card start, card 21 goes to the non-dealer instead and the discard pile starts empty.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ginspec.spec.cards import FULL_DECK, NUM_CARDS, Card, card_str, mask_of, parse_cards
from ginspec.spec.clauses import implements
from ginspec.spec.errors import CardError, GinspecError


class DealError(GinspecError):
    """A deal is not a permutation of the 52 cards, or the dealer is not 0 or 1."""


@dataclass(frozen=True, slots=True)
class Deal:
    """A deck order (first card dealt first) and the dealer (player 0 or 1)."""

    deck: tuple[Card, ...]
    dealer: int
    seed: int | None = None

    def __post_init__(self) -> None:
        if len(self.deck) != NUM_CARDS or mask_of(self.deck) != FULL_DECK:
            raise DealError(
                f"a deal lists each of the 52 cards exactly once; got {len(self.deck)} cards"
                f" covering {mask_of(c for c in self.deck if 0 <= c < 52).bit_count()}"
            )
        if type(self.dealer) is not int or self.dealer not in (0, 1):  # True is not player 1
            raise DealError(f"the dealer is player 0 or 1, not {self.dealer!r}")

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    @classmethod
    def parse(cls, cards: str | Sequence[str], dealer: int) -> Deal:
        """A deal from card tokens (a string or a list), e.g. from a JSON trace."""
        if not isinstance(cards, str) and not all(isinstance(c, str) for c in cards):
            raise DealError("deck: every card is a token such as 'TS'")
        try:
            deck = tuple(parse_cards(cards))
        except CardError as exc:
            raise DealError(f"deck: {exc}") from None
        return cls(deck, dealer)

    @classmethod
    def from_hands(cls, non_dealer: str | Sequence[Card], dealer_cards: str | Sequence[Card],
                   upcard: str | Card | None, stock_top: str | Sequence[Card] = (),
                   dealer: int = 0) -> Deal:
        """The deal that gives these hands, upcard and top of stock (rest of the stock in card
        number order). With ``upcard=None`` the non-dealer's hand has 11 cards (eleven-card
        start). Useful to set up a disputed position."""
        def cards(x: str | Sequence[Card]) -> list[Card]:
            if isinstance(x, str):
                return parse_cards(x)
            if not isinstance(x, Iterable):
                raise DealError(f"expected cards such as '7H 8H 9H' or card numbers, got {x!r}")
            return list(x)

        nd, d, top = cards(non_dealer), cards(dealer_cards), cards(stock_top)
        if len(d) != 10 or len(nd) != (10 if upcard is not None else 11):
            raise DealError(f"hands of {len(nd)} and {len(d)} cards: the non-dealer gets 10 "
                            "(11 with no upcard) and the dealer 10")
        middle = [parse_cards(upcard)[0] if isinstance(upcard, str) else upcard] \
            if upcard is not None else [nd.pop()]
        deck = [c for pair in zip(nd, d, strict=True) for c in pair] + middle + top
        used = mask_of(c for c in deck if isinstance(c, int) and 0 <= c < NUM_CARDS)
        deck += [c for c in range(NUM_CARDS) if not used >> c & 1]
        return cls(tuple(c for c in deck if c is not None), dealer)

    def tokens(self) -> list[str]:
        return [card_str(c) for c in self.deck]

    def __repr__(self) -> str:
        seed = f", seed={self.seed}" if self.seed is not None else ""
        return f"Deal.parse({' '.join(self.tokens())!r}, dealer={self.dealer}{seed})"


@implements("DEAL.DECK-ORDER")
def split_deck(deal: Deal, eleven_card_start: bool) -> tuple[list[Card], list[Card], Card | None,
                                                              tuple[Card, ...]]:
    """``(non_dealer_cards, dealer_cards, upcard, stock)`` of a deal, stock top first."""
    deck = deal.deck
    non_dealer = list(deck[0:20:2])
    dealer = list(deck[1:20:2])
    if eleven_card_start:
        non_dealer.append(deck[20])
        return non_dealer, dealer, None, deck[21:]
    return non_dealer, dealer, deck[20], deck[21:]


@implements("DEAL.SHUFFLE")
def deal_from_seed(seed: int, dealer: int = 0) -> Deal:
    """The deal of a shuffle by ``random.Random(seed)`` of the cards in number order."""
    deck = list(range(NUM_CARDS))
    random.Random(seed).shuffle(deck)
    return Deal(tuple(deck), dealer, seed)


__all__ = ["Deal", "DealError", "deal_from_seed", "split_deck"]
