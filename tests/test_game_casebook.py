"""The procedural cases of the casebook (research digest §4), played through the engine:
C11 (discarding the card just taken), C12 (the wall), C13 (knocking on the first turn, dealt gin),
C14 (both refuse the upcard), C26 (who deals next, also after a void hand), C27 (compulsory gin).

Expected results are the rulings of the digest under each profile's parameters, worked out by hand
in the comments.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from ginspec.reference.game import (
    Action,
    Code,
    Deal,
    HandState,
    Kind,
    Outcome,
    Phase,
    Rejection,
    deal_from_seed,
    rules_for_profile,
)
from ginspec.reference.game.match import MatchState
from ginspec.spec.cards import card_str
from ginspec.spec.parameters import Value

# Non-dealer (player 1): 2C 3C 4C / 7D 7H 7S / JS QS KS + QD: 10 points of deadwood (QD).
KNOCKER = "2C 3C 4C 7D 7H 7S JS QS KS QD"
# Dealer (player 0): 8C 8D 8H / 9D 9H 9S / AS 2S 3S + 5H: 5 points of deadwood.
DEFENDER = "8C 8D 8H 9D 9H 9S AS 2S 3S 5H"


def start(profile: str, overrides: Mapping[str, Value] | None = None, upcard: str = "5D",
          nd: str = KNOCKER, d: str = DEFENDER, top: str = "") -> HandState:
    rules = rules_for_profile(profile, overrides)
    return HandState.new(Deal.from_hands(nd, d, upcard, top, dealer=0), rules)


def code_of(state: HandState, action: str) -> Code:
    with pytest.raises(Rejection) as info:
        state.apply(action)
    return info.value.code


# --- C11: taking the top discard and discarding it again ----------------------------------------


@pytest.mark.parametrize(("profile", "overrides", "allowed"), [
    ("pagat", {}, False),                 # never
    ("openspiel", {}, True),              # always
    ("colony", {}, False),                # only_at_wall: not in an ordinary turn
])
def test_c11_discard_the_card_just_taken(profile: str, overrides: Mapping[str, Value],
                                         allowed: bool) -> None:
    s = start(profile, overrides).apply("take-upcard")
    assert ("discard 5D" in s.legal_actions()) is allowed
    if not allowed:
        assert code_of(s, "discard 5D") is Code.DISCARD_OF_TAKEN_CARD
    # A card taken on an earlier turn may always be discarded (TURN.DISCARD-TAKEN).
    s = s.apply("discard QD").apply("draw-stock").apply("discard 5H").apply("draw-stock")
    assert "discard 5D" in s.legal_actions()


# --- C12: the wall -----------------------------------------------------------------------------------


def run_down(s: HandState) -> HandState:
    """Both pass; then each turn draws from the stock and discards that card, until the draw
    that leaves the wall (the 29th draw with a wall of two: the non-dealer's 15th). Without an
    upcard offer (FIRST.PLAIN) the non-dealer simply draws first."""
    if s.rules.upcard_offer:
        s = s.apply("pass").apply("pass")
    while True:
        card = s.stock[0]
        s = s.apply("draw-stock")
        if s.wall_draw or s.is_over:
            return s
        s = s.apply(Action(Kind.DISCARD, card=card))


def test_c12_i_knock_on_the_last_draw() -> None:
    s = run_down(start("pagat"))
    assert len(s.stock) == 2 and s.to_move == 1 and s.phase is Phase.DISCARD
    drawn = s.history[-1]
    assert drawn[1].kind is Kind.DRAW_STOCK
    # The non-dealer still has QD (10) as its only deadwood besides the drawn card: knocking
    # with the drawn card leaves 10 <= 10, legal (pagat: knock_on_wall_draw = true).
    last = [c for c in s.hand(1) if card_str(c) not in KNOCKER.split()]
    assert len(last) == 1
    assert Action(Kind.KNOCK, card=last[0]) in s.legal_actions()


def test_c12_i_no_knock_on_the_last_draw_under_hoyle_5() -> None:
    s = run_down(start("pagat", {"knock_on_wall_draw": False}))
    assert s.is_over and s.result is not None and s.result.outcome is Outcome.VOID
    assert s.hands[1].bit_count() == 11  # the draw was made; no discard, no knock


def _wall_discard(s: HandState) -> tuple[HandState, int]:
    """The non-dealer discards the card it drew at the wall; returns the state and that card."""
    drawn = next(c for c in s.hand(1) if card_str(c) not in KNOCKER.split())
    return s.apply(Action(Kind.DISCARD, card=drawn)), drawn


def test_c12_ii_void_under_pagat() -> None:
    s, _ = _wall_discard(run_down(start("pagat")))
    assert s.is_over and s.result is not None and s.result.outcome is Outcome.VOID


def test_c12_ii_last_chance_with_a_different_discard() -> None:
    s, wall_card = _wall_discard(run_down(start(
        "pagat", {"wall_action": "take_and_knock_other_discard"})))
    assert s.phase is Phase.WALL and s.to_move == 0
    s = s.apply("take-discard")
    assert s.phase is Phase.WALL_KNOCK
    assert code_of(s, "discard 5H") is Code.WALL_MUST_KNOCK
    # (iii) forbidden here: the taken card may not be the knock discard.
    assert code_of(s, f"knock {card_str(wall_card)}") is Code.DISCARD_OF_TAKEN_CARD
    # Knocking with 5H leaves the wall card as the only deadwood (a single card is at most 10).
    s = s.apply("knock 5H")
    assert s.knocker == 0 and s.phase is Phase.DECLARE


def test_c12_iii_colony_knock_with_the_same_card() -> None:
    s, wall_card = _wall_discard(run_down(start("colony")))
    s = s.apply("take-discard")
    # Colony Club: "turns it over on the pile to knock": the dealer keeps 5H (deadwood 5).
    s = s.apply(f"knock {card_str(wall_card)}")
    assert s.knock_card == wall_card


def test_c12_reshuffle_under_serbian_online() -> None:
    s, _ = _wall_discard(run_down(start("serbian-online")))
    assert s.phase is Phase.RESHUFFLE
    s = s.apply(s.chance_action())
    assert s.phase is Phase.DRAW and s.to_move == 0 and len(s.stock) > 2


@pytest.mark.parametrize(("redeal", "next_dealer"), [("same", 0), ("passes", 1)])
def test_c12_c26_void_hand_redeal(redeal: str, next_dealer: int) -> None:
    rules = rules_for_profile("pagat", {"redeal_dealer": redeal})
    m = MatchState.new(rules, deal=Deal.from_hands(KNOCKER, DEFENDER, "5D", dealer=0))
    m = m.apply("pass").apply("pass")
    while not m.hand_over:
        card = m.hand.stock[0]
        m = m.apply("draw-stock")
        if not m.hand_over:
            m = m.apply(Action(Kind.DISCARD, card=card))
    assert m.results[-1].outcome is Outcome.VOID and m.scores == (0, 0)
    assert m.expected_dealer() == next_dealer


# --- C13 / C14: the first turn ------------------------------------------------------------------------


def test_c13_knock_on_the_first_turn() -> None:
    # Taking the upcard 5D and knocking with QD leaves 5 points: legal on the very first turn.
    s = start("pagat").apply("take-upcard").apply("knock QD")
    assert s.phase is Phase.DECLARE and s.knocker == 1


def test_c13_dealt_gin_must_draw_first() -> None:
    s = start("pagat", nd="2C 3C 4C 7D 7H 7S JS QS KS 5C", upcard="KD")
    assert code_of(s, "knock 5C") is Code.WRONG_PHASE
    assert code_of(s, "declare 2C 3C 4C 5C / 7D 7H 7S / JS QS KS") is Code.WRONG_PHASE


def test_c13_eleven_card_start_may_knock_before_any_draw() -> None:
    s = HandState.new(Deal.from_hands(KNOCKER + " 5D", DEFENDER, None),
                      rules_for_profile("pagat", {"first_turn": "eleven_card_start"}))
    assert "knock QD" in s.legal_actions()


def test_c14_both_refuse_the_upcard() -> None:
    s = start("pagat", top="KH").apply("pass").apply("pass")
    assert [str(a) for a in s.legal_actions()] == ["draw-stock"]
    assert code_of(s, "take-discard") is Code.UPCARD_REFUSED
    s = s.apply("draw-stock")
    assert s.to_move == 1 and "discard KH" in s.legal_actions()


# --- C26: who deals next ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("rule", "expected"), [("loser", 0), ("winner", 1), ("alternate", 1)])
def test_c26_next_dealer_after_a_won_hand(rule: str, expected: int) -> None:
    # The non-dealer (player 1) takes the upcard 5D and knocks with QD (deadwood 5); the dealer
    # spreads 8C 8D 8H / 9D 9H 9S / AS 2S 3S and keeps KH (10); nothing lays off.
    rules = rules_for_profile("pagat", {"next_dealer": rule})
    m = MatchState.new(rules, deal=Deal.from_hands(KNOCKER, "8C 8D 8H 9D 9H 9S AS 2S 3S KH",
                                                   "5D", dealer=0))
    m = m.apply("take-upcard").apply("knock QD").apply("declare 2C 3C 4C / 7D 7H 7S / JS QS KS")
    m = m.apply("meld 8C 8D 8H / 9D 9H 9S / AS 2S 3S").apply("done")
    # Dealer's deadwood KH = 10 > 5: the knocker (player 1) wins 5 points.
    assert m.results[-1].winner == 1 and m.scores == (0, 5)
    assert m.expected_dealer() == expected  # loser 0; winner 1; alternate: 1 - dealer 0 = 1
    assert m.next_hand(deal_from_seed(3, expected)).hand.dealer == expected


# --- C27: is gin compulsory? ----------------------------------------------------------------------------


@pytest.mark.parametrize("compulsory", [False, True])
def test_c27_gin_compulsory(compulsory: bool) -> None:
    # After drawing 5C: 2C 3C 4C 5C / 7D 7H 7S / JS QS KS + KH: discarding KH is gin.
    s = start("pagat", {"gin_compulsory": compulsory}, upcard="QD",
              nd="2C 3C 4C 7D 7H 7S JS QS KS KH", d="8C 8D 8H 9D 9H 9S AS 2S 3S 6C", top="5C")
    s = s.apply("pass").apply("pass").apply("draw-stock")
    assert ("discard 2C" in s.legal_actions()) is not compulsory
    assert ("knock 2C" in s.legal_actions()) is not compulsory  # 10 left: a knock, not gin
    assert "knock KH" in s.legal_actions()
    if compulsory:
        assert code_of(s, "discard 2C") is Code.GIN_COMPULSORY
        # Knocking with the gin discard, the declaration must be gin too.
        s = s.apply("knock KH")
        assert code_of(s, "declare 2C 3C 4C / 7D 7H 7S / JS QS KS") is Code.DECLARATION_OVER_LIMIT


# --- OpenSpiel's and RLCard's guards (TURN.TAKE-AND-RETURN, TURN.TAKE-CAP, WALL.LAST-CHANCE) ------


def test_take_and_return_twice_voids_under_openspiel() -> None:
    s = start("openspiel").apply("take-upcard").apply("discard 5D")  # non-dealer returns 5D
    assert not s.is_over and s.phase is Phase.DRAW and s.to_move == 0
    s = s.apply("take-discard").apply("discard 5D")  # the dealer returns it too
    assert s.is_over and s.result is not None and s.result.outcome is Outcome.VOID
    kept = start("openspiel", {"take_and_return_void": False})
    kept = kept.apply("take-upcard").apply("discard 5D").apply("take-discard").apply("discard 5D")
    assert not kept.is_over and kept.phase is Phase.DRAW


def test_one_return_then_a_different_discard_goes_on() -> None:
    s = start("openspiel").apply("take-upcard").apply("discard 5D")
    s = s.apply("take-discard").apply("discard 5H")
    assert not s.is_over and s.returned is None


def test_take_cap_voids_before_the_take() -> None:
    s = start("openspiel", {"discard_take_cap": 3}, top="KH")
    s = s.apply("take-upcard").apply("discard QD")   # an offer take: not counted
    s = s.apply("take-discard").apply("discard 5H")  # take 1 (dealer)
    s = s.apply("take-discard").apply("discard 2C")  # take 2 (non-dealer)
    before = s
    s = s.apply("take-discard")                      # take 3 = the cap: void, not carried out
    assert s.is_over and s.result is not None and s.result.outcome is Outcome.VOID
    assert s.hands == before.hands and s.pile == before.pile


def test_rlcard_take_and_play_on_at_the_wall() -> None:
    # (rlcard deals eleven cards and makes gin compulsory; here the upcard offer is kept so
    # run_down can pass twice, and nobody is forced out by a gin drawn on the way)
    s, wall_card = _wall_discard(run_down(start("rlcard", {"first_turn": "upcard_offer",
                                                          "gin_compulsory": False})))
    assert s.phase is Phase.WALL and s.to_move == 0
    s = s.apply("take-discard")
    assert s.phase is Phase.DISCARD  # an ordinary turn, not a forced knock
    assert code_of(s, f"discard {card_str(wall_card)}") is Code.DISCARD_OF_TAKEN_CARD
    s = s.apply("discard 5H")
    assert s.phase is Phase.WALL and s.to_move == 1 and len(s.stock) == 2  # the wall again
    assert code_of(s, "draw-stock") is Code.WRONG_PHASE
    s = s.apply("pass")
    assert s.is_over and s.result is not None and s.result.outcome is Outcome.VOID
