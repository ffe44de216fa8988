"""The formal model's definition and per-hand certificates (FORMAL.CERTIFICATE).

Expected deadwood values are worked out by hand from the rules (MELD.*, CARD.VALUE), never taken
from the code under test.
"""

from __future__ import annotations

import json

import pytest
from ginspec.spec.cards import parse_cards
from ginspec.spec.errors import HandSizeError, MeldError
from ginspec.spec.formal import (
    STANDARD,
    FormalRules,
    arrangement_deadwood,
    certify,
    is_run,
    is_set,
    meld_shape,
)
from ginspec.spec.formal.verify import parse_certificate

ACE_HIGH = FormalRules(ace_high_runs=True)
WRAP = FormalRules(ace_high_runs=True, wraparound_runs=True)


def c(text: str) -> list[int]:
    return parse_cards(text)


@pytest.mark.parametrize(
    ("cards", "rules", "shape"),
    [
        ("7H 7D 7S", STANDARD, "set"),
        ("7H 7D 7S 7C", STANDARD, "set"),
        ("7H 7D", STANDARD, None),
        ("AC 2C 3C", STANDARD, "run"),
        ("3C AC 2C", STANDARD, "run"),
        ("QC KC AC", STANDARD, None),
        ("QC KC AC", ACE_HIGH, "run"),
        ("KC AC 2C", ACE_HIGH, None),
        ("KC AC 2C", WRAP, "run"),
        ("QC KC AC 2C 3C", WRAP, "run"),
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", STANDARD, "run"),
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", WRAP, "run"),
        ("5C 6C 8C", STANDARD, None),
        ("5C 6C 7D", STANDARD, None),
    ],
)
def test_meld_definition(cards: str, rules: FormalRules, shape: str | None) -> None:
    assert meld_shape(c(cards), rules) == shape


def test_meld_definition_edges() -> None:
    seven_hearts = c("7H")[0]
    assert not is_set([seven_hearts, seven_hearts, *c("7S")])
    assert not is_run([seven_hearts, seven_hearts, *c("8H 9H")])
    assert is_set(c("AC AD AH"))


def test_arrangement_definition() -> None:
    hand = c("7H 7D 7S 8C 9C TC 2S 3D 4H KD")
    assert arrangement_deadwood(hand, [c("7H 7D 7S"), c("8C 9C TC")]) == 3 + 10 + 4 + 2
    with pytest.raises(MeldError, match="shares"):
        arrangement_deadwood(c("7H 7D 7S 7C 8C 9C"), [c("7H 7D 7S 7C"), c("7C 8C 9C")])
    with pytest.raises(MeldError, match="not in the hand"):
        arrangement_deadwood(c("7H 7D 7S"), [c("8C 9C TC")])
    with pytest.raises(MeldError, match="not a meld"):
        arrangement_deadwood(c("7H 8D 9S"), [c("7H 8D 9S")])


@pytest.mark.parametrize(
    ("hand", "rules", "deadwood"),
    [
        ("7H 7D 7S 8C 9C TC 2S 3D 4H KD", STANDARD, 19),
        ("AC 2C 3C 4D 4H 4S 5S 6S 7S 8S", STANDARD, 0),
        ("QS KS AS 2C 3C", STANDARD, 26),
        ("QS KS AS 2C 3C", ACE_HIGH, 5),
        ("KS AS 2S", STANDARD, 13),
        ("KS AS 2S", ACE_HIGH, 13),
        ("KS AS 2S", WRAP, 0),
        # the ace cannot serve both ends: Q-K-A beats A-2-3 (20 covered instead of 6)
        ("QH KH AH 2H 3H", ACE_HIGH, 5),
        ("QH KH AH 2H 3H", WRAP, 0),
        # 7S in the set or in the run: either way one card of 7-8-9 spades is left ... or not:
        # 7H 7D 7C set + 7S 8S 9S run covers everything
        ("7H 7D 7C 7S 8S 9S", STANDARD, 0),
        ("7H 7D 7S 8S 9S", STANDARD, 14),
        ("", STANDARD, 0),
        ("KC", FormalRules(ace_value=11), 10),
        ("AC", FormalRules(ace_value=11), 11),
    ],
)
def test_certificate_proves_hand_computed_optimum(hand: str, rules: FormalRules, deadwood: int) -> None:
    cert = certify(c(hand), deadwood, rules)
    assert cert.ok, cert.explain()
    assert cert.optimum == cert.unsat_below == cert.witness.deadwood == deadwood
    assert arrangement_deadwood(c(hand), cert.witness.melds, rules) == deadwood


def test_wrong_claims() -> None:
    hand = c("7H 7D 7S 8C 9C TC 2S 3D 4H KD")
    high = certify(hand, 25)
    assert high.outcome == "claim-too-high" and high.witness.deadwood < 25 and high.optimum == 19
    low = certify(hand, 18)
    assert low.outcome == "claim-too-low" and low.optimum == 19
    assert "too low" in low.explain() and "too high" in high.explain()
    assert certify(hand, -1).outcome == "claim-too-low"


def test_eleven_cards_use_the_best_discard() -> None:
    # Gin after discarding KD: A-2-3 clubs, 4s set, 5-8 spades.
    hand = c("AC 2C 3C 4D 4H 4S 5S 6S 7S 8S KD")
    cert = certify(hand, 0, knock_limit=10)
    assert cert.ok and cert.question == "deadwood-after-discard"
    assert cert.witness.discard == parse_cards("KD")[0]
    assert cert.gin and cert.can_knock
    whole = certify(hand, 10, discard=False)
    assert whole.ok and whole.question == "deadwood"


def test_discard_needs_a_card() -> None:
    with pytest.raises(HandSizeError):
        certify([], 0, discard=True)


def test_json_round_trip() -> None:
    cert = certify(c("7H 7D 7S 8C 9C TC 2S 3D 4H KD 5H"), 14, knock_limit=10)
    data = cert.to_json(timing=False)
    assert "seconds" not in data["solver"]
    text = json.dumps(data)
    back = parse_certificate(json.loads(text))
    assert back.to_json(timing=False) == data
    assert data["witness"]["discard"] == "KD" and data["can_knock"] is False
