"""OpenSpiel's adapter with one game option deliberately set wrong, for the saved-run diff test
(needs the ``openspiel`` extra).

``KnockCardNine`` loads OpenSpiel's ``gin_rummy`` with ``knock_card = 9`` whatever the profile
says (the ``openspiel`` profile plays a knock limit of 10), so exactly the hands in which someone
knocks with ten deadwood points, or may, play differently."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ginspec.conformance.adapters.openspiel import OpenSpielAdapter
from ginspec.spec.cards import parse_cards
from ginspec.spec.profiles import ruleset


class KnockCardNine(OpenSpielAdapter):
    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        params = {**dict(ruleset(profile, dict(overrides))), "knock_limit": 9}
        deck = parse_cards([str(t) for t in deal["deck"]])
        self.start(deck, int(deal["dealer"]), params)


def reference_knock_card_nine() -> Any:
    """The reference playing every hand with a knock limit of 9: an independent prediction of the
    cases KnockCardNine changes."""
    from ginspec.conformance.adapters.reference import ReferenceAdapter

    class ReferenceKnockNine(ReferenceAdapter):
        def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
            super().new_hand(profile, {**overrides, "knock_limit": 9}, deal)

    return ReferenceKnockNine()
