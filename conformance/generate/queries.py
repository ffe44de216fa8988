"""Perft-style query cases: meld validity, meld counts, minimum deadwood with every
optimal arrangement, counts of optimal arrangements, and knock eligibility of 11-card hands.

Hands come from a seeded generator biased towards melds (random hands rarely hold any) plus a
list of hand-picked awkward hands. Each expected answer is computed twice — by the reference and
by the independent oracle (:mod:`ginspec.conformance.oracle`) — and a disagreement stops the build.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from ginspec.conformance import oracle
from ginspec.conformance.cases import Case
from ginspec.conformance.generate.common import id_cards, id_params, oracle_rules, text_cards
from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.melds import all_melds, analyse_discards, check_meld, optimal_arrangements
from ginspec.reference.typed_rules import to_rules
from ginspec.spec.cards import Card, parse_cards, sort_key
from ginspec.spec.errors import GinspecError

SEED: Final = 20261130
MAX_LISTED_ARRANGEMENTS: Final = 24
"""A deadwood case lists every optimal arrangement when there are at most this many."""


class OracleDisagreement(GinspecError):
    """The reference and the independent oracle gave different answers: no case is written."""


AWKWARD_HANDS: Final = (
    # OpenSpiel's test hands (conformance research §10), checked here against our own rules.
    "AS AC AD AH 2S 3S",
    "4S 4C 4D 4H 5S 5C 5D 5H 6S 6C 6D",
    "4S 4C 4D 4H 5S 5C 5D 6S 2C 3S 3C",
    # A card that fits a set and a run; the run wins by value.
    "7C 7D 7H 8H 9H 2S 3S 4S KD KC",
    # A long run that may be split or kept whole: arrangements that tie.
    "AH 2H 3H 4H 5H 6H 9C 9D 9S KS",
    # Four of a kind next to two runs that each want one of its cards.
    "8C 8D 8H 8S 6C 7C 9D TD 6H 7H",
    # Q-K-A and K-A-2 (no meld unless the profile allows it).
    "QS KS AS KH AH 2H 5D 6D 7D 3C",
    # Nothing melds; all face cards.
    "KC QD JH TS KD QH JS TC 9H 8S",
    # Gin with a 4-card set and two runs.
    "TC TD TH TS 2D 3D 4D 7S 8S 9S",
)


def _clustered_hand(rng: random.Random, size: int) -> list[Card]:
    """A hand built around a few ranks and a suit window, so that melds are common."""
    cards: set[Card] = set()
    while len(cards) < size:
        roll = rng.random()
        if roll < 0.35:
            rank = rng.randrange(13)
            for suit in rng.sample(range(4), rng.choice((2, 3, 3, 4))):
                cards.add(suit * 13 + rank)
        elif roll < 0.75:
            suit = rng.randrange(4)
            start = rng.randrange(13)
            for k in range(rng.choice((2, 3, 3, 4, 5))):
                if start + k < 13:
                    cards.add(suit * 13 + start + k)
        else:
            cards.add(rng.randrange(52))
    chosen = sorted(cards)
    rng.shuffle(chosen)
    return sorted(chosen[:size], key=sort_key)


def _meld_rules(params: Mapping[str, Any]) -> MeldRules:
    return MeldRules.from_params(params)


def arrangement_key(melds: Any) -> list[list[str]]:
    """The canonical form in which arrangements are compared: each meld's cards in display order,
    the melds sorted (as lists of tokens)."""
    return sorted(text_cards(m) for m in melds)


def deadwood_cases(
    cards: list[Card],
    params: Mapping[str, Any],
    origin: str = "query",
    source: dict[str, Any] | None = None,
    case_id: str = "",
    description: str = "",
) -> list[Case]:
    """A deadwood case (with the accepted arrangements) and an arrangement-count case."""
    rules = _meld_rules(params)
    ref = optimal_arrangements(cards, rules)
    orc = oracle.optimum(cards, oracle_rules(params))
    ref_keys = sorted(arrangement_key([m.cards for m in a.melds]) for a in ref)
    orc_keys = sorted(arrangement_key(list(a)) for a in orc.arrangements)
    if ref[0].deadwood != orc.deadwood or ref_keys != orc_keys:
        raise OracleDisagreement(
            f"deadwood of {' '.join(text_cards(cards))}: reference {ref[0].deadwood} with "
            f"{len(ref_keys)} arrangements, oracle {orc.deadwood} with {len(orc_keys)}"
        )
    base = case_id or f"q.deadwood.{id_cards(cards)}{id_params(params)}"
    clauses = ["DEADWOOD.MINIMUM", "CARD.VALUE", "MELD.SET", "MELD.RUN"]
    violates = [c for c in _decisive_meld_clauses(cards, params) if c != "MELD.SET"]
    expect: dict[str, Any] = {"deadwood": orc.deadwood}
    if len(orc_keys) <= MAX_LISTED_ARRANGEMENTS:
        expect["optimal"] = orc_keys
    hand = text_cards(cards)
    common = {"profile": None, "overrides": dict(params), "origin": origin}
    extra = {"source": source} if source else {}
    what = description or f"minimum deadwood of {' '.join(hand)}"
    return [
        Case.make(
            id=base,
            kind="query",
            description=what,
            clauses=clauses,
            violates=[v for v in violates if v.startswith("MELD.RUN.")],
            requires=["query.deadwood"],
            query={"what": "deadwood", "cards": hand},
            expect=expect,
            **common,
            **extra,
        ),
        Case.make(
            id=f"{base}.arrangements",
            kind="query",
            description=f"number of optimal arrangements of {' '.join(hand)}",
            clauses=["DEADWOOD.ARRANGEMENTS"],
            decides=arrangements_decides(len(orc_keys)),
            requires=["query.arrangements"],
            query={"what": "arrangements", "cards": hand},
            expect={"count": len(orc_keys)},
            **common,
            **extra,
        ),
    ]


def _decisive_meld_clauses(cards: list[Card], params: Mapping[str, Any]) -> list[str]:
    """Run clauses that a near-miss in the hand hits (Q-K-A or K-A-2 present)."""
    found = set()
    by_suit: dict[int, set[int]] = {}
    for c in cards:
        by_suit.setdefault(c // 13, set()).add(c % 13)
    for ranks in by_suit.values():
        if {11, 12, 0} <= ranks:
            found.add("MELD.RUN.ACE-LOW")
        if {12, 0, 1} <= ranks:
            found.add("MELD.RUN.NO-WRAP")
    return sorted(found)


def arrangements_decides(count: int) -> list[str]:
    """DEADWOOD.ARRANGEMENTS decides a count of optimal arrangements when there are several: an
    engine that reports one best arrangement, or merges arrangements that meld the same cards
    differently, answers another number."""
    return ["DEADWOOD.ARRANGEMENTS"] if count > 1 else []


def melds_count_decides(cards: Sequence[Card]) -> list[str]:
    """MELD.COUNT decides a meld count when a meld in the hand contains smaller melds (a set of
    four, a run of four or more): an engine that lists only the largest melds, or only disjoint
    ones, answers another number."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    for rank in range(13):
        if all(mask >> (suit * 13 + rank) & 1 for suit in range(4)):
            return ["MELD.COUNT"]
    for suit in range(4):
        for low in range(10):
            if all(mask >> (suit * 13 + low + k) & 1 for k in range(4)):
                return ["MELD.COUNT"]
    return []


