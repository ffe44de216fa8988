"""The guide's example of a failing engine: minimum deadwood by "longest meld first".

Taking the longest meld first is a classic shortcut, and DEADWOOD.MINIMUM says why it is wrong
(the set of four fives that should have been two runs). This adapter is :class:`HandAdapter`
with that shortcut in place of the real search, so the guide can show a failure report and an
``--expect-fail`` list on a real mistake.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ginspec.conformance.adapters import Hello
from ginspec.conformance.examples.hand_adapter import HandAdapter
from ginspec.reference.melds import all_melds
from ginspec.spec.cards import card_str, card_value, parse_cards


class GreedyAdapter(HandAdapter):
    """Deadwood by repeatedly melding the longest meld left (wrong on some hands)."""

    def hello(self) -> Hello:
        hello = super().hello()
        return Hello(
            name="example-greedy-engine",
            version="1.0",
            profiles=hello.profiles,
            capabilities=hello.capabilities,
        )

    def query(
        self, what: str, args: Mapping[str, Any], profile: str | None, overrides: Mapping[str, Any]
    ) -> dict[str, Any]:
        left = set(parse_cards(args["cards"]))
        melds: list[list[str]] = []
        while True:
            fits = [m for m in all_melds(sorted(left)) if left.issuperset(m.cards)]
            if not fits:
                break
            longest = max(fits, key=lambda m: (len(m.cards), sum(map(card_value, m.cards))))
            melds.append([card_str(c) for c in longest.cards])
            left -= set(longest.cards)
        return {"deadwood": sum(map(card_value, left)), "melds": melds}
