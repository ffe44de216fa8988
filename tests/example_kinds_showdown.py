"""Checks for the spec example kinds of chapter 13 (the showdown): ``declaration``, ``layoff``,
``defence`` and ``adjudicate``. Merged into tests/test_spec_examples.py's dispatch tables
(``FIELDS``, ``CHECKS``); documented in spec/README.md.

The expected values live in the chapter's examples and were worked out by hand from the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest
from ginspec.reference.adjudicate import adjudicate
from ginspec.reference.layoffs import (
    ShowdownError,
    ShowdownRules,
    apply_layoff,
    best_defence,
    check_declaration,
    legal_layoffs,
    parse_layoff,
    table_of,
)
from ginspec.reference.melds import Meld
from ginspec.spec.cards import Card, card_str, parse_card, parse_cards
from ginspec.spec.clauses import Example
from ginspec.spec.parameters import Value, parameter
from ginspec.spec.profiles import ruleset

Check = Callable[[Example], None]

FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "declaration": (
        frozenset({"hand", "melds", "valid"}), frozenset({"deadwood", "code", "params"}),
    ),
    "layoff": (
        frozenset({"table", "cards", "layable"}),
        frozenset({"laid", "defender_melds", "side", "gin", "params"}),
    ),
    "defence": (
        frozenset({"knocker_melds", "defender", "deadwood"}),
        frozenset({"layoffs", "gin", "params"}),
    ),
    "adjudicate": (
        frozenset({"profile", "knocker", "defender", "outcome"}),
        frozenset({"overrides", "knocker_melds", "upcard", "deadwood", "points", "declaration",
                   "layoffs"}),
    ),
}


def _params(ex: Example) -> dict[str, Value]:
    raw: Mapping[str, Any] = ex.data.get("params", {})
    return {name: parameter(name).check(value) for name, value in raw.items()}


def _cards(text: str) -> list[Card]:
    return parse_cards(text)


def _showdown_rules(ex: Example) -> ShowdownRules:
    return ShowdownRules.from_params(_params(ex))


def _melds(texts: list[str]) -> list[Meld]:
    return [Meld.parse(t) for t in texts]


def check_declaration_kind(ex: Example) -> None:
    d = ex.data
    groups = [_cards(m) for m in d["melds"]]
    if not d["valid"]:
        with pytest.raises(ShowdownError) as info:
            check_declaration(_cards(d["hand"]), groups, _showdown_rules(ex))
        if "code" in d:
            assert info.value.code == d["code"], str(info.value)
        return
    decl = check_declaration(_cards(d["hand"]), groups, _showdown_rules(ex))
    if "deadwood" in d:
        assert decl.deadwood == d["deadwood"]


def check_layoff_kind(ex: Example) -> None:
    d = ex.data
    rules = _showdown_rules(ex)
    table = table_of(_melds(d["table"]), _melds(d.get("defender_melds", [])))
    for text in d.get("laid", []):
        table = apply_layoff(table, parse_layoff(text, table), rules)
    side = d.get("side", "defender")
    assert side in ("defender", "knocker")
    found = legal_layoffs(table, _cards(d["cards"]), rules,
                          side="knocker" if side == "knocker" else "defender",
                          gin=bool(d.get("gin", False)))
    assert sorted({card_str(x.card) for x in found}) == sorted(d["layable"])


def check_defence_kind(ex: Example) -> None:
    d = ex.data
    defence = best_defence(_melds(d["knocker_melds"]), _cards(d["defender"]),
                           _showdown_rules(ex), gin=bool(d.get("gin", False)))
    assert defence.deadwood == d["deadwood"]
    if "layoffs" in d:
        assert sorted(card_str(x.card) for x in defence.layoffs) == sorted(d["layoffs"])


def check_adjudicate_kind(ex: Example) -> None:
    d = ex.data
    rules = ruleset(d["profile"], dict(d.get("overrides", {})))
    melds = [_cards(g) for g in d["knocker_melds"].split("/")] if "knocker_melds" in d else None
    upcard = parse_card(d["upcard"]) if "upcard" in d else None
    ruling = adjudicate(_cards(d["knocker"]), _cards(d["defender"]), rules,
                        knocker_melds=melds, upcard=upcard)
    trail = "\n".join(f"{c}: {t}" for c, t in ruling.trail)
    assert ruling.outcome == d["outcome"], trail
    if "deadwood" in d:
        assert {"knocker": ruling.knocker_deadwood, "defender": ruling.defender_deadwood} == \
            d["deadwood"], trail
    if "points" in d:
        assert ruling.points is not None
        assert {"knocker": ruling.points[0], "defender": ruling.points[1]} == d["points"], trail
    if "declaration" in d:
        assert ruling.declaration is not None
        want = sorted(sorted(_cards(m)) for m in d["declaration"])
        assert sorted(sorted(m.cards) for m in ruling.declaration.melds) == want
    if "layoffs" in d:
        assert ruling.defence is not None
        assert sorted(card_str(x.card) for x in ruling.defence.layoffs) == sorted(d["layoffs"])


CHECKS: dict[str, Check] = {
    "declaration": check_declaration_kind,
    "layoff": check_layoff_kind,
    "defence": check_defence_kind,
    "adjudicate": check_adjudicate_kind,
}
