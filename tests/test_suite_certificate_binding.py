"""Every certificate of the suite is bound to its case (FORMAL.CERTIFICATE).

``ginspec prove --verify-suite`` looks a case's certificates up by the key of the question the case
asks; a certificate filed under that key must answer that very question — its ``question``,
``hand``, ``rules``, ``knock_limit`` and ``claim`` are the case's — and prove the numbers the case
expects. Each test copies a few suite cases and their certificates into a folder, tampers with one
thing and requires the whole check of the folder to fail with a message naming the case and the
field. The expected least deadwoods are worked out by hand from chapter 2 (CARD.VALUE, MELD.SET,
MELD.RUN) in the comments, not by the code under test.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ginspec.reference.proofs.suite_certificates import (
    CERTIFICATES,
    SUITE_DIR,
    check_case,
    knock_claims,
    read_certificates,
    used_keys,
    verify_suite,
)
from ginspec.spec.formal.answers import answer_key
from ginspec.spec.formal.verify import verify

# 2C 2D 2S set; 8D 9D QH KH left: 8 + 9 + 10 + 10 = 37, and no run or other set exists.
LEAST_37 = "q.deadwood.2c2d8d9dqhkh2s"
# 2C 3C 4C, 9C TC JC and 4H 5H 6H 7H are runs: deadwood 0.
GIN_10 = "q.deadwood.2c3c4c9ctcjc4h5h6h7h"
# A donor: another standard-rules deadwood case.
OTHER = "q.deadwood.2c6ctcjc5d6d7d2h2s6s"
# Sets of fours, fives and sixes: deadwood 0 (a donor certificate with claim 0).
SETS_0 = "q.deadwood.4c5c6c4d5d6d4h5h4s5s6s"
# 11 cards with knock limit 5: KC discarded, 2C 2D 2H 2S / 3C 3H 3S / 6H 7H 8H: gin.
KNOCK_5 = "q.knock.2c3ckc2d2h3h6h7h8h2s3s.knock-limit-5"

SUITE_CERTS = read_certificates(SUITE_DIR)


def _suite_case(case_id: str) -> dict[str, Any]:
    path = SUITE_DIR / "cases" / "query" / f"{case_id}.json"
    case: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return case


def _key(case_id: str) -> str:
    """The key of a deadwood case's own question (its only one)."""
    (key,) = used_keys(_suite_case(case_id))
    return key


def _folder(tmp: Path, cases: list[dict[str, Any]], certs: dict[str, Any]) -> Path:
    """A suite folder with these cases and this certificates file."""
    (tmp / "cases" / "query").mkdir(parents=True)
    for case in cases:
        (tmp / "cases" / "query" / f"{case['id']}.json").write_text(json.dumps(case), encoding="utf-8")
    lines = [json.dumps({"key": k, "certificate": c}) + "\n" for k, c in sorted(certs.items())]
    (tmp / CERTIFICATES).write_text("".join(lines), encoding="utf-8")
    return tmp


