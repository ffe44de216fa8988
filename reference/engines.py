"""Which engine plays a ruleset: one per ``game_system`` (SYSTEM.KIND), each with the parameters
it honours (:class:`~ginspec.reference.typed_rules.Engine`).

    >>> engine_for(rules_for_profile("serbian-online", {"players": 3})).name
    'table'
"""

from __future__ import annotations

from typing import Final

from ginspec.reference.game.match import TWO_PLAYER_ENGINE
from ginspec.reference.systems.hollywood import HOLLYWOOD_ENGINE
from ginspec.reference.systems.partnership import PARTNERSHIP_ENGINE
from ginspec.reference.systems.three import THREE_PLAYER_ENGINE
from ginspec.reference.table.table_state import TABLE_ENGINE
from ginspec.reference.typed_rules import Engine, Rules, rules_for_profile
from ginspec.spec.clauses import implements

__all__ = ["ENGINES", "engine_for", "rules_for_profile"]

ENGINES: Final[dict[str, Engine]] = {
    "single": TWO_PLAYER_ENGINE, "table": TABLE_ENGINE, "three_player": THREE_PLAYER_ENGINE,
    "partnership": PARTNERSHIP_ENGINE, "hollywood": HOLLYWOOD_ENGINE,
}
"""The engine of each value of ``game_system``."""


@implements("SYSTEM.KIND")
def engine_for(rules: Rules) -> Engine:
    """The engine that plays ``rules`` (by its ``game_system``)."""
    return ENGINES[rules.game_system]
