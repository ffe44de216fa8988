"""Checks for the spec example kinds of chapter 15 (the engine's interface): ``action`` and
``play``. Merged into tests/test_spec_examples.py's dispatch tables (``FIELDS``, ``CHECKS``);
documented in spec/README.md.

The expected values live in the chapter's examples and were worked out by hand from the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from ginspec.reference.game import Deal, HandState, MalformedAction, Rejection, parse_action
from ginspec.reference.typed_rules import game_rules
from ginspec.spec.clauses import Example
from ginspec.spec.profiles import ruleset

Check = Callable[[Example], None]

FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "action": (frozenset({"text"}), frozenset({"canonical", "error"})),
    "play": (
        frozenset({"profile", "non_dealer", "dealer_cards", "actions"}),
        frozenset({"overrides", "upcard", "stock", "dealer", "phase", "to_move", "legal",
                   "illegal", "rejected", "code", "clause", "outcome", "points"}),
    ),
}


def check_action(ex: Example) -> None:
    d = ex.data
    if d.get("error"):
        with pytest.raises(MalformedAction):
            parse_action(d["text"])
        return
    assert "canonical" in d, f"{ex.id}: give canonical or error = true"
    action = parse_action(d["text"])
    assert str(action) == d["canonical"]
    assert parse_action(d["canonical"]) == action


def _position(d: dict[str, Any]) -> HandState:
    rules = game_rules(ruleset(d["profile"], d.get("overrides", {})), name=d["profile"])
    deal = Deal.from_hands(d["non_dealer"], d["dealer_cards"], d.get("upcard"),
                           d.get("stock", ""), d.get("dealer", 0))
    state = HandState.new(deal, rules)
    for text in d["actions"]:
        rejection = state.rejection(text)
        assert rejection is None, f"{text!r} should be legal: {rejection}"
        state = state.apply(text)
    return state


def check_play(ex: Example) -> None:
    d = ex.data
    state = _position(d)
    if "phase" in d:
        assert state.phase.value == d["phase"]
    if "to_move" in d:
        assert state.to_move == d["to_move"]
    listed = {str(a) for a in state.legal_actions()}
    for text in d.get("legal", []):
        assert text in state.legal_actions(), f"{text!r} should be legal"
        assert str(parse_action(text)) in listed, f"{text!r} should be listed"
    for text in d.get("illegal", []):
        assert text not in state.legal_actions(), f"{text!r} should be illegal"
    if "rejected" in d:
        with pytest.raises(Rejection) as info:
            state.apply(d["rejected"])
        assert info.value.code.value == d["code"], info.value
        if "clause" in d:
            assert info.value.clause == d["clause"]
    else:
        assert "code" not in d and "clause" not in d, f"{ex.id}: code/clause need rejected"
    if "outcome" in d or "points" in d:
        assert state.result is not None, f"{ex.id}: the hand is not over"
        if "outcome" in d:
            assert state.result.outcome.value == d["outcome"]
        if "points" in d:
            assert list(state.result.points) == d["points"]


CHECKS: dict[str, Check] = {"action": check_action, "play": check_play}
