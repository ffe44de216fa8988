"""Every example in the spec chapters runs as a test against the reference.

The example kinds and their fields are documented in spec/README.md ("Chapter format"). An
example of an unknown kind, or with a missing or unknown field, fails: the spec's examples are
tests, so none may be silently skipped. Expected values in the examples are worked out from the
rules, never copied from the reference.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest
from example_kinds_engine import CHECKS as ENGINE_CHECKS
from example_kinds_engine import FIELDS as ENGINE_FIELDS
from example_kinds_multiplayer import CHECKS as MULTIPLAYER_CHECKS
from example_kinds_multiplayer import FIELDS as MULTIPLAYER_FIELDS
from example_kinds_rules import CHECKS as RULES_CHECKS
from example_kinds_rules import FIELDS as RULES_FIELDS
from example_kinds_showdown import CHECKS as SHOWDOWN_CHECKS
from example_kinds_showdown import FIELDS as SHOWDOWN_FIELDS
from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.melds import (
    all_melds,
    analyse_discards,
    check_arrangement,
    check_meld,
    min_deadwood,
    optimal_arrangements,
)
from ginspec.reference.scoring import knock_limit_for
from ginspec.spec.cards import (
    Card,
    card_str,
    card_value,
    format_cards,
    mask_of,
    parse_card,
    parse_cards,
)
from ginspec.spec.clauses import Example, registry
from ginspec.spec.errors import CardError, DuplicateCardError, MeldError, ParameterError
from ginspec.spec.parameters import Value, parameter

Check = Callable[[Example], None]

# kind -> (required fields, optional fields)
FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "card": (frozenset({"token"}), frozenset({"canonical", "error", "number", "value", "params"})),
    "cards": (frozenset({"cards"}), frozenset({"canonical", "error", "count", "mask"})),
    "meld": (frozenset({"cards", "valid"}), frozenset({"meld_type", "params"})),
    "meld-rules": (frozenset({"params", "valid"}), frozenset()),
    "deadwood": (
        frozenset({"hand", "deadwood"}),
        frozenset({"melds", "arrangements", "all_arrangements", "params"}),
    ),
    "arrangement": (
        frozenset({"hand", "melds", "valid"}),
        frozenset({"deadwood", "deadwood_cards", "reason", "params"}),
    ),
    "knock": (
        frozenset({"hand", "deadwood", "best_discards", "can_knock", "gin"}),
        frozenset({"big_gin", "upcard", "params"}),
    ),
    "melds-count": (frozenset({"hand", "count"}), frozenset({"params"})),
}

ARRANGEMENT_REASONS: dict[str, str] = {
    # reason keyword in the spec -> the text the reference puts in its MeldError message
    "not-a-meld": "not a meld",
    "not-in-hand": "not in the hand",
    "shared-card": "shares",
}


def _params(ex: Example) -> dict[str, Value]:
    """The example's parameters, each checked against the catalogue (a typo fails the test)."""
    raw: Mapping[str, Any] = ex.data.get("params", {})
    return {name: parameter(name).check(value) for name, value in raw.items()}


def _rules(ex: Example) -> MeldRules:
    return MeldRules.from_params(_params(ex))


def _cards(text: str) -> list[Card]:
    return parse_cards(text)


def _meld_text(cards: list[Card]) -> str:
    return " ".join(card_str(c) for c in cards)


def check_card(ex: Example) -> None:
    d = ex.data
    if d.get("error"):
        with pytest.raises(CardError):
            parse_card(d["token"])
        return
    card = parse_card(d["token"])
    assert card_str(card) == d["canonical"]
    if "number" in d:
        assert card == d["number"]
    if "value" in d:
        assert card_value(card, _rules(ex).ace_value) == d["value"]


