"""Every right answer to a showdown query, recorded at build time (``ginspec suite build``) so
that the runner judges ``defence`` and ``adjudicate`` answers from the case's data alone.

A best defence may lay off other cards than the spec's example names, and a best play may
declare other melds, as long as the result is the same (SHOWDOWN.BEST-PLAY, LAYOFF.TARGET).
The reference lists them once here:

* ``defence`` with ``layoffs``: ``layoff_sets``, every set of the defender's cards that it can
  lay off on the knocker's melds and that leaves the expected deadwood;
* ``adjudicate`` with ``declaration`` or ``layoffs``: ``best_plays``, every declaration of the
  knocker that, played with best play, gives the expected outcome and points (the default one
  first: the query's ``knocker_melds``, else the reference's best play), each with its
  ``layoff_sets`` when the case expects layoffs.

The runner accepts the example's own answer too (the spec's expectation is not second-guessed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ginspec.conformance.cases import Case
from ginspec.conformance.mismatch import arrangement_key
from ginspec.reference.adjudicate import adjudicate, position_from_ruleset
from ginspec.reference.layoffs import ShowdownRules, layoff_plans, legal_declarations, table_of
from ginspec.reference.melds import make_meld, min_deadwood, to_mask
from ginspec.reference.vocabulary import DEFENDER
from ginspec.spec.cards import card_str, cards_of, parse_card
from ginspec.spec.errors import GinspecError
from ginspec.spec.parameters import parameter
from ginspec.spec.profiles import ruleset

RECORDED: Final = ("layoff_sets", "best_plays")
"""The expectation fields this module records (no answer has them)."""

CardList = list[str]
"""Card tokens in canonical spelling, sorted as strings (how the runner compares sets)."""


def _rules(profile: str | None, overrides: Mapping[str, Any]) -> Any:

    if profile is not None:
        return ShowdownRules.from_params(dict(ruleset(profile, dict(overrides))))
    return ShowdownRules.from_params({k: parameter(k).check(v) for k, v in overrides.items()})


def layoff_sets(knocker_melds: Sequence[Sequence[str]], defender: Sequence[str], deadwood: int,
                rules: Any, gin: bool) -> list[CardList]:
    """Every set of ``defender``'s cards it can lay off on ``knocker_melds`` (LAYOFF.TARGET,
    LAYOFF.CHAIN) that leaves ``deadwood`` (DEADWOOD.MINIMUM), sorted."""

    table = table_of([make_meld([parse_card(t) for t in m], rules.meld_rules)
                      for m in knocker_melds])
    hand = to_mask([parse_card(t) for t in defender])
    found = [sorted(card_str(c) for c in cards_of(laid))
             for laid in layoff_plans(table, hand, rules, DEFENDER, gin)
             if min_deadwood(hand & ~laid, rules.meld_rules) == deadwood]
    return sorted(found)


def _declarations(query: Mapping[str, Any], ruleset: Mapping[str, Any]) -> list[list[CardList]]:
    """Every legal declaration of the knocker's hand (of each 10 of 11 cards too)."""

    knocker = [parse_card(t) for t in query["knocker"]]
    upcard = parse_card(query["upcard"]) if "upcard" in query else None
    rules = position_from_ruleset(knocker, [parse_card(t) for t in query["defender"]], ruleset,
                                  upcard).rules
    hands = [knocker] + ([[c for c in knocker if c != out] for out in knocker]
                         if len(knocker) == 11 else [])
    out: list[list[CardList]] = []
    for hand in hands:
        for decl in legal_declarations(to_mask(hand), rules):
            key = arrangement_key([[card_str(c) for c in m.cards] for m in decl.melds])
            if key is not None and key not in out:
                out.append(key)
    return out


def _ruling(query: Mapping[str, Any], ruleset: Mapping[str, Any],
            declaration: list[CardList] | None) -> Any:

    return adjudicate([parse_card(t) for t in query["knocker"]],
                      [parse_card(t) for t in query["defender"]], ruleset,
                      knocker_melds=None if declaration is None else
                      [[parse_card(t) for t in m] for m in declaration],
                      upcard=parse_card(query["upcard"]) if "upcard" in query else None)


def _same_ruling(ruling: Any, expect: Mapping[str, Any]) -> bool:
    points = None if ruling.points is None else \
        {"knocker": ruling.points[0], "defender": ruling.points[1]}
    return bool(ruling.outcome == expect["outcome"]
                and ("points" not in expect or points == expect["points"]))


def best_plays(query: Mapping[str, Any], expect: Mapping[str, Any], profile: str,
               overrides: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The declarations that give ``expect``'s ruling with best play (SHOWDOWN.BEST-PLAY), the
    default first, each with its ``layoff_sets`` when ``expect`` names layoffs."""

    rules_set = ruleset(profile, dict(overrides))
    if "knocker_melds" in query:
        default = arrangement_key(list(query["knocker_melds"]))
    else:
        ruling = _ruling(query, rules_set, None)
        assert ruling.declaration is not None, "a ruling with layoffs has a declaration"
        default = arrangement_key([[card_str(c) for c in m.cards]
                                   for m in ruling.declaration.melds])
    assert default is not None
    given = [default] + ([arrangement_key(list(expect["declaration"]))]
                         if "declaration" in expect else [])
    good: list[list[CardList]] = []
    for decl in _declarations(query, rules_set):
        if decl in given or decl in good:
            continue
        try:
            if _same_ruling(_ruling(query, rules_set, decl), expect):
                good.append(decl)
        except GinspecError:
            continue
    plays: list[dict[str, Any]] = []
    dead = expect.get("deadwood", {}).get("defender")
    rules = _rules(profile, overrides)
    gin = expect["outcome"] in ("gin", "big_gin", "gin_cancelled")
    for key in [*dict.fromkeys(map(_key, given)).keys(), *map(_key, sorted(good))]:
        melds = _unkey(key)
        play: dict[str, Any] = {"declaration": melds}
        if "layoffs" in expect and dead is not None:
            play["layoff_sets"] = layoff_sets(melds, query["defender"], int(dead), rules, gin)
        plays.append(play)
    return plays


def _key(declaration: list[CardList] | None) -> str:
    assert declaration is not None
    return "/".join(" ".join(m) for m in declaration)


def _unkey(key: str) -> list[CardList]:
    return [m.split(" ") for m in key.split("/")] if key else []


def with_showdown_answers(query: Mapping[str, Any], expect: Mapping[str, Any],
                          profile: str | None, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """``expect`` with every right answer recorded (see the module docstring); other queries'
    expectations are returned unchanged."""
    out = dict(expect)
    what = query["what"]
    if what == "defence" and "layoffs" in expect:
        out["layoff_sets"] = layoff_sets(query["knocker_melds"], query["cards"],
                                         int(expect["deadwood"]), _rules(profile, overrides),
                                         bool(query.get("gin", False)))
    elif what == "adjudicate" and ("declaration" in expect or "layoffs" in expect) and \
            profile is not None:
        out["best_plays"] = best_plays(query, expect, profile, overrides)
    return out


def with_recorded_answers(case: Case) -> Case:
    """A showdown query case with every right answer under its own profile recorded (the
    ``rulesets`` entries record theirs in ``query_rulesets.answer``)."""
    if case.kind != "query" or case.query.get("what") not in ("defence", "adjudicate"):
        return case
    expect = with_showdown_answers(case.query, case.expect, case.profile, case.overrides)
    if expect == case.expect:
        return case
    data = {k: v for k, v in case.data.items() if k not in ("format", "fingerprint")}
    data["expect"] = expect
    return Case.make(**data)
