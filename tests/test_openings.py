"""Every opening the suite rewrites for another first turn (a ``rulesets`` entry's ``opening``)
leaves the hand in the position the case's own opening leaves it in: both are replayed in the
reference engine, each under its own profile, and the positions compared field by field."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from ginspec.conformance.cases import Case, load_cases
from ginspec.conformance.generate.openings import translate
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.reference.game import Deal, HandState, Rejection, rules_for_profile
from ginspec.spec.profiles import ruleset

POSITION = ("hands", "stock", "pile", "phase", "to_move", "taken", "returned", "wall_draw",
            "knocker", "knock_card", "big_gin", "gin_required", "declaration", "table", "dead",
            "result", "reshuffles")
"""The HandState fields the rules read. Left out: the deal, the rules and the history (how the
position was reached); ``known`` (what the opponent saw: observations only); ``upcard`` and
``knock_limit`` (each ruleset's own reading of the deal, DEAL.UPCARD, OKLAHOMA.KNOCK-LIMIT);
``takes`` is compared where a ruleset reads it (``discard_take_cap``, TURN.TAKE-CAP)."""


@cache
def translated() -> tuple[tuple[Case, dict[str, Any], str], ...]:
    out = []
    for case in load_cases([SUITE_DIR]):
        for entry in case.rulesets:
            if "opening" in entry and entry.get("showdown") != "automatic":
                out.extend((case, entry["opening"], p) for p in entry["profiles"])
    return tuple(out)


def played(case: Case, profile: str, steps: list[dict[str, Any]]) -> HandState:
    deal = case.deals[0]
    state = HandState.new(Deal.parse(list(deal["deck"]), int(deal["dealer"])),
                          rules_for_profile(profile, case.overrides))
    for step in steps:
        state = state.apply(str(step["action"]), int(step["player"]))
    return state


def position(state: HandState, other: HandState) -> dict[str, Any]:
    out = {name: getattr(state, name) for name in POSITION}
    if state.rules.discard_take_cap or other.rules.discard_take_cap:
        out["takes"] = state.takes
    return out


def test_the_suite_rewrites_openings_for_every_first_turn() -> None:
    turns = {(ruleset(str(c.profile), c.overrides)["first_turn"],
              ruleset(p, c.overrides)["first_turn"]) for c, _, p in translated()}
    assert {("upcard_offer", "plain"), ("plain", "upcard_offer"),
            ("upcard_offer", "eleven_card_start"), ("eleven_card_start", "upcard_offer"),
            ("plain", "eleven_card_start"), ("eleven_card_start", "plain")} <= turns


def test_a_rewritten_opening_reaches_the_same_position() -> None:
    """Compared once the non-dealer's first turn is over: the card of its next step (a discard
    or a knock, when the case's own profile accepts it) is discarded on both sides. Before
    that discard a take of card 21 is pending (``taken``, TURN.DISCARD-TAKEN) where the
    eleven-card start dealt the card; where a ruleset refuses the discard (compulsory gin),
    the positions before it are compared without ``taken``, and the card played is not card
    21, the only card ``taken`` restricts."""
    checked = 0
    for case, opening, profile in translated():
        n = int(opening["replaces"])
        words = str(case.steps[n]["action"]).split() \
            if len(case.steps) > n and case.steps[n]["expect"] == "accepted" else []
        ends = [{"player": case.steps[n]["player"], "action": f"discard {words[1]}"}] \
            if len(words) == 2 else []
        try:
            mine = played(case, str(case.profile), [*case.steps[:n], *ends])
            theirs = played(case, profile, [*opening["steps"], *ends])
            assert position(mine, theirs) == position(theirs, mine), (case.id, profile)
        except Rejection:
            mine = played(case, str(case.profile), case.steps[:n])
            theirs = played(case, profile, opening["steps"])
            assert words[1] != case.deals[0]["deck"][20]
            assert {**position(mine, theirs), "taken": None} == \
                {**position(theirs, mine), "taken": None}, (case.id, profile)
        checked += 1
    assert checked >= 300


def test_no_rewrite_for_a_dealer_take_or_a_refused_opening() -> None:
    deck = [f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK"]
    offer, eleven = ruleset("pagat"), ruleset("rlcard")
    plain = ruleset("wikipedia")
    dealer_take = [{"player": 1, "action": "pass", "expect": "accepted"},
                   {"player": 0, "action": "take-upcard", "expect": "accepted"},
                   {"player": 0, "action": "discard 2C", "expect": "accepted"}]
    assert isinstance(translate(dealer_take, deck, 0, offer, plain), str)
    refused = [{"player": 1, "action": "take-upcard", "expect": {"rejected": "WRONG_PHASE"}}]
    assert isinstance(translate(refused, deck, 0, eleven, offer), str)
    both_pass = [{"player": 1, "action": "pass", "expect": "accepted"},
                 {"player": 0, "action": "pass", "expect": "accepted"},
                 {"player": 1, "action": "draw-stock", "expect": "accepted"}]
    assert "ELEVEN.DEAL" in str(translate(both_pass, deck, 0, offer, eleven))
    assert not isinstance(translate(both_pass, deck, 0, offer, plain), str)


def test_card_21_played_at_once_is_not_rewritten() -> None:
    """Discarding card 21 is a dealt card's discard under the eleven-card start but returning
    the card just taken under the offer (TURN.DISCARD-TAKEN): no equivalent."""
    deck = [f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK"]
    steps = [{"player": 1, "action": f"discard {deck[20]}", "expect": "accepted"}]
    assert "card 21" in str(translate(steps, deck, 0, ruleset("rlcard"), ruleset("pagat")))
    other = [{"player": 1, "action": f"discard {deck[0]}", "expect": "accepted"}]
    assert not isinstance(translate(other, deck, 0, ruleset("rlcard"), ruleset("pagat")), str)


@pytest.mark.parametrize("cap", [0, 2])
def test_a_plain_take_counts_toward_the_cap(cap: int) -> None:
    deck = [f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK"]
    steps = [{"player": 1, "action": "take-discard", "expect": "accepted"},
             {"player": 1, "action": f"discard {deck[0]}", "expect": "accepted"}]
    plain = ruleset("wikipedia", {"discard_take_cap": cap})
    got = translate(steps, deck, 0, plain, ruleset("pagat"))
    assert isinstance(got, str) == bool(cap)
    capped = translate(steps, deck, 0, ruleset("wikipedia"), ruleset("openspiel"))
    assert "discard_take_cap=50" in str(capped)
