"""Brute-force oracles for the showdown tests, independent of the searches in reference/layoffs.py,
adjudicate.py and melds.py (only the one-meld predicate check_meld is shared): every collection
of melds, every assignment of cards to layoff targets.

Slow on purpose; use on small positions only.
"""

from __future__ import annotations

from itertools import combinations, product

from ginspec.reference.layoffs import ShowdownRules
from ginspec.reference.melds import Meld, MeldKind, all_melds, check_meld
from ginspec.spec.cards import card_value
from hypothesis import strategies as st


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


@st.composite
def knock_positions(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    """A knocker's ten cards that can knock (two or three melds plus low cards), and a defender
    with a few cards next to the knocker's melds."""
    pool = [m for m in all_melds((1 << 52) - 1) if len(m.cards) <= 4]
    used = 0
    knocker: list[int] = []
    for _ in range(draw(st.integers(2, 3))):
        meld = draw(st.sampled_from(pool))
        if meld.mask & used or len(knocker) + len(meld.cards) > 10:
            continue
        knocker.extend(meld.cards)
        used |= meld.mask
    low = [c for c in range(52) if not used >> c & 1 and c % 13 < 4]
    knocker.extend(draw(st.permutations(low))[: 10 - len(knocker)])
    taken = set(knocker)
    near = [c for c in range(52) if c not in taken and any(
        abs(c - k) == 1 or (c - k) % 13 == 0 for k in knocker)]
    n_near = draw(st.integers(0, min(4, len(near))))
    defender = draw(st.permutations(near))[:n_near]
    rest = [c for c in range(52) if c not in taken and c not in defender]
    defender += draw(st.permutations(rest))[: 10 - n_near]
    return knocker, defender
