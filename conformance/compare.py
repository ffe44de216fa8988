"""Comparing an adapter's answers with a case's expectations (accept every correct
answer). Each check returns ``None`` when the answer is right, else a :class:`Mismatch`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ginspec.conformance import oracle
from ginspec.conformance.cases.query_kinds import QUERY_KINDS
from ginspec.conformance.compare_showdown import check_showdown_query
from ginspec.conformance.compare_systems import check_system_query
from ginspec.conformance.generate.common import oracle_rules
from ginspec.conformance.mismatch import Mismatch, arrangement_key, canonical_cards, same
from ginspec.spec.cards import parse_card


def _same_fields(
    names: tuple[str, ...], expect: Mapping[str, Any], answer: Mapping[str, Any]
) -> Mismatch | None:
    for name in names:
        if name in expect:
            bad = same(name, expect[name], answer)
            if bad:
                return bad
    return None


def check_query(
    what: str,
    query: Mapping[str, Any],
    expect: Mapping[str, Any],
    overrides: Mapping[str, Any],
    answer: Mapping[str, Any],
    *,
    profile: str | None = None,
    codes: bool = True,
) -> Mismatch | None:
    """Compare a query answer with the expectation, as the kind's entry in ``QUERY_KINDS``
    says (``codes``: the adapter declared ``rejection-codes``, so a declaration's refusal code
    is compared too)."""
    kind = QUERY_KINDS.get(what)
    if kind is None:
        return Mismatch("query", what, None, "unknown query")
    if kind.family == "showdown":
        return check_showdown_query(what, query, expect, answer, codes=codes)
    if kind.family == "system" or kind.comparison is None:
        return check_system_query(what, expect, answer)
    how = kind.comparison
    first = how.fields[0]
    if how.error and expect.get("error"):
        if answer.get("error") is True:
            return None
        return Mismatch("error", True, answer.get(first, answer.get("error")), how.error_means)
    if how.error and answer.get("error"):
        return Mismatch(first, expect[first], "error", str(answer.get("message", "")))
    for name in how.per_hand:
        if name in expect:
            bad = _per_hand(name, expect[name], answer.get(name))
            if bad:
                return bad
    if how.gate is not None:
        bad = same(how.gate, expect[how.gate], answer)
        if bad or not expect[how.gate]:
            return bad
    bad = _same_fields(how.fields, expect, answer)
    if bad:
        return bad
    for name in how.any_order:
        got = canonical_cards(answer.get(name))
        want = sorted(expect[name])
        if got is None or sorted(got) != want:
            return Mismatch(name, want, answer.get(name), "any order")
    if how.arrangement and "melds" in answer:
        return _check_arrangement(query, expect, overrides, answer["melds"])
    return None


def _per_hand(name: str, want: list[Any], got: Any) -> Mismatch | None:
    """A list with an item per hand: the first item that differs, over the hands both lists
    have (where one game ends earlier, the fields after the gate say so)."""
    if not isinstance(got, list):
        return Mismatch(name, want, got)
    for i, (w, g) in enumerate(zip(want, got, strict=False)):
        bad = same(f"{name}[{i}]", w, {f"{name}[{i}]": g})
        if bad:
            return bad
    return None


def _check_arrangement(
    query: Mapping[str, Any], expect: Mapping[str, Any], overrides: Mapping[str, Any], melds: Any
) -> Mismatch | None:
    """An optional arrangement in a deadwood answer must be one of the optimal ones."""
    key = arrangement_key(melds)
    if key is None:
        return Mismatch("melds", "melds as lists of card tokens", melds)
    if "optimal" in expect:
        accepted = [sorted(a) for a in expect["optimal"]]
        if key not in accepted:
            return Mismatch(
                "melds",
                accepted[0]
                if len(accepted) == 1
                else f"one of {len(accepted)} optimal arrangements",
                key,
            )
        return None
    # Too many optimal arrangements to list: check this one with the oracle.
    rules = oracle_rules(overrides)
    hand = {parse_card(t) for t in query["cards"]}
    used: set[int] = set()
    for meld in key:
        cards = [parse_card(t) for t in meld]
        if not oracle.meld_verdict(cards, rules)[0] or set(cards) - hand or used & set(cards):
            return Mismatch("melds", "disjoint melds of the hand", key)
        used |= set(cards)
    dead = sum(oracle.value(c, rules) for c in hand - used)
    if dead != expect["deadwood"]:
        return Mismatch(
            "melds", f"an arrangement with deadwood {expect['deadwood']}", key, f"leaves {dead}"
        )
    return None


def check_verdict(
    expected: Any, accepted: bool, code: str | None, compare_codes: bool = True
) -> Mismatch | None:
    """A step's verdict: ``"accepted"`` or ``{"rejected": CODE}``."""
    if expected == "accepted":
        return None if accepted else Mismatch("verdict", "accepted", f"rejected {code}")
    want = expected["rejected"]
    if accepted:
        return Mismatch("verdict", f"rejected {want}", "accepted")
    if compare_codes and code != want:
        return Mismatch("verdict", f"rejected {want}", f"rejected {code}")
    return None


