"""``ginspec prove --verify``: every field of a certificate is checked against its question
(FORMAL.CERTIFICATE). Each tampering is rejected with its reason (exit 1); what is not a
certificate file at all exits 2 with one line."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.cli import main
from ginspec.spec.cards import parse_cards
from ginspec.spec.formal import certify
from ginspec.spec.formal.certificate import CertificateError
from ginspec.spec.formal.rules import FormalRules
from ginspec.spec.formal.verify import verify

TEN = "7H 7D 7S 8C 9C TC 2S 3D 4H KD"  # least deadwood 19 (7s set, 8-9-T clubs)
GIN = "AC 2C 3C 4D 4H 4S 5S 6S 7S 8S KD"  # gin after discarding KD, not big gin
BIG = "AC 2C 3C 4D 4H 4S 5S 6S 7S 8S 9S"  # big gin
KNOCK = "7H 7D 7S 8C 9C TC 2S 3D 4H KD 5H"  # 14 after discarding KD: may not knock at 10


def _cert(hand: str, claim: int, **kw: Any) -> dict[str, Any]:
    return certify(parse_cards(hand), claim, **kw).to_json()


CERTS = {
    "ten": _cert(TEN, 19),
    "gin": _cert(GIN, 0, knock_limit=10),
    "big-gin": _cert(BIG, 0, knock_limit=10),
    "knock": _cert(KNOCK, 14, knock_limit=10),
    "too-high": _cert(TEN, 22),
    "ace-high": _cert("QS KS AS 2C 3C 9D", 14, rules=FormalRules(ace_high_runs=True)),
}


def _verify_file(tmp_path: Path, data: Any, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code = main(["prove", "--verify", str(path)])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("name", list(CERTS))
def test_untouched_certificates_stand(name: str) -> None:
    stands, reason = verify(CERTS[name])
    assert stands, reason


def _set(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    *head, last = path.split(".")
    node: Any = out
    for key in head:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is _DELETE:
        del node[last]
    else:
        node[int(last) if isinstance(node, list) else last] = value
    return out


_DELETE = object()

# The tamperings an audit found accepted, each with a word of the reason it must give.
TAMPERINGS = [
    ("ten", {"witness.melds": [], "witness.deadwood": 67, "witness.deadwood_cards":
             TEN.split()}, "optimum"),
    ("ten", {"witness.melds": [], "witness.deadwood": 67, "witness.deadwood_cards": TEN.split(),
             "optimum": 67, "unsat_below": 67, "claim": 67}, "least deadwood is 19"),
    ("knock", {"can_knock": True}, "can_knock"),
    ("gin", {"gin": False}, "gin"),
    ("gin", {"knock_limit": -1}, "knock_limit"),
    ("gin", {"knock_limit": 0, "can_knock": False}, "can_knock"),
    ("gin", {"big_gin": True}, "big_gin"),
    ("big-gin", {"big_gin": False}, "big_gin"),
    ("ten", {"witness.discard": "KD"}, "discards nothing"),
    ("gin", {"witness.discard": None}, "needs the discarded card"),
    ("ten", {"question": "foo"}, "question"),
    ("ten", {"question": "deadwood-after-discard"}, "missing field 'gin'"),
    ("ten", {"witness.deadwood_cards": ["2S"]}, "deadwood_cards"),
    ("ten", {"unsat_below": 18}, "unsat_below"),
    ("ten", {"encoding": "other"}, "encoding"),
    ("ten", {"solver.name": "cvc5"}, "solver.name"),
    ("ten", {"solver.checks": 0}, "solver.checks"),
    ("ten", {"solver.checks": "2"}, "solver.checks"),
    ("ten", {"claim": "19"}, "claim must be an integer"),
    ("ten", {"claim": 19.9}, "claim must be an integer"),
    ("ten", {"claim": True}, "claim must be an integer"),
    ("ten", {"rules.ace_high_runs": "no"}, "ace_high_runs must be true or false"),
    ("ten", {"rules.ace_value": 16}, "ace_value"),
    ("ten", {"extra": 1}, "unknown field 'extra'"),
    ("ten", {"witness.extra": 1}, "unknown field 'extra'"),
    ("ten", {"lower_bound": _DELETE}, "missing field 'lower_bound'"),
    ("ten", {"gin": False}, "unknown field 'gin'"),
    ("ten", {"hand.0": "7h"}, "canonical"),
    ("ten", {"outcome": "claim-too-high"}, "outcome"),
    ("too-high", {"outcome": "proved"}, "outcome"),
    ("ten", {"lower_bound.cases.0.suits.1": 99}, "independent checker"),
    ("ten", {"lower_bound.cases.0.suits.1": 0}, "not the cases the model makes"),
    ("ten", {"lower_bound.cases": []}, "non-empty"),
    ("ace-high", {"rules.ace_high_runs": False}, "not a meld: QS KS AS"),
]


NOT_A_CERTIFICATE = ("missing field", "unknown field")
"""Reasons that mean the data is no certificate at all: exit 2, like a file that is not JSON."""


@pytest.mark.parametrize(("name", "changes", "why"), TAMPERINGS,
                         ids=[f"{n}-{'+'.join(c)}" for n, c, _ in TAMPERINGS])
def test_each_tampering_is_rejected_with_its_reason(
    name: str, changes: dict[str, Any], why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    data = CERTS[name]
    for path, value in changes.items():
        data = _set(data, path, value)
    code, out = _verify_file(tmp_path, data, capsys)
    assert code == (2 if why.startswith(NOT_A_CERTIFICATE) else 1) and why in out, out
    assert len(out.strip().splitlines()) == 1


def _leaves(data: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _leaves(v, f"{prefix}{k}.")
    elif isinstance(data, list) and data:
        for i, v in enumerate(data):
            yield from _leaves(v, f"{prefix}{i}.")
    else:
        yield prefix[:-1], data


def _wrong(value: Any) -> list[Any]:
    """Values of the same kind that differ (plus one of another kind)."""
    if isinstance(value, bool):
        return [not value, int(value)]
    if isinstance(value, int):
        return [value + 1, value - 1, str(value)]
    if isinstance(value, str):
        if len(value) == 2 and value[1] in "CDHS":  # a card
            return ["QD" if value != "QD" else "JD", value.lower()]
        return [value + "x"]
    if value is None:
        return ["2D", 0]
    if isinstance(value, list):  # an empty list
        return [["AC"]]
    return [None]


# Fields that record circumstances rather than claims: any value of the right type is true
# (the number of solver calls varies from run to run; only its least possible value is checked).
FREE = {"solver.seconds", "solver.version", "solver.checks"}


QUESTION = {"hand", "rules", "claim", "knock_limit"}
"""What the certificate is asked: changed, it may still be answered right by the other fields."""


def _answer(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("solver", "witness")}  # any optimal witness


def _fresh(data: dict[str, Any]) -> dict[str, Any]:
    rules = FormalRules(**data["rules"])
    after = data["question"] == "deadwood-after-discard"
    return certify(parse_cards(data["hand"]), data["claim"], rules, discard=after,
                   knock_limit=data.get("knock_limit")).to_json()


@pytest.mark.parametrize("name", ["ten", "gin", "knock", "big-gin"])
def test_every_field_changed_to_a_wrong_value_is_rejected(name: str) -> None:
    data = CERTS[name]
    tried = 0
    for path, value in _leaves(data):
        if path in FREE:
            continue
        for wrong in _wrong(value):
            changed = _set(data, path, wrong)
            try:
                stands, reason = verify(changed)
            except CertificateError as exc:  # not a certificate at all (exit 2)
                stands, reason = False, str(exc)
            if stands and path.split(".")[0] in QUESTION:  # a new question, the same answer
                assert _answer(changed) == _answer(_fresh(changed)), (path, wrong)
                continue
            assert not stands, (path, wrong, reason)
            tried += 1
    assert tried > 40


def test_malformed_files_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for text in ("{", "[1]", "\"cert\""):
        path = tmp_path / "bad.json"
        path.write_text(text, encoding="utf-8")
        assert main(["prove", "--verify", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("ginspec: error:") and len(err.strip().splitlines()) == 1
    assert main(["prove", "--verify", str(tmp_path / "missing.json")]) == 2
    capsys.readouterr()


@pytest.mark.parametrize("claim", ["1000000000000", "-1", "19.9", "x", "781"])
def test_bad_claims_exit_2(claim: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", *TEN.split(), f"--claim={claim}"]) == 2
    err = capsys.readouterr().err
    assert "--claim" in err and len(err.strip().splitlines()) == 1


def test_largest_claim_is_answered() -> None:
    assert main(["prove", *TEN.split(), "--claim", "780"]) == 1
