"""Checking a table-game trace (``ginspec play --players 3 --json``) against a ruleset
(chapter 14, TABLE.REJECTION): every step replayed by the engine, every recorded result and
running total compared, the dealer of each hand checked (TABLE.DEALER)."""

from __future__ import annotations

from typing import Any

from ginspec.reference.game.match_trace import CheckReport, TraceError, TraceFinding
from ginspec.reference.game.rejections import Rejection
from ginspec.reference.table.penalties import prize_split, table_winner
from ginspec.reference.table.table_state import TableDeal, TableDealError, TableState
from ginspec.reference.typed_rules import Rules
from ginspec.spec.cards import parse_cards
from ginspec.spec.clauses import implements
from ginspec.spec.errors import CardError


def _list(obj: Any, name: str, where: str) -> list[Any]:
    value = obj.get(name) if isinstance(obj, dict) else None
    if not isinstance(value, list):
        raise TraceError(f"{where}.{name}: expected a list")
    return value


@implements("TABLE.REJECTION", "TABLE.DEALER", "SYSTEM.TRACE")
def check_table_trace(data: dict[str, Any], rules: Rules) -> CheckReport:
    """Replay ``data`` (a table-game trace) under ``rules``; the first illegal step or wrong
    recorded value is the finding, the game's end and prize split included (SYSTEM.TRACE).
    Malformed traces raise TraceError."""
    hands = _list(data, "hands", "trace")
    n = rules.players
    totals = [0] * n
    steps = 0
    dealer = 0
    for h, record in enumerate(hands, 1):
        where = f"hands[{h - 1}]"
        try:
            deck = tuple(parse_cards(_list(record, "deck", where)))
            recorded_dealer = record.get("dealer")
            deal = TableDeal(deck, n, recorded_dealer if isinstance(recorded_dealer, int) else -1)
        except (CardError, TableDealError) as exc:
            raise TraceError(f"{where}: {exc}") from None
        if deal.dealer != dealer:
            return CheckReport(TraceFinding(h, None, "deal", "WRONG_DEALER", "TABLE.DEALER",
                                       f"seat {dealer} deals this hand, not {deal.dealer}"),
                               h - 1, steps, False)
        state = TableState.new(deal, rules)
        for j, step in enumerate(_list(record, "actions", where), 1):
            if not isinstance(step, dict) or not isinstance(step.get("action"), str) \
                    or not isinstance(step.get("player"), int):
                raise TraceError(f"{where}.actions[{j - 1}]: expected {{player, action}}")
            try:
                state = state.apply(step["action"], step["player"])
            except Rejection as exc:
                return CheckReport(TraceFinding(h, j, step["action"], exc.code.value, exc.clause,
                                           exc.detail), h - 1, steps, False)
            steps += 1
        if state.result is None:
            return CheckReport(TraceFinding(h, None, "", "HAND_NOT_OVER", "TABLE.REJECTION",
                                       "the recorded actions do not finish the hand"),
                               h - 1, steps, False)
        ours = state.result.to_json()
        recorded = record.get("result")
        if isinstance(recorded, dict):
            for name in ("outcome", "knocker", "winner", "deadwood", "penalties"):
                if name in recorded and recorded[name] != ours[name]:
                    return CheckReport(TraceFinding(h, None, "", "RESULT_MISMATCH", "TABLE.PENALTY",
                                               f"recorded {name} {recorded[name]!r}, the rules "
                                               f"give {ours[name]!r}"), h, steps, False)
        totals = [t + p for t, p in zip(totals, state.result.penalties.penalties, strict=True)]
        if "totals" in record and record["totals"] != totals:
            return CheckReport(TraceFinding(h, None, "", "RESULT_MISMATCH", "TABLE.GAME-END",
                                       f"recorded totals {record['totals']!r}, the rules give "
                                       f"{totals!r}"), h, steps, False)
        dealer = (dealer + 1) % n
    winner = table_winner(totals, rules.penalty_limit)
    final = data.get("result")
    if winner is not None and isinstance(final, dict):
        end: dict[str, Any] = {"winner": winner, "totals": totals}
        pool = final.get("pool")
        if isinstance(pool, int) and not isinstance(pool, bool) and pool >= 0:
            end["shares"] = list(prize_split(pool, totals, winner, rules.prize_winner_share,
                                              rules.prize_window).shares)
        for name, value in end.items():
            if name in final and final[name] != value:
                clause = "TABLE.PRIZE" if name == "shares" else "TABLE.GAME-END"
                return CheckReport(TraceFinding(len(hands), None, "", "RESULT_MISMATCH", clause,
                                           f"recorded result {name} {final[name]!r}, the rules "
                                           f"give {value!r}"), len(hands), steps, True)
    return CheckReport(None, len(hands), steps, winner is not None)
