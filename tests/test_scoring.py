"""Hand and match scoring (reference/scoring.py) against an independent statement of the rules.

``RULES_BY_PROFILE`` restates, by hand, the scoring values each profile's sources give (see
spec chapter 09 and profiles.toml locators); ``oracle`` is the scoring rule of chapter 09
written out directly as nested conditions. Neither is derived from the code under test.
"""

from __future__ import annotations

import pytest
import z3
from ginspec.reference.scoring import (
    INTS,
    OUTCOME_CODES,
    TIE_CODES,
    VOID_HAND,
    HandScoreTerms,
    MatchTally,
    ScoringError,
    final_scores,
    hand_points,
    hand_score_terms,
    knock_limit_for,
    next_dealer,
    score_hand,
    z3_arithmetic,
)
from ginspec.spec.cards import parse_card
from ginspec.spec.profiles import profiles, ruleset
from hypothesis import given
from hypothesis import strategies as st

# profile: (gin bonus, undercut bonus, tie rule, layoffs onto gin can cancel it, spades double)
RULES_BY_PROFILE = {
    "pagat": (20, 10, "undercut", False, False),
    "oklahoma": (20, 10, "undercut", False, True),
    "hoyle": (25, 10, "undercut", False, False),
    "wikipedia": (25, 25, "undercut", False, False),
    "serbian-online": (25, 25, "knocker_scores_zero", False, False),
    "eaai": (25, 25, "undercut", False, False),
    "openspiel": (25, 25, "no_score", False, False),
    "rlcard": (25, 25, "undercut", False, False),
    "straight": (25, 25, "undercut", False, False),
    "round-the-corner": (20, 20, "undercut", True, False),
    "colony": (20, 10, "undercut", False, False),
    # chapter 14's systems play pagat's hands (profiles.toml: base = "pagat")
    "three-player": (20, 10, "undercut", False, False),
    "cutthroat": (20, 10, "undercut", False, False),  # the page gives no hand scoring: pagat's
    "partnership": (20, 10, "undercut", False, False),
    "hollywood": (20, 10, "undercut", False, False),
}
BIG_GIN = 31  # the big-gin bonus we override in, where sources play it (Wikipedia, ginrummy.com)


def oracle(name: str, outcome: str, kd: int, dd: int, spade: bool) -> tuple[int, int, str | None]:
    """(knocker points, defender points, winner) as chapter 09 states it."""
    gin, undercut, tie, zero_cancels, spades = RULES_BY_PROFILE[name]
    if outcome == "knock":
        if kd < dd:
            k, d, w = dd - kd, 0, "knocker"
        elif kd > dd:
            k, d, w = 0, kd - dd + undercut, "defender"
        elif tie == "undercut":
            k, d, w = 0, undercut, "defender"
        elif tie == "knocker_scores_zero":
            k, d, w = 0, 0, "knocker"
        else:
            k, d, w = 0, 0, None
    elif zero_cancels and dd == 0:
        k, d, w = 0, 0, None
    else:
        k, d, w = (gin if outcome == "gin" else BIG_GIN) + dd, 0, "knocker"
    if spades and spade:
        k, d = 2 * k, 2 * d
    return k, d, w


def test_oracle_table_covers_every_profile() -> None:
    assert set(RULES_BY_PROFILE) == set(profiles())


hands = st.sampled_from(sorted(RULES_BY_PROFILE)).flatmap(
    lambda name: st.tuples(
        st.just(name),
        st.sampled_from(["knock", "gin", "big_gin"]),
        st.integers(1, 10),
        st.integers(0, 98),
        st.sampled_from(["7S", "7H", "AS", "KD", "QS"]),
    )
)


