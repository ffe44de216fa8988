"""An independent, deliberately naive meld oracle used to double-check the expected answers of
query cases before they are committed (MELD.*, DEADWOOD.*, KNOCK.ELIGIBLE).

It shares nothing with ``ginspec.reference.melds`` but the card encoding: melds are found by
trying every subset of a rank or a suit, and arrangements by plain recursion. It is slow, and only
used on hands of at most 13 cards. ``ginspec suite build`` refuses to write a query case on which
the reference and this oracle disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from ginspec.spec.cards import Card

OracleMeld = frozenset[Card]


@dataclass(frozen=True)
class OracleRules:
    """The three parameters that change melds and values."""

    ace_high_runs: bool = False
    wraparound_runs: bool = False
    ace_value: int = 1


def value(card: Card, rules: OracleRules) -> int:
    """CARD.VALUE: ace ``ace_value``, two to nine their number, ten and faces ten."""
    rank = card % 13
    if rank == 0:
        return rules.ace_value
    return 10 if rank >= 9 else rank + 1


def meld_verdict(cards: Sequence[Card], rules: OracleRules) -> tuple[bool, str]:
    """Whether ``cards`` are one meld, and the clause that decides it."""
    if len(set(cards)) != len(cards) or len(cards) < 3:
        return False, "MELD.SET" if len({c % 13 for c in cards}) == 1 else "MELD.RUN"
    ranks = sorted(c % 13 for c in cards)
    suits = {c // 13 for c in cards}
    if len(set(ranks)) == 1:
        return len(cards) <= 4, "MELD.SET"
    if len(suits) != 1:
        return False, "MELD.RUN" if len(set(ranks)) == len(ranks) else "MELD.SET"
    n = len(ranks)
    if len(set(ranks)) != n:
        return False, "MELD.RUN"
    if ranks == list(range(ranks[0], ranks[0] + n)):
        return True, "MELD.RUN"
    # The only other candidates use the ace above the king, or turn the corner.
    for start in range(13):
        circle = sorted((start + k) % 13 for k in range(n))
        if circle == ranks:
            ends_at_ace = (start + n - 1) % 13 == 0
            if ends_at_ace:
                return rules.ace_high_runs, "MELD.RUN.ACE-LOW"
            return rules.wraparound_runs, "MELD.RUN.NO-WRAP"
    return False, "MELD.RUN"


def all_melds(cards: Sequence[Card], rules: OracleRules) -> list[OracleMeld]:
    """Every meld whose cards are all in ``cards`` (by trying every subset of a rank / suit)."""
    found: set[OracleMeld] = set()
    groups: dict[tuple[str, int], list[Card]] = {}
    for c in cards:
        groups.setdefault(("rank", c % 13), []).append(c)
        groups.setdefault(("suit", c // 13), []).append(c)
    for group in groups.values():
        for size in range(3, len(group) + 1):
            for combo in combinations(sorted(group), size):
                if meld_verdict(combo, rules)[0]:
                    found.add(frozenset(combo))
    return sorted(found, key=lambda m: sorted(m))


@dataclass(frozen=True)
class Optimum:
    """The least deadwood and every arrangement (set of melds) that reaches it."""

    deadwood: int
    arrangements: tuple[frozenset[OracleMeld], ...]


def optimum(cards: Sequence[Card], rules: OracleRules) -> Optimum:
    """Plain recursion: the lowest undecided card is deadwood or the lowest card of one meld."""
    hand = sorted(cards)
    melds = all_melds(hand, rules)
    by_low: dict[Card, list[OracleMeld]] = {}
    for m in melds:
        by_low.setdefault(min(m), []).append(m)
    results: list[tuple[int, frozenset[OracleMeld]]] = []

    def walk(rest: frozenset[Card], chosen: list[OracleMeld], dead: int) -> None:
        if not rest:
            results.append((dead, frozenset(chosen)))
            return
        low = min(rest)
        walk(rest - {low}, chosen, dead + value(low, rules))
        for m in by_low.get(low, ()):
            if m <= rest:
                chosen.append(m)
                walk(rest - m, chosen, dead)
                chosen.pop()

    walk(frozenset(hand), [], 0)
    best = min(d for d, _ in results)
    return Optimum(best, tuple(a for d, a in results if d == best))


def deadwood_after_discard(cards: Sequence[Card], rules: OracleRules) -> dict[Card, int]:
    """For an 11-card hand: the least deadwood of the ten cards kept after each discard."""
    return {c: optimum([x for x in cards if x != c], rules).deadwood for c in cards}
