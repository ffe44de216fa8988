"""The OpenSpiel adapter on scripted hands. Each expected value is worked out by hand from the
rules (clause IDs in the docstrings) or from OpenSpiel's documented choices; a test marked
``known defect`` asserts OpenSpiel's current behaviour where it departs from the spec, so an
upstream fix shows up here as a failure to update docs/conformance/peer-rules.md.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from ginspec.conformance.adapters.base import Unsupported
from ginspec.conformance.adapters.deal_layout import deal_for, layout
from ginspec.reference.melds import min_deadwood_after_discard
from peer_support import Driven, card, cards, driver_or_skip, tokens

# Knocker spread used below: KC KD KS / 5S 6S 7S / 9C TC JC (27 + 18 + 30 points melded).
SPREAD = "KS KC KD 5S 6S 7S 9C TC JC"


@pytest.fixture
def os_driver() -> Iterator[Driven]:
    yield driver_or_skip("openspiel")


def play(d: Driven, *actions: str) -> None:
    for a in actions:
        legal = d.legal_actions()
        verdict = d.apply(a)
        assert verdict.accepted, f"{a!r} refused ({verdict.reason}); legal: {legal}"


def test_forced_deal_is_the_cases_deal(os_driver: Driven) -> None:
    """DEAL.HANDS / DEAL.UPCARD / DEAL.STOCK, FIRST.UPCARD-OFFER: non-dealer is offered first."""
    deal = list(range(52))[::-1]
    for dealer in (0, 1):
        os_driver.new_hand(deal, dealer, {})
        lay = layout(deal, dealer)
        obs = os_driver.observe()
        assert obs.hands == tuple(tuple(sorted(h)) for h in lay.hands)
        assert obs.discard_top == lay.upcard
        assert obs.stock_size == 31
        assert obs.to_act == 1 - dealer
        assert obs.phase == "offer-non-dealer"
        assert os_driver.legal_actions() == ["pass", "take-upcard"]


def test_both_pass_then_non_dealer_draws_the_top_of_the_stock(os_driver: Driven) -> None:
    """FIRST.DEALER-OFFER, FIRST.BOTH-PASS, DEAL.STOCK (deck[21] is the top)."""
    deal = list(range(52))
    os_driver.new_hand(deal, 0, {})
    play(os_driver, "pass")
    assert os_driver.observe().to_act == 0
    assert os_driver.legal_actions() == ["pass", "take-upcard"]
    play(os_driver, "pass")
    assert os_driver.observe().to_act == 1
    assert os_driver.legal_actions() == ["draw-stock"]
    play(os_driver, "draw-stock")
    obs = os_driver.observe()
    assert deal[21] in obs.hands[1] and len(obs.hands[1]) == 11
    assert obs.phase == "discard" and obs.stock_size == 30


def test_taken_upcard_may_be_discarded_and_two_returns_void_the_hand(
        os_driver: Driven) -> None:
    """OpenSpiel's choice: discard_taken_card=always (DiscardLegalActions lists every card),
    and a hand where both players take the upcard and discard it again ends with no score."""
    deal = list(range(52))
    up = deal[20]
    os_driver.new_hand(deal, 0, {})
    play(os_driver, "take-upcard")
    assert f"discard {_s(up)}" in os_driver.legal_actions()
    play(os_driver, f"discard {_s(up)}", "take-discard", f"discard {_s(up)}")
    assert os_driver.observe().phase == "over"
    res = os_driver.result()
    assert res.outcome == "void" and res.points == (0, 0)
    assert "both players" in res.note


def _s(c: int) -> str:
    from ginspec.spec.cards import card_str

    return card_str(c)


def knock_deal(defender: str, upcard: str, extra: str = "JD", dealer: int = 1) -> list[int]:
    return deal_for(cards(f"{SPREAD} {extra}"), cards(defender), dealer, card(upcard))


def test_knock_declare_chained_layoffs_and_score(os_driver: Driven) -> None:
    """Knock with a face-down discard, SHOWDOWN.DECLARATION, LAYOFF.RUN, LAYOFF.CHAIN (two cards each end),
    SCORE.KNOCK: knocker 2 (2H) against defender 10 (AC 4H 5D) scores 8."""
    os_driver.new_hand(knock_deal("2S 2C 2D 8S 9S 8C 7C AC 4H 5D", "2H"), 1, {})
    play(os_driver, "take-upcard")
    legal = os_driver.legal_actions()
    assert "knock JD" in legal and "knock 2H" in legal and "knock KS" not in legal
    play(os_driver, "knock JD")
    assert os_driver.observe().phase == "declare"
    assert os_driver.legal_actions() == ["declare 9C TC JC / KC KD KS / 5S 6S 7S"]
    play(os_driver, "declare KS KD KC / 5S 6S 7S / 9C TC JC")
    assert os_driver.observe().to_act == 1
    assert os_driver.legal_actions() == ["meld", "meld 2C 2D 2S"]
    # MELD.DISJOINT: the same meld named twice is refused, not read as 'meld 2C 2D 2S'.
    assert not os_driver.apply("meld 2C 2D 2S / 2C 2D 2S").accepted
    play(os_driver, "meld 2C 2D 2S")
    assert os_driver.legal_actions() == ["done", "layoff 8C to 9C", "layoff 8S to 5S"]
    play(os_driver, "layoff 8S to 5S")
    assert "layoff 9S to 5S" in os_driver.legal_actions()
    play(os_driver, "layoff 9S to 5S", "layoff 8C to 9C", "layoff 7C to 9C", "done")
    res = os_driver.result()
    assert (res.outcome, res.knocker, res.deadwood, res.points) == ("knock", 0, (2, 10), (8, 0))


def test_known_defect_third_chained_layoff_is_not_offered(os_driver: Driven) -> None:
    """LAYOFF.CHAIN (unlimited): after 8S and 9S on 5S 6S 7S, TS fits 5S..9S and must be
    offered. OpenSpiel's AllLayoffs extends a run only by layoffs adjacent to the ORIGINAL
    meld, so the third card is refused (known defect, docs/conformance/peer-rules.md)."""
    os_driver.new_hand(knock_deal("8S 9S TS 2C 2D 3D 4H 5H 7H QD", "2H"), 1, {})
    play(os_driver, "take-upcard", "knock JD", "declare KS KD KC / 5S 6S 7S / 9C TC JC", "meld",
         "layoff 8S to 5S", "layoff 9S to 5S")
    assert "layoff TS to 5S" not in os_driver.legal_actions()


def test_tie_scores_nothing(os_driver: Driven) -> None:
    """OpenSpiel's choice undercut_on_tie=no_score: knocker 1 (AD) vs defender 1 (AH) -> 0/0.
    Also: the knock may discard the upcard just taken."""
    deal = deal_for(cards(f"{SPREAD} AD"), cards("2C 2D 2H 4C 4H 4S 8D 9D TD AH"), 1,
                    card("QH"))
    os_driver.new_hand(deal, 1, {})
    play(os_driver, "take-upcard", "knock QH", "declare KS KD KC / 5S 6S 7S / 9C TC JC",
         "meld 2C 2D 2H / 4C 4H 4S / 8D 9D TD", "done")
    res = os_driver.result()
    assert (res.outcome, res.deadwood, res.points) == ("knock", (1, 1), (0, 0))


def test_undercut_gives_difference_plus_25(os_driver: Driven) -> None:
    """SCORE.UNDERCUT with undercut_bonus 25: knocker 1 vs defender 0 -> defender 1 + 25."""
    deal = deal_for(cards(f"{SPREAD} AD"), cards("2C 2D 2H 4C 4H 4S 8D 9D TD JD"), 1,
                    card("QH"))
    os_driver.new_hand(deal, 1, {})
    play(os_driver, "take-upcard", "knock QH", "declare KS KD KC / 5S 6S 7S / 9C TC JC",
         "meld 2C 2D 2H / 4C 4H 4S / 8D 9D TD JD", "done")
    res = os_driver.result()
    assert (res.outcome, res.knocker, res.points) == ("knock", 0, (0, 26))


def test_gin_forbids_layoffs_and_scores_25(os_driver: Driven) -> None:
    """LAYOFF.AFTER-GIN (forbidden), SCORE.GIN: defender 4C 4H 4S AH = 13 -> 13 + 25 = 38."""
    deal = deal_for(cards(f"{SPREAD} QH"), cards("2C 2D 2H 4C 4H 4S 8D 9D TD AH"), 1,
                    card("8S"))
    os_driver.new_hand(deal, 1, {})
    play(os_driver, "take-upcard", "knock QH")
    # knocker_must_meld_maximally=false: leaving 5S or 8S unmelded is also a legal knock.
    assert os_driver.legal_actions() == ["declare 9C TC JC / KC KD KS / 5S 6S 7S",
                                         "declare 9C TC JC / KC KD KS / 5S 6S 7S 8S",
                                         "declare 9C TC JC / KC KD KS / 6S 7S 8S"]
    play(os_driver, "declare 9C TC JC / KC KD KS / 5S 6S 7S 8S",
         "meld 2C 2D 2H / 8D 9D TD")
    assert os_driver.observe().phase == "over"  # after gin the spread ends the hand
    res = os_driver.result()
    assert (res.outcome, res.deadwood, res.points) == ("gin", (0, 13), (38, 0))


def _to_the_wall(d: Driven, deal: list[int]) -> None:
    """Both pass the upcard, then each player draws from the stock and discards that card."""
    play(d, "pass", "pass")
    for i in range(29):
        drawn = deal[21 + i]
        play(d, "draw-stock", f"discard {_s(drawn)}")


def test_wall_last_chance_knock_may_discard_the_taken_card(os_driver: Driven) -> None:
    """WALL.END (2 cards), WALL.LAST-CHANCE: OpenSpiel plays take_and_knock_any_discard — the
    dealer may take the 50th discard to knock and may then discard that very card."""
    nd = cards("2C 3D 4H 6C 7D 8H 9H JD QH KH")
    dealer_hand = cards(f"{SPREAD} AD")
    stock = [c for c in range(52) if c not in {*nd, *dealer_hand, card("5C")}]
    stock.remove(card("QD"))
    stock = [*stock[:28], card("QD"), *stock[28:]]
    deal = deal_for(nd, dealer_hand, 0, card("5C"), stock)
    os_driver.new_hand(deal, 0, {})
    _to_the_wall(os_driver, deal)
    obs = os_driver.observe()
    assert (obs.phase, obs.to_act, obs.stock_size, obs.discard_top) == ("wall", 0, 2, card("QD"))
    assert os_driver.legal_actions() == ["pass", "take-discard"]
    play(os_driver, "take-discard")
    assert os_driver.observe().phase == "wall-knock"
    assert os_driver.legal_actions() == ["knock AD", "knock QD"]
    play(os_driver, "knock QD", "declare KS KD KC / 5S 6S 7S / 9C TC JC", "meld", "done")
    res = os_driver.result()
    assert (res.outcome, res.knocker) == ("knock", 0)


def test_wall_pass_voids_the_hand(os_driver: Driven) -> None:
    """WALL.END / SCORE.VOID: a pass at the wall ends the hand with no score."""
    deal = list(range(52))
    os_driver.new_hand(deal, 1, {})
    _to_the_wall(os_driver, deal)
    assert os_driver.observe().phase == "wall"
    play(os_driver, "pass")
    res = os_driver.result()
    assert (res.outcome, res.points) == ("void", (0, 0))
    assert "wall" in res.note


@pytest.mark.parametrize(("upcard", "knocks"), [
    ("3H", ["knock 4D"]),   # OKLAHOMA.KNOCK-LIMIT: upcard 3 -> limit 3
    ("AH", []),             # OKLAHOMA.ACE gin_only: limit 0, deadwood 1 cannot knock
])
def test_oklahoma_knock_card(os_driver: Driven, upcard: str, knocks: list[str]) -> None:
    deal = deal_for(cards(f"{SPREAD} 4D"), cards("2C 3C 2D 3D 6H 7H 9H TH QD QS"), 1,
                    card(upcard))
    os_driver.new_hand(deal, 1, {"oklahoma": True})
    play(os_driver, "take-upcard")
    assert [a for a in os_driver.legal_actions() if a.startswith("knock")] == knocks
    os_driver.new_hand(deal, 1, {})
    play(os_driver, "take-upcard")
    assert len([a for a in os_driver.legal_actions() if a.startswith("knock")]) == 2


def test_known_defect_eleven_card_deadwood_refuses_a_legal_knock(os_driver: Driven) -> None:
    """KNOCK.ELIGIBLE / KNOCK.LIMIT: 5C 3D 4D 5D 6D 4H 5H 6H 2S 3S 6S may knock discarding 6S
    (3D 4D 5D 6D / 4H 5H 6H, deadwood 5C 2S 3S = 10). OpenSpiel's MinDeadwood for 11 cards
    keeps the first arrangement melding the most points (the sets of 5s and 6s) and drops its
    highest card: 12 > 10, so it offers no knock (known defect)."""
    hand = cards("5C 3D 4D 5D 6D 4H 5H 6H 2S 3S 6S")
    assert min_deadwood_after_discard(hand) == 10  # our meld engine, independent of OpenSpiel
    deal = deal_for(hand[:10], cards("AC 2C AD 2D AH 2H 8C 9D TH JS"), 1, hand[10])
    os_driver.new_hand(deal, 1, {})
    play(os_driver, "take-upcard")
    assert not [a for a in os_driver.legal_actions() if a.startswith("knock")]


def test_illegal_actions_are_refused_and_change_nothing(os_driver: Driven) -> None:
    os_driver.new_hand(list(range(52)), 0, {})
    before = os_driver.observe()
    for bad in ["draw-stock", "discard AC", "knock AC", "jump", "declare"]:
        verdict = os_driver.apply(bad)
        assert not verdict.accepted and verdict.reason
    assert os_driver.observe() == before


def test_rules_openspiel_cannot_play_are_refused(os_driver: Driven) -> None:
    for params in ({"first_turn": "eleven_card_start"}, {"big_gin_bonus": 31},
                   {"undercut_on_tie": "undercut"}, {"discard_taken_card": "never"}):
        assert os_driver.check_params(params)
        with pytest.raises(Unsupported):
            os_driver.new_hand(list(range(52)), 0, params)
    assert os_driver.check_params({"knock_limit": 7, "gin_bonus": 20, "undercut_bonus": 10}) == []


def test_queries_answered_by_openspiels_own_functions(os_driver: Driven) -> None:
    """MELD.SET / MELD.RUN.NO-WRAP, DEADWOOD.MINIMUM, OKLAHOMA.ACE (gin_only: limit 0)."""
    q = os_driver.query
    assert q("meld", {"cards": ["7H", "7D", "7S"]}, {}) == {"valid": True}
    assert q("meld", {"cards": ["QS", "KS", "AS"]}, {}) == {"valid": False}
    hand10 = tokens("5C 3D 4D 5D 6D 4H 5H 6H 2S 3S")
    assert q("deadwood", {"cards": hand10}, {}) == {"deadwood": 10}  # 5C 2S 3S
    assert q("knock-limit", {"upcard": "AH"}, {"oklahoma": True}) == {"limit": 0}
    assert q("knock-limit", {"upcard": "7C"}, {"oklahoma": True}) == {"limit": 7}
    # A representation choice, not a rule: OpenSpiel's AllMelds lists melds of 3..5 cards, so a
    # six-card run counts 4 + 3 + 2 = 9 melds where MELD.COUNT counts the run itself too (10).
    assert q("melds-count", {"cards": tokens("3S 4S 5S 6S 7S 8S")}, {}) == {"count": 9}


def test_known_defect_knock_query_shows_the_eleven_card_overcount(os_driver: Driven) -> None:
    """KNOCK.ELIGIBLE: the 11-card hand of the defect above; OpenSpiel's knock test says 12."""
    answer = os_driver.query("knock", {"cards": tokens("5C 3D 4D 5D 6D 4H 5H 6H 2S 3S 6S")}, {})
    assert answer["deadwood"] == 12 and answer["can_knock"] is False
    assert answer["best_discards"] == ["6S"]  # its 10-card count after 6S is right: 10