@given(hands)
def test_score_hand_matches_the_rules(case: tuple[str, str, int, int, str]) -> None:
    name, outcome, kd, dd, upcard = case
    if outcome != "knock":
        kd = 0
    rules = ruleset(name, {"big_gin_bonus": BIG_GIN})
    score = score_hand(outcome, kd, dd, rules, upcard=parse_card(upcard))  # type: ignore[arg-type]
    expected = oracle(name, outcome, kd, dd, upcard.endswith("S"))
    assert (score.knocker, score.defender, score.winner) == expected
    # invariants of chapter 09
    assert score.knocker >= 0 and score.defender >= 0
    assert score.knocker == 0 or score.defender == 0
    assert (score.winner is None) == (score.knocker_boxes == 0 and score.defender_boxes == 0)
    if outcome != "knock":
        assert not score.undercut and score.defender == 0


# Worked examples from the casebook (research digest §4), arithmetic redone by hand.
@pytest.mark.parametrize(
    ("name", "overrides", "outcome", "kd", "dd", "upcard", "expected"),
    [
        ("pagat", {}, "knock", 5, 5, None, (0, 10)),            # C01 PAG: tie is an undercut
        ("wikipedia", {}, "knock", 5, 5, None, (0, 25)),        # C01 NA25
        ("openspiel", {}, "knock", 5, 5, None, (0, 0)),         # C01 OS: 0/0
        ("serbian-online", {}, "knock", 5, 5, None, (0, 0)),    # C01 knocker wins 0
        ("pagat", {}, "knock", 10, 9, None, (0, 11)),           # C02 chain allowed: 1 + 10
        ("wikipedia", {}, "knock", 10, 9, None, (0, 26)),       # C02 NA25
        ("pagat", {}, "knock", 10, 17, None, (7, 0)),           # C02 chain forbidden
        ("pagat", {}, "gin", 0, 44, None, (64, 0)),             # C03 PAG
        ("wikipedia", {}, "gin", 0, 44, None, (69, 0)),         # C03 NA25
        ("serbian-online", {}, "gin", 0, 27, None, (52, 0)),    # C03 Seed-SR after layoffs
        ("round-the-corner", {}, "gin", 0, 27, None, (47, 0)),  # C03 Round-the-Corner
        ("round-the-corner", {}, "gin", 0, 0, None, (0, 0)),    # C25 zero cancels
        ("pagat", {}, "gin", 0, 0, None, (20, 0)),              # C25 gin vs 0 deadwood
        ("pagat", {}, "gin", 0, 30, None, (50, 0)),             # C08 PAG: no big gin, 20 + 30
        ("wikipedia", {}, "gin", 0, 30, None, (55, 0)),         # C08 NA25
        ("wikipedia", {"big_gin_bonus": 31}, "big_gin", 0, 30, None, (61, 0)),  # C08 31 + 30
        ("oklahoma", {}, "knock", 7, 5, "7S", (0, 24)),         # C18 pagat: (2 + 10) x 2
        ("oklahoma", {"undercut_bonus": 25}, "knock", 7, 5, "7S", (0, 54)),  # C18 (2 + 25) x 2
        ("oklahoma", {}, "knock", 7, 5, "7H", (0, 12)),         # no spade, no doubling
        ("pagat", {}, "knock", 7, 9, None, (2, 0)),             # C21: 18 - 9 laid off = 9 > 7
    ],
)
def test_casebook_hand_scores(name: str, overrides: dict[str, int], outcome: str, kd: int, dd: int,
                              upcard: str | None, expected: tuple[int, int]) -> None:
    card = parse_card(upcard) if upcard else None
    assert hand_points(outcome, kd, dd, ruleset(name, overrides), card) == expected  # type: ignore[arg-type]


