"""Scenario tests of the game engine on explicit deals.

Expected values come from the rules (chapters 05-13, the casebook C01/C11/C13/C14 of the research
digest), worked out by hand in the comments — never from the engine's output.
"""

from __future__ import annotations

import pytest
from ginspec.reference.game import (
    Action,
    Code,
    Deal,
    HandState,
    Kind,
    MalformedAction,
    Outcome,
    Phase,
    Rejection,
    deal_from_seed,
    game_rules,
    parse_action,
    rules_for_profile,
)
from ginspec.reference.game.match import MatchState, first_dealer
from ginspec.reference.game.observation import observe, referee_view
from ginspec.reference.game.rejections import CLAUSE_OF
from ginspec.reference.layoffs import SHOWDOWN_CODES
from ginspec.spec.cards import card_str, parse_card

PAGAT = rules_for_profile("pagat")


def start(nd: str, d: str, up: str | None, top: str = "", dealer: int = 0,
          rules: object = PAGAT) -> HandState:
    return HandState.new(Deal.from_hands(nd, d, up, top, dealer), rules)  # type: ignore[arg-type]


def rejected(state: HandState, action: str, player: int | None = None) -> Rejection:
    with pytest.raises(Rejection) as info:
        state.apply(action, player)
    return info.value


# Knocker-to-be (non-dealer, player 1): 2C 3C 4C / 7D 7H 7S / JS QS KS + QD; upcard 5D.
KNOCKER = "2C 3C 4C 7D 7H 7S JS QS KS QD"
# C01's defender (dealer, player 0): 8C 8D 8H / 9D 9H 9S / AS 2S 3S + 5H (deadwood 5).
C01_DEFENDER = "8C 8D 8H 9D 9H 9S AS 2S 3S 5H"


# --- the deal ------------------------------------------------------------------------------------


def test_deal_order_follows_deal_clauses() -> None:
    # DEAL.HANDS: non-dealer gets deck[0,2,..,18]; DEAL.UPCARD deck[20]; DEAL.STOCK deck[21] top.
    deal = deal_from_seed(11, dealer=1)
    s = HandState.new(deal, PAGAT)
    assert s.hand(0) == sorted(deal.deck[0:20:2])  # player 0 is the non-dealer
    assert s.hand(1) == sorted(deal.deck[1:20:2])
    assert s.pile == (deal.deck[20],) and s.stock == deal.deck[21:]
    assert s.phase is Phase.OFFER_NON_DEALER and s.to_move == 0


def test_deal_must_be_a_permutation() -> None:
    from ginspec.reference.game import DealError

    with pytest.raises(DealError):
        Deal((*range(51), 0), 0)
    with pytest.raises(DealError):
        Deal(tuple(range(52)), 2)


def test_deal_from_seed_is_deterministic() -> None:
    assert deal_from_seed(5) == deal_from_seed(5)
    assert deal_from_seed(5).deck != deal_from_seed(6).deck


# --- the first turn (chapter 06, casebook C14) -------------------------------------------------


def test_both_pass_then_non_dealer_draws_from_stock() -> None:
    s = start(KNOCKER, C01_DEFENDER, "5D", top="KH")
    assert rejected(s, "draw-stock").code is Code.WRONG_PHASE  # no stock draw during the offer
    s = s.apply("pass", 1)
    assert s.phase is Phase.OFFER_DEALER and s.to_move == 0
    assert rejected(s, "pass", 1).code is Code.NOT_YOUR_TURN
    s = s.apply("pass", 0)
    assert s.phase is Phase.FIRST_DRAW and s.to_move == 1
    for refused in ("take-discard", "take-upcard"):
        r = rejected(s, refused)
        assert r.code is Code.UPCARD_REFUSED and r.clause == "FIRST.BOTH-PASS"
    assert [str(a) for a in s.legal_actions()] == ["draw-stock"]
    s = s.apply("draw-stock")
    assert s.hands[1] >> parse_card("KH") & 1 and s.phase is Phase.DISCARD


def test_dealer_takes_upcard_then_non_dealer_plays() -> None:
    s = start(KNOCKER, C01_DEFENDER, "5D").apply("pass").apply("take-upcard")
    assert s.to_move == 0 and s.phase is Phase.DISCARD  # the dealer discards
    s = s.apply("discard 5H")
    assert s.to_move == 1 and s.phase is Phase.DRAW  # FIRST.AFTER-TAKE: then the non-dealer