def check_cards(ex: Example) -> None:
    d = ex.data
    error = d.get("error")
    if error == "duplicate":
        with pytest.raises(DuplicateCardError):
            parse_cards(d["cards"])
        return
    if error == "unknown":
        with pytest.raises(CardError) as info:
            parse_cards(d["cards"])
        assert not isinstance(info.value, DuplicateCardError)
        return
    assert error is None, f"unknown error kind {error!r}"
    cards = parse_cards(d["cards"])
    if "canonical" in d:
        assert format_cards(cards) == d["canonical"]
    if "count" in d:
        assert len(cards) == d["count"]
    if "mask" in d:
        assert mask_of(cards) == d["mask"]


def check_meld_kind(ex: Example) -> None:
    d = ex.data
    cards = parse_cards(d["cards"], distinct=False)
    result = check_meld(cards, _rules(ex))
    assert result.valid is d["valid"], result.reason
    if "meld_type" in d:
        assert result.kind is not None and result.kind.value == d["meld_type"]


def check_meld_rules(ex: Example) -> None:
    if ex.data["valid"]:
        _rules(ex)
    else:
        with pytest.raises(ParameterError):
            _rules(ex)


def _arrangement_text(melds: Any) -> str:
    return " / ".join(str(m) for m in melds)


def check_deadwood(ex: Example) -> None:
    d = ex.data
    rules = _rules(ex)
    hand = _cards(d["hand"])
    assert min_deadwood(hand, rules) == d["deadwood"]
    wants_list = {"melds", "arrangements", "all_arrangements"} & d.keys()
    if not wants_list:
        return
    optimal = optimal_arrangements(hand, rules)
    assert all(a.deadwood == d["deadwood"] for a in optimal)
    if "melds" in d:
        declared = check_arrangement(hand, [_cards(m) for m in d["melds"]], rules)
        assert declared.deadwood == d["deadwood"]
        assert declared.key in {a.key for a in optimal}
    if "arrangements" in d:
        assert len(optimal) == d["arrangements"]
    if "all_arrangements" in d:
        assert [_arrangement_text(a.melds) for a in optimal] == d["all_arrangements"]


def check_arrangement_kind(ex: Example) -> None:
    d = ex.data
    rules = _rules(ex)
    hand = _cards(d["hand"])
    melds = [parse_cards(m, distinct=False) for m in d["melds"]]
    if not d["valid"]:
        with pytest.raises(MeldError) as info:
            check_arrangement(hand, melds, rules)
        if "reason" in d:
            assert d["reason"] in ARRANGEMENT_REASONS, f"unknown reason {d['reason']!r}"
            assert ARRANGEMENT_REASONS[d["reason"]] in str(info.value)
        return
    assert "reason" not in d
    arrangement = check_arrangement(hand, melds, rules)
    if "deadwood" in d:
        assert arrangement.deadwood == d["deadwood"]
    if "deadwood_cards" in d:
        assert _meld_text(list(arrangement.deadwood_cards)) == d["deadwood_cards"]


def check_knock(ex: Example) -> None:
    d = ex.data
    params = _params(ex)
    rules = MeldRules.from_params(params)
    upcard = parse_card(d["upcard"]) if "upcard" in d else None
    knock_limit = knock_limit_for(params, upcard)
    hand = _cards(d["hand"])
    assert upcard not in hand, "the upcard cannot also be in the hand"
    assert len(hand) == 11, "a knock example needs the 11 cards held after the draw"
    analysis = analyse_discards(hand, rules)
    assert analysis.deadwood == d["deadwood"]
    assert [card_str(c) for c in analysis.best_discards] == d["best_discards"]
    # KNOCK.LIMIT and KNOCK.GIN: the decision from the deadwood after the best discard.
    assert (analysis.deadwood <= knock_limit) is d["can_knock"]
    assert (analysis.deadwood == 0) is d["gin"]
    if "big_gin" in d:
        assert analysis.big_gin is d["big_gin"]


def check_melds_count(ex: Example) -> None:
    d = ex.data
    assert len(all_melds(_cards(d["hand"]), _rules(ex))) == d["count"]