def test_impossible_hands_are_errors() -> None:
    rules = ruleset("pagat")
    with pytest.raises(ScoringError, match="gin"):
        score_hand("knock", 0, 5, rules)
    with pytest.raises(ScoringError, match="deadwood 0"):
        score_hand("gin", 3, 5, rules)
    with pytest.raises(ScoringError, match="big gin is not played"):
        score_hand("big_gin", 0, 5, rules)
    with pytest.raises(ScoringError, match="non-negative"):
        score_hand("knock", 3, -1, rules)
    with pytest.raises(ScoringError, match="unknown outcome"):
        score_hand("schneider", 3, 1, rules)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "overrides", "upcard", "limit"),
    [("pagat", {}, "AS", 10), ("straight", {}, "7S", 0), ("oklahoma", {}, "7H", 7),
     ("oklahoma", {}, "AS", 1), ("oklahoma", {"oklahoma_ace": "gin_only"}, "AC", 0),
     ("oklahoma", {}, "KD", 10), ("oklahoma", {}, "TC", 10), ("oklahoma", {}, "2D", 2)],
)
def test_knock_limit_for(name: str, overrides: dict[str, str], upcard: str, limit: int) -> None:
    assert knock_limit_for(ruleset(name, overrides), parse_card(upcard)) == limit


def test_boxes() -> None:
    extra = ruleset("oklahoma", {"extra_boxes": True})
    # pagat's Oklahoma extra boxes: undercut +1 box, gin +2; spade upcard: +2 and +4
    assert score_hand("knock", 7, 5, extra, upcard=parse_card("7H")).defender_boxes == 2
    assert score_hand("gin", 0, 5, extra, upcard=parse_card("7H")).knocker_boxes == 3
    assert score_hand("knock", 7, 5, extra, upcard=parse_card("7S")).defender_boxes == 3
    assert score_hand("gin", 0, 5, extra, upcard=parse_card("7S")).knocker_boxes == 5
    assert score_hand("knock", 3, 5, extra, upcard=parse_card("7S")).knocker_boxes == 1
    both = ruleset("oklahoma", {"spade_double": "hand_and_boxes"})
    assert score_hand("knock", 3, 5, both, upcard=parse_card("7S")).knocker_boxes == 2
    assert score_hand("knock", 3, 5, both, upcard=parse_card("7D")).knocker_boxes == 1


def _play(name: str, hands: list[tuple[int, str, int, int]], **overrides: object) -> MatchTally:
    rules = ruleset(name, overrides)  # type: ignore[arg-type]
    tally = MatchTally()
    for knocker, outcome, kd, dd in hands:
        tally = tally.after_hand(knocker, score_hand(outcome, kd, dd, rules))  # type: ignore[arg-type]
    return tally


def test_c19_shutout_pagat_and_ginrummy_com() -> None:
    # A (player 0) wins hands of 40, 35 and 30 by knocks; B never scores.
    hands = [(0, "knock", 2, 42), (0, "knock", 5, 40), (0, "knock", 1, 31)]
    tally = _play("pagat", hands)
    result = final_scores(ruleset("pagat"), tally)
    assert result.winner == 0 and result.shutout
    assert result.totals == (105 + 200 + 3 * 20, 0) and result.settlement == 365
    rules = ruleset("pagat", {"shutout_effect": "hand_points_doubled", "box_bonus": 25,
                              "shutout_test": "winner_won_every_hand"})
    assert final_scores(rules, _play("pagat", hands)).totals == (210 + 100 + 75, 0)
    rules = ruleset("pagat", {"shutout_effect": "total_doubled"})
    assert final_scores(rules, _play("pagat", hands)).totals == ((105 + 100 + 60) * 2, 0)
    rules = ruleset("pagat", {"shutout_effect": "flat_bonus", "shutout_bonus": 100})
    assert final_scores(rules, _play("pagat", hands)).totals == (105 + 100 + 60 + 100, 0)


def test_c19_edge_a_zero_point_win_is_still_scoring_nothing() -> None:
    # serbian-online: a tie gives the knocker a 0-point win. B wins a hand but scores nothing.
    rules = ruleset("serbian-online", {"game_bonus": 100, "box_bonus": 25,
                                       "shutout_effect": "game_bonus_doubled"})
    tally = MatchTally()
    for knocker, kd, dd in [(1, 4, 4), (0, 2, 62), (0, 1, 41)]:
        tally = tally.after_hand(knocker, score_hand("knock", kd, dd, rules))
    assert tally.hands_won == (2, 1) and tally.hand_points == (100, 0)
    assert final_scores(rules, tally).shutout
    other = ruleset("serbian-online", {"game_bonus": 100, "box_bonus": 25,
                                       "shutout_effect": "game_bonus_doubled",
                                       "shutout_test": "winner_won_every_hand"})
    assert not final_scores(other, tally).shutout


