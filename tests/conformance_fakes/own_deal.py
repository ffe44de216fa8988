"""Engines that shuffle and deal for themselves (capability ``deal.engine``), for the live mode's
tests: ``OwnDeal`` deals from the seed the live mode sends (so a game replays the same), and
``short = True`` leaves the last two cards out of the pack, as an engine once did (DEAL.SHUFFLE:
the deal is the 52 cards). ``OwnDealNoDiscardOfTakenCard`` deals well but may not discard the
card it has just taken (as if the profile said discard_taken_card = never)."""

from __future__ import annotations

import random
from typing import Any

from ginspec.conformance.adapters.base import Hello, JSONObject, Verdict
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.spec.cards import card_str


class OwnDeal(ReferenceAdapter):
    short = False

    def hello(self) -> Hello:
        h = super().hello()
        return Hello(h.name, h.version, profiles=h.profiles, capabilities=(
            *(c for c in h.capabilities if c != "match"), "deal.engine"))

    def new_hand(self, profile: str, overrides: Any, deal: Any) -> None:
        order = list(range(52))
        random.Random(deal["seed"]).shuffle(order)
        self.deck, self.dealer = [card_str(c) for c in order], int(deal["dealer"])
        super().new_hand(profile, overrides, {"dealer": self.dealer, "deck": self.deck})

    def dealt(self) -> JSONObject:
        d, deck = self.dealer, self.deck
        hands: list[list[str]] = [[], []]
        hands[1 - d], hands[d] = deck[0:20:2], deck[1:20:2]  # DEAL.DECK-ORDER
        return {"dealer": d, "hands": hands, "upcard": deck[20],
                "stock": deck[21:-2] if self.short else deck[21:]}


class OwnDealNoDiscardOfTakenCard(OwnDeal):
    taken: str | None = None

    def new_hand(self, profile: str, overrides: Any, deal: Any) -> None:
        self.taken = None
        super().new_hand(profile, overrides, deal)

    def legal_actions(self) -> list[str]:
        return [a for a in super().legal_actions() if a != f"discard {self.taken}"]

    def apply(self, player: int | str, action: str) -> Verdict:
        if self.taken is not None and action == f"discard {self.taken}":
            return Verdict.rejected("DISCARD_OF_TAKEN_CARD")
        top = self.observe()["discard_top"]
        verdict = super().apply(player, action)
        if verdict.accepted:
            self.taken = top if action in ("take-upcard", "take-discard") else None
        return verdict


class ShortDeal(OwnDeal):
    """Deals itself 50 cards (DEAL.SHUFFLE)."""

    short = True
