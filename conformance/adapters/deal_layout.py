"""Where each card of an explicit deal goes (DEAL.DECK-ORDER, DEAL.HANDS, DEAL.UPCARD,
DEAL.STOCK, ELEVEN.DEAL), so an adapter can force the same deal on an engine that deals itself (OpenSpiel, RLCard).

Upcard-offer deal: cards 0, 2, .., 18 to the non-dealer, 1, 3, .., 19 to the dealer, card 20
face up, cards 21.. the stock (card 21 on top). Eleven-card start: the same, except that card
20 goes to the non-dealer as an eleventh card and there is no upcard.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ginspec.spec.cards import NUM_CARDS, Card
from ginspec.spec.errors import GinspecError


class DealLayoutError(GinspecError):
    """A deal is not 52 distinct cards, or names a dealer other than 0 or 1."""


@dataclass(frozen=True)
class DealLayout:
    """The deal laid out: hands by OUR player number, the upcard, the stock top first."""

    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    upcard: Card | None
    stock: tuple[Card, ...]
    dealer: int

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer


def check_deal(deal: Sequence[Card], dealer: int) -> None:
    """Raise :class:`DealLayoutError` unless ``deal`` is 52 distinct cards and ``dealer`` is 0 or 1."""
    if dealer not in (0, 1):
        raise DealLayoutError(f"dealer must be 0 or 1, not {dealer!r}")
    if len(deal) != NUM_CARDS or sorted(deal) != list(range(NUM_CARDS)):
        raise DealLayoutError("a deal must list each of the 52 cards exactly once")


def layout(deal: Sequence[Card], dealer: int, first_turn: str = "upcard_offer") -> DealLayout:
    """Lay out ``deal`` for ``dealer`` under the ``first_turn`` parameter."""
    check_deal(deal, dealer)
    non_dealer_cards = [deal[i] for i in range(0, 20, 2)]
    dealer_cards = tuple(deal[i] for i in range(1, 20, 2))
    upcard: Card | None = deal[20]
    if first_turn == "eleven_card_start":
        non_dealer_cards.append(deal[20])
        upcard = None
    elif first_turn != "upcard_offer":
        raise DealLayoutError(f"unknown first_turn {first_turn!r}")
    hands: list[tuple[Card, ...]] = [(), ()]
    hands[dealer] = dealer_cards
    hands[1 - dealer] = tuple(non_dealer_cards)
    return DealLayout((hands[0], hands[1]), upcard, tuple(deal[21:]), dealer)


def deal_for(
    non_dealer: Sequence[Card],
    dealer_hand: Sequence[Card],
    dealer: int,
    upcard: Card | None = None,
    stock: Sequence[Card] = (),
) -> list[Card]:
    """The 52-card deal giving these hands (the inverse of :func:`layout`).

    ``non_dealer`` has 10 cards (upcard deal) or 11 (eleven-card start, then ``upcard`` must be
    None); ``stock`` lists the top of the stock first, and the cards nobody named follow it in
    card-number order.
    """
    check_deal(list(range(NUM_CARDS)), dealer)
    nd = list(non_dealer)
    if len(nd) == 11:
        if upcard is not None:
            raise DealLayoutError("an eleven-card start has no upcard")
        twentieth: Card = nd.pop()
    elif len(nd) == 10:
        if upcard is None:
            raise DealLayoutError("a ten-card deal needs an upcard")
        twentieth = upcard
    else:
        raise DealLayoutError(f"the non-dealer gets 10 or 11 cards, not {len(nd)}")
    if len(dealer_hand) != 10:
        raise DealLayoutError(f"the dealer gets 10 cards, not {len(dealer_hand)}")
    head: list[Card] = []
    for a, b in zip(nd, dealer_hand, strict=True):
        head += [a, b]
    named = [*head, twentieth, *stock]
    if len(set(named)) != len(named):
        raise DealLayoutError("a card is named twice")
    rest = [c for c in range(NUM_CARDS) if c not in set(named)]
    return [*named, *rest]
