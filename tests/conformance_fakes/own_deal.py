"""Engines that shuffle and deal for themselves (capability ``deal.engine``), for the live mode's
tests: ``OwnDeal`` deals from the seed the live mode sends (so a game replays the same), and
``short = True`` leaves the last two cards out of the pack, as an engine once did (DEAL.SHUFFLE:
the deal is the 52 cards). ``OwnDealNoDiscardOfTakenCard`` deals well but may not discard the
card it has just taken (as if the profile said discard_taken_card = never). ``OwnDealMatch``
deals whole matches too (each hand from the seed and its number), and ``FiftyCardMatchStart``
deals the first hand of every match from 50 cards (DEAL.SHUFFLE), single hands and the later
hands of a match right."""

from __future__ import annotations

import random
from typing import Any

from ginspec.conformance.adapters.base import Hello, JSONObject, Verdict
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.adapters.reference_game import GameDriver
from ginspec.reference.game import Deal, rules_for_profile
from ginspec.reference.game.match import MatchState
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
        self.eleven = rules_for_profile(profile, dict(overrides)).eleven_card_start
        super().new_hand(profile, overrides, {"dealer": self.dealer, "deck": self.deck})

    def dealt(self) -> JSONObject:
        out = report(self.deck, self.dealer, self.eleven)  # DEAL.DECK-ORDER
        if self.short:
            out["stock"] = out["stock"][:-2]
        return out


class TakenCardKept:
    """A planted rule change, mixed into an adapter: the card just taken may not be discarded (as
    if the profile said discard_taken_card = never), with the right refusal code."""

    taken: str | None = None

    def new_hand(self, profile: str, overrides: Any, deal: Any) -> None:
        self.taken = None
        super().new_hand(profile, overrides, deal)  # type: ignore[misc]

    def new_match(self, profile: str, overrides: Any, deals: Any) -> None:
        self.taken = None
        super().new_match(profile, overrides, deals)  # type: ignore[misc]

    def legal_actions(self) -> list[str]:
        return [a for a in super().legal_actions() if a != f"discard {self.taken}"]  # type: ignore[misc]

    def apply(self, player: int | str, action: str) -> Verdict:
        if self.taken is not None and action == f"discard {self.taken}":
            return Verdict.rejected("DISCARD_OF_TAKEN_CARD")
        top = self.observe()["discard_top"]  # type: ignore[attr-defined]
        verdict: Verdict = super().apply(player, action)  # type: ignore[misc]
        if verdict.accepted:
            self.taken = top if action in ("take-upcard", "take-discard") else None
        return verdict


class OwnDealNoDiscardOfTakenCard(TakenCardKept, OwnDeal):
    """Deals well, but may not discard the card it has just taken."""


class ShortDeal(OwnDeal):
    """Deals itself 50 cards (DEAL.SHUFFLE)."""

    short = True


def report(deck: list[str], dealer: int, eleven: bool) -> JSONObject:
    """The deal of ``deck`` (first card dealt first) as ``dealt`` reports it (DEAL.DECK-ORDER;
    under the eleven-card start the non-dealer's eleventh card and no upcard, ELEVEN.DEAL)."""
    hands: list[list[str]] = [[], []]
    size = 21 if eleven else 20
    hands[1 - dealer] = deck[0:size:2]
    hands[dealer] = deck[1:size:2]
    return {"dealer": dealer, "hands": hands, "upcard": None if eleven else deck[20],
            "stock": deck[21:]}


class _EngineMatch(GameDriver):
    """A match the engine deals hand after hand: when a hand ends and the match goes on, it
    shuffles the next deck (from the match's seed) for the dealer the rules name."""

    def __init__(self, engine: OwnDealMatch, profile: str, overrides: Any, dealer: int) -> None:
        rules = rules_for_profile(profile, dict(overrides))
        self.engine = engine
        first = Deal.parse(engine.shuffled(0), dealer)
        super().__init__(None, MatchState.new(rules, deal=first), [first])
        self.hands_dealt = [(engine.shuffled(0), dealer)]

    def _deal_next(self, match: MatchState) -> MatchState:
        if match.hand_over and not match.is_over:
            k, dealer = len(self.hands_dealt), match.expected_dealer()
            deck = self.engine.shuffled(k)
            self.hands_dealt.append((deck, dealer))
            match = match.next_hand(Deal.parse(deck, dealer))
        return match


class OwnDealMatch(ReferenceAdapter):
    """The reference as an engine that deals every hand itself, single hands and whole
    matches (``deal.engine`` and ``match``): hand ``k`` of a match is shuffled from the seed it
    is sent (the live mode and the suite's deal checks send one) and ``k``; without a seed, from
    a fixed one. ``dealt`` reports the hand being played."""

    short_hand: int | None = None
    """The hand of every match (0 the first) this engine deals from 50 cards, or None."""

    def hello(self) -> Hello:
        h = super().hello()
        return Hello(h.name, h.version, profiles=h.profiles, capabilities=(
            *h.capabilities, "deal.engine"))

    def shuffled(self, k: int) -> list[str]:
        order = list(range(52))
        random.Random(f"own-deal:{self.seed}:{k}").shuffle(order)
        return [card_str(c) for c in order]

    def new_hand(self, profile: str, overrides: Any, deal: Any) -> None:
        self.seed, self.in_match = int(deal.get("seed", 0)), False
        self.eleven = rules_for_profile(profile, dict(overrides)).eleven_card_start
        self.hand_deck, self.dealer = self.shuffled(0), int(deal["dealer"])
        super().new_hand(profile, overrides, {"dealer": self.dealer, "deck": self.hand_deck})

    def new_match(self, profile: str, overrides: Any, deals: Any) -> None:
        first = deals[0]
        self.seed, self.in_match = int(first.get("seed", 0)), True
        self.eleven = rules_for_profile(profile, dict(overrides)).eleven_card_start
        self._game = _EngineMatch(self, profile, overrides, int(first["dealer"]))
        if any(self.automatic):
            self._game.showdown = self.showdown_steps

    def dealt(self) -> JSONObject:
        if not self.in_match:
            return report(self.hand_deck, self.dealer, self.eleven)
        game = self._game
        assert isinstance(game, _EngineMatch)
        deck, dealer = game.hands_dealt[-1]
        out = report(deck, dealer, self.eleven)
        if len(game.hands_dealt) - 1 == self.short_hand:
            out["stock"] = out["stock"][:-2]  # a cut from 50 cards
        return out


class FiftyCardMatchStart(OwnDealMatch):
    """Deals the first hand of every match after a cut from 50 cards (two cards left out of
    the pack: DEAL.SHUFFLE); single hands and the later hands of a match are dealt right. A
    real engine had this defect, on a path that single-hand play never reaches."""

    short_hand = 0