def test_taken_card_may_not_be_discarded_under_pagat_but_may_under_openspiel() -> None:
    s = start(KNOCKER, C01_DEFENDER, "5D").apply("take-upcard")
    r = rejected(s, "discard 5D")
    assert r.code is Code.DISCARD_OF_TAKEN_CARD and r.clause == "TURN.DISCARD-TAKEN"
    assert Action(Kind.DISCARD, card=parse_card("5D")) not in s.legal_actions()
    os_state = start(KNOCKER, C01_DEFENDER, "5D", rules=rules_for_profile("openspiel"))
    assert "discard 5D" in os_state.apply("take-upcard").legal_actions()


def test_dealt_gin_must_still_draw_before_knocking() -> None:
    # C13(b): ten melded cards in the offer phase; knocking needs eleven cards.
    s = start("2C 3C 4C 7D 7H 7S JS QS KS KH", C01_DEFENDER, "5D")
    assert rejected(s, "knock 2C").code is Code.WRONG_PHASE


# --- knocking, gin (chapters 04, 08) ---------------------------------------------------------------


def test_knock_on_the_first_turn_and_the_over_limit_knock() -> None:
    s = start(KNOCKER, C01_DEFENDER, "5D").apply("take-upcard")
    # After discarding QD: 234C / 777 / JQK S and 5D -> deadwood 5 <= 10 (C13a: first turn).
    assert "knock QD" in s.legal_actions()
    # After discarding 2C: 3C 4C QD 5D are deadwood (3+4+10+5 = 22 > 10).
    r = rejected(s, "knock 2C")
    assert r.code is Code.KNOCK_OVER_LIMIT and "22" in r.detail
    assert rejected(s, "knock 5D").code is Code.DISCARD_OF_TAKEN_CARD
    assert rejected(s, "knock 9H").code is Code.CARD_NOT_IN_HAND


def test_c01_tie_on_the_knock_under_three_profiles() -> None:
    # C01: knocker 5 (5D) vs defender 5 (5H), nothing lays off.
    expected = {"pagat": (Outcome.UNDERCUT, 10), "wikipedia": (Outcome.UNDERCUT, 25),
                "openspiel": (Outcome.TIE, 0)}
    for profile, (outcome, defender_points) in expected.items():
        rules = rules_for_profile(profile)
        s = start(KNOCKER, C01_DEFENDER, "5D", rules=rules)
        # wikipedia (seed 002) has no upcard offer: the upcard is taken as a discard (FIRST.PLAIN)
        s = s.apply("take-discard" if rules.plain_first_turn else "take-upcard").apply("knock QD")
        assert s.phase is Phase.DECLARE and s.knocker == 1 and s.knock_card == parse_card("QD")
        s = s.apply("declare 2C 3C 4C / 7D 7H 7S / JS QS KS")
        s = s.apply("meld 8C 8D 8H / 9D 9H 9S / AS 2S 3S")
        assert [str(a) for a in s.legal_actions()] == ["done"]
        s = s.apply("done")
        assert s.result is not None
        assert s.result.outcome is outcome, profile
        assert s.result.deadwood == (5, 5)
        assert s.result.points == (defender_points, 0), profile


def test_declaration_rules() -> None:
    s = start(KNOCKER, C01_DEFENDER, "5D").apply("take-upcard").apply("knock QD")
    assert rejected(s, "declare 2C 3C 4C / 7D 7H 7S").code is Code.DECLARATION_OVER_LIMIT  # 5+30
    assert rejected(s, "declare 2C 3C 5D").code is Code.DECLARATION_NOT_A_MELD
    assert rejected(s, "declare 8C 8D 8H").code is Code.DECLARATION_CARD_NOT_HELD
    assert rejected(s, "meld 2C 3C 4C").code is Code.WRONG_PHASE
    assert rejected(s, "declare 2C 3C 4C", player=0).code is Code.NOT_YOUR_TURN