def melds_count_case(cards: list[Card], params: Mapping[str, Any]) -> Case:
    """Perft-style: the number of melds a hand contains (MELD.COUNT)."""
    rules = _meld_rules(params)
    ref = len(all_melds(cards, rules))
    orc = len(oracle.all_melds(cards, oracle_rules(params)))
    if ref != orc:
        raise OracleDisagreement(
            f"melds in {' '.join(text_cards(cards))}: reference {ref}, oracle {orc}"
        )
    hand = text_cards(cards)
    return Case.make(
        id=f"q.melds-count.{id_cards(cards) if len(cards) < 20 else f'n{len(cards)}'}"
        f"{id_params(params)}",
        kind="query",
        origin="query",
        description=f"number of melds in {' '.join(hand)}",
        clauses=["MELD.COUNT", "MELD.SET", "MELD.RUN"],
        decides=melds_count_decides(cards),
        profile=None,
        overrides=dict(params),
        requires=["query.melds-count"],
        query={"what": "melds-count", "cards": hand},
        expect={"count": orc},
    )


def meld_case(cards: list[Card], params: Mapping[str, Any]) -> Case:
    """Is this group of cards one meld? The case names the clause that decides."""
    rules = _meld_rules(params)
    ref = check_meld(cards, rules).valid
    orc, clause = oracle.meld_verdict(cards, oracle_rules(params))
    if ref != orc:
        raise OracleDisagreement(
            f"meld {' '.join(text_cards(cards))}: reference {ref}, oracle {orc}"
        )
    group = text_cards(cards)
    return Case.make(
        id=f"q.meld.{id_cards(cards)}{id_params(params)}",
        kind="query",
        origin="query",
        description=f"whether {' '.join(group)} is one meld",
        clauses=[clause],
        violates=[] if orc else [clause],
        profile=None,
        overrides=dict(params),
        requires=["query.meld"],
        query={"what": "meld", "cards": group},
        expect={"valid": orc},
    )


