"""The protocol-2 queries (score, match, next-dealer, declaration, layoff, defence, adjudicate):
the reference answers each, and the runner accepts every correct answer and only those."""

from __future__ import annotations

from typing import Any

import pytest
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.cases.model import CAPABILITIES
from ginspec.conformance.cases.query_kinds import QUERY_KINDS
from ginspec.conformance.compare import check_query
from ginspec.conformance.generate.showdown_answers import with_showdown_answers
from ginspec.conformance.mismatch import arrangement_key
from reference_forbidden import forbid_reference

NEW = ("score", "match", "next-dealer", "declaration", "layoff", "defence", "adjudicate")


def test_every_query_kind_is_a_capability_with_a_smoke_question() -> None:
    for what in NEW:
        kind = QUERY_KINDS[what]
        assert kind.capability == f"query.{what}" and kind.capability in CAPABILITIES
        assert kind.smoke_shape and set(kind.smoke_shape) <= set(kind.answer)


# Knocker melds 8C 8D 8H and JC JD JH; the defender's 8S 9S TS JS is a run, and either end
# also fits a knocker's set. Keeping the run, laying off 8S (keeping 9S TS JS) or laying off JS
# (keeping 8S 9S TS) all leave the junk AC 3D 4H 5C 6D KC: 1+3+4+5+6+10 = 29.
DEFENCE: dict[str, Any] = {"what": "defence", "knocker_melds": [["8C", "8D", "8H"],
                                                                ["JC", "JD", "JH"]],
                           "cards": ["8S", "9S", "TS", "JS", "AC", "3D", "4H", "5C", "6D", "KC"]}


@pytest.mark.parametrize(("layoffs", "right"), [
    ([], True), (["8S"], True), (["JS"], True),
    (["8S", "JS"], False),  # 9S TS left over: 48
    (["KC"], False),  # fits no meld on the table
])
def test_defence_accepts_every_best_set_of_layoffs(layoffs: list[str], right: bool,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    expect = with_showdown_answers(DEFENCE, {"deadwood": 29, "layoffs": []}, None, {})
    assert sorted(expect["layoff_sets"]) == [[], ["8S"], ["JS"]]  # recorded at build time
    forbid_reference(monkeypatch)  # judging compares with the recorded sets only
    bad = check_query("defence", DEFENCE, expect, {}, {"deadwood": 29, "layoffs": layoffs})
    assert (bad is None) == right, bad


def test_a_case_without_recorded_answers_accepts_the_example_only() -> None:
    """A user's own case file with no ``layoff_sets``/``best_plays``: nothing is replayed."""
    expect = {"deadwood": 29, "layoffs": []}
    assert check_query("defence", DEFENCE, expect, {}, {"deadwood": 29, "layoffs": []}) is None
    assert check_query("defence", DEFENCE, expect, {}, {"deadwood": 29, "layoffs": ["8S"]})
    ruled = {**RULED, "declaration": RUNS}
    assert check_query("adjudicate", RULING, ruled, {}, {**RULED, "declaration": SETS},
                       profile="openspiel") is not None


def test_defence_wrong_deadwood_fails_and_the_reference_answers_right() -> None:
    assert check_query("defence", DEFENCE, {"deadwood": 29}, {}, {"deadwood": 30,
                                                                  "layoffs": []}) is not None
    answer = ReferenceAdapter().query("defence", DEFENCE, None, {})
    assert answer["deadwood"] == 29


# Openspiel: 5S 6S 7S 5C 6C 7C 5D 6D 7D AS melds as three runs or three sets (deadwood 1); the
# defender can lay nothing off on either, keeps KH KC KD and has 2+3+9+10+10+10+9 = 53 left.
RULING: dict[str, Any] = {
    "what": "adjudicate",
    "knocker": ["5S", "6S", "7S", "5C", "6C", "7C", "5D", "6D", "7D", "AS"],
    "defender": ["2H", "3H", "9H", "KH", "KC", "KD", "QC", "JC", "TS", "9S"]}
RUNS = [["5S", "6S", "7S"], ["5C", "6C", "7C"], ["5D", "6D", "7D"]]
SETS = [["5C", "5D", "5S"], ["6C", "6D", "6S"], ["7C", "7D", "7S"]]
RULED = {"outcome": "knock", "deadwood": {"knocker": 1, "defender": 53},
         "points": {"knocker": 52, "defender": 0}}


@pytest.mark.parametrize(("declaration", "right"), [
    (RUNS, True), (SETS, True),
    (RUNS[:2], False),  # 5D 6D 7D AS unmelded: 19, over the limit
])
def test_adjudicate_accepts_every_best_declaration(declaration: list[list[str]], right: bool,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    expect = with_showdown_answers(RULING, {**RULED, "declaration": RUNS}, "openspiel", {})
    recorded = sorted(arrangement_key(p["declaration"]) or [] for p in expect["best_plays"])
    assert recorded == sorted([arrangement_key(SETS), arrangement_key(RUNS)])  # both, only
    forbid_reference(monkeypatch)
    answer = {**RULED, "declaration": declaration}
    bad = check_query("adjudicate", RULING, expect, {}, answer, profile="openspiel")
    assert (bad is None) == right, bad


def test_adjudicate_reference_and_a_wrong_ruling() -> None:
    answer = ReferenceAdapter().query("adjudicate", RULING, "openspiel", {})
    assert {k: answer[k] for k in RULED} == RULED
    wrong = {**RULED, "points": {"knocker": 77, "defender": 0}}
    assert check_query("adjudicate", RULING, RULED, {}, wrong, profile="openspiel") is not None


def test_score_error_and_points() -> None:
    query = {"what": "score", "outcome": "knock", "knocker_deadwood": 0, "defender_deadwood": 12}
    assert check_query("score", query, {"error": True}, {}, {"error": True}) is None
    assert check_query("score", query, {"error": True}, {}, {"points": [12, 0]}) is not None
    answer = ReferenceAdapter().query("score", query, "pagat", {})
    assert answer["error"] is True  # a knock with no deadwood is gin (SCORE.GIN)
    ok = {"points": [2, 0], "winner": "knocker"}
    assert check_query("score", query, ok, {}, {**ok, "undercut": False}) is None
    assert check_query("score", query, ok, {}, {"points": [2, 0], "winner": "none"}) is not None


def test_match_ignores_hands_after_the_end_and_says_when_it_ended() -> None:
    hands = [[0, "gin", 0, 90], [1, "knock", 2, 40]]
    answer = ReferenceAdapter().query("match", {"hands": hands}, "pagat", {})
    assert answer["over"] is True and answer["hands"] == 1
    expect = {"over": True, "hands": 2}
    assert check_query("match", {"hands": hands}, expect, {}, answer) is not None


def test_declaration_code_is_compared_only_with_rejection_codes() -> None:
    query = {"what": "declaration", "cards": [], "melds": []}
    expect = {"valid": False, "code": "DECLARATION_OVER_LIMIT"}
    answer = {"valid": False, "code": "DECLARATION_NOT_A_MELD"}
    assert check_query("declaration", query, expect, {}, answer) is not None
    assert check_query("declaration", query, expect, {}, answer, codes=False) is None
    assert check_query("declaration", query, expect, {}, {"valid": True}, codes=False) is not None