def test_c20_boxes_toward_target() -> None:
    # A: 85 hand points from 4 hands won.
    hands = [(0, "knock", 1, 21), (0, "knock", 1, 21), (0, "knock", 1, 21), (0, "knock", 1, 26)]
    assert _play("pagat", hands).hand_points == (85, 0)
    assert _play("pagat", hands).winner(ruleset("pagat")) is None
    palace = ruleset("pagat", {"boxes_count_toward_target": True, "box_bonus": 10})
    assert _play("pagat", hands, boxes_count_toward_target=True, box_bonus=10).winner(palace) == 0


def test_game_not_over_is_an_error() -> None:
    with pytest.raises(ScoringError, match="not over"):
        final_scores(ruleset("pagat"), MatchTally())


def test_void_hand_changes_only_the_hand_count() -> None:
    assert MatchTally().after_hand(None, VOID_HAND) == MatchTally(hands=1)


@pytest.mark.parametrize(
    ("name", "dealer", "knocker", "kd", "dd", "expected"),
    [("pagat", 0, 1, 2, 9, 0),      # knocker 1 wins; loser (0) deals
     ("hoyle", 0, 1, 2, 9, 1),      # winner deals
     ("eaai", 0, 1, 2, 9, 1),       # alternate
     ("openspiel", 0, 1, 5, 5, 0)],  # tie, nobody wins: as after a void hand (same dealer)
)
def test_next_dealer(name: str, dealer: int, knocker: int, kd: int, dd: int, expected: int) -> None:
    rules = ruleset(name)
    assert next_dealer(rules, dealer, score_hand("knock", kd, dd, rules), knocker) == expected


def test_redeal_after_void() -> None:
    assert next_dealer(ruleset("pagat"), 1, VOID_HAND, None) == 1
    assert next_dealer(ruleset("pagat", {"redeal_dealer": "passes"}), 1, VOID_HAND, None) == 0


# --- the same code on Z3 terms -------------------------------------------------------------------

@given(st.sampled_from(sorted(RULES_BY_PROFILE)), st.sampled_from([0, 1, 2]), st.integers(0, 10),
       st.integers(0, 98), st.booleans())
def test_z3_terms_agree_with_ints(name: str, outcome: int, kd: int, dd: int, doubled: bool) -> None:
    gin, undercut, tie, zero_cancels, _ = RULES_BY_PROFILE[name]
    kw = dict(gin_bonus=gin, big_gin_bonus=BIG_GIN, undercut_bonus=undercut, tie=TIE_CODES[tie],
              zero_cancels=zero_cancels, doubled=doubled)
    a, b = z3.Ints("kd dd")
    sym = hand_score_terms(z3_arithmetic(), outcome, a, b, **kw)
    num = hand_score_terms(INTS, outcome, kd, dd, **kw)
    subst = [(a, z3.IntVal(kd)), (b, z3.IntVal(dd))]
    assert z3.simplify(z3.substitute(sym.knocker, *subst)).as_long() == num.knocker
    assert z3.simplify(z3.substitute(sym.defender, *subst)).as_long() == num.defender
    for term, value in ((sym.knocker_wins, num.knocker_wins), (sym.defender_wins, num.defender_wins)):
        assert z3.simplify(z3.substitute(z3.If(term, 1, 0), *subst)).as_long() == int(bool(value))


