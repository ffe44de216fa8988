"""Our action strings in canonical form, and deal layouts (no peer needed)."""

from __future__ import annotations

import pytest
from ginspec.conformance.adapters.action_text import ActionTextError, canonical, format_action, merge_runs
from ginspec.conformance.adapters.deal_layout import DealLayoutError, deal_for, layout
from ginspec.spec.cards import parse_cards


def test_spellings_of_one_declaration_compare_equal() -> None:
    a = canonical("declare 7D 7H 7S / 8C 9C TC")
    b = canonical("declare  tc 9c 8c/7s 7h 7d")
    assert a == b


def test_touching_runs_merge_but_sets_do_not() -> None:
    split = canonical("declare 3S 4S 5S / 6S 7S 8S")
    whole = canonical("declare 3S 4S 5S 6S 7S 8S")
    assert split == whole
    assert canonical("declare 3S 4S 5S / 7S 8S 9S") != canonical("declare 3S 4S 5S 7S 8S 9S")
    assert len(merge_runs([parse_cards("7C 7D 7H"), parse_cards("8C 8D 8H")])) == 2


def test_format_round_trips() -> None:
    melds = [parse_cards("KC KD KS"), parse_cards("9C TC JC")]
    text = format_action("declare", melds)
    assert text == "declare 9C TC JC / KC KD KS"
    assert canonical(text) == canonical("declare KS KD KC / JC TC 9C")
    assert format_action("meld", []) == "meld"
    assert format_action("layoff", parse_cards("9S")[0], parse_cards("5S")[0]) == "layoff 9S to 5S"


@pytest.mark.parametrize("bad", ["", "discard", "discard ZZ", "layoff 9S onto 5S", "jump",
                                 "meld 7C 7D 7H / 7C 7D 7H", "declare 7C 7D 7H / 7H 8H 9H"])
def test_malformed_actions_raise(bad: str) -> None:
    with pytest.raises(ActionTextError):
        canonical(bad)


def test_deal_for_inverts_layout() -> None:
    nd = parse_cards("AC 2C 3C 4C 5C 6C 7C 8C 9C TC")
    dl = parse_cards("AD 2D 3D 4D 5D 6D 7D 8D 9D TD")
    deal = deal_for(nd, dl, dealer=1, upcard=parse_cards("KS")[0], stock=parse_cards("QS JS"))
    lay = layout(deal, 1)
    assert lay.hands == (tuple(nd), tuple(dl))
    assert lay.upcard == parse_cards("KS")[0]
    assert lay.stock[:2] == tuple(parse_cards("QS JS"))
    assert len(lay.stock) == 31
    eleven = layout(deal, 1, "eleven_card_start")
    assert eleven.hands[0] == (*nd, parse_cards("KS")[0]) and eleven.upcard is None


def test_bad_deals_are_refused() -> None:
    with pytest.raises(DealLayoutError):
        layout(list(range(51)), 0)
    with pytest.raises(DealLayoutError):
        layout(list(range(52)), 2)
