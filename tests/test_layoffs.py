"""Layoffs and the knocker's declaration (spec chapter 13: SHOWDOWN.*, LAYOFF.*).

Expected values are worked out by hand from the clauses; the property tests compare
:func:`best_defence` and :func:`legal_declarations` with brute force written independently here.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from ginspec.reference.layoffs import (
    DEFENDER,
    KNOCKER,
    SHOWDOWN_CODES,
    Layoff,
    RulesLike,
    ShowdownError,
    ShowdownRules,
    Table,
    apply_layoff,
    best_defence,
    best_knocker_layoffs,
    check_declaration,
    legal_declarations,
    legal_layoffs,
    parse_layoff,
    table_of,
)
from ginspec.reference.melds import Meld, all_melds, min_deadwood
from ginspec.spec.cards import card_str, parse_cards
from hypothesis import given
from hypothesis import strategies as st
from showdown_oracle import brute_defence, every_meld, value

STANDARD = ShowdownRules()
ORIGINAL_ONLY = ShowdownRules(layoff_chain="original_melds_only")


def melds(text: str) -> list[Meld]:
    return [Meld.parse(part) for part in text.split("/")]


def layable(table_text: str, cards: str, rules: ShowdownRules = STANDARD) -> set[str]:
    table = table_of(melds(table_text))
    return {card_str(x.card) for x in legal_layoffs(table, parse_cards(cards), rules)}


def cards(text: str) -> str:
    return " ".join(card_str(c) for c in sorted(parse_cards(text)))


# --- LAYOFF.SET, LAYOFF.RUN, LAYOFF.TARGET ---------------------------------------------------


def test_fourth_card_onto_a_set_of_three() -> None:  # digest C22(a)
    assert layable("8S 8H 8D", "8C 7C 9C") == {"8C"}


def test_nothing_onto_a_set_of_four() -> None:  # digest C22(b)
    assert layable("8S 8H 8D 8C", "7C 9C 7S 9S") == set()


def test_either_end_of_a_run() -> None:
    assert layable("5S 6S 7S", "4S 8S 3S 9S 5H") == {"4S", "8S"}


def test_ace_is_low_when_laying_off() -> None:  # MELD.RUN.ACE-LOW
    assert layable("JS QS KS", "AS TS") == {"TS"}
    assert layable("2S 3S 4S", "AS KS") == {"AS"}


def test_ace_high_ruleset_lets_the_ace_follow_the_king() -> None:
    from ginspec.reference.meld_rules import MeldRules

    rules = ShowdownRules(meld_rules=MeldRules(ace_high_runs=True))
    assert layable("JS QS KS", "AS TS 2S", rules) == {"AS", "TS"}


def test_no_layoff_onto_the_knockers_deadwood() -> None:  # digest C23
    hand = parse_cards("3C 4C 5C 7D 7H 7S JS QS KS 2S")
    decl = check_declaration(hand, [parse_cards("3C 4C 5C"), parse_cards("7D 7H 7S"),
                                    parse_cards("JS QS KS")], STANDARD)
    assert decl.deadwood == 2
    defence = best_defence(decl.melds, parse_cards("2D 2H 9C 9D 9H 4D 5D 6D TC TH"), STANDARD)
    # 2D 2H and the knocker's deadwood 2S would make a set, but deadwood is not a target.
    assert defence.layoffs == ()
    assert defence.deadwood == 2 + 2 + 10 + 10


def test_a_layoff_names_the_target_meld() -> None:
    table = table_of(melds("5S 6S 7S / 9C TC JC"))
    layoff = parse_layoff("layoff 8S to 6S", table)
    assert (layoff.card, layoff.target) == (parse_cards("8S")[0], 0)
    assert str(layoff) == "layoff 8S to 5S"
    grown = apply_layoff(table, layoff, STANDARD)
    # the anchor may be a card laid off earlier
    assert parse_layoff("9S to 8S", grown).target == 0
    assert cards(" ".join(card_str(c) for c in grown[0].cards())) == cards("5S 6S 7S 8S")


def test_apply_layoff_rejects_with_code_and_clause() -> None:
    table = table_of(melds("5S 6S 7S / 9C TC JC"))
    with pytest.raises(ShowdownError) as bad:
        apply_layoff(table, Layoff(parse_cards("KH")[0], 0, parse_cards("5S")[0]), STANDARD)
    assert (bad.value.code, bad.value.clause) == ("LAYOFF_DOES_NOT_FIT", "LAYOFF.RUN")
    with pytest.raises(ShowdownError) as bad:
        apply_layoff(table, Layoff(parse_cards("8S")[0], 0, 0), STANDARD, gin=True)
    assert bad.value.code == "LAYOFF_AFTER_GIN"
    with pytest.raises(ShowdownError) as bad:
        apply_layoff(table, Layoff(parse_cards("8S")[0], 0, 0), STANDARD, side=KNOCKER)
    assert bad.value.code == "LAYOFF_BY_KNOCKER"
    with pytest.raises(ShowdownError) as bad:
        apply_layoff(table, Layoff(parse_cards("8S")[0], 0, 0), STANDARD, hand=parse_cards("9S"))
    assert bad.value.code == "LAYOFF_CARD_NOT_HELD"
    with pytest.raises(ShowdownError) as bad:
        apply_layoff(table, Layoff(parse_cards("8S")[0], 5, 0), STANDARD)
    assert bad.value.code == "LAYOFF_NO_SUCH_MELD"
    for code in ("LAYOFF_DOES_NOT_FIT", "LAYOFF_AFTER_GIN", "LAYOFF_BY_KNOCKER"):
        assert code in SHOWDOWN_CODES
    assert table == table_of(melds("5S 6S 7S / 9C TC JC"))  # unchanged


# --- LAYOFF.CHAIN -----------------------------------------------------------------------------


def test_chained_layoffs_follow_the_parameter() -> None:  # digest C02
    table = table_of(melds("5S 6S 7S"))
    grown = apply_layoff(table, Layoff(parse_cards("8S")[0], 0, 0), STANDARD)
    assert {card_str(x.card) for x in legal_layoffs(grown, parse_cards("9S 4S"), STANDARD)} == {
        "9S", "4S"}
    assert {card_str(x.card) for x in legal_layoffs(grown, parse_cards("9S 4S"), ORIGINAL_ONLY)} == {
        "4S"}
    with pytest.raises(ShowdownError) as bad:
        apply_layoff(grown, Layoff(parse_cards("9S")[0], 0, 0), ORIGINAL_ONLY)
    assert (bad.value.code, bad.value.clause) == ("LAYOFF_CHAINED", "LAYOFF.CHAIN")


# --- best_defence on the casebook positions (digest §4) --------------------------------------


def test_c02_defender_breaks_its_own_set_to_lay_off() -> None:
    knocker = melds("KS KC KD / 5S 6S 7S / 9C TC JC")
    defender = parse_cards("2S 2C 2D 2H 8S 8C 8D 9S 7C AC")
    chain = best_defence(knocker, defender, STANDARD)
    # 8S 9S onto the spade run, 8C 7C onto the club run; 2222 melded; 8D + AC left.
    assert cards(" ".join(card_str(x.card) for x in chain.layoffs)) == cards("8S 9S 8C 7C")
    assert chain.deadwood == 9
    no_chain = best_defence(knocker, defender, ORIGINAL_ONLY)
    assert no_chain.deadwood == 17  # meld 2222 and 888: 9S + 7C + AC


def test_c07_the_defender_chooses_the_run_for_the_ten() -> None:
    knocker = melds("AS AC AD / TC TD TH / JS QS KS")
    defender = parse_cards("4S 4C 4D 4H 5S 5C 5D 5H 9S TS")
    assert best_defence(knocker, defender, STANDARD).deadwood == 0
    assert best_defence(knocker, defender, ORIGINAL_ONLY).deadwood == 9


def test_no_layoffs_against_gin_unless_allowed() -> None:  # digest C03
    knocker = melds("4H 5H 6H 7H / 9C 9D 9S / JD QD KD")
    defender = parse_cards("8H 9H 3C 3D 3S 2S 5C KC 6D 4S")
    assert best_defence(knocker, defender, STANDARD, gin=True).deadwood == 44
    allowed = ShowdownRules(layoff_after_gin="allowed")
    assert best_defence(knocker, defender, allowed, gin=True).deadwood == 27


def test_knocker_layoffs_only_when_allowed() -> None:  # digest C24
    table = table_of(melds("9C 9D 9H"), melds("5S 6S 7S"))
    assert best_knocker_layoffs(table, parse_cards("8S AD"), STANDARD)[1] == 9
    rules = ShowdownRules(knocker_may_lay_off=True)
    lays, left, final = best_knocker_layoffs(table, parse_cards("8S AD"), rules)
    assert (left, [card_str(x.card) for x in lays]) == (1, ["8S"])
    assert final[1].added == (parse_cards("8S")[0],)
    assert legal_layoffs(table, parse_cards("9S"), rules, side=KNOCKER) == []  # not its own set
    assert legal_layoffs(table, parse_cards("9S"), rules, side=DEFENDER)[0].target == 0


# --- the declaration --------------------------------------------------------------------------


def test_declaration_checks() -> None:
    hand = parse_cards("2S 3S 4S 9H 9D 9C JH QH KH AD")
    full = check_declaration(hand, [parse_cards("2S 3S 4S"), parse_cards("9H 9D 9C"),
                                    parse_cards("JH QH KH")], STANDARD)
    assert (full.deadwood, full.gin) == (1, False)
    under = check_declaration(hand, [parse_cards("9H 9D 9C"), parse_cards("JH QH KH")], STANDARD)
    assert under.deadwood == 10  # digest C06: 2+3+4+1, still within the limit
    with pytest.raises(ShowdownError) as bad:
        check_declaration(hand, [parse_cards("9H 9D 9C"), parse_cards("JH QH KH")],
                          ShowdownRules(knocker_must_meld_maximally=True))
    assert bad.value.code == "DECLARATION_NOT_MAXIMAL"
    with pytest.raises(ShowdownError) as bad:
        check_declaration(hand, [parse_cards("9H 9D 9C")], STANDARD)
    assert bad.value.code == "DECLARATION_OVER_LIMIT"
    with pytest.raises(ShowdownError) as bad:
        check_declaration(hand, [parse_cards("9H 9D 9S")], STANDARD)
    assert bad.value.code == "DECLARATION_CARD_NOT_HELD"
    with pytest.raises(ShowdownError) as bad:
        check_declaration(hand, [parse_cards("9H 9D 9C"), parse_cards("8H 9H TH")], STANDARD)
    assert bad.value.code == "DECLARATION_CARD_NOT_HELD"  # 8H and TH are not in the hand
    with pytest.raises(ShowdownError) as bad:
        check_declaration(hand, [parse_cards("9H 9D 9C"), parse_cards("9C JH QH KH")], STANDARD)
    assert bad.value.code == "DECLARATION_NOT_A_MELD"


def test_ace_high_declaration_rejected_with_the_ace_clause() -> None:  # digest C15
    hand = parse_cards("QS KS AS 5C 6C 7C 8D 8H 8S 4D")
    with pytest.raises(ShowdownError) as bad:
        check_declaration(hand, [parse_cards("QS KS AS"), parse_cards("5C 6C 7C"),
                                 parse_cards("8D 8H 8S")], STANDARD)
    assert (bad.value.code, bad.value.clause) == ("DECLARATION_NOT_A_MELD", "MELD.RUN.ACE-LOW")


def test_eleven_cards_only_as_big_gin() -> None:  # digest C08
    hand = parse_cards("3C 4C 5C 6C 8D 8H 8S 8C JS QS KS")
    groups = [parse_cards("3C 4C 5C 6C"), parse_cards("8D 8H 8S 8C"), parse_cards("JS QS KS")]
    with pytest.raises(ShowdownError) as bad:
        check_declaration(hand, groups, STANDARD)
    assert bad.value.code == "DECLARATION_ELEVEN_CARDS"
    decl = check_declaration(hand, groups, ShowdownRules(big_gin=True))
    assert decl.big_gin and decl.gin
    assert legal_declarations(hand, STANDARD) == []
    assert [str(d) for d in legal_declarations(hand, ShowdownRules(big_gin=True))] == [
        "3C 4C 5C 6C / 8C 8D 8H 8S / JS QS KS"]


def test_c06_two_legal_declarations_and_one_when_maximal() -> None:
    hand = parse_cards("2S 3S 4S 9H 9D 9C JH QH KH AD")
    assert [d.deadwood for d in legal_declarations(hand, STANDARD)] == [1, 10]
    assert [d.deadwood for d in legal_declarations(hand, ShowdownRules(knock_limit=9))] == [1]
    maximal = ShowdownRules(knocker_must_meld_maximally=True)
    assert [d.deadwood for d in legal_declarations(hand, maximal)] == [1]


# --- property tests: brute force ---------------------------------------------------------------


@st.composite
def showdowns(draw: st.DrawFn) -> tuple[list[Meld], list[int], bool]:
    deck = list(range(52))
    pool = all_melds((1 << 52) - 1)
    chosen: list[Meld] = []
    used = 0
    for _ in range(draw(st.integers(1, 3))):
        meld = draw(st.sampled_from(pool))
        if meld.mask & used or len(meld.cards) > 5:
            continue
        chosen.append(meld)
        used |= meld.mask
    near = [c for c in deck if not used >> c & 1 and any(
        (c % 13 == m.cards[0] % 13 and m.kind.value == "set")
        or (c // 13 == m.cards[0] // 13 and m.kind.value == "run")
        for m in chosen)]
    far = [c for c in deck if not used >> c & 1 and c not in near]
    n_near = draw(st.integers(0, min(4, len(near))))
    picked = draw(st.permutations(near))[:n_near]
    picked += draw(st.permutations(far))[: 7 - n_near]
    return chosen, picked, draw(st.booleans())


@given(showdowns())
def test_best_defence_matches_brute_force(case: tuple[list[Meld], list[int], bool]) -> None:
    knocker, defender, original_only = case
    rules = ORIGINAL_ONLY if original_only else STANDARD
    defence = best_defence(knocker, defender, rules)
    assert defence.deadwood == brute_defence(knocker, defender, rules)
    # replaying the chosen layoffs one by one is legal and leaves exactly the reported deadwood
    table = table_of(knocker)
    for layoff in defence.layoffs:
        table = apply_layoff(table, layoff, rules)
    laid = {x.card for x in defence.layoffs}
    rest = [c for c in defender if c not in laid]
    assert defence.deadwood == min_deadwood(rest)
    assert sorted([*laid, *defence.deadwood_cards, *(c for m in defence.melds for c in m.cards)]) \
        == sorted(defender)


@given(st.permutations(range(52)))
def test_legal_declarations_match_brute_force(deck: list[int]) -> None:
    hand = sorted(deck[:10])
    got = {tuple(sorted(m.key for m in d.melds)) for d in legal_declarations(hand, STANDARD)}
    every = every_meld(hand)
    want = set()
    for r in range(0, 4):
        for combo in combinations(every, r):
            flat = [c for m in combo for c in m]
            if len(flat) == len(set(flat)) and value([c for c in hand if c not in flat]) <= 10:
                want.add(tuple(sorted(combo)))
    assert got == want
    assert all(d.deadwood <= 10 for d in legal_declarations(hand, STANDARD))
    if got:
        assert min(d.deadwood for d in legal_declarations(hand, STANDARD)) == min_deadwood(hand)


def test_a_profile_ruleset_may_stand_for_the_showdown_rules() -> None:
    from ginspec.spec.errors import ParameterError
    from ginspec.spec.profiles import ruleset

    knocker = melds("KS KC KD / 5S 6S 7S / 9C TC JC")
    defender = parse_cards("2S 2C 2D 2H 8S 8C 8D 9S 7C AC")
    assert best_defence(knocker, defender, ruleset("openspiel")).deadwood == 9  # C02, chains
    assert best_defence(knocker, defender, ruleset("serbian-online")).deadwood == 17
    grown = apply_layoff(table_of(melds("5S 6S 7S")), Layoff(parse_cards("8S")[0], 0, 0),
                         ruleset("pagat"))
    assert layable_now(grown, "9S", ruleset("serbian-online")) == set()
    hand = parse_cards("2S 3S 4S 9H 9D 9C JH QH KH AD")
    assert [d.deadwood for d in legal_declarations(hand, ruleset("pagat"))] == [1]  # maximal
    assert [d.deadwood for d in legal_declarations(hand, ruleset("eaai"))] == [1, 10]
    with pytest.raises(ParameterError, match="upcard"):
        legal_declarations(hand, ruleset("oklahoma"))


def layable_now(table: Table, cards: str, rules: RulesLike) -> set[str]:
    return {card_str(x.card) for x in legal_layoffs(table, parse_cards(cards), rules)}


@given(showdowns(), st.sampled_from(["unlimited", "original_melds_only"]), st.booleans(),
       st.data())
def test_listing_and_applying_agree(case: tuple[list[Meld], list[int], bool], chain: str,
                                    gin: bool, data: st.DataObject) -> None:
    """A layoff is accepted by apply_layoff exactly when legal_layoffs lists it (after any legal
    layoffs so far); a refused one raises ShowdownError with a known code."""
    knocker, defender, _ = case
    after_gin = data.draw(st.sampled_from(["forbidden", "allowed"]))
    rules = ShowdownRules(
        layoff_chain="unlimited" if chain == "unlimited" else "original_melds_only",
        layoff_after_gin="allowed" if after_gin == "allowed" else "forbidden",
    )
    table = table_of(knocker)
    left = list(defender)
    for _ in range(4):
        listed = {(x.card, x.target) for x in legal_layoffs(table, left, rules, gin=gin)}
        for card in left:
            for target in range(len(table)):
                layoff = Layoff(card, target, min(table[target].original.cards))
                try:
                    apply_layoff(table, layoff, rules, gin=gin, hand=left)
                    accepted = True
                except ShowdownError as exc:
                    assert exc.code in SHOWDOWN_CODES
                    accepted = False
                assert accepted == ((card, target) in listed), (card_str(card), target)
        if not listed:
            break
        card, target = data.draw(st.sampled_from(sorted(listed)))
        table = apply_layoff(table, Layoff(card, target, 0), rules, gin=gin)
        left.remove(card)
