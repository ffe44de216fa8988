"""An independent, deliberately slow meld oracle for the tests of ``ginspec.reference.melds``.

Nothing here imports the engine: melds are enumerated from the rules as written in the spec
(MELD.SET, MELD.RUN, MELD.RUN.ACE-LOW, MELD.RUN.NO-WRAP), and the optimum is found by brute force.

* :func:`oracle_melds` — every meld of a hand, by testing every subset of each rank and each suit.
* :func:`oracle_partitions` — every packing of pairwise-disjoint melds (each exactly once).
* :func:`oracle_min_deadwood_memo` — a memoised search over "the lowest remaining card is either
  deadwood or in some meld", fast enough for 52-card hands; it shares no code with the engine and
  is itself checked against :func:`oracle_partitions` on small hands.

Cards use the documented encoding (CARD.ENCODING): ``card = suit * 13 + rank``, ace = rank 0.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

RANKS = 13


@dataclass(frozen=True)
class Rules:
    """The meld variants, spelled out independently of ``MeldRules``."""

    ace_high: bool = False
    wrap: bool = False
    ace_value: int = 1


def rank(card: int) -> int:
    return card % RANKS


def suit(card: int) -> int:
    return card // RANKS


def value(card: int, rules: Rules) -> int:
    """CARD.VALUE: ace 1 (or the variant's value), two to nine face value, ten and courts 10."""
    r = rank(card)
    if r == 0:
        return rules.ace_value
    return 10 if r >= 9 else r + 1


def is_run_ranks(ranks: frozenset[int], rules: Rules) -> bool:
    """Whether distinct ranks of one suit (3 or more) are consecutive under ``rules``."""
    if len(ranks) < 3:
        return False
    if max(ranks) - min(ranks) + 1 == len(ranks):
        return True  # consecutive with the ace low
    if rules.ace_high and 0 in ranks:
        high = {13 if r == 0 else r for r in ranks}
        if max(high) - min(high) + 1 == len(high):
            return True  # consecutive with the ace above the king
    if rules.wrap:
        # A circular stretch: at most one held rank whose successor (mod 13) is missing.
        ends = sum(1 for r in ranks if (r + 1) % RANKS not in ranks)
        return ends <= 1
    return False


def meld_kind(cards: Sequence[int], rules: Rules) -> str | None:
    """``'set'``, ``'run'`` or None for distinct cards."""
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return None
    ranks = {rank(c) for c in cards}
    suits = {suit(c) for c in cards}
    if len(ranks) == 1:
        return "set"
    if len(suits) == 1 and is_run_ranks(frozenset(ranks), rules):
        return "run"
    return None


def oracle_melds(hand: Sequence[int], rules: Rules) -> list[frozenset[int]]:
    """Every meld in ``hand``: every 3- or 4-subset of a rank, every run-shaped subset of a suit."""
    out: list[frozenset[int]] = []
    for r in range(RANKS):
        same = [c for c in hand if rank(c) == r]
        for size in (3, 4):
            out.extend(frozenset(combo) for combo in combinations(same, size))
    for s in range(4):
        same = sorted(c for c in hand if suit(c) == s)
        for size in range(3, len(same) + 1):
            for combo in combinations(same, size):
                if is_run_ranks(frozenset(rank(c) for c in combo), rules):
                    out.append(frozenset(combo))
    return out


Partition = tuple[frozenset[int], ...]


def oracle_partitions(hand: Sequence[int], rules: Rules) -> Iterator[Partition]:
    """Every set of pairwise-disjoint melds of ``hand`` (including none), each exactly once.

    The smallest card not yet decided is either left over or put in one meld that contains it
    and no card already used; so every packing appears once.
    """
    melds = oracle_melds(hand, rules)
    by_card: dict[int, list[frozenset[int]]] = {c: [] for c in hand}
    for m in melds:
        by_card[min(m)].append(m)
    order = sorted(hand)

    def walk(i: int, used: frozenset[int], chosen: Partition) -> Iterator[Partition]:
        while i < len(order) and order[i] in used:
            i += 1
        if i == len(order):
            yield chosen
            return
        card = order[i]
        yield from walk(i + 1, used, chosen)  # card left over (or covered later: impossible)
        for m in by_card[card]:
            if not m & used:
                yield from walk(i + 1, used | m, (*chosen, m))

    # A meld's smallest card is where it is chosen, so cards skipped at step i stay deadwood.
    return walk(0, frozenset(), ())


def deadwood_of(hand: Sequence[int], partition: Partition, rules: Rules) -> int:
    covered = frozenset().union(*partition) if partition else frozenset()
    return sum(value(c, rules) for c in hand if c not in covered)


def oracle_optimum(hand: Sequence[int], rules: Rules) -> tuple[int, list[Partition]]:
    """The least deadwood and every packing that reaches it."""
    best = 1 << 30
    found: list[Partition] = []
    for p in oracle_partitions(hand, rules):
        d = deadwood_of(hand, p, rules)
        if d < best:
            best, found = d, [p]
        elif d == best:
            found.append(p)
    return best, found


def oracle_min_deadwood(hand: Sequence[int], rules: Rules) -> int:
    return oracle_optimum(hand, rules)[0]


def oracle_min_deadwood_memo(hand: Sequence[int], rules: Rules) -> int:
    """Least deadwood by a memoised search, for hands of any size.

    Cards are taken in rank-major order (all aces, then all twos, ...). The lowest remaining
    card is either deadwood or in a meld made of remaining cards; every meld containing it is
    tried (sets of its rank; runs in its suit, found by testing every stretch through it).
    """
    held = frozenset(hand)

    def key(c: int) -> tuple[int, int]:
        return (rank(c), suit(c))

    order = sorted(held, key=key)
    pos = {c: i for i, c in enumerate(order)}

    def melds_with(card: int, remaining: frozenset[int]) -> list[frozenset[int]]:
        r, s = rank(card), suit(card)
        out: list[frozenset[int]] = []
        others = [c for c in remaining if rank(c) == r and c != card]
        for size in (2, 3):
            out.extend(frozenset((card, *combo)) for combo in combinations(others, size))
        in_suit = {rank(c) for c in remaining if suit(c) == s}
        # Every circular stretch of held ranks through r; is_run_ranks decides which are runs.
        back = 0
        while back < RANKS - 1 and (r - back - 1) % RANKS in in_suit:
            back += 1
        for start_off in range(back + 1):
            start = r - start_off
            length = start_off + 1
            while True:
                ranks = frozenset((start + k) % RANKS for k in range(length))
                if length >= 3 and is_run_ranks(ranks, rules):
                    out.append(frozenset(s * RANKS + x for x in ranks))
                if length == RANKS or (start + length) % RANKS not in in_suit:
                    break
                length += 1
        return list(set(out))

    @cache
    def best(remaining: frozenset[int]) -> int:
        if not remaining:
            return 0
        card = min(remaining, key=pos.__getitem__)
        rest = remaining - {card}
        result = value(card, rules) + best(rest)
        for m in melds_with(card, remaining):
            result = min(result, best(remaining - m))
        return result

    return best(held)
