"""A Python adapter that declines some cases (protocol 2, ``Unsupported``), for the tests.

``SevensShy`` is the reference, except that it declines every meld query holding the seven of
clubs. ``DeclinesMidHand`` declines at its first ``apply``, which is too late: a protocol error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ginspec.conformance.adapters import Unsupported, Verdict
from ginspec.conformance.adapters.base import JSONObject
from ginspec.conformance.adapters.reference import ReferenceAdapter


class SevensShy(ReferenceAdapter):
    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        if what == "meld" and "7C" in args.get("cards", []):
            raise Unsupported("this engine has no seven of clubs")
        return super().query(what, args, profile, overrides)


class DeclinesMidHand(ReferenceAdapter):
    def apply(self, player: int | str, action: str) -> Verdict:
        raise Unsupported("changed its mind")


class DealerZeroOnly(ReferenceAdapter):
    """Declines every hand, and every match, whose first hand player 1 deals (live mode must play
    other deals instead)."""

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        if deal["dealer"] == 1:
            raise Unsupported("this engine always deals from seat 0")
        super().new_hand(profile, overrides, deal)

    def new_match(self, profile: str, overrides: Mapping[str, Any],
                  deals: Sequence[Mapping[str, Any]]) -> None:
        if deals[0]["dealer"] == 1:
            raise Unsupported("this engine always deals from seat 0")
        super().new_match(profile, overrides, deals)