def test_gin_allows_no_layoffs_under_pagat() -> None:
    # Non-dealer: 234C 777 JQKS + 5C; upcard QD; takes QD, knocks QD? no: QD is the taken card.
    # Draw from stock instead: both pass, draw 5C -> 2345C 777 JQKS + KH; knock KH = gin.
    s = start("2C 3C 4C 7D 7H 7S JS QS KS KH", "8C 8D 8H 9D 9H 9S AS 2S 3S 6C", "QD", top="5C")
    s = s.apply("pass").apply("pass").apply("draw-stock").apply("knock KH")
    s = s.apply("declare 2C 3C 4C 5C / 7D 7H 7S / JS QS KS")
    assert s.gin
    s = s.apply("meld 8C 8D 8H / 9D 9H 9S / AS 2S 3S")
    # 6C would extend 2345C, but LAYOFF.AFTER-GIN forbids it: the hand is over at once.
    assert s.is_over and s.result is not None
    assert s.result.outcome is Outcome.GIN
    # Gin 20 (pagat) + defender's deadwood 6 = 26.
    assert s.result.points == (0, 26)


def test_layoff_grammar_any_card_of_the_meld_is_an_anchor() -> None:
    # Knock by the non-dealer with 234C on the table; the defender holds 5C and 6C (chain).
    s = start(KNOCKER, "8C 8D 8H 9D 9H 9S 5C 6C AH KD", "5D").apply("take-upcard")
    s = s.apply("knock QD").apply("declare 2C 3C 4C / 7D 7H 7S / JS QS KS")
    s = s.apply("meld 8C 8D 8H / 9D 9H 9S")
    assert "layoff 5C to 2C" in [str(a) for a in s.legal_actions()]
    assert "layoff 5C to 4C" in s.legal_actions()  # any card of the meld names it
    assert rejected(s, "layoff 6C to 2C").code is Code.LAYOFF_DOES_NOT_FIT
    assert rejected(s, "layoff AH to 8C").code is Code.LAYOFF_NO_SUCH_MELD  # its own meld
    assert rejected(s, "layoff 8C to 2C").code is Code.LAYOFF_CARD_NOT_HELD  # melded, not free
    s = s.apply("layoff 5C to 3C").apply("layoff 6C to 5C")  # chained (pagat: unlimited)
    s = s.apply("done")
    # Defender deadwood AH + KD = 11 > knocker's 5: knocker scores 6.
    assert s.result is not None and s.result.points == (0, 6)


# --- the wall (chapter 10) --------------------------------------------------------------------------


def _run_to_wall(s: HandState) -> HandState:
    """Both pass (if offered the upcard), then every turn draws from the stock and discards
    the card drawn."""
    if s.rules.upcard_offer:
        s = s.apply("pass").apply("pass")
    while s.phase in (Phase.DRAW, Phase.FIRST_DRAW):
        card = s.stock[0]
        s = s.apply("draw-stock")
        if s.phase is not Phase.DISCARD:
            break
        s = s.apply(Action(Kind.DISCARD, card=card))
    return s


WALL_ND = "AC 3C 5C 7C 9C JC KC 2D 4D 6D"
WALL_D = "AH 3H 5H 7H 9H JH KH 2S 4S 6S"


@pytest.mark.parametrize("wall_size", [2, 5])
def test_void_at_the_wall(wall_size: int) -> None:
    s = _run_to_wall(start(WALL_ND, WALL_D, "8D", rules=game_rules({"wall_size": wall_size})))
    # 31 stock cards; the hand ends after the discard that follows the draw leaving wall_size.
    assert s.is_over and s.result is not None and s.result.outcome is Outcome.VOID
    assert len(s.stock) == wall_size
    assert sum(1 for _, a in s.history if a.kind is Kind.DRAW_STOCK) == 31 - wall_size


def test_no_knock_on_the_wall_draw_voids_at_once() -> None:
    rules = game_rules({"knock_on_wall_draw": False})
    s = _run_to_wall(start(WALL_ND, WALL_D, "8D", rules=rules))
    assert s.is_over and s.history[-1][1].kind is Kind.DRAW_STOCK and len(s.stock) == 2


def test_last_chance_at_the_wall_goes_to_the_other_player() -> None:
    rules = game_rules({"wall_action": "take_and_knock_other_discard"})
    s = _run_to_wall(start(WALL_ND, WALL_D, "8D", rules=rules))
    last_discarder = s.history[-1][0]
    assert s.phase is Phase.WALL and s.to_move == 1 - last_discarder
    assert "pass" in s.legal_actions()
    assert s.apply("pass").result is not None


