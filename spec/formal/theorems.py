"""Theorems about the formal model itself, for all hands (docs/proven.md, FORMAL.MODEL).

Each function returns a :class:`TheoremResult`; it never raises when the theorem fails, so a test
can show that a broken ingredient makes it fail. Methods: ``z3`` (an UNSAT proof over symbolic
hands), ``exhaustive`` (every case of a finite domain), or both.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

import z3
from ginspec.spec.cards import NUM_CARDS, NUM_RANKS, Card, format_cards, rank_of, suit_of
from ginspec.spec.formal.certificate import certify
from ginspec.spec.formal.definition import is_set, run_coverable, run_rank_masks
from ginspec.spec.formal.encoding import ArrangementEncoding, Presence, symbolic_hand
from ginspec.spec.formal.rules import (
    STANDARD,
    FormalRules,
    positions_of,
    rank_at,
    rank_value,
    windows,
)

Method = Literal["z3", "exhaustive", "z3+exhaustive"]


@dataclass(frozen=True)
class TheoremResult:
    """Whether a theorem held, how it was checked, and a counterexample when it did not."""

    name: str
    holds: bool
    method: Method
    checked: str
    counterexample: str | None = None
    seconds: float = 0.0

    def __bool__(self) -> bool:
        return self.holds


def _unsat(*constraints: z3.BoolRef) -> tuple[bool, z3.ModelRef | None]:
    solver = z3.Solver()
    solver.add(*constraints)
    result = solver.check()
    if result == z3.unknown:  # pragma: no cover
        raise RuntimeError(f"z3: unknown ({solver.reason_unknown()})")
    return result == z3.unsat, solver.model() if result == z3.sat else None


def _held(model: z3.ModelRef, hand: dict[Card, z3.BoolRef]) -> str:
    cards = [c for c, b in hand.items() if z3.is_true(model.eval(b, model_completion=True))]
    return format_cards(cards)


# --- ENCODING-EXACT ------------------------------------------------------------------------------


def encoding_exact(rules: FormalRules) -> TheoremResult:
    """For every set C of cards of one suit: the encoding lets exactly the cards of C be run cards
    iff the definition splits C into disjoint runs (:func:`run_coverable`, computed for all 8,192
    sets by search). Proved by Z3 over a symbolic C against that truth table, both directions
    (for "iff": some placement of the ace, when it may be high, satisfies the encoding)."""
    started = time.perf_counter()
    present = [z3.Bool(f"p_{r}") for r in range(NUM_RANKS)]
    enc = ArrangementEncoding(dict(enumerate(present)), rules)
    accepts = z3.substitute(z3.And(*enc.constraints),
                            *[(enc.run_var[r], present[r]) for r in range(NUM_RANKS)])
    truth = run_coverable(rules)
    literal = [(z3.Not(p), p) for p in present]
    coverable = z3.Or(*[z3.And(*[literal[r][mask >> r & 1] for r in range(NUM_RANKS)])
                        for mask in range(1 << NUM_RANKS) if truth[mask]])
    placements = [accepts]
    for high in enc.high_var.values():
        placements = [z3.substitute(a, (high, z3.BoolVal(v))) for a in placements for v in (False, True)]
    rejects = z3.And(*[z3.Not(a) for a in placements])
    for claim, how in ((z3.And(accepts, z3.Not(coverable)), "accepts"),
                       (z3.And(coverable, rejects), "rejects")):
        holds, model = _unsat(claim)
        if not holds:
            assert model is not None
            return TheoremResult("ENCODING-EXACT", False, "z3+exhaustive", f"{rules!r}",
                                 f"the encoding {how} run cards {_suit(model, present)}",
                                 time.perf_counter() - started)
    return TheoremResult("ENCODING-EXACT", True, "z3+exhaustive",
                         f"all 8192 rank sets of a suit, {rules!r}", None, time.perf_counter() - started)


# --- STRETCH-COVER (the closed form behind LONG-RUNS-SPLIT) --------------------------------------


def in_full_window(present: Sequence[Presence], rank: int, rules: FormalRules) -> z3.BoolRef:
    """The card of ``rank`` is held and lies in 3 adjacent held positions (no ace-high line)."""
    options = [z3.And(*[present[rank_at(q)] for q in w]) for w in windows(rules) if rank in w]
    return z3.And(present[rank], z3.Or(*options))


def stretch_cover(rules: FormalRules) -> TheoremResult:
    """Z3, all 8,192 rank sets at once: the most value runs can cover in one suit is the value of
    the cards lying in 3 adjacent held ranks (= every maximal stretch of 3 or more), and covering
    exactly those cards is an arrangement. Standard and wraparound runs (the ace-high line has no
    such closed form: an ace may finish Q-K-A or start A-2-3, not both)."""
    if rules.ace_high_runs and not rules.wraparound_runs:
        raise ValueError("stretch_cover is stated for standard and wraparound runs")
    started = time.perf_counter()
    present = [z3.Bool(f"p_{r}") for r in range(NUM_RANKS)]
    enc = ArrangementEncoding(dict(enumerate(present)), rules)
    stretch = [in_full_window(present, r, rules) for r in range(NUM_RANKS)]
    value = [rank_value(r, rules) for r in range(NUM_RANKS)]
    closed_form = z3.Sum([z3.If(stretch[r], value[r], 0) for r in range(NUM_RANKS)])
    covered = z3.Sum([z3.If(enc.run_var[r], value[r], 0) for r in range(NUM_RANKS)])
    upper, model = _unsat(*enc.constraints, covered > closed_form)
    if not upper:
        assert model is not None
        return TheoremResult("STRETCH-COVER", False, "z3", f"{rules!r}",
                             f"runs cover more than the stretches in {_suit(model, present)}")
    reach, model = _unsat(
        *[enc.run_var[r] == stretch[r] for r in range(NUM_RANKS)],
        *[z3.Not(v) for v in enc.set_var.values()],
        z3.Not(z3.And(*enc.constraints)),
    )
    if not reach:
        assert model is not None
        return TheoremResult("STRETCH-COVER", False, "z3", f"{rules!r}",
                             f"the stretches of {_suit(model, present)} are not an arrangement")
    return TheoremResult("STRETCH-COVER", True, "z3", f"every rank set of a suit, {rules!r}", None,
                         time.perf_counter() - started)


def _suit(model: z3.ModelRef, present: Sequence[z3.BoolRef]) -> str:
    return format_cards([r for r in range(NUM_RANKS)
                         if z3.is_true(model.eval(present[r], model_completion=True))])


# --- SUIT-INDEPENDENCE ---------------------------------------------------------------------------


def _same(a: ArrangementEncoding, b: ArrangementEncoding, card: Card) -> list[z3.BoolRef]:
    out = [a.set_var[card] == b.set_var[card], a.run_var[card] == b.run_var[card]]
    if card in a.high_var:
        out.append(a.high_var[card] == b.high_var[card])
    return out


def suit_independence(rules: FormalRules) -> TheoremResult:
    """Z3, every hand of the 52-card deck: if arrangements A and B use the same set cards, then
    taking B's runs in one suit and A's runs elsewhere is again an arrangement. So, once the set
    cards are fixed, each suit's runs can be chosen on their own: the best arrangement takes the
    best runs of every suit (and its deadwood is the sum of the suits' deadwood)."""
    started = time.perf_counter()
    hand = symbolic_hand("h")
    a = ArrangementEncoding(hand, rules, name="a_")
    b = ArrangementEncoding(hand, rules, name="b_")
    same_sets = [a.set_var[c] == b.set_var[c] for c in range(NUM_CARDS)]
    for suit in range(4):
        c = ArrangementEncoding(hand, rules, name=f"c{suit}_")
        glue = []
        for card in range(NUM_CARDS):
            glue += _same(c, b if suit_of(card) == suit else a, card)
        holds, model = _unsat(*a.constraints, *b.constraints, *same_sets, *glue,
                              z3.Not(z3.And(*c.constraints)))
        if not holds:
            assert model is not None
            return TheoremResult("SUIT-INDEPENDENCE", False, "z3", f"{rules!r}",
                                 f"suit {suit}, hand {_held(model, hand)}")
    return TheoremResult("SUIT-INDEPENDENCE", True, "z3",
                         f"every subset of the deck, each of the 4 suits, {rules!r}", None,
                         time.perf_counter() - started)


# --- SUIT-PERMUTATION ----------------------------------------------------------------------------

SUIT_GENERATORS: Final = ((1, 0, 2, 3), (1, 2, 3, 0))
"""A transposition and a 4-cycle of the suits: together they generate all 24 permutations."""


def suit_permutation(rules: FormalRules, *, discard: bool = False) -> TheoremResult:
    """Z3, every hand: renaming the suits by a generator maps each arrangement of the hand to an
    arrangement of the renamed hand with the same deadwood. As the generators give every
    permutation (and each has an inverse made of them), the least deadwood of a hand does not
    change when its suits are permuted (also after the best discard when ``discard``)."""
    started = time.perf_counter()
    hand = symbolic_hand("h")
    a = ArrangementEncoding(hand, rules, name="a_", discard=discard)
    for perm in SUIT_GENERATORS:
        def image(card: Card, perm: tuple[int, ...] = perm) -> Card:
            return perm[suit_of(card)] * NUM_RANKS + rank_of(card)

        moved = {image(c): hand[c] for c in range(NUM_CARDS)}
        b = ArrangementEncoding(moved, rules, name="b_", discard=discard)
        glue = []
        for card in range(NUM_CARDS):
            glue += [b.set_var[image(card)] == a.set_var[card],
                     b.run_var[image(card)] == a.run_var[card]]
            if card in a.high_var:
                glue.append(b.high_var[image(card)] == a.high_var[card])
            if discard:
                glue.append(b.discard_var[image(card)] == a.discard_var[card])
        holds, model = _unsat(*a.constraints, *glue,
                              z3.Not(z3.And(*b.constraints, b.deadwood() == a.deadwood())))
        if not holds:
            assert model is not None
            return TheoremResult("SUIT-PERMUTATION", False, "z3", f"{rules!r}",
                                 f"suits {perm}, hand {_held(model, hand)}")
    return TheoremResult("SUIT-PERMUTATION", True, "z3",
                         f"every subset of the deck, all 24 suit permutations, discard={discard}, "
                         f"{rules!r}", None, time.perf_counter() - started)


# --- ELIGIBILITY: the minimum over discards is not "meld 11, drop the highest leftover" ---------


@dataclass(frozen=True)
class NaiveGap:
    """An 11-card hand where "best arrangement of all 11, then drop its highest deadwood card"
    (over every optimal 11-card arrangement) is worse than the best discard."""

    hand: tuple[Card, ...]
    eleven_card_optimum: int
    naive: int
    after_best_discard: int


def naive_after_discard(hand: Sequence[Card], rules: FormalRules) -> int | None:
    """The best the naive rule can do: over every optimal arrangement of all the cards, its
    deadwood minus its highest deadwood card; None when every optimal arrangement has no
    deadwood (big gin). Proved with Z3: a witness and an UNSAT bound, like a certificate."""
    opt = certify(hand, 0, rules, discard=False).optimum
    enc = ArrangementEncoding(hand, rules)
    top = z3.Int("top")
    left = {c: z3.And(z3.Not(enc.in_set(c)), z3.Not(enc.in_run(c))) for c in enc.cards}
    solver = z3.Solver()
    solver.add(*enc.constraints, enc.deadwood() == opt)
    solver.add(*[z3.Implies(left[c], rank_value(rank_of(c), rules) <= top) for c in enc.cards])
    solver.add(z3.Or(*[z3.And(left[c], top == rank_value(rank_of(c), rules)) for c in enc.cards]))
    best: int | None = None
    while solver.check() == z3.sat:
        best = solver.model().eval(enc.deadwood() - top).as_long()
        solver.add(enc.deadwood() - top < best)
    return best


def find_naive_gap(
    rules: FormalRules = STANDARD, *, ranks: int = NUM_RANKS, max_rounds: int = 5000
) -> NaiveGap | None:
    """Let Z3 search all 11-card hands for one where the naive rule and the best discard differ.

    Counterexample-guided: Z3 proposes a hand, an 11-card arrangement A, and a discard with an
    arrangement B of the rest, with deadwood(B) < deadwood(A) - (highest deadwood card of A). A
    certificate then checks that A is optimal; if not, the better arrangement found is learned
    as a lemma for every hand containing its melds, and Z3 proposes again. A found hand is
    confirmed with :func:`naive_after_discard` (every optimal arrangement, not just A).
    ``ranks`` narrows the search to hands of the lowest ranks (A.. that many), to make it faster.
    """
    hand = symbolic_hand("h")
    a = ArrangementEncoding(hand, rules, name="a_")
    b = ArrangementEncoding(hand, rules, name="b_", discard=True)
    value = {c: rank_value(rank_of(c), rules) for c in range(NUM_CARDS)}
    top = z3.Int("top")
    left = {c: z3.And(hand[c], z3.Not(a.in_set(c)), z3.Not(a.in_run(c))) for c in range(NUM_CARDS)}
    hand_value = z3.Sum([z3.If(hand[c], value[c], 0) for c in range(NUM_CARDS)])
    solver = z3.Solver()
    solver.add(z3.PbEq([(hand[c], 1) for c in range(NUM_CARDS)], 11))
    solver.add(*[z3.Not(hand[c]) for c in range(NUM_CARDS) if rank_of(c) >= ranks])
    solver.add(*a.constraints, *b.constraints)
    solver.add(*[z3.Implies(left[c], value[c] <= top) for c in range(NUM_CARDS)])
    solver.add(z3.Or(*[z3.And(left[c], top == value[c]) for c in range(NUM_CARDS)]))
    solver.add(b.deadwood() < a.deadwood() - top)
    solver.add(*_locally_maximal(a, left, rules))
    for _round in range(max_rounds):
        if solver.check() != z3.sat:
            return None
        model = solver.model()
        cards = tuple(c for c in range(NUM_CARDS) if z3.is_true(model.eval(hand[c], model_completion=True)))
        claimed = model.eval(a.deadwood()).as_long()
        cert = certify(cards, claimed, rules, discard=False)
        if cert.optimum < claimed:
            melded = [c for m in cert.witness.melds for c in m]
            solver.add(z3.Implies(z3.And(*[hand[c] for c in melded]),
                                  a.deadwood() <= hand_value - sum(value[c] for c in melded)))
            continue
        naive = naive_after_discard(cards, rules)
        after = certify(cards, 0, rules, discard=True).optimum
        if naive is not None and naive > after:
            return NaiveGap(cards, cert.optimum, naive, after)
        solver.add(z3.Or(*[z3.Not(hand[c]) for c in cards]))
    return None


def _locally_maximal(
    enc: ArrangementEncoding, left: dict[Card, z3.BoolRef], rules: FormalRules
) -> list[z3.BoolRef]:
    """Necessary conditions for an arrangement to be optimal (they prune the search): no
    deadwood card completes a set of 4 or extends a run, and no three deadwood cards form a
    new set or a new run."""
    out: list[z3.BoolRef] = []
    for c in range(NUM_CARDS):
        rank, suit = rank_of(c), suit_of(c)
        same_rank = [enc.in_set(d) for d in range(NUM_CARDS) if rank_of(d) == rank]
        out.append(z3.Implies(left[c], z3.Not(z3.AtLeast(*same_rank, 3))))
        left_rank = [left[d] for d in range(NUM_CARDS) if rank_of(d) == rank]
        out.append(z3.Not(z3.AtLeast(*left_rank, 3)))
        for pos in positions_of(rank, rules):
            for w in windows(rules):
                if pos in w:
                    others = [q for q in w if q != pos]
                    occupied = [_occupied(enc, suit, q) for q in others]
                    out.append(z3.Implies(left[c], z3.Not(z3.And(*occupied))))
                    if pos == w[0] and pos < NUM_RANKS:
                        trio = [suit * NUM_RANKS + rank_at(q) for q in w]
                        out.append(z3.Not(z3.And(*[left[d] for d in trio])))
    return out


def _occupied(enc: ArrangementEncoding, suit: int, position: int) -> z3.BoolRef:
    held = enc._occupied(suit, position)
    return z3.BoolVal(held) if isinstance(held, bool) else held


# --- ENCODING-EXACT, the rest: the set constraint, the discard constraint, the pruning ----------


def encoding_exact_sets(rules: FormalRules) -> TheoremResult:
    """Z3, each rank, every pattern of held suits and every choice of set cards: the encoding's
    constraints accept a choice exactly when it is no card, or 3 or 4 held cards of the rank that
    the definition calls a set (:func:`is_set`). With ENCODING-EXACT for runs, the encoding's set
    and run cards are exactly the definition's."""
    started = time.perf_counter()
    for rank in range(NUM_RANKS):
        held = {q * NUM_RANKS + rank: z3.Bool(f"p_{q}") for q in range(4)}
        enc = ArrangementEncoding(held, rules)
        accepts = z3.And(*enc.constraints, *[z3.Not(r) for r in enc.run_var.values()])
        cards = sorted(held)
        options = []
        for mask in range(16):
            chosen = [cards[q] for q in range(4) if mask >> q & 1]
            if chosen and not is_set(chosen):
                continue
            options.append(z3.And(*[enc.set_var[c] == bool(mask >> i & 1) for i, c in enumerate(cards)],
                                  *[held[c] for c in chosen]))
        truth = z3.Or(*options)
        holds, model = _unsat(accepts != truth)
        if not holds:
            assert model is not None
            return TheoremResult("ENCODING-EXACT-SETS", False, "z3+exhaustive", f"{rules!r}",
                                 f"rank {rank}: the encoding and the definition differ",
                                 time.perf_counter() - started)
    return TheoremResult("ENCODING-EXACT-SETS", True, "z3+exhaustive",
                         f"13 ranks x every held pattern x every set choice, {rules!r}", None,
                         time.perf_counter() - started)


def encoding_exact_discard() -> TheoremResult:
    """Z3, every hand of the deck: with a discard and no card in a meld, the encoding accepts a
    choice of discarded cards exactly when it is one held card (KNOCK.ELIGIBLE); and in any
    arrangement the discarded card is in no meld."""
    started = time.perf_counter()
    hand = symbolic_hand("h")
    enc = ArrangementEncoding(hand, STANDARD, discard=True)
    d = enc.discard_var
    no_melds = [z3.Not(v) for v in (*enc.set_var.values(), *enc.run_var.values())]
    truth = z3.And(z3.PbEq([(d[c], 1) for c in range(NUM_CARDS)], 1),
                   *[z3.Implies(d[c], hand[c]) for c in range(NUM_CARDS)])
    exact, _ = _unsat(*no_melds, z3.And(*enc.constraints) != truth)
    excluded, _ = _unsat(*enc.constraints, z3.Or(*[z3.And(d[c], z3.Or(enc.in_set(c), enc.in_run(c)))
                                                   for c in range(NUM_CARDS)]))
    holds = exact and excluded
    why = None if holds else ("the discard choices differ from one held card" if not exact
                              else "a discarded card can be in a meld")
    return TheoremResult("ENCODING-EXACT-DISCARD", holds, "z3", "every subset of the deck", why,
                         time.perf_counter() - started)


def encoding_pruning(rules: FormalRules) -> TheoremResult:
    """Exhaustive, all 8,192 rank sets of a suit: a card the encoding gives no run variable (its
    own ``_potential`` code, run on the set) lies in no run of the set by the definition
    (:func:`run_rank_masks`); and a card with fewer than 3 of its rank held gets no set variable
    and is in no set (:func:`is_set` needs 3 of a rank). Such cards are deadwood in every
    arrangement, as the encoding counts them."""
    started = time.perf_counter()
    runs = run_rank_masks(rules)
    for mask in range(1 << NUM_RANKS):
        cards = [r for r in range(NUM_RANKS) if mask >> r & 1]
        probe = object.__new__(ArrangementEncoding)
        probe.rules, probe.present, probe.cards = rules, dict.fromkeys(cards, True), tuple(cards)
        may_set, may_run = probe._potential()
        if may_set:
            return TheoremResult("ENCODING-PRUNING", False, "exhaustive", f"{rules!r}",
                                 f"{_suit_of_mask(mask)}: a set variable with one card a rank",
                                 time.perf_counter() - started)
        for r in cards:
            in_a_run = any(run >> r & 1 and run & mask == run for run in runs)
            if in_a_run and r not in may_run:
                return TheoremResult("ENCODING-PRUNING", False, "exhaustive", f"{rules!r}",
                                     f"{_suit_of_mask(mask)}: rank {r} is in a run but gets no variable",
                                     time.perf_counter() - started)
    return TheoremResult("ENCODING-PRUNING", True, "exhaustive", f"all 8192 rank sets of a suit, {rules!r}",
                         None, time.perf_counter() - started)


def _suit_of_mask(mask: int) -> str:
    return format_cards([r for r in range(NUM_RANKS) if mask >> r & 1])
