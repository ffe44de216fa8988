"""HAND-CODE: the 10- and 11-card fast paths of reference/melds.py compute what the per-suit
decomposition computes, for every hand (DEADWOOD.MINIMUM, KNOCK.ELIGIBLE; docs/proven.md).

The proof runs the real functions — :func:`min_deadwood` and :func:`min_deadwood_after_discard`,
their own lines — on a symbolic hand (one Z3 Boolean per card, exactly 10 or 11 of them true),
path by path (:func:`ginspec.spec.formal.explore.explore`), and compares each result with
``_min_deadwood_of_mask`` / ``_after_discard_of_mask`` run the same way on the hand's mask.

The hand code is a sum of the cards' codes (``_CARD_CODES``). Summed as one 289-bit number it is
too big for the solver; but it is a sum of *fields* (the value, the 13 rank counters, the 44
stretch counters, the 52 mask bits, at the offsets the module defines). :class:`FieldCode` keeps
one small Z3 term per field and proves, as an obligation of every addition, that no field
overflows into the next: then its fields are exactly the fields of the Python integer, and
``>>``, ``&``, ``|``, ``bit_count`` and ``bit_length`` act on them field by field.

What stays outside the symbolic run, each checked here exhaustively: ``_PAIR_CODES[a][b]`` is the
sum of the two card codes (the proof adds card codes); the run tables (``dead``, ``gain``) enter
as uninterpreted functions, with the facts the fast path relies on checked for all 8,192 rank sets
and used only at the points the run looks up: a suit with no three ranks in a row has run deadwood
equal to its value and gain equal to its highest card (``NO_CARD`` when empty). The set-card
searches of the general path (``_min_deadwood_with_sets``, the rank DP, the per-card discard loop)
are left uninterpreted: both sides reach them with the same arguments, and their correctness is
BLOCK-EXHAUSTIVE's and LAST-RANK-CLOSED-FORM's business.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import z3
from ginspec.reference import melds as _melds
from ginspec.reference.meld_rules import STANDARD
from ginspec.reference.suit_tables import NO_CARD
from ginspec.spec.cards import NUM_CARDS, NUM_RANKS, format_cards, rank_of, suit_of
from ginspec.spec.formal import explore as _explore
from ginspec.spec.formal.explore import explore
from ginspec.spec.formal.rules import rank_value
from ginspec.spec.formal.score_spec import Term
from ginspec.spec.formal.theorems import TheoremResult


@dataclass(frozen=True)
class Layout:
    """Field offsets and widths of a hand code, read from the module's own constants."""

    fields: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, module: ModuleType) -> Layout:
        ranks_at, mask_at = module._CODE_RANKS_AT, module._CODE_MASK_AT
        out = [(0, ranks_at)] + [(k, 4) for k in range(ranks_at, mask_at, 4)]
        out += [(mask_at + c, 1) for c in range(NUM_CARDS)]
        return cls(tuple(out))


def _bit(t: Term, i: int, width: int) -> Term:
    """Bit ``i`` of a term in 0 .. 2**width - 1 (the no-carry obligations say it is): the term
    itself for one bit, a comparison for the top bit, else division by a constant."""
    if width == 1:
        return t
    if i == width - 1:
        return z3.If(t >= 1 << i, 1, 0)
    return (t / (1 << i)) % 2 if i else t % 2


def _bitwise(t1: Term, t2: Term, width: int, op: Callable[[z3.BoolRef, z3.BoolRef], z3.BoolRef]) -> Term:
    t1, t2 = z3.simplify(t1), z3.simplify(t2)
    for t, other in ((t1, t2), (t2, t1)):  # a constant 0 or all ones needs no bits
        if z3.is_int_value(t) and t.as_long() == 0:
            return z3.IntVal(0) if op is z3.And else other
        if z3.is_int_value(t) and t.as_long() == (1 << width) - 1:
            return other if op is z3.And else z3.IntVal((1 << width) - 1)
    if width == 1:
        return z3.If(op(t1 == 1, t2 == 1), 1, 0)
    for t, other in ((t1, t2), (t2, t1)):  # a constant: only its bits matter
        if z3.is_int_value(t) and op is z3.And:
            c = t.as_long()
            return z3.Sum([_bit(other, i, width) * (1 << i) for i in range(width) if c >> i & 1])
    return z3.Sum([z3.If(op(_bit(t1, i, width) == 1, _bit(t2, i, width) == 1), 1 << i, 0)
                   for i in range(width)])