CHECKS: dict[str, Check] = {
    "card": check_card,
    "cards": check_cards,
    "meld": check_meld_kind,
    "meld-rules": check_meld_rules,
    "deadwood": check_deadwood,
    "arrangement": check_arrangement_kind,
    "knock": check_knock,
    "melds-count": check_melds_count,
}

# The kinds of the rules chapters (05-12: score, match, ruleset, knock-limit, next-dealer).
FIELDS.update(RULES_FIELDS)
CHECKS.update(RULES_CHECKS)
FIELDS.update(SHOWDOWN_FIELDS)
CHECKS.update(SHOWDOWN_CHECKS)
FIELDS.update(ENGINE_FIELDS)  # chapter 15: action, play
CHECKS.update(ENGINE_CHECKS)
FIELDS.update(MULTIPLAYER_FIELDS)  # chapter 14: table game, three players, partnerships, Hollywood
CHECKS.update(MULTIPLAYER_CHECKS)

EXAMPLES = list(registry().examples())


def test_every_kind_has_a_check() -> None:
    assert set(CHECKS) == set(FIELDS)


def test_the_spec_has_examples() -> None:
    assert len(EXAMPLES) >= 50


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_example(example: Example) -> None:
    if example.kind not in CHECKS:
        pytest.fail(
            f"{example.id} ({example.clause}): unknown example kind {example.kind!r}; "
            "add a check here and document the kind in spec/README.md"
        )
    required, optional = FIELDS[example.kind]
    fields = set(example.data)
    missing = required - fields
    unknown = fields - required - optional
    assert not missing, f"{example.id}: missing field(s) {sorted(missing)}"
    assert not unknown, f"{example.id}: unknown field(s) {sorted(unknown)}"
    CHECKS[example.kind](example)


# --- an independent check of the examples' expected values ------------------------------------
#
# The expected values in the chapters were worked out by hand. As a second, independent check,
# the examples about hands of at most 13 cards are re-derived here by brute force written straight
# from the clause text (every subset of cards that is a meld; every choice of disjoint melds),
# sharing no code with the reference. A wrong expected value then fails twice, here and above.

MAX_BRUTE_FORCE_CARDS = 13


