"""Hypothesis strategies for hands, shared by the meld-engine tests.

Uniform random hands rarely hold more than one meld, so most strategies build meld-dense hands on
purpose: a few neighbouring ranks in every suit, long runs in one or two suits, four-of-a-kinds
with their neighbours, and stretches that turn the corner (Q K A 2 3) for the run variants.
"""

from __future__ import annotations

from ginspec.reference.meld_rules import MeldRules
from hypothesis import strategies as st
from meld_oracle import Rules

RANKS = 13

VARIANTS: list[tuple[MeldRules, Rules]] = [
    (MeldRules(), Rules()),
    (MeldRules(ace_high_runs=True), Rules(ace_high=True)),
    (MeldRules(ace_high_runs=True, wraparound_runs=True), Rules(ace_high=True, wrap=True)),
    (MeldRules(ace_value=15), Rules(ace_value=15)),
    (MeldRules(ace_high_runs=True, wraparound_runs=True, ace_value=15),
     Rules(ace_high=True, wrap=True, ace_value=15)),
]
"""Engine rules paired with the oracle's independent spelling of the same rules."""

variants = st.sampled_from(VARIANTS)


def window(start: int, width: int) -> list[int]:
    """``width`` consecutive ranks from ``start``, turning the corner after the king."""
    return [(start + k) % RANKS for k in range(width)]


@st.composite
def dense_pool(draw: st.DrawFn) -> list[int]:
    """A pool of cards in which melds overlap a lot."""
    kind = draw(st.sampled_from(["few-ranks", "long-runs", "quads", "corner", "mixed"]))
    start = draw(st.integers(0, RANKS - 1))
    pool: set[int] = set()
    if kind == "few-ranks":
        for r in window(start, draw(st.integers(2, 5))):
            pool.update(s * RANKS + r for s in range(4))
    elif kind == "long-runs":
        suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=2))
        length = draw(st.integers(5, RANKS))
        pool.update(s * RANKS + r for s in suits for r in window(start, length))
    elif kind == "quads":
        for r in draw(st.sets(st.integers(0, RANKS - 1), min_size=1, max_size=3)):
            pool.update(s * RANKS + r for s in range(4))
            for near in (r - 1, r + 1, r + 2):
                pool.update(s * RANKS + near % RANKS for s in draw(st.sets(st.integers(0, 3))))
    elif kind == "corner":
        suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))
        pool.update(s * RANKS + r for s in suits for r in window(10, 6))  # J Q K A 2 3
    else:
        for _ in range(draw(st.integers(2, 3))):
            w = window(draw(st.integers(0, RANKS - 1)), draw(st.integers(2, 4)))
            suits = draw(st.sets(st.integers(0, 3), min_size=2, max_size=4))
            pool.update(s * RANKS + r for s in suits for r in w)
    extra = draw(st.lists(st.integers(0, 51), max_size=2))
    return sorted(pool.union(extra))


@st.composite
def dense_hands(draw: st.DrawFn, min_size: int = 0, max_size: int = 13) -> list[int]:
    """A hand drawn from a dense pool, in a random order."""
    pool = draw(dense_pool())
    if len(pool) < min_size:
        rest = [c for c in range(52) if c not in pool]
        pool += draw(st.permutations(rest))[: min_size - len(pool)]
    size = draw(st.integers(min_size, min(max_size, len(pool))))
    return draw(st.permutations(pool))[:size]


def uniform_hands(min_size: int = 0, max_size: int = 13) -> st.SearchStrategy[list[int]]:
    """Distinct cards drawn uniformly, in a random order."""
    return st.lists(st.integers(0, 51), unique=True, min_size=min_size, max_size=max_size)


def hands(min_size: int = 0, max_size: int = 13) -> st.SearchStrategy[list[int]]:
    """Uniform or meld-dense hands (dense ones twice as likely)."""
    dense = dense_hands(min_size, max_size)
    return st.one_of(uniform_hands(min_size, max_size), dense, dense)


@st.composite
def large_hands(draw: st.DrawFn) -> list[int]:
    """14 to 52 cards; often with many ranks held three or four times (the rank-DP path)."""
    size = draw(st.integers(14, 52))
    if draw(st.booleans()):
        return draw(uniform_hands(size, size))
    ranks = draw(st.sets(st.integers(0, RANKS - 1), min_size=6, max_size=RANKS))
    pool = [s * RANKS + r for r in sorted(ranks) for s in range(4)]
    rest = [c for c in range(52) if c not in pool]
    ordered = draw(st.permutations(pool)) + draw(st.permutations(rest))
    return ordered[:size]