def test_z3_proves_one_side_scores_for_symbolic_rules() -> None:
    """A smoke proof (the formal suite proves more): with every rule value symbolic, at most one
    side scores and nobody scores negative points."""
    s = z3.Solver()
    kd, dd, gin, big, und, tie, out = z3.Ints("kd dd gin big und tie out")
    zc, dbl = z3.Bools("zc dbl")
    t = hand_score_terms(z3_arithmetic(), out, kd, dd, gin_bonus=gin, big_gin_bonus=big,
                         undercut_bonus=und, tie=tie, zero_cancels=zc, doubled=dbl)
    s.add(kd >= 0, dd >= 0, gin >= 0, big >= 0, und >= 0, z3.Or(tie == 0, tie == 1, tie == 2))
    s.add(z3.Or(out == 0, out == 1, out == 2), z3.Implies(out == 0, kd >= 1), z3.Implies(out != 0, kd == 0))
    s.add(z3.Or(t.knocker < 0, t.defender < 0, z3.And(t.knocker > 0, t.defender > 0),
                z3.And(t.knocker_wins, t.defender_wins)))
    assert s.check() == z3.unsat
    assert OUTCOME_CODES == {"knock": 0, "gin": 1, "big_gin": 2}


# --- match scoring against a direct statement of chapter 11 ----------------------------------------

# profile: (target, game bonus, box bonus, boxes count toward target, shutout effect, shutout test)
MATCH_BY_PROFILE = {
    "pagat": (100, 100, 20, False, "game_bonus_doubled", "loser_scored_nothing"),
    "oklahoma": (150, 100, 20, False, "game_bonus_doubled", "loser_scored_nothing"),
    "hoyle": (100, 0, 0, False, "none", "loser_scored_nothing"),
    "wikipedia": (100, 0, 0, False, "none", "loser_scored_nothing"),
    "eaai": (100, 0, 0, False, "none", "loser_scored_nothing"),
    "round-the-corner": (125, 100, 20, False, "game_bonus_doubled", "loser_scored_nothing"),
}
hand_steps = st.lists(
    st.tuples(st.integers(0, 1), st.sampled_from(["knock", "gin", "void"]), st.integers(1, 10),
              st.integers(0, 60)),
    min_size=1, max_size=40,
)


def match_oracle(name: str, steps: list[tuple[int, str, int, int]]) -> tuple[int, int] | None:
    """Final totals of the game the steps play (None if nobody reaches the target)."""
    target, game_bonus, box, immediate, effect, test = MATCH_BY_PROFILE[name]
    points, boxes, won = [0, 0], [0, 0], [0, 0]
    for knocker, outcome, kd, dd in steps:
        if outcome == "void":
            continue
        k, d, w = oracle(name, outcome, 0 if outcome == "gin" else kd, dd, False)
        points[knocker] += k
        points[1 - knocker] += d
        if w is not None:
            p = knocker if w == "knocker" else 1 - knocker
            boxes[p] += 1
            won[p] += 1
        running = [points[i] + (boxes[i] * box if immediate else 0) for i in (0, 1)]
        if max(running) >= target:
            winner = 0 if running[0] >= target else 1
            loser = 1 - winner
            shut = points[loser] == 0 if test == "loser_scored_nothing" else won[loser] == 0
            bonus = game_bonus * (2 if shut and effect == "game_bonus_doubled" else 1)
            totals = [0, 0]
            totals[winner] = points[winner] + bonus + boxes[winner] * box
            totals[loser] = points[loser] + boxes[loser] * box
            return totals[0], totals[1]
    return None


@given(st.sampled_from(sorted(MATCH_BY_PROFILE)), hand_steps)
def test_match_scoring_matches_chapter_11(name: str, steps: list[tuple[int, str, int, int]]) -> None:
    rules = ruleset(name)
    tally = MatchTally()
    result = None
    for knocker, outcome, kd, dd in steps:
        if outcome == "void":
            tally = tally.after_hand(None, VOID_HAND)
        else:
            hand = score_hand(outcome, 0 if outcome == "gin" else kd, dd, rules)  # type: ignore[arg-type]
            tally = tally.after_hand(knocker, hand)
        if tally.winner(rules) is not None:
            result = final_scores(rules, tally)
            break
    expected = match_oracle(name, steps)
    assert (result.totals if result else None) == expected
    if result:
        assert result.settlement == abs(result.totals[0] - result.totals[1])
        assert result.payee == (None if result.totals[0] == result.totals[1]
                                else max((0, 1), key=lambda p: result.totals[p]))


