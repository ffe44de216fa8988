"""Python adapters that answer some questions wrongly on purpose, for the report tests.

``TensHigh`` is the reference, except that a deadwood query holding a ten counts one point too
many and answers with no melds. ``NoKnocking`` refuses every knock (``KNOCK_TOO_HIGH``), so hand
cases that knock diverge at the knock step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ginspec.conformance.adapters import Verdict
from ginspec.conformance.adapters.base import JSONObject
from ginspec.conformance.adapters.reference import ReferenceAdapter


class TensHigh(ReferenceAdapter):
    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        answer = super().query(what, args, profile, overrides)
        if what == "deadwood" and any(str(c).startswith("T") for c in args.get("cards", [])):
            return {**answer, "deadwood": int(answer["deadwood"]) + 1, "melds": []}
        return answer


class NoKnocking(ReferenceAdapter):
    def apply(self, player: int | str, action: str) -> Verdict:
        if action.startswith("knock"):
            return Verdict(False, "KNOCK_TOO_HIGH")
        return super().apply(player, action)
