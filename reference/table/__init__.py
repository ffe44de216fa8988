"""Seed 001's table game for two, three or four players (chapter 14, TABLE.*): a hand as an immutable
state machine (:class:`TableState`), a whole game with penalty points and the prize pool
(:class:`TableGame`), the penalty and prize arithmetic (:mod:`.penalties`) and the ruling on a
knock at the table (:func:`adjudicate_table`, TABLE.BEST-PLAY)."""

from ginspec.reference.table.penalties import (
    PrizeSplit,
    TablePenalties,
    TableScoreError,
    prize_split,
    table_penalties,
    table_winner,
)
from ginspec.reference.table.table_adjudicate import (
    DefenderPlay,
    TableRuling,
    TableSeatError,
    adjudicate_table,
)
from ginspec.reference.table.table_state import (
    TABLE_ENGINE,
    TableDeal,
    TableDealError,
    TablePhase,
    TableResult,
    TableState,
    table_rules,
    table_rules_for_profile,
)

__all__ = [
    "TABLE_ENGINE",
    "DefenderPlay",
    "PrizeSplit",
    "TableDeal",
    "TableDealError",
    "TablePenalties",
    "TablePhase",
    "TableResult",
    "TableRuling",
    "TableScoreError",
    "TableSeatError",
    "TableState",
    "adjudicate_table",
    "prize_split",
    "table_penalties",
    "table_rules",
    "table_rules_for_profile",
    "table_winner",
]