def test_layoff_query_through_all_layoffs(os_driver: Driven) -> None:
    """LAYOFF.RUN, LAYOFF.SET, LAYOFF.CHAIN (unlimited): 4S and 8S extend 5S 6S 7S, 8C completes
    8S 8H 8D; after 8S is laid off, 9S fits too. Questions AllLayoffs cannot express are
    declined, never answered by the adapter itself."""
    q = os_driver.query
    table = [["5S", "6S", "7S"], ["8D", "8H", "8S"]]
    offered = ["4S", "9S", "8C", "5H"]
    assert q("layoff", {"table": table, "cards": offered}, {}) == {"layable": ["4S", "8C"]}
    assert q("layoff", {"table": [["5S", "6S", "7S"]], "laid": ["8S to 5S"],
                        "cards": ["9S", "4S"]}, {}) == {"layable": ["9S", "4S"]}
    for args in ({"side": "knocker"}, {"gin": True}):
        with pytest.raises(Unsupported):
            q("layoff", {"table": table, "cards": offered, **args}, {})
    with pytest.raises(Unsupported):  # 11 cards: MinDeadwood answers after a discard
        q("deadwood", {"cards": tokens("5C 3D 4D 5D 6D 4H 5H 6H 2S 3S 6S")}, {})


def test_arrangements_query_through_all_meld_groups(os_driver: Driven) -> None:
    """DEADWOOD.ARRANGEMENTS, counted from the spec's own examples: the shared seven gives two
    optimal arrangements (in the set or in the run), the ten in the set or the run two, the
    three ranks of four suits six, a hand with no meld one (the empty arrangement). A run of
    six or more is where OpenSpiel's representation shows: its meld groups hold melds of 3..5
    cards, so AC..6C is only ever A-3 + 4-6 (one group) where the spec also counts the whole
    run (two)."""
    q = os_driver.query
    assert q("arrangements", {"cards": tokens("7H 7D 7S 7C 8C 9C TC AH 2D 3S")}, {}) == {
        "count": 2}
    assert q("arrangements", {"cards": tokens("TC TD TH JH QH")}, {}) == {"count": 2}
    assert q("arrangements", {"cards": tokens("7C 8C 9C 7D 8D 9D 7H 8H 9H 7S 8S 9S")},
             {}) == {"count": 6}
    assert q("arrangements", {"cards": tokens("2C 5D 9H KS")}, {}) == {"count": 1}
    assert q("arrangements", {"cards": tokens("AC 2C 3C 4C 5C 6C")}, {}) == {"count": 1}
    with pytest.raises(Unsupported):  # IsRankMeld takes a hand: no card twice
        q("meld", {"cards": ["7H", "7H", "7S"]}, {})
