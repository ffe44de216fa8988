"""Brute-force oracles for the showdown tests, independent of the searches in reference/layoffs.py,
adjudicate.py and melds.py (only the one-meld predicate check_meld is shared): every collection
of melds, every assignment of cards to layoff targets.

Slow on purpose; use on small positions only.
"""

from __future__ import annotations

from itertools import combinations, product

from ginspec.reference.layoffs import ShowdownRules
from ginspec.reference.melds import Meld, MeldKind, check_meld
from ginspec.spec.cards import card_value


def value(cs: list[int]) -> int:
    return sum(card_value(c) for c in cs)


def brute_defence(knocker: list[Meld], defender: list[int], rules: ShowdownRules) -> int:
    """Least defender deadwood by trying every assignment of cards to melds/table/nothing.

    A set of cards can be laid off onto a meld exactly when the meld with all of them is a meld
    (chain unlimited), and, with original_melds_only, each card alone also fits the original.
    """
    options: list[list[int]] = []
    for card in defender:
        targets = [-1]
        for i, meld in enumerate(knocker):
            if rules.layoff_chain == "original_melds_only":
                fits = check_meld([*meld.cards, card]).valid
            elif meld.kind is MeldKind.SET:
                fits = card % 13 == meld.cards[0] % 13
            else:
                fits = card // 13 == meld.cards[0] // 13
            if fits:
                targets.append(i)
        options.append(targets)
    best = 10**9
    for choice in product(*options):
        laid: dict[int, list[int]] = {}
        for card, target in zip(defender, choice, strict=True):
            if target >= 0:
                laid.setdefault(target, []).append(card)
        ok = all(check_meld([*knocker[i].cards, *extra]).valid for i, extra in laid.items())
        if not ok:
            continue
        rest = [c for c, t in zip(defender, choice, strict=True) if t < 0]
        best = min(best, brute_min_deadwood(rest))
    return best


def brute_min_deadwood(hand: list[int]) -> int:
    """Minimum deadwood by trying every collection of disjoint melds (independent of melds.py's
    dynamic programme)."""
    found = every_meld(hand)
    best = value(hand)

    def walk(start: int, used: int) -> None:
        nonlocal best
        best = min(best, value([c for c in hand if not used >> c & 1]))
        for i in range(start, len(found)):
            mask = sum(1 << c for c in found[i])
            if not mask & used:
                walk(i + 1, used | mask)

    walk(0, 0)
    return best


def every_meld(hand: list[int]) -> list[tuple[int, ...]]:
    out = []
    for size in range(3, len(hand) + 1):
        for group in combinations(sorted(hand), size):
            if check_meld(list(group)).valid:
                out.append(group)
    return out




def brute_declarations(hand: list[int], limit: int, maximal: bool) -> list[list[tuple[int, ...]]]:
    """Every legal declaration of a ten-card hand as lists of melds (tuples of cards)."""
    every = every_meld(hand)
    least = brute_min_deadwood(hand)
    out = []
    for size in range(0, 4):
        for combo in combinations(every, size):
            flat = [c for m in combo for c in m]
            if len(flat) != len(set(flat)):
                continue
            dead = value([c for c in hand if c not in flat])
            if dead <= limit and (not maximal or dead == least):
                out.append(list(combo))
    return out