def _bf_is_meld(cards: tuple[Card, ...], ace_high: bool, wrap: bool) -> bool:
    """MELD.SET / MELD.RUN / MELD.RUN.ACE-LOW / MELD.RUN.NO-WRAP, from the text."""
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return False
    ranks = {c % 13 for c in cards}
    if len(ranks) == 1:
        return True  # at most four suits, so at most four cards
    if len({c // 13 for c in cards}) != 1 or len(ranks) != len(cards):
        return False
    n = len(cards)
    # the ranks in run order: ace low (0..12), ace high (1..12, then the ace), or around a circle
    stretches = [set(range(start, start + n)) for start in range(0, 14 - n)]
    if ace_high:
        stretches.append({(13 - n + 1 + k) % 13 for k in range(n)})
    if wrap:
        stretches.extend({(start + k) % 13 for k in range(n)} for start in range(13))
    return ranks in stretches


def _bf_melds(hand: list[Card], ace_high: bool, wrap: bool) -> list[frozenset[Card]]:
    from itertools import combinations

    ordered = sorted(hand)
    return [
        frozenset(combo)
        for size in range(3, len(ordered) + 1)
        for combo in combinations(ordered, size)
        if _bf_is_meld(combo, ace_high, wrap)
    ]


def _bf_value(card: Card, ace_value: int) -> int:
    rank = card % 13
    return ace_value if rank == 0 else min(rank + 1, 10)


def _bf_optimum(hand: list[Card], rules: MeldRules) -> tuple[int, list[list[tuple[Card, ...]]]]:
    """Minimum deadwood and every optimal arrangement (melds as sorted card tuples), sorted."""
    melds = _bf_melds(hand, rules.ace_high_runs, rules.wraparound_runs)
    results: list[tuple[int, list[frozenset[Card]]]] = []

    def walk(i: int, used: frozenset[Card], chosen: list[frozenset[Card]]) -> None:
        if i == len(melds):
            dead = sum(_bf_value(c, rules.ace_value) for c in hand if c not in used)
            results.append((dead, list(chosen)))
            return
        walk(i + 1, used, chosen)
        if not melds[i] & used:
            chosen.append(melds[i])
            walk(i + 1, used | melds[i], chosen)
            chosen.pop()

    walk(0, frozenset(), [])
    best = min(dead for dead, _ in results)
    optimal = sorted(
        sorted(tuple(sorted(m)) for m in chosen) for dead, chosen in results if dead == best
    )
    return best, optimal


def _as_keys(arrangement_text: str) -> list[tuple[Card, ...]]:
    return [tuple(sorted(parse_cards(m))) for m in arrangement_text.split("/") if m.strip()]


BRUTE_FORCE_KINDS = ("deadwood", "knock", "melds-count")
SMALL_EXAMPLES = [
    e
    for e in EXAMPLES
    if e.kind in BRUTE_FORCE_KINDS and len(parse_cards(e.data["hand"])) <= MAX_BRUTE_FORCE_CARDS
]


def test_brute_force_covers_the_examples() -> None:
    assert {e.kind for e in SMALL_EXAMPLES} == set(BRUTE_FORCE_KINDS)


def _bf_count_melds(hand: list[Card], ace_high: bool, wrap: bool) -> int:
    """MELD.COUNT for a hand of any size: sets rank by rank, runs as subsets of one suit."""
    from itertools import combinations
    from math import comb

    total = 0
    for rank in range(13):
        held = sum(1 for c in hand if c % 13 == rank)
        total += comb(held, 3) + comb(held, 4)
    for suit in range(4):
        cards = sorted(c for c in hand if c // 13 == suit)
        total += sum(
            1
            for size in range(3, len(cards) + 1)
            for combo in combinations(cards, size)
            if _bf_is_meld(combo, ace_high, wrap)
        )
    return total


COUNT_EXAMPLES = [e for e in EXAMPLES if e.kind == "melds-count"]


@pytest.mark.parametrize("example", COUNT_EXAMPLES, ids=[e.id for e in COUNT_EXAMPLES])
def test_meld_count_by_enumeration(example: Example) -> None:
    """The counts, including the whole pack's 329, re-derived without the reference."""
    rules = _rules(example)
    hand = parse_cards(example.data["hand"])
    assert _bf_count_melds(hand, rules.ace_high_runs, rules.wraparound_runs) == example.data["count"]


@pytest.mark.parametrize("example", SMALL_EXAMPLES, ids=[e.id for e in SMALL_EXAMPLES])
def test_example_by_brute_force(example: Example) -> None:
    d = example.data
    rules = _rules(example)
    hand = parse_cards(d["hand"])
    if example.kind == "melds-count":
        assert len(_bf_melds(hand, rules.ace_high_runs, rules.wraparound_runs)) == d["count"]
    elif example.kind == "deadwood":
        best, optimal = _bf_optimum(hand, rules)
        assert best == d["deadwood"]
        if "arrangements" in d:
            assert len(optimal) == d["arrangements"]
        if "melds" in d:
            assert sorted(tuple(sorted(parse_cards(m))) for m in d["melds"]) in optimal
        if "all_arrangements" in d:
            assert [_as_keys(text) for text in d["all_arrangements"]] == optimal
    else:
        after = {card: _bf_optimum([c for c in hand if c != card], rules)[0] for card in hand}
        best = min(after.values())
        assert best == d["deadwood"]
        assert sorted(c for c in hand if after[c] == best) == parse_cards(" ".join(d["best_discards"]))
        if "big_gin" in d:
            assert (_bf_optimum(hand, rules)[0] == 0) is d["big_gin"]