class FieldCode:
    """A non-negative integer as one Z3 integer term per field (offset -> (width, term)).

    Terms are linear integer sums (the solver adds them in any order at no cost); bit operations
    take a field's bits by division, so they are only used where the code uses them."""

    def __init__(self, fields: Mapping[int, tuple[int, Term]], obligations: list[z3.BoolRef]) -> None:
        self.fields = dict(fields)
        self.obligations = obligations

    @classmethod
    def constant(cls, n: int, layout: Layout, obligations: list[z3.BoolRef]) -> FieldCode:
        top = max(o + w for o, w in layout.fields)
        if n >> top:
            raise ValueError(f"{n:#x} has bits above the layout")
        return cls({o: (w, z3.IntVal(n >> o & ((1 << w) - 1))) for o, w in layout.fields}, obligations)

    def _other(self, x: object) -> FieldCode:
        if isinstance(x, FieldCode):
            return x
        if isinstance(x, int):
            lay = Layout(tuple(sorted((o, w) for o, (w, _) in self.fields.items())))
            return FieldCode.constant(x, lay, self.obligations)
        raise TypeError(f"a hand code combines with a hand code or an int, not {type(x).__name__}")

    def _zip(self, other: FieldCode, op: Callable[[int, Term, Term], Term]) -> FieldCode:
        out = {}
        for o in sorted(self.fields.keys() | other.fields.keys()):
            w1, t1 = self.fields.get(o, (None, z3.IntVal(0)))
            w2, t2 = other.fields.get(o, (None, z3.IntVal(0)))
            if w1 is not None and w2 is not None and w1 != w2:
                raise ValueError(f"fields at bit {o} differ in width: {w1}, {w2}")
            width = w1 if w1 is not None else w2
            assert width is not None
            out[o] = (width, z3.simplify(op(width, t1, t2)))
        return FieldCode(out, self.obligations)

    def __add__(self, x: object) -> FieldCode:
        out = self._zip(self._other(x), lambda w, a, b: a + b)
        for w, t in out.fields.values():  # no carry: each field stays within its width
            self.obligations.append(t < (1 << w))
        return out

    __radd__ = __add__

    def __and__(self, x: object) -> FieldCode:
        return self._zip(self._other(x), lambda w, a, b: _bitwise(a, b, w, z3.And))

    def __or__(self, x: object) -> FieldCode:
        return self._zip(self._other(x), lambda w, a, b: _bitwise(a, b, w, z3.Or))

    def __rshift__(self, k: int) -> FieldCode:
        if any(o < k < o + w for o, (w, _) in self.fields.items()):
            raise ValueError(f"shift by {k} splits a field")
        return FieldCode({o - k: f for o, f in self.fields.items() if o >= k}, self.obligations)

    def __bool__(self) -> bool:
        return _explore.current().decide(z3.Or(*[t != 0 for _, t in self.fields.values()]))

    def bits(self, width: int) -> list[Term]:
        """Bits 0 .. width-1 as 0/1 terms."""
        out = []
        for i in range(width):
            o = max((o for o in self.fields if o <= i), default=None)
            if o is None or i >= o + self.fields[o][0]:
                out.append(z3.IntVal(0))
            else:
                w, t = self.fields[o]
                out.append(_bit(t, i - o, w))
        return out

    def bit_count(self) -> Term:
        return z3.Sum([_bit(t, i, w) for w, t in self.fields.values() for i in range(w)])

    def bit_length(self) -> Term:
        out: Term = z3.IntVal(0)
        for o in sorted(self.fields):
            w, t = self.fields[o]
            if z3.is_int_value(z3.simplify(t)) and z3.simplify(t).as_long() == 0:
                continue
            length = z3.Sum([z3.If(t >= 1 << i, 1, 0) for i in range(w)])  # of t < 2**w
            out = z3.If(t != 0, o + length, out)  # the highest nonzero field wins
        return out

    def value(self) -> Term:
        return z3.Sum([t * (1 << o) for o, (_, t) in self.fields.items()])

    def __sub__(self, x: object) -> Term:
        return self.value() - (x.value() if isinstance(x, FieldCode) else x)

    __hash__ = None  # type: ignore[assignment]


class _Table:
    """A 13-bit-indexed table: its real entries for a concrete index, else an uninterpreted
    function of the index; records each symbolic look-up (key, bits) for the table facts."""

    def __init__(self, name: str, real: tuple[int, ...]) -> None:
        self.real = real
        self.seen: list[tuple[Term, list[Term]]] = []
        self.f = z3.Function(name, z3.IntSort(), z3.IntSort())

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, int):
            return self.real[index]
        bits = index.bits(NUM_RANKS)
        key = z3.Sum([b * (1 << r) for r, b in enumerate(bits)])
        self.seen.append((key, bits))
        return self.f(key)


