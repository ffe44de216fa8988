"""Checks for the spec example kinds of the rules chapters (05-12): ``deal``, ``score``,
``match``, ``ruleset``, ``knock-limit`` and ``next-dealer``. Merged into tests/test_spec_examples.py's
dispatch tables (``FIELDS``, ``CHECKS``); documented in spec/README.md.

The expected values live in the chapter examples and were worked out by hand from the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest
from ginspec.reference.game.deal import Deal, DealError, split_deck
from ginspec.reference.scoring import (
    VOID_HAND,
    HandScore,
    MatchTally,
    ScoringError,
    final_scores,
    knock_limit_for,
    next_dealer,
    score_hand,
)
from ginspec.spec.cards import parse_card, parse_cards
from ginspec.spec.clauses import Example
from ginspec.spec.errors import ParameterError
from ginspec.spec.profiles import Ruleset, ruleset

Check = Callable[[Example], None]


def _rules(d: Mapping[str, Any]) -> Ruleset:
    return ruleset(d["profile"], dict(d.get("overrides", {})))


def _upcard(d: Mapping[str, Any]) -> int | None:
    return parse_card(d["upcard"]) if "upcard" in d else None


def _hand(rules: Ruleset, item: list[Any], upcard: int | None) -> tuple[int | None, HandScore]:
    """``["void"]`` or ``[knocker, outcome, knocker_deadwood, defender_deadwood]``."""
    if item == ["void"]:
        return None, VOID_HAND
    knocker, outcome, kd, dd = item
    return int(knocker), score_hand(outcome, kd, dd, rules, upcard=upcard)


def check_score(ex: Example) -> None:
    d = ex.data
    rules = _rules(d)
    if "error" in d:
        with pytest.raises(ScoringError, match=d["error"]):
            score_hand(d["outcome"], d["knocker_deadwood"], d["defender_deadwood"], rules,
                       upcard=_upcard(d))
        return
    score = score_hand(d["outcome"], d["knocker_deadwood"], d["defender_deadwood"], rules,
                       upcard=_upcard(d))
    assert [score.knocker, score.defender] == d["points"], ex.id
    if "winner" in d:
        assert (score.winner or "none") == d["winner"], ex.id
    if "undercut" in d:
        assert score.undercut == d["undercut"], ex.id
    if "boxes" in d:
        assert [score.knocker_boxes, score.defender_boxes] == d["boxes"], ex.id


def check_match(ex: Example) -> None:
    d = ex.data
    rules = _rules(d)
    tally = MatchTally()
    for item in d["hands"]:
        knocker, hand = _hand(rules, list(item), _upcard(d))
        assert tally.winner(rules) is None, f"{ex.id}: the game ended before all hands were played"
        tally = tally.after_hand(knocker, hand)
    if d.get("over") is False:
        assert tally.winner(rules) is None, ex.id
        return
    result = final_scores(rules, tally)
    assert list(result.totals) == d["totals"], ex.id
    if "winner" in d:
        assert result.winner == d["winner"], ex.id
    if "shutout" in d:
        assert result.shutout == d["shutout"], ex.id
    if "settlement" in d:
        assert result.settlement == d["settlement"], ex.id
    if "payee" in d:
        assert result.payee == d["payee"], ex.id


def check_ruleset(ex: Example) -> None:
    d = ex.data
    if not d["valid"]:
        with pytest.raises(ParameterError, match=d.get("error", "")):
            _rules(d)
        return
    rules = _rules(d)
    for name, value in d.get("values", {}).items():
        assert rules[name] == value and type(rules[name]) is type(value), (ex.id, name)


def check_knock_limit(ex: Example) -> None:
    d = ex.data
    assert knock_limit_for(_rules(d), _upcard(d)) == d["limit"], ex.id


def check_next_dealer(ex: Example) -> None:
    d = ex.data
    rules = _rules(d)
    knocker, hand = _hand(rules, list(d["hand"]), _upcard(d))
    assert next_dealer(rules, d["dealer"], hand, knocker) == d["next"], ex.id


def check_deal(ex: Example) -> None:
    d = ex.data
    if d.get("error"):
        with pytest.raises(DealError):
            Deal.parse(d["deck"], d.get("dealer", 0))
        return
    deal = Deal.parse(d["deck"], d.get("dealer", 0))
    eleven = d.get("first_turn", "upcard_offer") == "eleven_card_start"
    non_dealer, dealer, upcard, stock = split_deck(deal, eleven)
    if "non_dealer" in d:
        assert non_dealer == parse_cards(d["non_dealer"]), ex.id
    if "dealer_cards" in d:
        assert dealer == parse_cards(d["dealer_cards"]), ex.id
    if "upcard" in d:
        assert upcard == parse_card(d["upcard"]), ex.id
    elif eleven:
        assert upcard is None, ex.id
    top = parse_cards(d.get("stock_top", ""))
    assert list(stock[: len(top)]) == top, ex.id
    if "stock_size" in d:
        assert len(stock) == d["stock_size"], ex.id


FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "deal": (
        frozenset({"deck"}),
        frozenset({"dealer", "first_turn", "non_dealer", "dealer_cards", "upcard", "stock_top",
                   "stock_size", "error"}),
    ),
    "score": (
        frozenset({"profile", "outcome", "knocker_deadwood", "defender_deadwood"}),
        frozenset({"overrides", "upcard", "points", "winner", "undercut", "boxes", "error"}),
    ),
    "match": (
        frozenset({"profile", "hands"}),
        frozenset({"overrides", "upcard", "totals", "over", "winner", "shutout", "settlement",
                   "payee"}),
    ),
    "ruleset": (frozenset({"profile", "valid"}), frozenset({"overrides", "values", "error"})),
    "knock-limit": (frozenset({"profile", "upcard", "limit"}), frozenset({"overrides"})),
    "next-dealer": (frozenset({"profile", "dealer", "hand", "next"}), frozenset({"overrides"})),
}

CHECKS: dict[str, Check] = {
    "deal": check_deal,
    "score": check_score,
    "match": check_match,
    "ruleset": check_ruleset,
    "knock-limit": check_knock_limit,
    "next-dealer": check_next_dealer,
}
