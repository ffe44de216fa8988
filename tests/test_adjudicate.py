"""The adjudicator's search and verdicts (SHOWDOWN.BEST-PLAY, SHOWDOWN.COMPARE).

These tests drive :func:`adjudicate_position` with the digest's "PAG" bonuses (gin 20, undercut
10, a tie is an undercut) given as a plain scorer, so that they test the search — which
declaration, which reply — independently of the scoring module. Points under the real profiles
are ruling files in spec/casebook/, run by tests/test_rulings.py. Expected values are worked out by hand.
"""

from __future__ import annotations

import pytest
from ginspec.reference.adjudicate import Position, adjudicate, adjudicate_position, outcome_of
from ginspec.reference.layoffs import ShowdownRules, apply_layoff, table_of
from ginspec.reference.melds import Meld
from ginspec.reference.scoring import hand_points
from ginspec.spec.cards import card_str, parse_cards
from ginspec.spec.errors import DuplicateCardError, HandSizeError
from ginspec.spec.profiles import ruleset
from hypothesis import assume, given
from hypothesis import strategies as st
from showdown_oracle import (
    brute_declarations,
    brute_defence,
    brute_min_deadwood,
    knock_positions,
    value,
)

CHAIN = ShowdownRules()
NO_CHAIN = ShowdownRules(layoff_chain="original_melds_only")


def pag(kind: str, knocker: int, defender: int) -> tuple[int, int]:
    """Digest shorthand PAG: gin 20 + deadwood; knock: the difference; tie or less: undercut +10."""
    if kind != "knock":
        return 20 + defender, 0
    if defender <= knocker:
        return 0, knocker - defender + 10
    return defender - knocker, 0


def position(knocker: str, defender: str, rules: ShowdownRules = CHAIN) -> Position:
    return Position(tuple(parse_cards(knocker)), tuple(parse_cards(defender)), rules, pag)


def test_c21_undercut_is_decided_after_layoffs() -> None:
    ruling = adjudicate_position(position("9S 9H 9D 2C 3C 4C JH QH KH 7D",
                                          "9C 5S 4D 5H 6H 7H 8H TS JS QS"))
    # 9C lays off: 18 -> 9 > 7, no undercut; the knocker scores 9 - 7 = 2.
    assert (ruling.outcome, ruling.knocker_deadwood, ruling.defender_deadwood) == ("knock", 7, 9)
    assert ruling.points == (2, 0)
    assert [card_str(x.card) for x in ruling.defence.layoffs] == ["9C"]  # type: ignore[union-attr]
    assert ("SHOWDOWN.COMPARE", "after layoffs: knocker 7, defender 9") in ruling.trail


def test_c04_knocker_declares_sets_to_block_layoffs() -> None:
    ruling = adjudicate_position(position("5S 6S 7S 5C 6C 7C 5D 6D 7D AS",
                                          "3S 4S 4C 4D 8S 8C 8D 5H 6H 7H"))
    assert ruling.declaration is not None
    assert all(m.kind.value == "set" for m in ruling.declaration.melds)
    assert (ruling.outcome, ruling.defender_deadwood, ruling.points) == ("knock", 3, (2, 0))
    runs = adjudicate_position(
        position("5S 6S 7S 5C 6C 7C 5D 6D 7D AS", "3S 4S 4C 4D 8S 8C 8D 5H 6H 7H"),
        [parse_cards("5S 6S 7S"), parse_cards("5C 6C 7C"), parse_cards("5D 6D 7D")],
    )
    # runs: 4S, 3S (chained), 4C, 4D lay off; 888 and 5H 6H 7H meld; 0 <= 1 -> undercut 1 + 10
    assert (runs.outcome, runs.defender_deadwood, runs.points) == ("undercut", 0, (0, 11))


def test_c06_best_declaration_flips_with_layoff_chain() -> None:
    knocker, defender = "2S 3S 4S 9H 9D 9C JH QH KH AD", "AS 5S 6S 8D 8H 8S QC QD QS 4C"
    chain = adjudicate_position(position(knocker, defender, CHAIN))
    # full meld: AS 5S 6S lay off -> 4, +3; under-meld: 16 - 10 = +6. The under-meld wins.
    assert (chain.knocker_deadwood, chain.defender_deadwood, chain.points) == (10, 16, (6, 0))
    no_chain = adjudicate_position(position(knocker, defender, NO_CHAIN))
    # full meld: AS, 5S lay off (6S cannot chain) -> 10, +9 beats the under-meld's +6.
    assert (no_chain.knocker_deadwood, no_chain.defender_deadwood, no_chain.points) == (1, 10, (9, 0))
    maximal = adjudicate_position(position(knocker, defender,
                                           ShowdownRules(knocker_must_meld_maximally=True)))
    assert (maximal.knocker_deadwood, maximal.defender_deadwood, maximal.points) == (1, 4, (3, 0))
    assert maximal.declarations_considered == 1