def test_settlement_follows_the_totals_not_the_target() -> None:
    """pagat: the lower total pays the higher. Player 1 wins eight 1-point hands (8 boxes of 20);
    player 0 then wins the game with one 100-point gin."""
    rules = ruleset("pagat")
    tally = MatchTally()
    for _ in range(8):
        tally = tally.after_hand(1, score_hand("knock", 9, 10, rules))
    tally = tally.after_hand(0, score_hand("gin", 0, 80, rules))
    result = final_scores(rules, tally)
    assert result.winner == 0
    assert result.totals == (100 + 100 + 20, 8 + 8 * 20)  # (220, 168)
    assert (result.payee, result.settlement) == (0, 52)
    for _ in range(4):
        tally = MatchTally(tally.hand_points, (tally.boxes[0], tally.boxes[1] + 1),
                           (tally.hands_won[0], tally.hands_won[1] + 1), tally.hands)
    result = final_scores(rules, tally)
    assert result.totals == (220, 8 + 12 * 20) and (result.payee, result.settlement) == (1, 28)


@pytest.mark.parametrize("name", sorted(RULES_BY_PROFILE))
def test_z3_per_profile_rules_hold_for_every_deadwood(name: str) -> None:
    """For each profile, with symbolic deadwoods and doubling: gin is never undercut, a tie goes as
    RULES_BY_PROFILE says, and doubling doubles exactly (chapter 9, OKLAHOMA.SPADES)."""
    rules = ruleset(name, {"big_gin_bonus": BIG_GIN})
    gin, undercut, tie, zero_cancels, spades = RULES_BY_PROFILE[name]
    kd, dd, out = z3.Ints("kd dd out")
    dbl = z3.Bool("dbl")
    ar = z3_arithmetic()

    def terms(doubled: object) -> HandScoreTerms:
        return hand_score_terms(
            ar, out, kd, dd, gin_bonus=rules["gin_bonus"], big_gin_bonus=rules["big_gin_bonus"],
            undercut_bonus=rules["undercut_bonus"], tie=TIE_CODES[str(rules["undercut_on_tie"])],
            zero_cancels=rules["layoff_after_gin"] == "allowed_zero_cancels", doubled=doubled)

    t, plain = terms(dbl), terms(False)
    legal = z3.And(kd >= 0, dd >= 0, z3.Or(out == 0, out == 1, out == 2),
                   z3.Implies(out == 0, kd >= 1), z3.Implies(out != 0, kd == 0))
    if tie == "undercut":
        tie_ok = z3.And(t.defender == undercut * z3.If(dbl, 2, 1), t.defender_wins)
    elif tie == "no_score":
        tie_ok = z3.And(t.knocker == 0, t.defender == 0, z3.Not(t.knocker_wins), z3.Not(t.defender_wins))
    else:
        tie_ok = z3.And(t.knocker == 0, t.defender == 0, t.knocker_wins)
    claims = z3.And(
        z3.Implies(out != 0, z3.And(t.defender == 0, z3.Not(t.undercut))),          # no undercut of gin
        z3.Implies(z3.And(out == 0, kd == dd), tie_ok),                                # SCORE.TIE
        z3.Implies(z3.And(out == 1, z3.Not(z3.And(zero_cancels, dd == 0))),
                   t.knocker == (gin + dd) * z3.If(dbl, 2, 1)),                        # SCORE.GIN
        t.knocker == plain.knocker * z3.If(dbl, 2, 1),                                 # doubling
        t.defender == plain.defender * z3.If(dbl, 2, 1),
    )
    solver = z3.Solver()
    solver.add(legal, z3.Not(claims))
    assert solver.check() == z3.unsat, solver.model()
    assert spades == (rules["spade_double"] != "off")
