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

from collections import Counter
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
from z3 import z3core

Presence: TypeAlias = bool | z3.BoolRef
"""Whether a card is in the hand: a Python bool for a concrete hand, a Z3 Boolean for a symbolic one."""


@dataclass(frozen=True)
class WitnessArrangement:
    """An arrangement read off a model: melds (cards in playing order), deadwood, discard."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int
    discard: Card | None


# Z3's own constructors (And, Or, Implies, AtLeast, PbLe ...) coerce and sort-check every argument
# in Python, which was most of a certificate's time; these build the same terms through the C API
# directly (the arguments are Z3 Booleans of one context by construction).

def _array(items: list[z3.BoolRef]) -> z3.Array:
    out = (z3.Ast * len(items))()
    for k, item in enumerate(items):
        out[k] = item.as_ast()
    return out


def _mk_and(items: list[z3.BoolRef]) -> z3.BoolRef:
    ctx = items[0].ctx
    return z3.BoolRef(z3core.Z3_mk_and(ctx.ref(), len(items), _array(items)), ctx)


def _mk_or(items: list[z3.BoolRef]) -> z3.BoolRef:
    ctx = items[0].ctx
    return z3.BoolRef(z3core.Z3_mk_or(ctx.ref(), len(items), _array(items)), ctx)


def _not(item: z3.BoolRef) -> z3.BoolRef:
    return z3.BoolRef(z3core.Z3_mk_not(item.ctx.ref(), item.as_ast()), item.ctx)


def _implies(a: z3.BoolRef, b: z3.BoolRef) -> z3.BoolRef:
    return z3.BoolRef(z3core.Z3_mk_implies(a.ctx.ref(), a.as_ast(), b.as_ast()), a.ctx)


def _at_least(items: list[z3.BoolRef], k: int) -> z3.BoolRef:
    ctx = items[0].ctx
    return z3.BoolRef(z3core.Z3_mk_atleast(ctx.ref(), len(items), _array(items), k), ctx)


def _pseudo_boolean(make: object, terms: list[tuple[z3.BoolRef, int]], k: int) -> z3.BoolRef:
    """``sum(value for lit, value in terms if lit)`` compared with ``k`` by ``make``
    (Z3_mk_pble or Z3_mk_pbeq)."""
    lits = [lit for lit, _ in terms]
    coeffs = (z3.ctypes.c_int * len(terms))(*[value for _, value in terms])
    ctx = lits[0].ctx
    return z3.BoolRef(make(ctx.ref(), len(lits), _array(lits), coeffs, k), ctx)  # type: ignore[operator]


class _Booleans:
    """Fresh Z3 Booleans of the main context, each remembered with its declaration so a model's
    value is read without building terms."""

    def __init__(self) -> None:
        self.ctx = z3.main_ctx()
        self.sort = z3.BoolSort(self.ctx).ast
        self.decls: list[tuple[z3.BoolRef, object]] = []

    def new(self, name: str) -> z3.BoolRef:
        ref = self.ctx.ref()
        var = z3.BoolRef(z3core.Z3_mk_const(ref, z3core.Z3_mk_string_symbol(ref, name), self.sort),
                         self.ctx)
        self.decls.append((var, z3core.Z3_get_app_decl(ref, var.as_ast())))
        return var

    def values(self, model: z3.ModelRef) -> dict[int, bool]:
        """Each variable's value in ``model``, by the Python identity of the variable :meth:`new`
        returned (one the model leaves out is false)."""
        ref = self.ctx.ref()
        out = {}
        for var, decl in self.decls:  # each kept alive here, so no two share an identity
            interp = z3core.Z3_model_get_const_interp(ref, model.model, decl)
            out[id(var)] = bool(interp) and z3core.Z3_get_bool_value(ref, interp) == z3.Z3_L_TRUE
        return out


def _and(items: list[Presence]) -> Presence:
    if any(i is False for i in items):
        return False
    rest = [i for i in items if i is not True]
    if not rest:
        return True
    out: Presence = rest[0] if len(rest) == 1 else _mk_and(rest)
    return out


def _or(items: list[Presence]) -> Presence:
    if any(i is True for i in items):
        return True
    rest = [i for i in items if i is not False]
    if not rest:
        return False
    out: Presence = rest[0] if len(rest) == 1 else _mk_or(rest)
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
        self._vars = _Booleans()
        new = self._vars.new
        self.set_var = {c: new(f"{name}set_{c}") for c in self.cards if c in may_set}
        self.run_var = {c: new(f"{name}run_{c}") for c in self.cards if c in may_run}
        self.discard_var = {c: new(f"{name}discard_{c}") for c in self.cards} if discard else {}
        self.high_var: dict[Card, z3.BoolRef] = {}
        if line_size(rules) > NUM_RANKS:
            self.high_var = {c: new(f"{name}high_{c}") for c in self.run_var if rank_of(c) == 0}
        self.kept: dict[Card, Presence] = {}
        for c in self.cards:
            if discard:
                self.kept[c] = _and([held[c], _not(self.discard_var[c])])
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
            lit = _and([self.kept[c], *[_not(x) for x in covers]])
            if lit is True:
                self.fixed_dead += value
            elif lit is not False:
                self.dead_terms.append((lit, value))

    # -- construction ---------------------------------------------------------------------------

    def _potential(self) -> tuple[set[Card], set[Card]]:
        """The cards that may be in a set (3 or more of the rank may be held) and those that may
        be in a run (some window through the card has every position possibly held). Any other
        card is deadwood in every arrangement, by the definition; it gets no variable."""
        count = Counter(rank_of(c) for c in self.cards)
        may_set = {c for c in self.cards if count[rank_of(c)] >= 3}
        covered: dict[int, set[int]] = {}  # per suit: the positions in some fully held window
        for suit in {suit_of(c) for c in self.cards}:
            covered[suit] = {q for w in windows(self.rules)
                             if all(suit * NUM_RANKS + rank_at(p) in self.present for p in w)
                             for q in w}
        may_run = {c for c in self.cards
                   if any(pos in covered[suit_of(c)] for pos in positions_of(rank_of(c), self.rules))}
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
        return _mk_and([run, high]) if position >= NUM_RANKS else _mk_and([run, _not(high)])

    def _window_held(self, suit: int, window: tuple[int, ...]) -> Presence:
        """Are all positions of this window of the suit's line held by run cards? (built once)"""
        key = (suit, window)
        if key not in self._windows:
            self._windows[key] = _and([self._occupied(suit, q) for q in window])
        return self._windows[key]

    def _build(self) -> None:
        add = self.constraints.append
        rules = self.rules
        wins = [tuple(w) for w in windows(rules)]
        self._windows: dict[tuple[int, tuple[int, ...]], Presence] = {}
        at_least_three: dict[int, z3.BoolRef] = {}
        for c in self.cards:
            k = self.kept[c]
            s, r = self.set_var.get(c), self.run_var.get(c)
            for x in (s, r):
                if x is not None and k is not True:
                    add(_implies(x, k) if k is not False else _not(x))
            if s is not None and r is not None:
                add(_not(_mk_and([s, r])))
            if s is not None:
                rank = rank_of(c)
                if rank not in at_least_three:
                    same_rank = [self.set_var[d] for d in self.set_var if rank_of(d) == rank]
                    at_least_three[rank] = _at_least(same_rank, 3)
                add(_implies(s, at_least_three[rank]))
            if r is None:
                continue
            suit = suit_of(c)
            options: list[Presence] = []
            for pos in positions_of(rank_of(c), rules):
                for w in wins:
                    if pos in w:
                        options.append(self._window_held(suit, w))
            anchored = _or(options)
            if anchored is False:
                add(_not(r))
            elif anchored is not True:
                add(_implies(r, anchored))
        if self.discard_var:
            add(_pseudo_boolean(z3core.Z3_mk_pbeq, [(d, 1) for d in self.discard_var.values()], 1))
            for c, d in self.discard_var.items():
                if self.present[c] is not True:
                    add(_implies(d, self.present[c]))

    def add_to(self, solver: z3.Solver, constraints: Iterable[z3.BoolRef] | None = None) -> None:
        """Assert ``constraints`` (default: the encoding's) in ``solver`` through the C API."""
        ref = self._vars.ctx.ref()
        for c in self.constraints if constraints is None else constraints:
            z3core.Z3_solver_assert(ref, solver.solver, c.as_ast())

    def guarded_bound(self, bound: int) -> tuple[z3.BoolRef, z3.BoolRef]:
        """A fresh literal and "literal -> deadwood at most ``bound``": solvers prefer literals
        as assumptions."""
        guard = self._vars.new(f"deadwood_at_most_{bound}")
        at_most = self.deadwood_at_most(bound)
        return guard, _implies(guard, at_most) if not z3.is_true(at_most) else z3.BoolVal(True)

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
        return _pseudo_boolean(z3core.Z3_mk_pble, self.dead_terms, bound)

    def deadwood(self) -> z3.ArithRef:
        """The deadwood as an integer expression."""
        terms = [z3.If(lit, value, 0) for lit, value in self.dead_terms]
        return z3.Sum([z3.IntVal(self.fixed_dead), *terms])

    def witness(self, model: z3.ModelRef) -> WitnessArrangement:
        """Read the arrangement chosen by ``model``: sets by rank, runs as maximal stretches."""
        # Each variable is read once (one the model leaves out is false, as model completion
        # makes it); presences of a symbolic hand are evaluated.
        value = self._vars.values(model)

        def var(x: z3.BoolRef | None) -> bool:
            return x is not None and value[id(x)]

        def true(x: Presence) -> bool:
            return x if isinstance(x, bool) else z3.is_true(model.eval(x, model_completion=True))

        discard = next((c for c, d in self.discard_var.items() if var(d)), None)
        kept = [c for c in self.cards if c != discard and true(self.present[c])]
        melds: list[tuple[Card, ...]] = []
        for rank in range(NUM_RANKS):
            group = tuple(c for c in kept if rank_of(c) == rank and var(self.set_var.get(c)))
            if group:
                melds.append(group)
        size = line_size(self.rules)
        for suit in range(4):
            held = []
            for p in range(size):
                card = suit * NUM_RANKS + rank_at(p)
                high = self.high_var.get(card)
                on_high = p >= NUM_RANKS
                held.append(var(self.run_var.get(card)) and (high is None or var(high) == on_high))
            melds.extend(
                tuple(suit * NUM_RANKS + rank_at(p) for p in stretch)
                for stretch in _stretches(held, is_circular(self.rules))
            )
        covered = {c for m in melds for c in m}
        dead = tuple(c for c in kept if c not in covered)
        total = sum(rank_value(rank_of(c), self.rules) for c in dead)
        return WitnessArrangement(tuple(melds), dead, total, discard)


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
