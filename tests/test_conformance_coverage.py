"""Coverage of the committed suite: one negative case per rejection code, and both kinds
of case — obeyed, and violated or deciding — for every testable clause of the chapters listed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from ginspec.conformance.cases import Case, load_cases
from ginspec.conformance.cli.suite_command import coverage_rows
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.reference.game import Deal, HandState, Rejection, rules_for_profile
from ginspec.reference.game.rejections import Code
from ginspec.reference.game.state import Phase
from ginspec.spec.clauses import registry

COMPLETE_WORDS = ("DEAL", "TURN", "KNOCK", "WALL", "ELEVEN", "STRAIGHT", "ACTION", "OBSERVATION", "TRACE",
                  "FORMAL")
"""Chapter words whose every testable clause must have both kinds of case (extend as chapters
are completed)."""

NOT_IN_TWO_PLAYER_PLAY = {
    "LAYOFF_AFTER_GIN": "after gin with layoff_after_gin = forbidden the hand ends with the "
    "defender's spread (ACTION.PHASE), so a layoff is refused with HAND_OVER first",
    "LAYOFF_BY_KNOCKER": "the knocker-layoff phase exists only when knocker_may_lay_off is true; "
    "otherwise the knocker is never the party to act at the layoffs (NOT_YOUR_TURN first)",
}
"""Codes of the closed list that the two-player phase order pre-empts; the showdown module still
uses them (``ginspec adjudicate``, the table game). Each reason is checked below."""


@pytest.fixture(scope="module")
def suite() -> list[Case]:
    return load_cases([SUITE_DIR])


def _refusals(cases: list[Case]) -> Iterator[tuple[str, str]]:
    for case in cases:
        for step in case.steps:
            if step["expect"] != "accepted":
                yield str(step["expect"]["rejected"]), case.id


def test_one_negative_case_per_rejection_code(suite: list[Case]) -> None:
    drawn = {code for code, _ in _refusals(suite)}
    missing = [c.value for c in Code if c.value not in drawn and c.value not in
               NOT_IN_TWO_PLAYER_PLAY]
    assert not missing, f"rejection codes without a negative case: {missing}"
    assert set(NOT_IN_TWO_PLAYER_PLAY) <= {c.value for c in Code}


def test_negative_case_for_wrong_dealer_is_a_match(suite: list[Case]) -> None:
    cases = {cid for code, cid in _refusals(suite) if code == "WRONG_DEALER"}
    assert {"proc.reject.wrong-dealer.pagat", "proc.reject.wrong-dealer.void-hand.pagat"} <= cases


def _gin_showdown(overrides: dict[str, object]) -> HandState:
    deal = Deal.from_hands("2C 3C 4C 7D 7H 7S JS QS KS KH", "8C 8D 8H 9D 9H 9S AS 2S 3S 6C",
                           "QD", "5C", 0)
    s = HandState.new(deal, rules_for_profile("pagat", overrides))
    for action in ("pass", "pass", "draw-stock", "knock KH",
                   "declare 2C 3C 4C 5C / 7D 7H 7S / JS QS KS",
                   "meld 8C 8D 8H / 9D 9H 9S / AS 2S 3S"):
        s = s.apply(action)
    return s


def _code(state: HandState, action: str, player: int) -> Code:
    with pytest.raises(Rejection) as info:
        state.apply(action, player)
    return info.value.code


def test_layoff_after_gin_is_pre_empted_by_the_end_of_the_hand() -> None:
    s = _gin_showdown({"layoff_after_gin": "forbidden"})
    assert s.phase is Phase.OVER
    assert _code(s, "layoff 6C to 2C", 0) is Code.HAND_OVER


def test_layoff_by_knocker_is_pre_empted_by_the_turn() -> None:
    deal = Deal.from_hands("2C 3C 4C 7D 7H 7S JS QS KS QD", "8C 8D 8H 9D 9H 9S AS 2S 3S 5H",
                           "5D", "", 0)
    s = HandState.new(deal, rules_for_profile("pagat", {"knocker_may_lay_off": False}))
    for action in ("take-upcard", "knock QD", "declare 2C 3C 4C / 7D 7H 7S / JS QS KS",
                   "meld 8C 8D 8H / 9D 9H 9S / AS 2S 3S"):
        s = s.apply(action)
    assert s.phase is Phase.DEFENDER_LAYOFF and s.to_move == 0
    assert _code(s, "layoff 5D to 5H", 1) is Code.NOT_YOUR_TURN
    assert s.apply("done").phase is Phase.OVER


@pytest.mark.parametrize("word", COMPLETE_WORDS)
def test_every_testable_clause_is_obeyed_and_violated(word: str) -> None:
    rows = [r for r in coverage_rows() if r["clause"].split(".")[0] == word]
    assert rows, f"no clause with the word {word}"
    gaps = [r["clause"] for r in rows if r["testable"] and not (r["obeys"] and r["violates"])]
    assert not gaps, f"testable clauses without both kinds of case: {gaps}"
    for r in rows:
        if not r["testable"]:
            assert r["untestable_reason"], f"{r['clause']} is untestable without a reason"
            assert r["clause"] in registry()
