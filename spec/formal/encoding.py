"""The SMT encoding of arrangements (the formal model's working form; docs/proven.md).

Every card ``c`` that may be in the hand gets two Booleans: ``set_c`` (the card is in a set) and
``run_c`` (the card is in a run); a card with neither is deadwood. When one card is to be
discarded first (KNOCK.ELIGIBLE), ``discard_c`` marks it and exactly one card is discarded.
With ace-high runs each ace also gets ``high_c`` (it stands above the king, at position 13).

Constraints (``kept_c`` = the card is in the hand and not discarded):

* ``set_c -> kept_c``, ``run_c -> kept_c``, ``not (set_c and run_c)``;
* SETS: ``set_c -> at least 3 cards of c's rank are set cards``. A rank has only 4 cards, so the
  set cards of one rank are exactly one set of 3 or 4 cards, or none.
* RUNS: ``run_c -> c stands in a window of 3 adjacent positions of its suit's line that are all
  held by run cards`` (windows from :func:`ginspec.spec.formal.rules.windows`). Then every maximal
  stretch of run positions is at least 3 long and is itself a run; conversely every card of a run
  lies in such a window. Theorem ENCODING-EXACT (tests/test_theorems_model.py) checks this
  against :mod:`ginspec.spec.formal.definition` for all 8,192 rank sets of a suit, per variant.

The hand is either concrete (a set of cards) or symbolic (a Z3 Boolean per card), so the same
encoding serves per-hand certificates and theorems about all hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TypeAlias

import z3
from ginspec.spec.cards import NUM_CARDS, NUM_RANKS, Card, rank_of, suit_of
from ginspec.spec.formal.rules import (
    MeldParams,
    is_circular,
    line_size,
    positions_of,
    rank_at,
    rank_value,
    windows,
)

Presence: TypeAlias = bool | z3.BoolRef
"""Whether a card is in the hand: a Python bool for a concrete hand, a Z3 Boolean for a symbolic one."""


@dataclass(frozen=True)
class WitnessArrangement:
    """An arrangement read off a model: melds (cards in playing order), deadwood, discard."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int
    discard: Card | None


def _and(items: list[Presence]) -> Presence:
    if any(i is False for i in items):
        return False
    rest = [i for i in items if i is not True]
    if not rest:
        return True
    out: Presence = rest[0] if len(rest) == 1 else z3.And(*rest)
    return out


def _or(items: list[Presence]) -> Presence:
    if any(i is True for i in items):
        return True
    rest = [i for i in items if i is not False]
    if not rest:
        return False
    out: Presence = rest[0] if len(rest) == 1 else z3.Or(*rest)
    return out