def check_checkpoint(
    point: Mapping[str, Any], observation: Mapping[str, Any], legal: list[str] | None
) -> Mismatch | None:
    """Each expected observation field; legal actions compare as sets."""
    for name, want in point.items():
        if name == "after":
            continue
        if name == "legal_actions":
            got = sorted(legal or [])
            if got != sorted(want):
                missing = sorted(set(want) - set(got))
                extra = sorted(set(got) - set(want))
                return Mismatch(
                    "legal_actions", sorted(want), got, f"missing {missing}, extra {extra}"
                )
            continue
        if name in ("legal_includes", "legal_excludes"):
            have = set(legal or [])
            wrong = sorted(set(want) - have) if name == "legal_includes" else \
                sorted(set(want) & have)
            if wrong:
                return Mismatch(name, sorted(want), sorted(have),
                                f"{'not legal' if name == 'legal_includes' else 'legal'}: {wrong}")
            continue
        if name == "legal_count":
            got_n = len(legal or [])
            if got_n != want:
                return Mismatch("legal_count", want, got_n)
            continue
        seen = observation.get(name)
        if name == "hands":  # each seat's cards, in any order (observe.hands)
            if not isinstance(seen, list) or len(seen) != len(want) or any(
                    canonical_cards(g) != canonical_cards(w) for g, w in zip(seen, want, strict=False)):
                return Mismatch(name, want, seen, "each seat's cards, in any order")
            continue
        if isinstance(want, bool) != isinstance(seen, bool) or seen != want:
            return Mismatch(name, want, seen)
    return None


RESULT_ORDER: Final = ("knocker", "deadwood", "outcome", "winner", "points", "penalties",
                       "boxes")
"""A hand result's fields in the order they follow from one another: who knocked, then the
deadwood after the showdown, which decides the outcome, its winner, the points and the boxes.
The first field that differs in this order is the cause; the fields after it are follow-ons."""


def causal_order(names: list[str]) -> list[str]:
    """``names`` (fields of a result that differ) in :data:`RESULT_ORDER`; fields it does not
    name (a match result's) keep their order after those it names."""
    return sorted(names, key=lambda n: RESULT_ORDER.index(n) if n in RESULT_ORDER
                  else len(RESULT_ORDER))


def check_result(expected: Mapping[str, Any], actual: Mapping[str, Any] | None) -> Mismatch | None:
    """Every expected result field must match exactly; the first that differs in
    :data:`RESULT_ORDER` is reported (the cause, not one of its follow-ons)."""
    if actual is None:
        return Mismatch("result", expected, None, "the hand is not over")
    for name in causal_order(list(expected)):
        want = expected[name]
        got = actual.get(name)
        if isinstance(want, bool) != isinstance(got, bool) or got != want:
            return Mismatch(f"result.{name}", want, got)
    return None
