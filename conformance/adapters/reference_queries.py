"""The reference's answers to the protocol-2 queries about scoring and the showdown.

``score``, ``match``, ``next-dealer`` (chapters 9 and 11, ``ginspec.reference.scoring``) and
``declaration``, ``layoff``, ``defence``, ``adjudicate`` (chapter 13, ``ginspec.reference.layoffs``
and ``ginspec.reference.adjudicate``). The argument and answer fields are those of
``conformance/PROTOCOL.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from ginspec.conformance.adapters.base import JSONObject
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
from ginspec.reference.scoring import (
    VOID_HAND,
    HandScore,
    MatchTally,
    ScoringError,
    final_scores,
    next_dealer,
    score_hand,
)
from ginspec.spec.cards import Card, card_str, parse_card, parse_cards
from ginspec.spec.errors import GinspecError
from ginspec.spec.parameters import Value, parameter
from ginspec.spec.profiles import Ruleset, ruleset


def _ruleset(profile: str | None, overrides: Mapping[str, Any]) -> Ruleset:
    if profile is None:
        raise GinspecError("this query needs a profile")
    return ruleset(profile, dict(overrides))


def _params(overrides: Mapping[str, Any]) -> dict[str, Value]:
    return {name: parameter(name).check(value) for name, value in overrides.items()}


def _showdown_rules(profile: str | None, overrides: Mapping[str, Any]) -> ShowdownRules:
    if profile is not None:
        return ShowdownRules.from_params(dict(ruleset(profile, dict(overrides))))
    return ShowdownRules.from_params(_params(overrides))


def _upcard(args: Mapping[str, Any]) -> Card | None:
    return parse_card(str(args["upcard"])) if args.get("upcard") is not None else None


def _hand(rules: Ruleset, item: Sequence[Any], upcard: Card | None) -> tuple[int | None, HandScore]:
    """``["void"]`` or ``[knocker, outcome, knocker_deadwood, defender_deadwood]``."""
    if list(item) == ["void"]:
        return None, VOID_HAND
    knocker, outcome, kd, dd = item
    return int(knocker), score_hand(str(outcome), int(kd), int(dd), rules,  # type: ignore[arg-type]
                                    upcard=upcard)


def _melds(groups: Sequence[Sequence[str]]) -> list[Meld]:
    return [Meld.parse(" ".join(g)) for g in groups]


def _tokens(cards: Sequence[Card]) -> list[str]:
    return [card_str(c) for c in cards]


def score(args: Mapping[str, Any], profile: str | None, overrides: Mapping[str, Any]) -> JSONObject:
    rules = _ruleset(profile, overrides)
    try:
        hand = score_hand(str(args["outcome"]), int(args["knocker_deadwood"]),  # type: ignore[arg-type]
                          int(args["defender_deadwood"]), rules, upcard=_upcard(args))
    except ScoringError as exc:
        return {"error": True, "message": str(exc)}
    return {
        "points": [hand.knocker, hand.defender],
        "winner": hand.winner or "none",
        "undercut": hand.undercut,
        "boxes": [hand.knocker_boxes, hand.defender_boxes],
    }


def match(args: Mapping[str, Any], profile: str | None, overrides: Mapping[str, Any]) -> JSONObject:
    rules = _ruleset(profile, overrides)
    tally = MatchTally()
    played = 0
    winners: list[int | None] = []  # match.scores: each hand's winner, points, running scores
    points: list[list[int]] = []
    running: list[list[int]] = []
    for item in args["hands"]:
        if tally.winner(rules) is not None:
            break  # the game is over: later hands are not part of it
        knocker, hand = _hand(rules, item, _upcard(args))
        tally = tally.after_hand(knocker, hand)
        played += 1
        mine = [0, 0]
        if knocker is not None:
            mine[knocker], mine[1 - knocker] = hand.knocker, hand.defender
        winners.append(_winner(knocker, hand))
        points.append(mine)
        running.append([tally.score(rules, 0), tally.score(rules, 1)])
    scores = {"hand_winners": winners, "hand_points": points, "running_scores": running}
    if tally.winner(rules) is None:
        return {"over": False, **scores}
    result = final_scores(rules, tally)
    return {
        "over": True,
        **scores,
        "hands": played,
        "box_points": list(result.box_points),
        "game_bonus": result.game_bonus,
        "totals": list(result.totals),
        "winner": result.winner,
        "shutout": result.shutout,
        "settlement": result.settlement,
        "payee": result.payee,
    }


def next_dealer_query(
    args: Mapping[str, Any], profile: str | None, overrides: Mapping[str, Any]
) -> JSONObject:
    rules = _ruleset(profile, overrides)
    knocker, hand = _hand(rules, args["hand"], _upcard(args))
    return {"hand_winner": _winner(knocker, hand),  # match.scores
            "next": next_dealer(rules, int(args["dealer"]), hand, knocker)}


def _winner(knocker: int | None, hand: HandScore) -> int | None:
    """The player who won the hand (SCORE.HAND-WINNER), None when nobody did."""
    if knocker is None or hand.winner is None:
        return None
    return knocker if hand.winner == "knocker" else 1 - knocker


def declaration(
    args: Mapping[str, Any], profile: str | None, overrides: Mapping[str, Any]
) -> JSONObject:
    rules = _showdown_rules(profile, overrides)
    groups = [parse_cards(m) for m in args["melds"]]
    try:
        decl = check_declaration(parse_cards(args["cards"]), groups, rules)
    except ShowdownError as exc:
        return {"valid": False, "code": exc.code}
    return {"valid": True, "deadwood": decl.deadwood}


def layoff(args: Mapping[str, Any], profile: str | None, overrides: Mapping[str, Any]) -> JSONObject:
    rules = _showdown_rules(profile, overrides)
    table = table_of(_melds(args["table"]), _melds(args.get("defender_melds", [])))
    side = str(args.get("side", "defender"))
    if side not in ("defender", "knocker"):
        raise GinspecError(f"side: {side!r} is neither defender nor knocker")
    gin = bool(args.get("gin", False))
    for text in args.get("laid", []):
        table = apply_layoff(table, parse_layoff(str(text), table), rules)
    found = legal_layoffs(table, parse_cards(args["cards"]), rules,
                          side="knocker" if side == "knocker" else "defender", gin=gin)
    return {"layable": sorted({card_str(x.card) for x in found})}


def defence(args: Mapping[str, Any], profile: str | None, overrides: Mapping[str, Any]) -> JSONObject:
    rules = _showdown_rules(profile, overrides)
    best = best_defence(_melds(args["knocker_melds"]), parse_cards(args["cards"]), rules,
                        gin=bool(args.get("gin", False)))
    return {
        "deadwood": best.deadwood,
        "layoffs": [card_str(x.card) for x in best.layoffs],
        "melds": [_tokens(m.cards) for m in best.melds],
    }


def adjudicate_query(
    args: Mapping[str, Any], profile: str | None, overrides: Mapping[str, Any]
) -> JSONObject:
    rules = _ruleset(profile, overrides)
    melds = [parse_cards(m) for m in args["knocker_melds"]] if "knocker_melds" in args else None
    ruling = adjudicate(parse_cards(args["knocker"]), parse_cards(args["defender"]), rules,
                        knocker_melds=melds, upcard=_upcard(args))
    out: JSONObject = {"outcome": ruling.outcome}
    if ruling.knocker_deadwood is not None and ruling.defender_deadwood is not None:
        out["deadwood"] = {"knocker": ruling.knocker_deadwood,
                           "defender": ruling.defender_deadwood}
    if ruling.points is not None:
        out["points"] = {"knocker": ruling.points[0], "defender": ruling.points[1]}
    if ruling.declaration is not None:
        out["declaration"] = [_tokens(m.cards) for m in ruling.declaration.melds]
    if ruling.defence is not None:
        out["layoffs"] = [card_str(x.card) for x in ruling.defence.layoffs]
    return out


ANSWERS: Final[dict[str, Callable[[Mapping[str, Any], str | None, Mapping[str, Any]],
                                  JSONObject]]] = {
    "score": score,
    "match": match,
    "next-dealer": next_dealer_query,
    "declaration": declaration,
    "layoff": layoff,
    "defence": defence,
    "adjudicate": adjudicate_query,
}
"""The protocol-2 queries the reference answers, by ``what``."""