def test_reshuffle_is_a_chance_action_with_a_checked_permutation() -> None:
    rules = rules_for_profile("serbian-online")
    s = _run_to_wall(start(WALL_ND, WALL_D, "8D", rules=rules))
    assert s.phase is Phase.RESHUFFLE
    action = s.chance_action()
    # WALL.RESHUFFLE: the pile below its top card is shuffled beneath the two stock cards.
    assert sorted(action.cards) == sorted(s.pile[:-1])
    assert rejected(s, "reshuffle " + " ".join(card_str(c) for c in action.cards[1:])).code \
        is Code.RESHUFFLE_NOT_A_PERMUTATION
    after = s.apply(action)
    assert after.phase is Phase.DRAW and after.pile == s.pile[-1:]
    assert after.stock == s.stock + action.cards
    assert after.to_move == 1 - s.history[-1][0]


# --- variants ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("upcard", "ace", "limit"), [
    ("3H", "one", 3), ("KD", "one", 10), ("TC", "one", 10), ("AS", "one", 1), ("AS", "gin_only", 0),
])
def test_oklahoma_knock_limit_from_the_upcard(upcard: str, ace: str, limit: int) -> None:
    rules = rules_for_profile("oklahoma", {"oklahoma_ace": ace})
    s = start(KNOCKER, "8C 8D 8H 9D 9H 9S 5C 6C 2H KH", upcard, rules=rules)
    assert s.knock_limit == limit


def test_eleven_card_start() -> None:
    rules = game_rules({"first_turn": "eleven_card_start"})
    s = start(KNOCKER + " 5D", C01_DEFENDER, None, rules=rules)
    assert s.phase is Phase.DISCARD and s.to_move == 1 and not s.pile
    assert s.hands[1].bit_count() == 11
    assert "knock QD" in s.legal_actions()  # ELEVEN.FIRST-TURN: may knock before any draw
    s = s.apply("discard QD")
    assert s.to_move == 0 and {str(a) for a in s.legal_actions()} == {"draw-stock",
                                                                      "take-discard"}


def test_big_gin_and_compulsory_gin() -> None:
    rules = game_rules({"big_gin_bonus": 31, "gin_compulsory": True})
    # 2345C 777 JQKS after drawing 5C, then big gin needs all 11 in melds: add KH? no — use 8S.
    s = start("2C 3C 4C 7D 7H 7S JS QS KS TS", C01_DEFENDER, "QD", top="5C", rules=rules)
    s = s.apply("pass").apply("pass").apply("draw-stock")
    # 2345C / 777 / TJQK S: all eleven cards meld -> big gin offered; gin is compulsory so no
    # plain discard is legal, and the knocks offered are the gin knocks (2C, 5C, TS, KS).
    kinds = {a.kind for a in s.legal_actions()}
    assert Kind.DISCARD not in kinds and Kind.BIG_GIN in kinds
    assert rejected(s, "discard 2C").code is Code.GIN_COMPULSORY
    knocks = sorted(card_str(a.card) for a in s.legal_actions() if a.kind is Kind.KNOCK
                    and a.card is not None)
    assert knocks == ["2C", "5C", "KS", "TS"]
    s = s.apply("big-gin").apply("declare 2C 3C 4C 5C / 7D 7H 7S / TS JS QS KS")
    s = s.apply("meld 8C 8D 8H / 9D 9H 9S / AS 2S 3S")
    assert s.result is not None and s.result.outcome is Outcome.BIG_GIN
    assert s.result.points == (0, 31 + 5)  # big gin bonus 31 + defender deadwood 5H


# --- the grammar and the code list -------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "take-upcard", "pass", "draw-stock", "take-discard", "big-gin", "done", "discard TS",
    "knock 7H", "declare 2C 3C 4C / 7D 7H 7S", "meld", "layoff 9S to 8S", "reshuffle 2C 3C",
])
def test_canonical_round_trip(text: str) -> None:
    assert str(parse_action(text)) == text
    assert parse_action(str(parse_action(text))) == parse_action(text)