def test_declared_melds_over_the_limit_are_an_illegal_knock() -> None:
    ruling = adjudicate_position(position("2S 3S 4S 9H 9D 9C JH QH KH AD",
                                          "AS 5S 6S 8D 8H 8S QC QD QS 4C"),
                                 [parse_cards("9H 9D 9C")])
    assert (ruling.outcome, ruling.points) == ("illegal_knock", None)
    assert ruling.trail[0][0] == "SHOWDOWN.DECLARATION"


def test_c15_ace_high_run_is_not_a_meld_and_the_knock_is_illegal() -> None:
    ruling = adjudicate_position(position("QS KS AS 5C 6C 7C 8D 8H 8S 4D",
                                          "2C 2D 2H 9C 9D 9H TS JS 3H 4H"),
                                 [parse_cards("QS KS AS"), parse_cards("5C 6C 7C"),
                                  parse_cards("8D 8H 8S")])
    assert ruling.outcome == "illegal_knock"
    assert ruling.trail[0][0] == "MELD.RUN.ACE-LOW"
    # 10 + 10 + 1 + 4 = 25 > 10: no declaration of these cards is legal either
    assert "deadwood 25" in ruling.trail[1][1]
    assert adjudicate_position(position("QS KS AS 5C 6C 7C 8D 8H 8S 4D",
                                        "2C 2D 2H 9C 9D 9H TS JS 3H 4H")).outcome == "illegal_knock"


def test_eleven_cards_the_adjudicator_picks_the_discard() -> None:  # digest C08, PAG
    ruling = adjudicate_position(position("3C 4C 5C 6C 8D 8H 8S 8C JS QS KS",
                                          "2D 3D 4H 5H 6S 7S 9D TD AH KH"))
    # no big gin under PAG: discard a card of a four-card meld and go gin; defender has
    # 2+3+4+5+6+7+9+10+1+10 = 57 and no layoffs against gin: 20 + 57 = 77.
    assert (ruling.outcome, ruling.defender_deadwood, ruling.points) == ("gin", 57, (77, 0))
    assert ruling.discard is not None
    big = adjudicate_position(Position(
        tuple(parse_cards("3C 4C 5C 6C 8D 8H 8S 8C JS QS KS")),
        tuple(parse_cards("2D 3D 4H 5H 6S 7S 9D TD AH KH")),
        ShowdownRules(big_gin=True),
        lambda kind, k, d: (31 + d, 0) if kind == "big_gin" else pag(kind, k, d)))
    assert (big.outcome, big.points, big.discard) == ("big_gin", (88, 0), None)


def test_bad_positions_raise_typed_errors() -> None:
    with pytest.raises(DuplicateCardError):
        adjudicate_position(position("2S 3S 4S 9H 9D 9C JH QH KH AD",
                                     "AD 5S 6S 8D 8H 8S QC QD QS 4C"))
    with pytest.raises(HandSizeError):
        adjudicate_position(position("2S 3S 4S 9H 9D 9C JH QH KH",
                                     "AS 5S 6S 8D 8H 8S QC QD QS 4C"))


@pytest.mark.parametrize(
    ("tie_rule", "outcome"),
    [("undercut", "undercut"), ("no_score", "tie"), ("knocker_scores_zero", "knock")],
)
def test_outcome_of_a_tie(tie_rule: str, outcome: str) -> None:  # digest C01
    assert outcome_of("knock", 5, 5, tie_rule) == outcome
    assert outcome_of("knock", 5, 4, tie_rule) == "undercut"
    assert outcome_of("knock", 5, 6, tie_rule) == "knock"
    assert outcome_of("gin", 0, 0, tie_rule) == "gin"


# --- property: best play against brute-force minimax -------------------------------------------


