"""The reference table game (``ginspec.reference.table``) behind the adapter interface: one hand
of seed 001's game for three or four players (capabilities ``table-game.3``, ``table-game.4``).

The observation has the two-player fields with one entry per seat in ``hand_sizes``; the result
is the table hand's ``outcome``, ``knocker``, ``winner``, ``deadwood`` and ``penalties`` per seat
(TABLE.PENALTY).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ginspec.conformance.adapters.base import JSONObject, Verdict
from ginspec.reference.game import Rejection
from ginspec.reference.table import TableDeal, TableState, table_rules_for_profile
from ginspec.spec.cards import card_str, parse_cards
from ginspec.spec.errors import GinspecError

TABLE_CAPABILITIES: Final[tuple[str, ...]] = ("table-game.3", "table-game.4")

TABLE_PROFILES: Final[tuple[str, ...]] = ("serbian-online",)
"""The profiles whose ``game_system`` is the table game."""


def table_deal(data: Mapping[str, Any]) -> TableDeal:
    """A protocol deal ``{"players", "dealer", "deck"}`` as the engine's deal."""
    if "players" not in data:
        raise GinspecError("a table deal names its number of players ('players')")
    return TableDeal(tuple(parse_cards([str(t) for t in data["deck"]])), int(data["players"]),
                     int(data["dealer"]))


def table_observation(state: TableState) -> JSONObject:
    """The referee's view compared by checkpoints (PROTOCOL.md, "Table hands")."""
    return {
        "phase": state.phase.value,
        "to_act": state.to_move,
        "hand_sizes": [h.bit_count() for h in state.hands],
        "discard_top": card_str(state.pile[-1]) if state.pile else None,
        "stock_size": len(state.stock),
    }


class TableDriver:
    """One table hand of the reference engine, driven through the adapter calls."""

    def __init__(self, state: TableState):
        self.state = state

    @classmethod
    def new(cls, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> TableDriver:
        parsed = table_deal(deal)
        rules = table_rules_for_profile(profile, dict(overrides), players=parsed.players)
        return cls(TableState.new(parsed, rules))

    def legal_actions(self) -> list[str]:
        return [str(a) for a in self.state.legal_actions()]

    def apply(self, player: int | str, action: str) -> Verdict:
        if not isinstance(player, int):
            return Verdict.rejected("NOT_YOUR_TURN")
        try:
            self.state = self.state.apply(action, player)
        except Rejection as rejection:
            return Verdict.rejected(rejection.code.value)
        return Verdict.ok()

    def observe(self) -> JSONObject:
        return table_observation(self.state)

    def result(self) -> JSONObject | None:
        return None if self.state.result is None else self.state.result.to_json()