def test_parse_accepts_variant_spellings() -> None:
    assert str(parse_action("DISCARD 10s")) == "discard TS"
    assert str(parse_action("declare 7s 7h 7d/4c 2c 3c")) == "declare 2C 3C 4C / 7D 7H 7S"
    assert parse_action("declare 7S 7H 7D / 2C 3C 4C") == parse_action("declare 2C 3C 4C/7D 7H 7S")


@pytest.mark.parametrize("text", ["", "fly", "discard", "discard ZZ", "knock 7H 8H",
                                  "layoff 9S onto 8S", "declare 7H / / 8H", "pass now",
                                  "reshuffle 2C 2C"])
def test_malformed_actions(text: str) -> None:
    with pytest.raises(MalformedAction) as info:
        parse_action(text)
    assert info.value.code is Code.MALFORMED_ACTION and info.value.clause == "ACTION.GRAMMAR"


def test_every_code_has_a_clause_and_every_showdown_code_is_a_code() -> None:
    assert set(CLAUSE_OF) == set(Code)
    for code in SHOWDOWN_CODES:
        assert Code(code) in CLAUSE_OF
    # (that each clause exists is checked by tests/test_clause_links.py)


# --- observations -------------------------------------------------------------------------------------


def test_observation_hides_what_a_player_may_not_see() -> None:
    s = start(KNOCKER, C01_DEFENDER, "5D").apply("take-upcard").apply("knock QD")
    defender = observe(s, 0)
    assert list(defender.hand) == s.hand(0)
    assert defender.knock_card is None  # KNOCK.PROCEDURE: face down
    assert defender.opponent_known == (parse_card("5D"),)  # the upcard it saw taken
    assert [step.action for step in defender.history] == ["take-upcard", "knock"]
    knocker = observe(s, 1)
    assert knocker.knock_card == parse_card("QD")
    assert [step.action for step in knocker.history] == ["take-upcard", "knock QD"]
    assert "stock" not in knocker.to_json()
    assert referee_view(s)["stock"] == [card_str(c) for c in s.stock]


def test_stock_draw_is_seen_by_the_drawer_only() -> None:
    s = start(KNOCKER, C01_DEFENDER, "5D", top="KH").apply("pass").apply("pass")
    s = s.apply("draw-stock")
    assert observe(s, 1).history[-1].card == parse_card("KH")
    assert observe(s, 0).history[-1].card is None


# --- the match -------------------------------------------------------------------------------------------


def test_first_dealer_by_cut() -> None:
    dealer, cut = first_dealer(PAGAT, 3)
    assert cut is not None
    ranks = [c % 13 for c in cut]
    if ranks[0] != ranks[1]:
        assert dealer == (0 if ranks[0] < ranks[1] else 1)  # pagat: the lower card deals


def test_match_next_dealer_and_wrong_dealer() -> None:
    m = MatchState.new(PAGAT, deal=Deal.from_hands(KNOCKER, C01_DEFENDER, "5D", dealer=0))
    m = m.apply("take-upcard").apply("knock QD").apply("declare 2C 3C 4C / 7D 7H 7S / JS QS KS")
    m = m.apply("meld 8C 8D 8H / 9D 9H 9S / AS 2S 3S").apply("done")
    # Pagat tie = undercut: the defender (player 0) won 10, so the loser (player 1) deals next.
    assert m.results[-1].winner == 0 and m.scores == (10, 0)
    assert m.expected_dealer() == 1
    with pytest.raises(Rejection) as info:
        m.next_hand(deal_from_seed(1, dealer=0))
    assert info.value.code is Code.WRONG_DEALER
    assert m.next_hand(deal_from_seed(1, dealer=1)).hand.dealer == 1


def test_illegal_action_leaves_state_unchanged() -> None:
    s = start(KNOCKER, C01_DEFENDER, "5D")
    before = (s.hands, s.stock, s.pile, s.phase, s.to_move, s.history)
    for bad in ("discard 2C", "knock 2C", "done", "meld", "layoff 2C to 3C", "xyz"):
        with pytest.raises(Rejection):
            s.apply(bad)
    assert (s.hands, s.stock, s.pile, s.phase, s.to_move, s.history) == before


def test_copy_keeps_every_field() -> None:
    s = start(KNOCKER, C01_DEFENDER, "5D").apply("take-upcard")
    c = s._copy()
    for name in HandState.__slots__:
        if name not in ("_after", "_gin_ok"):
            assert getattr(c, name) == getattr(s, name), name
