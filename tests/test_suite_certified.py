"""Every deadwood and knock answer the conformance suite expects is certified by the formal model
(FORMAL.CERTIFICATE), and every meld/arrangement verdict agrees with the model's definition
(FORMAL.MODEL). The suite's expected values come from the reference; this checks them with Z3."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.scoring import knock_limit_for
from ginspec.spec.cards import parse_cards
from ginspec.spec.errors import MeldError
from ginspec.spec.formal import arrangement_deadwood, certify, meld_shape
from ginspec.spec.formal.rules import FormalRules
from ginspec.spec.profiles import ruleset

QUERIES = Path(__file__).resolve().parents[1] / "conformance" / "suite" / "cases" / "query"


def _cases(*whats: str) -> list[dict[str, Any]]:
    out = []
    for path in sorted(QUERIES.glob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        if case["query"]["what"] in whats:
            out.append(case)
    return out


def _rules(case: dict[str, Any]) -> tuple[FormalRules, int]:
    values = ruleset(case["profile"] or "pagat", case["overrides"]) if case["profile"] else None
    params = dict(values) if values is not None else dict(case["overrides"])
    upcard = case["query"].get("upcard")
    limit = knock_limit_for(params, parse_cards([upcard])[0] if upcard else None)
    return FormalRules.of(MeldRules.from_params(params)), limit


DEADWOOD = _cases("deadwood")
KNOCK = _cases("knock")
MELD = _cases("meld", "arrangement")


def test_the_suite_has_cases_to_certify() -> None:
    assert len(DEADWOOD) > 50 and len(KNOCK) > 50 and len(MELD) > 50


@pytest.mark.parametrize("case", DEADWOOD, ids=[c["id"] for c in DEADWOOD])
def test_expected_deadwood_is_certified(case: dict[str, Any]) -> None:
    rules, _ = _rules(case)
    cards = parse_cards(case["query"]["cards"])
    expected = case["expect"]["deadwood"]
    cert = certify(cards, expected, rules, discard=False)
    assert cert.ok, cert.explain()
    for melds in case["expect"].get("optimal", []):
        assert arrangement_deadwood(cards, [parse_cards(m) for m in melds], rules) == expected


@pytest.mark.parametrize("case", KNOCK, ids=[c["id"] for c in KNOCK])
def test_expected_knock_verdict_is_certified(case: dict[str, Any]) -> None:
    rules, limit = _rules(case)
    cards = parse_cards(case["query"]["cards"])
    expect = case["expect"]
    cert = certify(cards, expect["deadwood"], rules, discard=True, knock_limit=limit)
    assert cert.ok, cert.explain()
    assert cert.gin == expect["gin"] and cert.can_knock == expect["can_knock"]
    best = set(parse_cards(expect["best_discards"]))
    for card in cards:  # the listed discards reach the optimum; every other discard cannot
        kept = [c for c in cards if c != card]
        verdict = certify(kept, expect["deadwood"], rules, discard=False)
        assert verdict.ok == (card in best), (card, verdict.explain())
    if "big_gin" in expect:
        assert certify(cards, 0, rules, discard=False).ok == expect["big_gin"]


@pytest.mark.parametrize("case", MELD, ids=[c["id"] for c in MELD])
def test_meld_and_arrangement_verdicts_match_the_definition(case: dict[str, Any]) -> None:
    rules, _ = _rules(case)
    q, expect = case["query"], case["expect"]
    if q["what"] == "meld":
        cards = parse_cards(q["cards"], distinct=False)  # a repeated card is "not a meld"
        assert (meld_shape(cards, rules) is not None) == expect["valid"]
        return
    try:
        value = arrangement_deadwood(parse_cards(q["cards"]), [parse_cards(m, distinct=False) for m in q["melds"]],
                                     rules)
    except MeldError:
        assert expect["valid"] is False
        return
    assert expect["valid"] is True
    if "deadwood" in expect:
        assert value == expect["deadwood"]
