"""Comparing answers to the showdown queries (``declaration``, ``layoff``, ``defence``,
``adjudicate``; protocol 2) with a case's expectations.

Where several answers are right every one is accepted: a best defence may lay off
other cards than the spec's example names, and a best declaration may use other melds, as long as
the result is the same. An answer that differs from the example's is checked with the reference's
showdown functions: the laid-off cards must be a set the defender can really lay off, leaving
the expected deadwood; a declaration, played out with best play, must give the expected ruling.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ginspec.conformance.mismatch import Mismatch, arrangement_key, canonical_cards, same
from ginspec.spec.cards import parse_card


def check_showdown_query(
    what: str,
    query: Mapping[str, Any],
    expect: Mapping[str, Any],
    profile: str | None,
    overrides: Mapping[str, Any],
    answer: Mapping[str, Any],
    *,
    codes: bool = True,
) -> Mismatch | None:
    if what == "declaration":
        bad = same("valid", expect["valid"], answer)
        if bad:
            return bad
        if expect["valid"] and "deadwood" in expect:
            return same("deadwood", expect["deadwood"], answer)
        if not expect["valid"] and "code" in expect and codes:
            return same("code", expect["code"], answer)
        return None
    if what == "layoff":
        got = canonical_cards(answer.get("layable"))
        want = sorted(canonical_cards(expect["layable"]) or [])
        if got is None or sorted(got) != want:
            return Mismatch("layable", want, answer.get("layable"), "any order")
        return None
    if what == "defence":
        bad = same("deadwood", expect["deadwood"], answer)
        if bad or "layoffs" not in expect:
            return bad
        melds = [list(m) for m in query["knocker_melds"]]
        return _check_layoffs(expect["layoffs"], answer.get("layoffs"), melds, query["cards"],
                              int(expect["deadwood"]), profile, overrides,
                              bool(query.get("gin", False)))
    if what == "adjudicate":
        return _check_ruling(query, expect, profile, overrides, answer)
    return Mismatch("query", what, None, "unknown query")


def _rules(profile: str | None, overrides: Mapping[str, Any]) -> Any:
    from ginspec.reference.layoffs import ShowdownRules
    from ginspec.spec.parameters import parameter
    from ginspec.spec.profiles import ruleset

    if profile is not None:
        return ShowdownRules.from_params(dict(ruleset(profile, dict(overrides))))
    return ShowdownRules.from_params({k: parameter(k).check(v) for k, v in overrides.items()})


def _check_layoffs(
    want: Sequence[str], got: Any, knocker_melds: Sequence[Sequence[str]],
    defender: Sequence[str], deadwood: int, profile: str | None,
    overrides: Mapping[str, Any], gin: bool,
) -> Mismatch | None:
    """The answered laid-off cards: the example's, or another set that is just as good."""
    from ginspec.reference.layoffs import layoff_plans, table_of
    from ginspec.reference.melds import Meld, min_deadwood, to_mask
    from ginspec.reference.vocabulary import DEFENDER

    cards = canonical_cards(got)
    expected = sorted(canonical_cards(list(want)) or [])
    if cards is None:
        return Mismatch("layoffs", expected, got, "a list of card tokens")
    if sorted(cards) == expected:
        return None
    rules = _rules(profile, overrides)
    table = table_of([Meld.parse(" ".join(m)) for m in knocker_melds])
    hand = to_mask([parse_card(t) for t in defender])
    laid = to_mask([parse_card(t) for t in cards])
    plans = layoff_plans(table, hand, rules, DEFENDER, gin)
    if laid not in plans:
        return Mismatch("layoffs", expected, cards, "these cards cannot all be laid off")
    left = min_deadwood(hand & ~laid, rules.meld_rules)
    if left != deadwood:
        return Mismatch("layoffs", expected, cards, f"laying these off leaves {left}")
    return None


def _check_ruling(
    query: Mapping[str, Any], expect: Mapping[str, Any], profile: str | None,
    overrides: Mapping[str, Any], answer: Mapping[str, Any],
) -> Mismatch | None:
    for name in ("outcome", "deadwood", "points"):
        if name in expect:
            bad = same(name, expect[name], answer)
            if bad:
                return bad
    declared = query.get("knocker_melds")
    if "declaration" in expect:
        got = arrangement_key(answer.get("declaration"))
        want = arrangement_key(list(expect["declaration"]))
        if got is None:
            return Mismatch("declaration", want, answer.get("declaration"), "lists of card tokens")
        if got != want:
            bad = _replay(query, expect, profile, overrides, got)
            if bad:
                return bad
        declared = got
    if "layoffs" in expect:
        from ginspec.reference.adjudicate import adjudicate
        from ginspec.spec.profiles import ruleset

        melds = declared
        if melds is None:  # the example names no declaration: use the answer's, else best play's
            melds = arrangement_key(answer.get("declaration"))
        if melds is None:
            ruling = adjudicate([parse_card(t) for t in query["knocker"]],
                                [parse_card(t) for t in query["defender"]],
                                ruleset(str(profile), dict(overrides)),
                                upcard=parse_card(query["upcard"]) if "upcard" in query else None)
            assert ruling.declaration is not None
            melds = [_tokens(m.cards) for m in ruling.declaration.melds]
        dead = expect.get("deadwood", {}).get("defender")
        if dead is None:
            return None
        return _check_layoffs(expect["layoffs"], answer.get("layoffs"), melds, query["defender"],
                              int(dead), profile, overrides,
                              expect["outcome"] in ("gin", "big_gin", "gin_cancelled"))
    return None


def _tokens(cards: Sequence[int]) -> list[str]:
    from ginspec.spec.cards import card_str

    return [card_str(c) for c in cards]


def _replay(
    query: Mapping[str, Any], expect: Mapping[str, Any], profile: str | None,
    overrides: Mapping[str, Any], declaration: list[list[str]],
) -> Mismatch | None:
    """Another declaration is right when, played with best play, it gives the same ruling."""
    from ginspec.reference.adjudicate import adjudicate
    from ginspec.spec.errors import GinspecError
    from ginspec.spec.profiles import ruleset

    want = sorted(canonical_cards(list(m)) or [] for m in expect["declaration"])
    try:
        ruling = adjudicate([parse_card(t) for t in query["knocker"]],
                            [parse_card(t) for t in query["defender"]],
                            ruleset(str(profile), dict(overrides)),
                            knocker_melds=[[parse_card(t) for t in m] for m in declaration],
                            upcard=parse_card(query["upcard"]) if "upcard" in query else None)
    except GinspecError as exc:
        return Mismatch("declaration", want, declaration, f"not a declaration of the hand: {exc}")
    points = None if ruling.points is None else \
        {"knocker": ruling.points[0], "defender": ruling.points[1]}
    if ruling.outcome != expect["outcome"] or ("points" in expect and points != expect["points"]):
        return Mismatch("declaration", want, declaration,
                        f"this declaration gives {ruling.outcome} {points}, not the best play")
    return None
