"""Checks for the spec example kinds of chapter 14 (multi-player systems): ``table-play``,
``table-penalty``, ``table-adjudicate``, ``prize``, ``three-rotation``, ``partnership``,
``hollywood``. Merged into
tests/test_spec_examples.py's dispatch tables; documented in spec/README.md.

The expected values live in the chapter's examples and were worked out by hand from its text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ginspec.reference.game import Rejection
from ginspec.reference.systems.hollywood import HollywoodGame
from ginspec.reference.systems.partnership import PartnershipGame, net
from ginspec.reference.systems.results import Result, Won
from ginspec.reference.systems.three import ThreeGame
from ginspec.reference.table import (
    TableDeal,
    TableState,
    prize_split,
    table_penalties,
    table_rules_for_profile,
)
from ginspec.reference.table.table_adjudicate import adjudicate_table
from ginspec.spec.cards import mask_of, parse_card, parse_cards
from ginspec.spec.clauses import Example
from ginspec.spec.profiles import ruleset

Check = Callable[[Example], None]

FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "table-play": (
        frozenset({"hands", "upcard", "actions"}),
        frozenset({"profile", "overrides", "stock", "dealer", "phase", "to_move", "hand_sizes",
                   "stock_size", "legal", "illegal", "rejected", "rejected_by", "code", "clause",
                   "outcome", "deadwood", "penalties"}),
    ),
    "table-penalty": (
        frozenset({"knocker", "deadwood", "penalties", "outcome"}),
        frozenset({"winner", "params"}),
    ),
    "table-adjudicate": (
        frozenset({"hands", "knocker", "outcome"}),
        frozenset({"profile", "overrides", "discard", "knocker_melds", "best_discard", "winner",
                   "declaration", "layoffs", "deadwood", "penalties"}),
    ),
    "prize": (frozenset({"pool", "totals", "shares"}), frozenset({"params"})),
    "three-rotation": (
        frozenset({"profile", "hands", "seatings"}),
        frozenset({"overrides", "scores", "over", "payments", "net", "shut_out"}),
    ),
    "partnership": (
        frozenset({"profile", "deals", "netted", "totals"}),
        frozenset({"overrides", "over", "final", "payee", "settlement"}),
    ),
    "hollywood": (
        frozenset({"profile", "hands", "games"}),
        frozenset({"overrides", "over", "payee", "settlement"}),
    ),
}


def check_table_play(ex: Example) -> None:
    d = ex.data
    hands = d["hands"]
    rules = table_rules_for_profile(d.get("profile", "serbian-online"), d.get("overrides"),
                                    players=len(hands))
    deal = TableDeal.from_hands(hands, d["upcard"], d.get("stock", ""), d.get("dealer"))
    state = TableState.new(deal, rules)
    for text in d["actions"]:
        state = state.apply(text)
    if "phase" in d:
        assert state.phase.value == d["phase"], (state.phase, d["phase"])
    if "to_move" in d:
        assert state.to_move == d["to_move"]
    if "hand_sizes" in d:
        assert [len(state.hand(p)) for p in range(len(hands))] == d["hand_sizes"]
    if "stock_size" in d:
        assert len(state.stock) == d["stock_size"]
    legal = {str(a) for a in state.legal_actions()}
    for text in d.get("legal", []):
        assert state.is_legal(text), f"{ex.id}: {text!r} should be legal"
        assert text in legal, f"{ex.id}: {text!r} missing from legal_actions()"
    for text in d.get("illegal", []):
        why = state.rejection(text)
        assert why is not None, f"{ex.id}: {text!r} should be refused"
        if "code" in d and "rejected" not in d:
            assert why.code.value == d["code"]
    if "rejected" in d:
        before = state
        try:
            state.apply(d["rejected"], d.get("rejected_by"))
        except Rejection as exc:
            assert exc.code.value == d["code"], (exc.code, d["code"])
            if "clause" in d:
                assert exc.clause == d["clause"], (exc.clause, d["clause"])
        else:
            raise AssertionError(f"{ex.id}: {d['rejected']!r} was accepted")
        assert state == before
    if "outcome" in d or "penalties" in d or "deadwood" in d:
        assert state.result is not None, f"{ex.id}: the hand is not over"
        if "outcome" in d:
            assert state.result.kind == d["outcome"]
        if "deadwood" in d:
            assert list(state.result.deadwood) == d["deadwood"]
        if "penalties" in d:
            assert list(state.result.penalties.penalties) == d["penalties"]


def check_table_penalty(ex: Example) -> None:
    d = ex.data
    params: dict[str, Any] = d.get("params", {})
    res = table_penalties(d["knocker"], d["deadwood"], int(params.get("gin_bonus", 25)),
                          int(params.get("undercut_bonus", 25)))
    assert res.kind == d["outcome"]
    assert list(res.penalties) == d["penalties"]
    if "winner" in d:
        assert res.winner == d["winner"]


def check_table_adjudicate(ex: Example) -> None:
    d = ex.data
    hands = [parse_cards(h) for h in d["hands"]]
    rules = ruleset(d.get("profile", "serbian-online"),
                    {**d.get("overrides", {}), "players": len(hands)})
    melds = [parse_cards(m) for m in d["knocker_melds"]] if "knocker_melds" in d else None
    discard = parse_card(d["discard"]) if "discard" in d else None
    ruling = adjudicate_table(hands, d["knocker"], rules, discard=discard, knocker_melds=melds)
    assert ruling.outcome == d["outcome"], (ruling.outcome, d["outcome"])
    if "best_discard" in d:
        assert ruling.discard == parse_card(d["best_discard"])
    if "winner" in d:
        assert ruling.winner == d["winner"]
    if "declaration" in d:
        assert ruling.declaration is not None
        assert sorted(m.mask for m in ruling.declaration.melds) == \
            sorted(mask_of(parse_cards(m)) for m in d["declaration"])
    if "layoffs" in d:
        laid = [[] for _ in hands]
        for play in ruling.defenders:
            laid[play.seat] = sorted(x.card for x in play.layoffs)
        assert laid == [sorted(parse_cards(" ".join(x))) for x in d["layoffs"]], laid
    if "deadwood" in d:
        assert ruling.deadwood is not None and list(ruling.deadwood) == d["deadwood"]
    if "penalties" in d:
        assert ruling.penalties is not None and list(ruling.penalties) == d["penalties"]


def check_prize(ex: Example) -> None:
    d = ex.data
    params: dict[str, Any] = d.get("params", {})
    totals = d["totals"]
    winner = totals.index(min(totals))
    split = prize_split(d["pool"], totals, winner, int(params.get("prize_winner_share", 75)),
                        int(params.get("prize_window", 50)))
    assert list(split.shares) == d["shares"]
    assert sum(d["shares"]) == d["pool"]


def _result(entry: list[Any]) -> Result:
    if entry == ["void"]:
        return None
    return Won(int(entry[0]), int(entry[1]), int(entry[2]))


def check_three(ex: Example) -> None:
    d = ex.data
    rules = ruleset(d["profile"], d.get("overrides", {}))
    game = ThreeGame.new(rules)
    seatings = [game.seating]
    for entry in d["hands"]:
        game = game.after(rules, _result(entry))
        seatings.append(game.seating)
    assert [[s.dealer, s.sits_out, s.first, s.second] for s in seatings] == d["seatings"]
    if "scores" in d:
        assert list(game.tally.hand_points) == d["scores"]
    if "over" in d:
        assert game.is_over(rules) == d["over"]
    if "payments" in d or "net" in d or "shut_out" in d:
        settled = game.settlement(rules)
        if "shut_out" in d:
            assert list(settled.shut_out) == d["shut_out"]
        if "payments" in d:
            assert [list(p) for p in settled.payments] == d["payments"]
        if "net" in d:
            assert list(settled.net) == d["net"]


def check_partnership(ex: Example) -> None:
    d = ex.data
    rules = ruleset(d["profile"], d.get("overrides", {}))
    game = PartnershipGame()
    netted = []
    for deal in d["deals"]:
        results = [_result(t) for t in deal]
        team, points = net(results)
        netted.append(["none"] if team is None else [team, points])
        game = game.after(rules, results)
    assert netted == d["netted"]
    assert list(game.tally.hand_points) == d["totals"]
    if "over" in d:
        assert game.is_over(rules) == d["over"]
    if "final" in d or "payee" in d or "settlement" in d:
        final = game.final(rules)
        if "final" in d:
            assert list(final.totals) == d["final"]
        if "payee" in d:
            assert final.payee == d["payee"]
        if "settlement" in d:
            assert final.settlement == d["settlement"]


def check_hollywood(ex: Example) -> None:
    d = ex.data
    rules = ruleset(d["profile"], d.get("overrides", {}))
    game = HollywoodGame.new(rules)
    for entry in d["hands"]:
        result = None if entry == ["void"] else Won(entry[0], 1 - entry[0], entry[1])
        game = game.after(rules, result)
    assert [list(g.hand_points) for g in game.games] == d["games"]
    if "over" in d:
        assert game.is_over(rules) == d["over"]
    if "payee" in d or "settlement" in d:
        payee, amount = game.settlement(rules)
        if "payee" in d:
            assert payee == d["payee"]
        if "settlement" in d:
            assert amount == d["settlement"]


CHECKS: dict[str, Check] = {
    "table-play": check_table_play,
    "table-penalty": check_table_penalty,
    "table-adjudicate": check_table_adjudicate,
    "prize": check_prize,
    "three-rotation": check_three,
    "partnership": check_partnership,
    "hollywood": check_hollywood,
}