def _genuine(case_ids: list[str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    cases = [_suite_case(i) for i in case_ids]
    certs = {k: copy.deepcopy(SUITE_CERTS[k]) for c in cases for k in used_keys(c)}
    return cases, certs


def _rejected(folder: Path, case_id: str, field: str) -> list[str]:
    result = verify_suite(folder)
    assert not result.ok
    named = [p for p in result.problems if p.startswith(case_id) and f"{field}:" in p]
    assert named, result.problems
    return list(result.problems)


def test_the_genuine_copy_stands(tmp_path: Path) -> None:
    cases, certs = _genuine([LEAST_37, GIN_10, OTHER, SETS_0])
    result = verify_suite(_folder(tmp_path, cases, certs))
    assert result.ok, result.problems
    assert result.cases == 4


def test_a_wrong_claim_with_the_genuine_certificate_refiled(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """(a) The case expects 38 for a hand whose least is 37; the genuine certificate (claim 37,
    proved) is filed under the claim-38 key. It is a true certificate, of another claim."""
    from ginspec.conformance.cli import main

    cases, certs = _genuine([LEAST_37, OTHER])
    cases[0]["expect"]["deadwood"] = 38
    genuine = certs.pop(_key(LEAST_37))
    assert genuine["claim"] == 37 and genuine["outcome"] == "proved"
    certs[_key(LEAST_37).replace("|claim 37", "|claim 38")] = genuine
    folder = _folder(tmp_path, cases, certs)
    _rejected(folder, LEAST_37, "claim")
    assert main(["prove", "--verify-suite", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "all stand" not in out and LEAST_37 in out


def test_a_valid_certificate_of_another_hand(tmp_path: Path) -> None:
    """(b) The case's certificate replaced by a standing certificate of another hand."""
    cases, certs = _genuine([LEAST_37, OTHER])
    stranger = copy.deepcopy(certs[_key(OTHER)])
    assert verify(stranger)[0]
    certs[_key(LEAST_37)] = stranger
    _rejected(_folder(tmp_path, cases, certs), LEAST_37, "hand")


def test_a_case_expecting_0_with_another_hands_certificate(tmp_path: Path) -> None:
    """(c) A gin hand's case with the (standing, proved, claim 0) certificate of another gin hand."""
    cases, certs = _genuine([GIN_10, SETS_0])
    stranger = copy.deepcopy(certs[_key(SETS_0)])
    assert stranger["claim"] == 0 and stranger["outcome"] == "proved" and verify(stranger)[0]
    certs[_key(GIN_10)] = stranger
    _rejected(_folder(tmp_path, cases, certs), GIN_10, "hand")


def test_a_certificate_moved_between_cases(tmp_path: Path) -> None:
    """(d) One case's certificate moved to another case's key (its own key left empty)."""
    cases, certs = _genuine([LEAST_37, OTHER])
    certs[_key(OTHER)] = certs.pop(_key(LEAST_37))
    problems = _rejected(_folder(tmp_path, cases, certs), OTHER, "hand")
    assert any(p.startswith(LEAST_37) and "no certificate" in p and "hand" in p for p in problems), problems


Tamper = Callable[[dict[str, Any]], None]


def _expect_36(case: dict[str, Any]) -> None:
    case["expect"]["deadwood"] = 36


def _limit_7(case: dict[str, Any]) -> None:
    case["overrides"]["knock_limit"] = 7


def _other_cards(case: dict[str, Any]) -> None:
    case["query"]["cards"] = [c.replace("KH", "KS") for c in case["query"]["cards"]]


@pytest.mark.parametrize(("case_id", "tamper", "field"), [
    (LEAST_37, _expect_36, "claim"),
    (KNOCK_5, _limit_7, "knock_limit"),
    (LEAST_37, _other_cards, "hand"),
], ids=["expected-deadwood", "knock-limit", "cards"])
def test_a_case_changed_with_no_certificate_change(tmp_path: Path, case_id: str, tamper: Tamper,
                                                   field: str) -> None:
    """(e) The case changed, the certificates file not."""
    cases, certs = _genuine([case_id])
    tamper(cases[0])
    _rejected(_folder(tmp_path, cases, certs), case_id, field)


def test_a_rules_value_changed_in_the_certificate(tmp_path: Path) -> None:
    """(f) The certificate's rules changed: ace-high runs. The hand has no ace, so the certificate
    still stands, as a true certificate of the same hand under other rules."""
    cases, certs = _genuine([LEAST_37])
    other_rules = certs[_key(LEAST_37)]
    assert other_rules["rules"]["ace_high_runs"] is False
    other_rules["rules"]["ace_high_runs"] = True
    assert verify(other_rules)[0]
    _rejected(_folder(tmp_path, cases, certs), LEAST_37, "rules")


def test_a_rules_value_changed_in_the_case(tmp_path: Path) -> None:
    """(f) The case's rules changed (aces worth 11), the certificates file not."""
    cases, certs = _genuine([LEAST_37])
    cases[0]["overrides"]["ace_value"] = 11
    _rejected(_folder(tmp_path, cases, certs), LEAST_37, "rules")


def test_a_hand_case_knock_bound_to_its_cards() -> None:
    """A hand case's knock verdict with the (standing) certificate of other cards filed under its
    key, and with a (standing) certificate of the same cards and another claim."""
    path = next(p for p in sorted((SUITE_DIR / "cases" / "hand").glob("*.json"))
                if any(k.verdict == "within" for k in knock_claims(json.loads(p.read_text(encoding="utf-8")))))
    case = json.loads(path.read_text(encoding="utf-8"))
    claim = next(k for k in knock_claims(case) if k.verdict == "within")
    key = claim.question.key
    certs = {k: SUITE_CERTS[k] for k in used_keys(case)}
    stranger = SUITE_CERTS[_key(OTHER)]
    problems = check_case(case, {**certs, key: stranger})
    assert any(case["id"] in p and "hand:" in p for p in problems), problems
    higher = {**certs[key], "claim": claim.question.claim + 1, "outcome": "claim-too-high"}
    assert verify(higher)[0]  # a true certificate of a higher claim
    problems = check_case(case, {**certs, key: higher})
    assert any(case["id"] in p and "claim:" in p for p in problems), problems


def _own(case: dict[str, Any]) -> dict[str, Any]:
    """The case under its own profile only."""
    return {k: v for k, v in case.items() if k != "rulesets"}


def test_an_answer_certificate_names_its_own_knock_limit() -> None:
    """An adjudicate answer's knocker_least (eleven cards, after the best discard): a standing
    certificate of the same hand under knock limit 7 instead of the profile's 10 is rejected."""
    case = _own(_suite_case("q.adjudicate.eleven-cards.serbian-online"))
    certs = {k: SUITE_CERTS[k] for k in used_keys(case)}
    assert check_case(case, certs) == []
    key = certs[answer_key(case["id"], case["profile"])]["knocker_least"]
    other = {**certs[key], "knock_limit": 7}
    assert other["optimum"] <= 7 and other["can_knock"] is True and verify(other)[0]
    problems = check_case(case, {**certs, key: other})
    assert any(case["id"] in p and "knock_limit:" in p for p in problems), problems


def test_an_answer_certificate_claims_the_least() -> None:
    """A defence answer's option: a standing certificate of the same cards whose claim is not
    the least it proves is rejected."""
    case = _suite_case("spec.table-twenty-four-down-to-four")
    certs = {k: SUITE_CERTS[k] for k in used_keys(case)}
    assert check_case(case, certs) == []
    key = certs[answer_key(case["id"], None)]["options"][0]["certificate"]
    higher = {**certs[key], "claim": certs[key]["optimum"] + 1, "outcome": "claim-too-high"}
    assert verify(higher)[0]
    problems = check_case(case, {**certs, key: higher})
    assert any(case["id"] in p and "claim:" in p for p in problems), problems