class ArrangementEncoding:
    """Variables and constraints describing every arrangement of the cards present.

    ``present`` maps cards to their presence (cards missing from the mapping are absent), or is
    an iterable of the cards of a concrete hand. ``discard=True`` adds the choice of exactly one
    card to discard before arranging. ``name`` prefixes the variable names, so that two
    encodings can share a solver.
    """

    def __init__(
        self,
        present: Mapping[Card, Presence] | Iterable[Card],
        rules: MeldParams,
        *,
        discard: bool = False,
        name: str = "",
    ) -> None:
        if isinstance(present, Mapping):
            held = {c: p for c, p in present.items() if p is not False}
        else:
            held = dict.fromkeys(present, True)
        self.rules = rules
        self.present: dict[Card, Presence] = held
        self.cards: tuple[Card, ...] = tuple(sorted(held))
        may_set, may_run = self._potential()
        self.set_var = {c: z3.Bool(f"{name}set_{c}") for c in self.cards if c in may_set}
        self.run_var = {c: z3.Bool(f"{name}run_{c}") for c in self.cards if c in may_run}
        self.discard_var = (
            {c: z3.Bool(f"{name}discard_{c}") for c in self.cards} if discard else {}
        )
        self.high_var: dict[Card, z3.BoolRef] = {}
        if line_size(rules) > NUM_RANKS:
            self.high_var = {c: z3.Bool(f"{name}high_{c}") for c in self.run_var if rank_of(c) == 0}
        self.kept: dict[Card, Presence] = {}
        for c in self.cards:
            if discard:
                self.kept[c] = _and([held[c], z3.Not(self.discard_var[c])])
            else:
                self.kept[c] = held[c]
        self.constraints: list[z3.BoolRef] = []
        self._build()
        self.fixed_dead = 0
        """Value of the cards that are deadwood in every arrangement (held for sure, never
        discarded, in no possible meld): a constant part of the deadwood."""
        self.dead_terms: list[tuple[z3.BoolRef, int]] = []
        for c in self.cards:
            value = rank_value(rank_of(c), rules)
            covers = [v[c] for v in (self.set_var, self.run_var) if c in v]
            lit = _and([self.kept[c], *[z3.Not(x) for x in covers]])
            if lit is True:
                self.fixed_dead += value
            elif lit is not False:
                self.dead_terms.append((lit, value))

    # -- construction ---------------------------------------------------------------------------

    def _potential(self) -> tuple[set[Card], set[Card]]:
        """The cards that may be in a set (3 or more of the rank may be held) and those that may
        be in a run (some window through the card has every position possibly held). Any other
        card is deadwood in every arrangement, by the definition; it gets no variable."""
        may_set = set()
        for c in self.cards:
            if sum(1 for d in self.cards if rank_of(d) == rank_of(c)) >= 3:
                may_set.add(c)
        may_run = set()
        for c in self.cards:
            suit = suit_of(c)
            for pos in positions_of(rank_of(c), self.rules):
                if any(pos in w and all(suit * NUM_RANKS + rank_at(q) in self.present for q in w)
                       for w in windows(self.rules)):
                    may_run.add(c)
                    break
        return may_set, may_run

    def _occupied(self, suit: int, position: int) -> Presence:
        """Is this position of the suit's line held by a run card?"""
        card = suit * NUM_RANKS + rank_at(position)
        if card not in self.run_var:
            return False
        run = self.run_var[card]
        high = self.high_var.get(card)
        if high is None:
            return run
        return z3.And(run, high) if position >= NUM_RANKS else z3.And(run, z3.Not(high))

    def _build(self) -> None:
        add = self.constraints.append
        rules = self.rules
        wins = windows(rules)
        for c in self.cards:
            k = self.kept[c]
            s, r = self.set_var.get(c), self.run_var.get(c)
            for x in (s, r):
                if x is not None and k is not True:
                    add(z3.Implies(x, k) if k is not False else z3.Not(x))
            if s is not None and r is not None:
                add(z3.Not(z3.And(s, r)))
            if s is not None:
                same_rank = [self.set_var[d] for d in self.set_var if rank_of(d) == rank_of(c)]
                add(z3.Implies(s, z3.AtLeast(*same_rank, 3)))
            if r is None:
                continue
            suit = suit_of(c)
            options: list[Presence] = []
            for pos in positions_of(rank_of(c), rules):
                for w in wins:
                    if pos in w:
                        options.append(_and([self._occupied(suit, q) for q in w]))
            anchored = _or(options)
            if anchored is False:
                add(z3.Not(r))
            elif anchored is not True:
                add(z3.Implies(r, anchored))
        if self.discard_var:
            add(z3.PbEq([(d, 1) for d in self.discard_var.values()], 1))
            for c, d in self.discard_var.items():
                if self.present[c] is not True:
                    add(z3.Implies(d, self.present[c]))

    # -- queries -------------------------------------------------------------------------------

    def in_set(self, card: Card) -> z3.BoolRef:
        """The card is in a set (false for a card that can be in none)."""
        return self.set_var.get(card, z3.BoolVal(False))

    def in_run(self, card: Card) -> z3.BoolRef:
        """The card is in a run (false for a card that can be in none)."""
        return self.run_var.get(card, z3.BoolVal(False))

    def deadwood_at_most(self, bound: int) -> z3.BoolRef:
        """The deadwood of the arrangement is at most ``bound``."""
        bound -= self.fixed_dead
        if bound < 0:
            return z3.BoolVal(False)
        if bound >= sum(value for _, value in self.dead_terms):  # also keeps huge bounds out of Z3
            return z3.BoolVal(True)
        return z3.PbLe(self.dead_terms, bound)

    def deadwood(self) -> z3.ArithRef:
        """The deadwood as an integer expression."""
        terms = [z3.If(lit, value, 0) for lit, value in self.dead_terms]
        return z3.Sum([z3.IntVal(self.fixed_dead), *terms])

    def witness(self, model: z3.ModelRef) -> WitnessArrangement:
        """Read the arrangement chosen by ``model``: sets by rank, runs as maximal stretches."""

        def true(x: Presence) -> bool:
            return x if isinstance(x, bool) else z3.is_true(model.eval(x, model_completion=True))

        kept = [c for c in self.cards if true(self.kept[c])]
        discard = next((c for c, d in self.discard_var.items() if true(d)), None)
        melds: list[tuple[Card, ...]] = []
        for rank in range(NUM_RANKS):
            group = tuple(c for c in kept if rank_of(c) == rank and c in self.set_var
                          and true(self.set_var[c]))
            if group:
                melds.append(group)
        size = line_size(self.rules)
        for suit in range(4):
            held = [true(self._occupied(suit, p)) for p in range(size)]
            melds.extend(
                tuple(suit * NUM_RANKS + rank_at(p) for p in stretch)
                for stretch in _stretches(held, is_circular(self.rules))
            )
        covered = {c for m in melds for c in m}
        dead = tuple(c for c in kept if c not in covered)
        value = sum(rank_value(rank_of(c), self.rules) for c in dead)
        return WitnessArrangement(tuple(melds), dead, value, discard)


def _stretches(held: list[bool], circular: bool) -> list[list[int]]:
    """Maximal stretches of consecutive held positions (wrapping around on a circle)."""
    size = len(held)
    if all(held):
        return [list(range(size))]
    order = list(range(size))
    if circular:
        start = held.index(False)
        order = [(start + k) % size for k in range(size)]
    out: list[list[int]] = []
    current: list[int] = []
    for p in order:
        if held[p]:
            current.append(p)
        elif current:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


def symbolic_hand(name: str = "hand") -> dict[Card, z3.BoolRef]:
    """One Z3 Boolean per card of the deck: a hand about which nothing is assumed."""
    return {c: z3.Bool(f"{name}_{c}") for c in range(NUM_CARDS)}
