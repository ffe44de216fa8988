"""The RLCard adapter on scripted hands. Expected values come from the rules (clause IDs in the
docstrings) or RLCard's documented settings; ``known quirk`` tests pin RLCard's behaviour where it
departs from the spec, so an upstream change shows up here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from ginspec.conformance.adapters.base import Unsupported
from ginspec.conformance.adapters.deal_layout import deal_for, layout
from ginspec.spec.cards import card_str
from peer_support import Driven, card, cards, driver_or_skip, tokens

ROOT = Path(__file__).resolve().parents[1]

SPREAD = "KS KC KD 5S 6S 7S 9C TC JC"


@pytest.fixture
def rl_driver() -> Iterator[Driven]:
    yield driver_or_skip("rlcard")


def play(d: Driven, *actions: str) -> None:
    for a in actions:
        legal = d.legal_actions()
        verdict = d.apply(a)
        assert verdict.accepted, f"{a!r} refused ({verdict.reason}); legal: {legal}"


def test_forced_deal_eleven_card_start(rl_driver: Driven) -> None:
    """ELEVEN.DEAL / ELEVEN.FIRST-TURN: the non-dealer holds 11, nothing is face up, and the
    non-dealer opens by discarding (or knocking)."""
    deal = list(range(52))[::-1]
    for dealer in (0, 1):
        rl_driver.new_hand(deal, dealer, {})
        lay = layout(deal, dealer, "eleven_card_start")
        obs = rl_driver.observe()
        assert obs.hands == tuple(tuple(sorted(h)) for h in lay.hands)
        assert (obs.phase, obs.to_act, obs.discard_top, obs.stock_size) == (
            "discard", 1 - dealer, None, 31)
        legal = rl_driver.legal_actions()
        assert {a for a in legal if a.startswith("discard")} == {
            f"discard {c}" for c in _names(lay.hands[1 - dealer])}


def _names(cs: tuple[int, ...]) -> list[str]:
    from ginspec.spec.cards import card_str

    return [card_str(c) for c in cs]


def test_draw_takes_the_top_of_the_stock(rl_driver: Driven) -> None:
    """TURN.DRAW, DEAL.STOCK: after the opening discard the dealer may draw deck[21] or take."""
    deal = list(range(52))
    rl_driver.new_hand(deal, 0, {})
    first = rl_driver.legal_actions()[0]
    play(rl_driver, first)
    assert rl_driver.legal_actions() == ["draw-stock", "take-discard"]
    play(rl_driver, "draw-stock")
    obs = rl_driver.observe()
    assert deal[21] in obs.hands[0] and len(obs.hands[0]) == 11 and obs.stock_size == 30


def test_known_quirk_taken_card_cannot_be_discarded_but_can_be_knocked_with(
        rl_driver: Driven) -> None:
    """TURN.DISCARD-TAKEN with discard_taken_card=never: RLCard removes ``discard QH`` after
    taking QH, but its judge builds knock actions without that filter, so ``knock QH`` is
    offered (knocker deadwood AD = 1)."""
    deal = deal_for(cards("QH 2C 3D 4H 6C 7D 8H 9H JD QS 2S"), cards(f"{SPREAD} AD"), 0)
    rl_driver.new_hand(deal, 0, {})
    play(rl_driver, "discard QH", "take-discard")
    legal = rl_driver.legal_actions()
    assert "discard QH" not in legal
    assert "knock QH" in legal and "knock AD" in legal
    play(rl_driver, "knock QH")
    res = rl_driver.result()
    assert (res.outcome, res.knocker, res.points) == ("knock", 0, None)
    assert res.deadwood is not None and res.deadwood[0] == 1


def test_discard_taken_card_setting(rl_driver: Driven) -> None:
    """discard_taken_card=always maps to is_allowed_to_discard_picked_up_card=True."""
    deal = deal_for(cards("QH 2C 3D 4H 6C 7D 8H 9H JD QS 2S"), cards(f"{SPREAD} AD"), 0)
    rl_driver.new_hand(deal, 0, {"discard_taken_card": "always"})
    play(rl_driver, "discard QH", "take-discard")
    assert "discard QH" in rl_driver.legal_actions()


def test_gin_is_compulsory_and_names_its_own_discard(rl_driver: Driven) -> None:
    """KNOCK.GIN-COMPULSORY (gin_compulsory=true): with gin available the judge offers only
    GinAction, whose discard RLCard picks (here the single deadwood card QH)."""
    deal = deal_for(cards(f"{SPREAD} 8S QH"), cards("2C 3D 4H 6C 7D 8H 9H JD QS 2S"), 1)
    rl_driver.new_hand(deal, 1, {})
    assert rl_driver.legal_actions() == ["knock QH"]
    play(rl_driver, "knock QH")
    res = rl_driver.result()
    assert (res.outcome, res.knocker) == ("gin", 0)
    assert res.deadwood is not None and res.deadwood[0] == 0


def test_no_layoffs_defender_deadwood_counts_fitting_cards(rl_driver: Driven) -> None:
    """RLCard plays no layoffs: the defender's 8S would go on 5S 6S 7S (LAYOFF.RUN) but counts
    as deadwood. Defender 2C 2D 2H / 3C 3D 3H / 9D TD JD + 8S -> 8."""
    deal = deal_for(cards(f"{SPREAD} AD QH"), cards("2C 2D 2H 3C 3D 3H 9D TD JD 8S"), 1)
    rl_driver.new_hand(deal, 1, {})
    play(rl_driver, "knock QH")
    res = rl_driver.result()
    assert (res.outcome, res.knocker, res.deadwood) == ("knock", 0, (1, 8))


def test_wall_take_and_play_on_then_dead_hand(rl_driver: Driven) -> None:
    """WALL.END (2 cards): RLCard offers pick_up_discard or declare_dead_hand; after taking, the
    player discards as usual and the hand goes on (wall_action=take_and_play_on)."""
    deal = list(range(52))
    rl_driver.new_hand(deal, 0, {})
    play(rl_driver, rl_driver.legal_actions()[0])
    for i in range(29):
        drawn = deal[21 + i]
        play(rl_driver, "draw-stock", f"discard {_names((drawn,))[0]}")
    obs = rl_driver.observe()
    assert (obs.phase, obs.stock_size) == ("wall", 2)
    assert rl_driver.legal_actions() == ["pass", "take-discard"]
    play(rl_driver, "take-discard")
    discard = next(a for a in rl_driver.legal_actions() if a.startswith("discard"))
    play(rl_driver, discard)
    assert rl_driver.observe().phase == "wall"
    assert rl_driver.legal_actions() == ["pass", "take-discard"]
    play(rl_driver, "pass")
    res = rl_driver.result()
    assert res.outcome == "void" and "dead hand" in res.note


def test_illegal_actions_are_refused_and_change_nothing(rl_driver: Driven) -> None:
    rl_driver.new_hand(list(range(52)), 0, {})
    before = rl_driver.observe()
    for bad in ["draw-stock", "take-upcard", "discard AS", "declare", "jump"]:
        verdict = rl_driver.apply(bad)
        assert not verdict.accepted and verdict.reason
    assert rl_driver.observe() == before


def test_rules_rlcard_cannot_play_are_refused(rl_driver: Driven) -> None:
    for params in ({"first_turn": "upcard_offer"}, {"gin_compulsory": False},
                   {"oklahoma": True}, {"discard_taken_card": "only_at_wall"}):
        assert rl_driver.check_params(params)
        with pytest.raises(Unsupported):
            rl_driver.new_hand(list(range(52)), 0, params)
    assert rl_driver.check_params({"knock_limit": 5, "discard_taken_card": "always"}) == []


def test_knock_limit_setting(rl_driver: Driven) -> None:
    """KNOCK.LIMIT via going_out_deadwood_count: deadwood 4 knocks at 10, not at 3."""
    deal = deal_for(cards(f"{SPREAD} 4D QH"), cards("2C 3D 4H 6C 7D 8H 9H JD QS 2S"), 1)
    rl_driver.new_hand(deal, 1, {})
    assert "knock QH" in rl_driver.legal_actions()
    rl_driver.new_hand(deal, 1, {"knock_limit": 3})
    assert not [a for a in rl_driver.legal_actions() if a.startswith("knock")]
    assert card("QH") in rl_driver.observe().hands[0]


def test_queries_answered_by_rlcards_own_functions(rl_driver: Driven) -> None:
    """DEADWOOD.MINIMUM and KNOCK.ELIGIBLE through RLCard's melding and judge functions: RLCard
    counts the hand OpenSpiel miscounts correctly (discard 6S, deadwood 5C 2S 3S = 10)."""
    q = rl_driver.query
    assert q("deadwood", {"cards": tokens("5C 3D 4D 5D 6D 4H 5H 6H 2S 3S")}, {}) == {
        "deadwood": 10}
    answer = q("knock", {"cards": tokens("5C 3D 4D 5D 6D 4H 5H 6H 2S 3S 6S")}, {})
    assert (answer["deadwood"], answer["can_knock"], answer["gin"]) == (10, True, False)
    assert answer["best_discards"] == ["6S"]
    gin = q("knock", {"cards": tokens("3H 4H 5H 6H 7C 7D 7S 9D TD JD QD")}, {})
    assert (gin["deadwood"], gin["gin"]) == (0, True)
    assert set(gin["best_discards"]) == {"3H", "6H", "9D", "QD"}


def test_meld_queries_through_rlcards_melding_functions(rl_driver: Driven) -> None:
    """MELD.SET, MELD.RUN, MELD.RUN.NO-WRAP and MELD.COUNT through get_all_run_melds and
    get_all_set_melds, values worked from the clauses: a run of n cards holds (n-2)(n-1)/2
    runs (six cards: 10), four of a kind five sets, the whole pack 329 (chapter 2)."""
    q = rl_driver.query
    assert q("meld", {"cards": ["7H", "7D", "7S"]}, {}) == {"valid": True}
    assert q("meld", {"cards": ["7H", "7D", "7S", "7C"]}, {}) == {"valid": True}
    assert q("meld", {"cards": ["QS", "KS", "AS"]}, {}) == {"valid": False}
    assert q("meld", {"cards": ["7H", "8H", "9D"]}, {}) == {"valid": False}
    assert q("meld", {"cards": ["7H", "8H"]}, {}) == {"valid": False}
    assert q("meld", {"cards": tokens("AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD")}, {}) == {
        "valid": True}
    with pytest.raises(Unsupported):  # RLCard's meld functions take a hand
        q("meld", {"cards": ["7H", "7H", "7S"]}, {})
    assert q("melds-count", {"cards": tokens("3S 4S 5S 6S 7S 8S")}, {}) == {"count": 10}
    assert q("melds-count", {"cards": tokens("8C 8D 8H 8S 2C")}, {}) == {"count": 5}
    assert q("melds-count", {"cards": [card_str(c) for c in range(52)]}, {}) == {"count": 329}


def test_arrangements_query_through_best_meld_clusters(rl_driver: Driven) -> None:
    """DEADWOOD.ARRANGEMENTS on 10-card hands, from the spec's examples: the shared seven two
    optimal arrangements, a six-card run kept whole or split two, a hand with no meld one (the
    empty cluster RLCard's scorer counts); other hand sizes are declined (RLCard's deadwood
    functions take 10 cards)."""
    q = rl_driver.query
    assert q("arrangements", {"cards": tokens("7H 7D 7S 7C 8C 9C TC AH 2D 3S")}, {}) == {
        "count": 2}
    assert q("arrangements", {"cards": tokens("AC 2C 3C 4C 5C 6C 9D JH KS 2H")}, {}) == {
        "count": 2}
    assert q("arrangements", {"cards": tokens("AC 3C 5C 7C 9C JD KD 2H 4H 6S")}, {}) == {
        "count": 1}
    with pytest.raises(Unsupported):
        q("arrangements", {"cards": tokens("TC TD TH JH QH")}, {})


def test_own_deal_is_rlcards_seeded_shuffle_and_passes_the_deal_clauses() -> None:
    """deal.engine: RLCard deals from its own shuffle, seeded by the deal's seed (the same seed
    deals the same); the reported deal holds the 52 cards once, 11 to the non-dealer and 10 to
    the dealer, no upcard, 31 in the stock (DEAL.SHUFFLE, ELEVEN.DEAL, DEAL.STOCK), and its
    stock is top first: the dealer's first draw is its first card (TURN.DRAW)."""
    driver_or_skip("rlcard")
    from ginspec.conformance.adapters.rlcard import RLCardOwnDeal

    adapter = RLCardOwnDeal()
    assert "deal.engine" in adapter.hello().capabilities
    adapter.new_hand("rlcard", {}, {"dealer": 1, "seed": 11})
    deal = adapter.dealt()
    adapter.new_hand("rlcard", {}, {"dealer": 1, "seed": 12})
    assert adapter.dealt() != deal
    adapter.new_hand("rlcard", {}, {"dealer": 1, "seed": 11})
    assert adapter.dealt() == deal
    hands, stock = deal["hands"], deal["stock"]
    assert isinstance(hands, list) and isinstance(stock, list)
    everything = [*hands[0], *hands[1], *stock]
    assert len(set(everything)) == len(everything) == 52
    assert (deal["dealer"], len(hands[0]), len(hands[1]), deal["upcard"], len(stock)) == (
        1, 11, 10, None, 31)
    adapter.apply(0, f"discard {hands[0][0]}")
    adapter.apply(1, "draw-stock")
    assert stock[0] in adapter.observe()["hands"][1]


def test_own_deal_plays_live_with_only_the_listed_differences() -> None:
    """The live machine reads each deal RLCard made, checks it and plays it in lockstep: no
    divergence beyond the expect-fail list's, and showdowns are compared."""
    driver_or_skip("rlcard")
    from ginspec.conformance.adapters.rlcard import RLCardOwnDeal
    from ginspec.conformance.runner import read_expect_fail
    from ginspec.conformance.stateful import LiveRun, play_live
    from ginspec.spec.profiles import ruleset

    adapter = RLCardOwnDeal()
    listed = read_expect_fail(ROOT / "conformance" / "expect-fail" / "rlcard.txt")
    run = LiveRun(adapter, adapter.hello(), ruleset("rlcard"), hands=8, expect_fail=listed)
    new = play_live(run, seed=3, shrink_seconds=10)
    assert new == [], [(d.ident, d.message) for d, _ in new]
    assert run.stats.showdowns >= 3, run.stats.outcomes