@given(knock_positions(), st.sampled_from(["openspiel", "pagat", "serbian-online"]))
def test_best_play_matches_brute_force(position: tuple[list[int], list[int]], profile: str) -> None:
    knocker, defender = position
    assume(len(knocker) == 10 and brute_min_deadwood(knocker) <= 10)
    rules = ruleset(profile)
    srules = ShowdownRules.from_params(rules)
    best_net = None
    for decl in brute_declarations(knocker, 10, bool(rules["knocker_must_meld_maximally"])):
        melds = [Meld.parse(" ".join(card_str(c) for c in m)) for m in decl]
        kd = value([c for c in knocker if all(c not in m for m in decl)])
        kind = "gin" if kd == 0 else "knock"
        gin = kd == 0
        dd = brute_defence(melds, defender, srules) if not gin or srules.layoff_after_gin != \
            "forbidden" else brute_min_deadwood(defender)
        kp, dp = hand_points(kind, kd, dd, rules)
        best_net = kp - dp if best_net is None else max(best_net, kp - dp)
    ruling = adjudicate(knocker, defender, rules)
    assert ruling.points is not None and best_net is not None
    assert ruling.points[0] - ruling.points[1] == best_net


def test_trail_names_the_rule_that_blocked_layoffs() -> None:
    gin = adjudicate_position(position("4H 5H 6H 7H 9C 9D 9S JD QD KD",
                                       "8H 9H 3C 3D 3S 2S 5C KC 6D 4S"))
    blocked = [t for c, t in gin.trail if c == "LAYOFF.AFTER-GIN"]
    assert blocked == ["8H would extend 4H 5H 6H 7H, but there are no layoffs against gin",
                       "9H would extend 9C 9D 9S, but there are no layoffs against gin"]
    no_chain = adjudicate_position(position("AS AC AD TC TD TH JS QS KS 2H",
                                            "4S 4C 4D 4H 5S 5C 5D 5H 9S TS", NO_CHAIN))
    # C07: TS goes on, 9S cannot follow; with chains the defender would have reached 0.
    assert [c for c, _ in no_chain.trail].count("LAYOFF.CHAIN") == 1
    assert "would keep 0, not 9" in dict(no_chain.trail)["LAYOFF.CHAIN"]



@given(knock_positions(), st.sampled_from(["openspiel", "pagat"]))
def test_knocker_layoffs_never_hurt_the_knocker(position: tuple[list[int], list[int]],
                                                profile: str) -> None:
    """With knocker_may_lay_off the defender still has every reply he had without it, and the
    knocker's layoffs only add options: the knocker's net cannot fall (SHOWDOWN.BEST-PLAY). The
    reported layoffs must replay legally and leave the reported deadwood."""
    knocker, defender = position
    assume(len(knocker) == 10 and brute_min_deadwood(knocker) <= 10)
    plain = adjudicate(knocker, defender, ruleset(profile))
    rules = ruleset(profile, {"knocker_may_lay_off": True})
    both = adjudicate(knocker, defender, rules)
    assert plain.points is not None and both.points is not None
    assert both.points[0] - both.points[1] >= plain.points[0] - plain.points[1]
    assert both.declaration is not None and both.defence is not None
    srules = ShowdownRules.from_params(rules)
    table = table_of(both.declaration.melds)
    for layoff in both.defence.layoffs:
        table = apply_layoff(table, layoff, srules, "defender", both.declaration.gin)
    table = (*table, *table_of((), both.defence.melds))
    for layoff in both.knocker_layoffs:
        table = apply_layoff(table, layoff, srules, "knocker", both.declaration.gin)
    left = set(both.declaration.deadwood_cards) - {x.card for x in both.knocker_layoffs}
    assert both.knocker_deadwood == value(sorted(left))


def test_reprs_are_valid_python() -> None:
    from ginspec.reference.layoffs import (  # noqa: F401  (names used by eval)
        Declaration,
        Defence,
        Layoff,
        TableMeld,
    )
    from ginspec.reference.meld_rules import MeldRules  # noqa: F401
    from ginspec.reference.melds import MeldKind  # noqa: F401

    ruling = adjudicate_position(position("KS KC KD 5S 6S 7S 9C TC JC JD",
                                          "2S 2C 2D 2H 8S 8C 8D 9S 7C AC"))
    for obj in (ruling.declaration, ruling.defence, ruling.defence.table[0] if ruling.defence
                else None, CHAIN):
        assert eval(repr(obj)) == obj
