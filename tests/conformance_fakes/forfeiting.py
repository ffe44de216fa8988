"""Engines that forfeit instead of refusing (capability ``illegal.forfeit``), built on the
reference so that only their handling of illegal actions differs from it.

``ForfeitingReference`` takes every action it is sent: an illegal one ends the game at once, lost
by the player who made it (EAAI's framework does this), and is reported as accepted. Declaring
``illegal.forfeit`` it must pass everything; ``UndeclaredForfeit`` plays the same way without
saying so, and ``ForfeitListingOverLimitKnocks`` also lists every knock as legal, which the
refused knocks of the suite must catch."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ginspec.conformance.adapters.base import Hello, JSONObject, Verdict
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.cases.unsent_refusals import FORFEIT


class ForfeitingReference(ReferenceAdapter):
    declares_forfeit = True

    def __init__(self) -> None:
        super().__init__()
        self.forfeited_by: int | str | None = None
        self.illegal_sent = 0

    def hello(self) -> Hello:
        hello = super().hello()
        extra = (FORFEIT,) if self.declares_forfeit else ()
        return replace(hello, name="forfeiting-reference", capabilities=hello.capabilities + extra)

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        self.forfeited_by = None
        super().new_hand(profile, overrides, deal)

    def new_match(self, profile: str, overrides: Mapping[str, Any],
                  deals: Sequence[Mapping[str, Any]]) -> None:
        self.forfeited_by = None
        super().new_match(profile, overrides, deals)

    def new_table_hand(self, profile: str, overrides: Mapping[str, Any],
                       deal: Mapping[str, Any]) -> None:
        self.forfeited_by = None
        super().new_table_hand(profile, overrides, deal)

    def apply(self, player: int | str, action: str) -> Verdict:
        if self.forfeited_by is not None:
            return Verdict.ok()
        verdict = super().apply(player, action)
        if verdict.accepted:
            return verdict
        self.illegal_sent += 1
        self.forfeited_by = player
        return Verdict.ok()

    def legal_actions(self) -> list[str]:
        return [] if self.forfeited_by is not None else super().legal_actions()

    def observe(self) -> JSONObject:
        seen = super().observe()
        if self.forfeited_by is not None:
            seen.update(phase="over", to_act=None)
        return seen

    def result(self) -> JSONObject | None:
        if self.forfeited_by is None:
            return super().result()
        return {"outcome": "forfeit", "knocker": None, "winner": None, "forfeited_by": self.forfeited_by}


class UndeclaredForfeit(ForfeitingReference):
    declares_forfeit = False


class ForfeitListingOverLimitKnocks(ForfeitingReference):
    def legal_actions(self) -> list[str]:
        legal = super().legal_actions()
        if any(a.startswith("discard ") for a in legal):
            legal += [f"knock {a.split()[1]}" for a in legal
                      if a.startswith("discard ") and f"knock {a.split()[1]}" not in legal]
        return legal