def knock_case(cards: list[Card], params: Mapping[str, Any]) -> Case:
    """Knock and gin eligibility of an 11-card hand: the best discard decides (KNOCK.ELIGIBLE)."""
    rules = _meld_rules(params)
    limit = to_rules(params).knock_limit
    ref = analyse_discards(cards, rules)
    orc_rules = oracle_rules(params)
    after = oracle.deadwood_after_discard(cards, orc_rules)
    best = min(after.values())
    best_discards = sorted(text_cards(c for c, d in after.items() if d == best))
    big_gin = oracle.optimum(cards, orc_rules).deadwood == 0
    if (
        ref.deadwood != best
        or sorted(text_cards(ref.best_discards)) != best_discards
        or ref.big_gin != big_gin
    ):
        raise OracleDisagreement(
            f"knock with {' '.join(text_cards(cards))}: reference and oracle differ"
        )
    hand = text_cards(cards)
    can_knock = best <= limit
    clauses = ["KNOCK.ELIGIBLE", "KNOCK.LIMIT", "KNOCK.GIN", "DEADWOOD.MINIMUM"]
    violates = [] if can_knock else ["KNOCK.LIMIT"]
    if big_gin:
        clauses.append("KNOCK.BIG-GIN-SHAPE")
    return Case.make(
        id=f"q.knock.{id_cards(cards)}{id_params(params)}",
        kind="query",
        origin="query",
        description=f"knock eligibility of {' '.join(hand)} (knock limit {limit})",
        clauses=clauses,
        violates=violates,
        profile=None,
        overrides=dict(params),
        requires=["query.knock"],
        query={"what": "knock", "cards": hand},
        expect={
            "deadwood": best,
            "best_discards": best_discards,
            "can_knock": can_knock,
            "gin": best == 0,
            "big_gin": big_gin,
        },
    )


PARAM_VARIANTS: Final[tuple[dict[str, Any], ...]] = (
    {},
    {"ace_high_runs": True},
    {"ace_high_runs": True, "wraparound_runs": True},
)


def query_cases(seed: int = SEED) -> Iterator[Case]:
    """Every generated query case, in a fixed order."""
    rng = random.Random(seed)
    for text in AWKWARD_HANDS:
        cards = parse_cards(text)
        for params in PARAM_VARIANTS:
            yield from deadwood_cases(cards, params)
            yield melds_count_case(cards, params)
    full_deck = list(range(52))
    yield melds_count_case(full_deck, {})
    yield melds_count_case(full_deck, {"ace_high_runs": True})
    # Meld validity: near-melds of 3 to 5 cards in every shape.
    for n in range(90):
        params = PARAM_VARIANTS[n % 3] if n % 5 == 0 else {}
        size = rng.choice((3, 3, 4, 5))
        if rng.random() < 0.5:
            suit = rng.randrange(4)
            start = rng.randrange(13)
            ranks = [(start + k) % 13 for k in range(size)]
            if rng.random() < 0.3:
                ranks[rng.randrange(size)] = rng.randrange(13)
            group = sorted({suit * 13 + r for r in ranks})
        else:
            rank = rng.randrange(13)
            group = sorted({s * 13 + rank for s in rng.sample(range(4), min(size, 4))})
            if rng.random() < 0.3:
                group[0] = rng.randrange(52)
                group = sorted(set(group))
        yield meld_case(group, params)
    for n in range(80):
        params = PARAM_VARIANTS[1] if n % 8 == 7 else {}
        size = rng.choice((7, 9, 10, 10, 10))
        yield from deadwood_cases(_clustered_hand(rng, size), params)
    for _ in range(30):
        yield melds_count_case(_clustered_hand(rng, rng.choice((8, 10, 11, 13))), {})
    for n in range(100):
        knock_params: dict[str, Any] = {}
        if n % 10 == 3:
            knock_params = {"knock_limit": rng.choice((0, 1, 5, 7))}
        elif n % 10 == 9:
            knock_params = {"ace_high_runs": True}
        yield knock_case(_clustered_hand(rng, 11), knock_params)
