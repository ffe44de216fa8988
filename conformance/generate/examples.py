"""The spec's own examples as conformance cases (the spec's examples are tests).

Each example becomes one case (two for a deadwood example that also counts arrangements) with the
ID ``spec.<example id>``; example IDs are never reused, so neither are these. The expected values
are the example's, as written in the spec; for deadwood examples the accepted arrangements are
added from the independent oracle, and the example's own arrangement must be among them.

Examples of kinds that ask nothing of an implementation's interface (the internal card encoding,
the parameter checks of ``meld-rules`` and ``ruleset``) are listed as not converted, with the
reason. The scoring and showdown kinds are converted in
:mod:`ginspec.conformance.generate.examples_scoring`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ginspec.conformance import oracle
from ginspec.conformance.adapters.reference_game import CHANCE_PLAYER
from ginspec.conformance.cases import Case
from ginspec.conformance.generate.common import card_list, oracle_rules, text_cards
from ginspec.conformance.generate.examples_scoring import CONVERTERS as SCORING_CONVERTERS
from ginspec.conformance.generate.games import DEAL_CLAUSES, known
from ginspec.conformance.generate.queries import (
    MAX_LISTED_ARRANGEMENTS,
    OracleDisagreement,
    arrangement_key,
    arrangements_decides,
    melds_count_decides,
)
from ginspec.conformance.generate.table import table_play_example
from ginspec.reference.game import Deal, HandState, parse_action, rules_for_profile
from ginspec.reference.game.state import CHANCE
from ginspec.spec.cards import card_str, parse_card
from ginspec.spec.clauses import Example, registry

ORACLE_MAX_CARDS: Final = 13
"""Above this many cards the oracle's plain recursion is too slow; the example's value stands
alone (the runner then checks an answered arrangement card by card)."""


@dataclass(frozen=True)
class Unconverted:
    """An example that has no conformance form, and why."""

    example: str
    kind: str
    reason: str


def _source(ex: Example) -> dict[str, Any]:
    clause = registry()[ex.clause]
    return {"spec": f"{clause.path}#{ex.id}", "example": ex.id}


def _base(
    ex: Example, what: str, description: str, *, violated: bool, extra_clauses: tuple[str, ...] = ()
) -> dict[str, Any]:
    params = dict(ex.data.get("params", {}))
    return {
        "id": f"spec.{ex.id}",
        "kind": "query",
        "origin": "spec-example",
        "description": description,
        "clauses": [ex.clause, *extra_clauses],
        "violates": [ex.clause] if violated else [],
        "profile": None,
        "overrides": dict(ex.data.get("overrides", {})) | params,
        "requires": [f"query.{what}"],
        "source": _source(ex),
    }


def _card(ex: Example) -> list[Case]:
    d = ex.data
    token = str(d["token"])
    expect: dict[str, Any] = (
        {"error": True} if d.get("error") else {"canonical": str(d["canonical"])}
    )
    base = _base(ex, "card", f"the card token {token!r}", violated="error" in expect)
    if ex.clause == "CARD.ENCODING":  # untestable through the protocol: only the token is asked
        base["clauses"] = ["CARD.NOTATION"]
    return [Case.make(**base, query={"what": "card", "token": token}, expect=expect)]


def _meld(ex: Example) -> list[Case]:
    d = ex.data
    cards = card_list(d["cards"], distinct=False)
    valid = bool(d["valid"])
    tokens = [card_str(c) for c in cards]
    return [
        Case.make(
            **_base(ex, "meld", f"whether {' '.join(tokens)} is one meld", violated=not valid),
            query={"what": "meld", "cards": tokens},
            expect={"valid": valid},
        )
    ]


def _deadwood(ex: Example) -> list[Case]:
    d = ex.data
    cards = card_list(d["hand"])
    hand = text_cards(cards)
    params = dict(d.get("params", {}))
    expect: dict[str, Any] = {"deadwood": int(d["deadwood"])}
    if len(cards) <= ORACLE_MAX_CARDS:
        orc = oracle.optimum(cards, oracle_rules(params))
        keys = sorted(arrangement_key(list(a)) for a in orc.arrangements)
        if "melds" in d:
            given = arrangement_key([card_list(m) for m in d["melds"]])
            if given not in keys:
                raise OracleDisagreement(f"example {ex.id}: its melds are not an optimal arrangement")
        if len(keys) <= MAX_LISTED_ARRANGEMENTS:
            expect["optimal"] = keys
    cases = [
        Case.make(
            **_base(ex, "deadwood", f"minimum deadwood of {' '.join(hand)}", violated=False),
            query={"what": "deadwood", "cards": hand},
            expect=expect,
        )
    ]
    if "arrangements" in d:
        base = _base(
            ex,
            "arrangements",
            f"number of optimal arrangements of {' '.join(hand)}",
            violated=False,
        )
        base["id"] += ".arrangements"
        count = int(d["arrangements"])
        cases.append(
            Case.make(
                **base,
                query={"what": "arrangements", "cards": hand},
                expect={"count": count},
                decides=arrangements_decides(count),
            )
        )
    return cases


def _arrangement(ex: Example) -> list[Case]:
    d = ex.data
    cards = card_list(d["hand"])
    melds = [text_cards(card_list(m)) for m in d["melds"]]
    expect: dict[str, Any] = {"valid": bool(d["valid"])}
    if "deadwood" in d:
        expect["deadwood"] = int(d["deadwood"])
    return [
        Case.make(
            **_base(
                ex,
                "arrangement",
                f"whether {' / '.join(' '.join(m) for m in melds)} is a valid "
                f"arrangement of {' '.join(text_cards(cards))}",
                violated=not d["valid"],
            ),
            query={"what": "arrangement", "cards": text_cards(cards), "melds": melds},
            expect=expect,
        )
    ]


def _melds_count(ex: Example) -> list[Case]:
    d = ex.data
    cards = card_list(d["hand"])
    return [
        Case.make(
            **_base(ex, "melds-count", f"number of melds in {len(cards)} cards", violated=False),
            query={"what": "melds-count", "cards": text_cards(cards)},
            expect={"count": int(d["count"])},
            decides=melds_count_decides(cards),
        )
    ]


def _knock(ex: Example) -> list[Case]:
    d = ex.data
    cards = card_list(d["hand"])
    discards = sorted(text_cards(card_list(d["best_discards"])))
    expect: dict[str, Any] = {
        "deadwood": int(d["deadwood"]),
        "best_discards": discards,
        "can_knock": bool(d["can_knock"]),
        "gin": bool(d["gin"]),
    }
    if "big_gin" in d:
        expect["big_gin"] = bool(d["big_gin"])
    query: dict[str, Any] = {"what": "knock", "cards": text_cards(cards)}
    if "upcard" in d:
        query["upcard"] = card_str(parse_card(str(d["upcard"])))
    base = _base(ex, "knock", f"knock eligibility of {' '.join(text_cards(cards))}",
                 violated=not d["can_knock"])
    if "profile" in d:
        base["profile"] = str(d["profile"])
    return [Case.make(**base, query=query, expect=expect)]


def _knock_limit(ex: Example) -> list[Case]:
    d = ex.data
    upcard = card_str(parse_card(str(d["upcard"])))
    base = _base(ex, "knock-limit", f"the knock limit when the first upcard is {upcard}",
                 violated=False)
    base["profile"] = d.get("profile")
    return [Case.make(**base, query={"what": "knock-limit", "upcard": upcard},
                      expect={"limit": int(d["limit"])})]


def _play(ex: Example) -> list[Case]:
    """A position reached by legal actions from a deal, with what the spec says about it."""

    d = ex.data
    profile = str(d["profile"])
    overrides = dict(d.get("overrides", {}))
    deal = Deal.from_hands(d["non_dealer"], d["dealer_cards"], d.get("upcard"),
                           d.get("stock", ""), int(d.get("dealer", 0)))
    state = HandState.new(deal, rules_for_profile(profile, overrides))
    steps: list[dict[str, Any]] = []
    for text in d["actions"]:
        # Who acts is part of the input (the spec lists the actions in turn order).
        who: Any = CHANCE_PLAYER if state.to_move == CHANCE else state.to_move
        steps.append({"player": who, "action": str(parse_action(text)) if not text.startswith(
            ("declare", "meld")) else text, "expect": "accepted"})
        state = state.apply(text)
    point: dict[str, Any] = {"after": len(steps)}
    if "phase" in d:
        point["phase"] = d["phase"]
    if "to_move" in d:
        point["to_act"] = d["to_move"]
    if d.get("legal"):
        point["legal_includes"] = sorted({str(parse_action(t)) for t in d["legal"]})
    if d.get("illegal"):
        point["legal_excludes"] = sorted({str(parse_action(t)) for t in d["illegal"]})
    requires = ["hand"]
    if "legal_includes" in point or "legal_excludes" in point:
        requires.append("legal-actions")
    violates: list[str] = []
    if "rejected" in d:
        who = CHANCE_PLAYER if state.to_move == CHANCE else state.to_move
        if who is None:  # the hand is over: the last mover tries again
            who = steps[-1]["player"] if steps else 0
        step: dict[str, Any] = {"player": who, "action": str(d["rejected"]),
                                "expect": {"rejected": str(d["code"])}}
        clause = str(d.get("clause", ex.clause))
        if clause in registry():
            step["clause"] = clause
            violates.append(clause)
        steps.append(step)
        requires.append("rejection-codes")
    verbs = {s["action"].split()[0] for s in steps}
    if verbs & {"declare", "meld"}:
        requires.append("melding.explicit")
    if "layoff" in verbs:
        requires.append("layoff.explicit")
    result = {k: d[k] for k in ("outcome", "points") if k in d}
    checkpoints = [point] if len(point) > 1 else []
    extra: dict[str, Any] = {"result": result} if result else {}
    base = _base(ex, "play", f"a position of {profile} after {len(d['actions'])} actions",
                 violated=bool(violates))
    base.update(kind="hand", profile=profile, overrides=overrides, requires=requires,
                clauses=known([ex.clause, *DEAL_CLAUSES]), violates=violates,
                decides=[ex.clause] if result else [])
    return [Case.make(**base, deals=[{"dealer": deal.dealer, "deck": deal.tokens()}],
                      steps=steps, checkpoints=checkpoints, **extra)]


def _table_play(ex: Example) -> list[Case]:

    return table_play_example(ex)


CONVERTERS: Final[dict[str, Callable[[Example], list[Case]]]] = {
    "play": _play,
    "table-play": _table_play,
    "card": _card,
    "meld": _meld,
    "deadwood": _deadwood,
    "arrangement": _arrangement,
    "melds-count": _melds_count,
    "knock": _knock,
    "knock-limit": _knock_limit,
    **SCORING_CONVERTERS,
}

NOT_CONVERTED: Final[dict[str, str]] = {
    "cards": "lists of cards and the internal 52-bit encoding are not part of the adapter "
    "interface",
    "action": "the action grammar's canonical spelling is checked through every case's actions",
    "deal": "the deal is checked through every hand case, whose deals follow DEAL.DECK-ORDER and "
    "whose observations (hand sizes, upcard, stock size) the runner compares; what these examples "
    "add is the refusal of a deck that is not the 52 cards once each, which the protocol cannot "
    "send (a deal is 52 distinct cards by its schema)",
    "meld-rules": "parameter validation of the meld rules is checked by the reference's own tests",
    "ruleset": "checks ginspec's own profile catalogue and its refusal of impossible parameter "
    "combinations; an engine states the profiles and overrides it supports in hello and is never "
    "sent a combination it did not declare, so there is no question to ask it (the rules these "
    "examples illustrate are asked through score, match and play cases)",
}


def example_cases() -> tuple[list[Case], list[Unconverted]]:
    """Every convertible example of the installed spec as cases, and the rest with reasons."""
    cases: list[Case] = []
    skipped: list[Unconverted] = []
    for ex in registry().examples():
        convert = CONVERTERS.get(ex.kind)
        if convert is None:
            reason = NOT_CONVERTED.get(
                ex.kind, f"no conformance form for examples of kind {ex.kind!r} yet"
            )
            skipped.append(Unconverted(ex.id, ex.kind, reason))
            continue
        cases.extend(convert(ex))
    return cases, skipped