class _Seq:
    """A tuple indexed by a Z3 integer: the real entries, chosen by an If chain."""

    def __init__(self, real: tuple[int, ...]) -> None:
        self.real = real

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, int):
            return self.real[index]
        out: Term = z3.IntVal(-1 << 20)
        for i, v in enumerate(self.real):
            out = z3.If(index == i, v, out)
        return out


def _no_three_in_a_row(bits: list[Term]) -> z3.BoolRef:
    return z3.And(*[z3.Not(z3.And(bits[r] == 1, bits[r + 1] == 1, bits[r + 2] == 1))
                    for r in range(NUM_RANKS - 2)])


def _suit_value(bits: list[Term]) -> Term:
    return z3.Sum([z3.If(bits[r] == 1, rank_value(r, STANDARD), 0) for r in range(NUM_RANKS)])


def _top_value(bits: list[Term]) -> Term:
    out: Term = z3.IntVal(NO_CARD)
    for r in range(NUM_RANKS):
        out = z3.If(bits[r] == 1, rank_value(r, STANDARD), out)
    return out


def _table_facts(module: ModuleType) -> str | None:
    """Exhaustive: the run-table facts the fast path relies on, for all 8,192 rank sets, and the
    pair table. Returns the first failure."""
    dead, gain, no_card = module._STANDARD_DEAD, module._STANDARD_GAIN, NO_CARD
    for m in range(1 << NUM_RANKS):
        if any(m >> r & 7 == 7 for r in range(NUM_RANKS - 2)):
            continue
        ranks = [r for r in range(NUM_RANKS) if m >> r & 1]
        value = sum(rank_value(r, STANDARD) for r in ranks)
        if dead[m] != value:
            return f"dead[{m:#x}] = {dead[m]}, but a suit with no three in a row is worth {value}"
        want = max((rank_value(r, STANDARD) for r in ranks), default=no_card)
        if gain[m] != want:
            return f"gain[{m:#x}] = {gain[m]}, not its highest card {want}"
    codes, pairs = module._CARD_CODES, module._PAIR_CODES
    for a in range(NUM_CARDS):
        for b in range(NUM_CARDS):
            if pairs[a][b] != codes[a] + codes[b]:
                return f"_PAIR_CODES[{a}][{b}] is not the sum of the two card codes"
    return None


@contextmanager
def _patched(module: ModuleType, values: Mapping[str, Any]) -> Iterator[None]:
    old = {k: getattr(module, k) for k in values}
    for k, v in values.items():
        setattr(module, k, v)
    try:
        yield
    finally:
        for k, v in old.items():
            setattr(module, k, v)


def hand_code(module: ModuleType = _melds, sizes: tuple[int, ...] = (10, 11)) -> TheoremResult:
    """Z3, every hand of 10 and of 11 distinct cards: the fast paths of ``min_deadwood`` and
    ``min_deadwood_after_discard`` (the module's own code) equal the general per-suit path on the
    hand's mask. ``module`` is the melds module to check (a test passes one with a planted bug)."""
    started = time.perf_counter()
    name = "HAND-CODE"
    bad = _table_facts(module)
    if bad is not None:
        return TheoremResult(name, False, "z3+exhaustive", "tables", bad, time.perf_counter() - started)
    layout = Layout.of(module)
    for size in sizes:
        why = _prove_size(module, layout, size)
        if why is not None:
            return TheoremResult(name, False, "z3+exhaustive", f"{size} cards", why,
                                 time.perf_counter() - started)
    return TheoremResult(name, True, "z3+exhaustive",
                         f"every hand of {' and of '.join(map(str, sizes))} distinct cards; run tables "
                         "and pair codes exhaustively", None, time.perf_counter() - started)


