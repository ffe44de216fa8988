"""An engine whose rules are no profile of ginspec: the wikipedia rules with an undercut bonus of
20 instead of 25 (docs/guides/verify-your-implementation.md, "Rules that are no profile").

Its hello declares the one ruleset it plays by value (``rules``: a profile plus parameter values),
and it plays those rules whatever a case names: the runner sends it only cases of exactly these
rules. ``ginspec suite derive --rules conformance/examples/house-rules.toml --out house`` writes
those cases from the committed scenarios::

    ginspec conform --adapter python:ginspec.conformance.examples.house_rules_adapter:HouseRulesAdapter --suite house
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Final

from ginspec.conformance.adapters.base import Hello
from ginspec.conformance.examples.hand_adapter import HandAdapter
from ginspec.reference.game import HandState, rules_for_profile
from ginspec.reference.game.deal import Deal
from ginspec.spec.profiles import Ruleset, ruleset

HOUSE_RULES: Final[Ruleset] = ruleset("wikipedia", {"undercut_bonus": 20})
"""What this engine plays (the same as conformance/examples/house-rules.toml)."""


class HouseRulesAdapter(HandAdapter):
    """The example hand engine, playing only the house rules and saying so by value."""

    def hello(self) -> Hello:
        return dataclasses.replace(super().hello(), name="example-house-rules-engine",
                                   profiles=(), rules=HOUSE_RULES)

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        # An engine with fixed rules: the case's ruleset is its own (the runner checked that).
        self.state = HandState.new(Deal.parse(list(deal["deck"]), int(deal["dealer"])),
                                   rules_for_profile(HOUSE_RULES.name, dict(HOUSE_RULES.overrides)))
