"""A complete adapter for an engine that plays single hands (the guide's Python example).

The "engine" here is the reference game engine, ``ginspec.reference.game``, used as if it were
yours: the adapter only translates between the runner's calls and the engine's own API. Copy
this file, replace the engine calls with your engine's, and keep the capabilities honest — the
runner sends only the cases whose profile and capabilities you declare here.

Run it with::

    ginspec conform --adapter python:ginspec.conformance.examples.hand_adapter:HandAdapter
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ginspec.conformance.adapters import Adapter, Hello, Verdict
from ginspec.reference.game import CHANCE, HandState, Rejection, format_action, rules_for_profile
from ginspec.reference.game.deal import Deal
from ginspec.reference.melds import optimal_arrangements
from ginspec.spec.cards import card_str, parse_cards

PROFILES = ("pagat", "hoyle", "wikipedia")
"""The rule sets this engine plays (names from ``ginspec rules``)."""


class HandAdapter(Adapter):
    """Single hands under three profiles, plus the minimum-deadwood question."""

    def __init__(self) -> None:
        self.state: HandState | None = None

    def hello(self) -> Hello:
        return Hello(
            name="example-hand-engine",
            version="1.0",
            profiles=PROFILES,
            capabilities=(
                "query.deadwood",  # answers {"what": "deadwood", "cards": [...]}
                "hand",  # plays one hand from an explicit deal
                "legal-actions",  # can list the legal actions
                "rejection-codes",  # names the typed code of a refused action
                "melding.explicit",  # the knocker declares melds with `declare ...`
                "layoff.explicit",  # the defender lays off card by card
            ),
            # no "match": this engine does not play whole matches; no overrides either
        )

    # --- questions about a set of cards ------------------------------------------------------

    def query(
        self, what: str, args: Mapping[str, Any], profile: str | None, overrides: Mapping[str, Any]
    ) -> dict[str, Any]:
        if what != "deadwood":  # never sent: only query.deadwood is declared
            raise NotImplementedError(what)
        best = optimal_arrangements(parse_cards(args["cards"]), limit=1)[0]
        melds = [[card_str(c) for c in meld.cards] for meld in best.melds]
        return {"deadwood": best.deadwood, "melds": melds}

    # --- one hand ----------------------------------------------------------------------------

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        # The deal is explicit: the deck in order (first card dealt first) and the dealer.
        # Never shuffle — the case's deck order is the deal.
        self.state = HandState.new(
            Deal.parse(list(deal["deck"]), int(deal["dealer"])), rules_for_profile(profile)
        )

    def legal_actions(self) -> list[str]:
        state = self._state()
        return [format_action(a, state.rules.meld_rules) for a in state.legal_actions()]

    def apply(self, player: int | str, action: str) -> Verdict:
        state = self._state()
        who = CHANCE if player == "chance" else int(player)
        try:
            self.state = state.apply(action, who)
        except Rejection as refused:  # the engine's own error type carries the code
            return Verdict.rejected(refused.code.value)
        return Verdict.ok()

    def observe(self) -> dict[str, Any]:
        state = self._state()
        top = state.discard_top
        return {
            "phase": state.phase.value,
            "to_act": "chance" if state.to_move == CHANCE else state.to_move,
            "hand_sizes": [len(state.hand(0)), len(state.hand(1))],
            "discard_top": None if top is None else card_str(top),
            "stock_size": len(state.stock),
        }

    def result(self) -> dict[str, Any] | None:
        result = self._state().result
        if result is None:
            return None  # the hand is still going on
        return {
            "outcome": result.outcome.value,
            "knocker": result.knocker,
            "winner": result.winner,
            "deadwood": list(result.deadwood),
            "points": list(result.points),
            "boxes": list(result.boxes),
        }

    def _state(self) -> HandState:
        if self.state is None:
            raise RuntimeError("no hand started")
        return self.state