def _prove_size(module: ModuleType, layout: Layout, size: int) -> str | None:
    held = [z3.Bool(f"h_{c}") for c in range(NUM_CARDS)]
    pre = z3.Sum([z3.If(h, 1, 0) for h in held]) == size
    obligations: list[z3.BoolRef] = []
    zero = FieldCode.constant(0, layout, obligations)
    terms = {o: (w, z3.simplify(z3.Sum([z3.If(held[c], module._CARD_CODES[c] >> o & ((1 << w) - 1), 0)
                                        for c in range(NUM_CARDS)])))
             for o, w in layout.fields}
    code = FieldCode(terms, obligations)
    obligations.extend(t < (1 << w) for w, t in terms.values())
    true_mask = FieldCode({c: (1, z3.If(held[c], 1, 0)) for c in range(NUM_CARDS)}, obligations)
    opaque: dict[str, z3.FuncDeclRef] = {}

    def uninterpreted(fname: str) -> Callable[..., Term]:
        def call(*args: Any) -> Term:
            keys: list[Term] = []
            for a in args:
                parts = a if isinstance(a, tuple) else (a,)
                keys.extend(x.value() if isinstance(x, FieldCode) else z3.IntVal(x)
                            for x in parts if isinstance(x, (FieldCode, int)))
            if fname not in opaque:
                opaque[fname] = z3.Function(fname, *[z3.IntSort()] * len(keys), z3.IntSort())
            return opaque[fname](*keys)
        return call

    slots = {i: {j: code if (i, j) == (0, 1) else zero for j in range(size)} for i in range(size)}
    patch: dict[str, Any] = {
        "_PAIR_CODES": slots,
        "_CARD_CODES": {size - 1: zero},
        "_STANDARD_DEAD": _Table("dead", module._STANDARD_DEAD),
        "_STANDARD_GAIN": _Table("gain", module._STANDARD_GAIN),
        "_TOP_VALUE": _Seq(module._TOP_VALUE),
        "_min_deadwood_with_sets": uninterpreted("with_sets"),
        "_min_deadwood_rank_dp": uninterpreted("rank_dp"),
        "_set_card_choices": lambda mask, three: [mask],  # a stand-in: both sides reach it alike
    }
    fast_fn = module.min_deadwood if size == 10 else module.min_deadwood_after_discard
    general_name = "_min_deadwood_of_mask" if size == 10 else "_after_discard_of_mask"
    general_fn = getattr(module, general_name)
    with _patched(module, {**patch, general_name: _Delegated}):
        fast = explore(lambda: fast_fn(list(range(size)), module.STANDARD), assume=[pre])
    solver = z3.Solver()
    solver.add(pre)
    if solver.check(z3.Not(z3.And(*obligations))) != z3.unsat:
        return f"a field of the hand code overflows for {_hand(solver.model(), held)}"
    for f in fast:
        if isinstance(f.result, _Delegated):  # the fast path hands over: with the right mask?
            same = z3.And(*[x == y for x, y in zip(f.result.mask.bits(NUM_CARDS),
                                                   true_mask.bits(NUM_CARDS), strict=True)])
            if solver.check(f.condition, z3.Not(same)) != z3.unsat:
                return f"{_hand(solver.model(), held)}: the fast path hands over a wrong mask"
            continue
        with _patched(module, patch):
            general = explore(lambda: general_fn(true_mask, module.STANDARD), assume=[pre, f.condition])
        dead, gain = patch["_STANDARD_DEAD"], patch["_STANDARD_GAIN"]
        facts = [z3.Implies(_no_three_in_a_row(b), dead.f(k) == _suit_value(b)) for k, b in dead.seen]
        facts += [z3.Implies(_no_three_in_a_row(b), gain.f(k) == _top_value(b)) for k, b in gain.seen]
        for g in general:
            differ = _as_int(f.result) != _as_int(g.result)
            result = solver.check(f.condition, g.condition, *facts, differ)
            if result == z3.sat:
                cards = _cards(solver.model(), held)
                mask = sum(1 << c for c in cards)
                return (f"{format_cards(cards)}: the fast path gives {fast_fn(cards, module.STANDARD)}, "
                        f"the per-suit path {general_fn(mask, module.STANDARD)}")
            if result != z3.unsat:  # pragma: no cover
                return f"z3: {solver.reason_unknown()}"
    return None


class _Delegated:
    """What the fast path returns when it hands the hand's mask to the general path."""

    def __init__(self, mask: FieldCode, rules: object) -> None:
        self.mask = mask


def _as_int(x: Any) -> Term:
    if isinstance(x, FieldCode):
        return x.value()
    if isinstance(x, int):
        return z3.IntVal(x)
    return x


def _cards(model: z3.ModelRef, held: list[z3.BoolRef]) -> list[int]:
    cards = [c for c in range(NUM_CARDS) if z3.is_true(model.eval(held[c], model_completion=True))]
    return sorted(cards, key=lambda c: (suit_of(c), rank_of(c)))


def _hand(model: z3.ModelRef, held: list[z3.BoolRef]) -> str:
    return format_cards(_cards(model, held))


__all__ = ["FieldCode", "Layout", "hand_code"]
