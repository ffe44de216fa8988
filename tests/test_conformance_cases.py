"""The case format: schema, fingerprints, canonical text, and errors that name file and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ginspec.conformance.cases import Case, CaseFormatError, fingerprint_of, load_case, parse_case


def _case(**changes: object) -> dict[str, object]:
    case = Case.make(
        id="t.meld.example",
        kind="query",
        origin="query",
        description="a set of three",
        clauses=["MELD.SET"],
        profile=None,
        requires=["query.meld"],
        query={"what": "meld", "cards": ["7C", "7D", "7H"]},
        expect={"valid": True},
    )
    data = json.loads(case.to_json())
    data.update(changes)
    return data


def test_round_trip_is_identical() -> None:
    data = _case()
    case = parse_case(data, "x.json")
    assert json.loads(case.to_json()) == data
    assert (
        case.to_json()
        == Case.make(
            **{k: v for k, v in data.items() if k not in ("format", "fingerprint")}
        ).to_json()
    )


def test_fingerprint_covers_the_answer_not_the_prose() -> None:
    data = _case()
    other = dict(data, description="reworded")
    assert fingerprint_of(other) == data["fingerprint"]
    changed = dict(data, expect={"valid": False})
    assert fingerprint_of(changed) != data["fingerprint"]


def test_edited_answer_without_new_fingerprint_is_refused() -> None:
    data = _case(expect={"valid": False})
    with pytest.raises(CaseFormatError, match=r"x.json: fingerprint: .* does not match"):
        parse_case(data, "x.json")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"kind": "poker"}, "kind"),
        ({"clauses": ["meld.set"]}, "clauses/0"),  # clause-links: ignore
        ({"query": {"what": "meld", "cards": ["7X", "7D"]}}, "query/cards/0"),
        ({"query": {"what": "table-adjudicate", "knocker": 0,
                    "hands": [["7H", "8H", "9H"], ["2S", "3S", "4X"], ["6D", "7D", "8D"]]}}, "query/hands/1/2"),
        ({"surprise": 1}, "(top level)"),
        ({"profile": "Bad Name"}, "profile"),
    ],
)
def test_schema_errors_name_the_field(change: dict[str, object], field: str) -> None:
    with pytest.raises(CaseFormatError) as info:
        parse_case(_case(**change), "suite/x.json")
    assert str(info.value).startswith(f"suite/x.json: {field}:")


def test_hand_case_checkpoint_past_the_end(tmp_path: Path) -> None:
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    case = Case.make(
        id="t.hand",
        kind="hand",
        origin="endgame",
        description="d",
        clauses=["TURN.DRAW"],
        profile="pagat",
        deals=[{"dealer": 0, "deck": deck}],
        steps=[{"player": 1, "action": "pass", "expect": "accepted"}],
        checkpoints=[{"after": 2, "to_act": 0}],
    )
    with pytest.raises(CaseFormatError, match=r"checkpoints/0/after: 2 is past the last step"):
        parse_case(json.loads(case.to_json()), "t.json")


def test_deck_must_be_a_permutation() -> None:
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    deck[5] = deck[4]
    data = _case()
    for key in ("query", "expect"):
        data.pop(key)
    data.update(
        kind="hand", profile="pagat", deals=[{"dealer": 0, "deck": deck}], steps=[], checkpoints=[]
    )
    with pytest.raises(CaseFormatError, match=r"deals/0/deck"):
        parse_case(data, "t.json")


def test_load_case_reports_bad_json_with_the_path(tmp_path: Path) -> None:
    p = tmp_path / "broken.json"
    p.write_text('{"id": ', encoding="utf-8")
    with pytest.raises(
        CaseFormatError, match=r"broken.json: \(top level\): not JSON \(invalid JSON at line 1"
    ):
        load_case(p)
