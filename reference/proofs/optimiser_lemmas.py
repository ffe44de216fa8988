"""The lemmas the reference's optimiser relies on, checked against the formal model
(docs/proven.md; DEADWOOD.MINIMUM, KNOCK.ELIGIBLE).

:func:`ginspec.reference.melds.min_deadwood` computes, for every choice of set cards, the sum of
four per-suit table look-ups (:mod:`ginspec.reference.suit_tables`), and the best discard from a
``gain`` table. That is right if and only if these hold:

* LONG-RUNS-SPLIT — a run of 6 or more cards splits into runs of 3 or more; so (standard rules)
  the best run cover of a suit is its maximal stretches of 3 or more adjacent cards, as the rank
  DP assumes;
* SUIT-INDEPENDENCE — with the set cards fixed, each suit's runs are chosen on their own
  (model theorem :func:`ginspec.spec.formal.theorems.suit_independence`);
* RUN-ENUMERATION-COMPLETE — the run patterns are exactly the definition's runs, the cover/dead
  tables equal the model's per-suit optimum for all 8,192 rank sets, and ``run_partitions`` lists
  every optimal partition exactly once;
* SET-CHOICES-COMPLETE — per rank, "none, all, or any three of four" are exactly the possible
  set-card choices;
* DISCARD-BY-SUIT — the ``gain`` table is the best one-card drop of each suit, and the set-card
  choices after a discard are the choices before it that avoid the discarded card.

Each check takes the reference ingredient as an argument (default: the real one), so a test can
hand it a broken one and watch the theorem fail.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from itertools import combinations
from typing import Any, Final

import z3
from ginspec.reference import melds as _melds
from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.suit_tables import NO_CARD, SuitTables, run_partitions, suit_tables
from ginspec.spec.cards import NUM_RANKS, format_cards, parse_cards
from ginspec.spec.formal.definition import (
    is_set,
    rank_set_value,
    run_rank_masks,
    suit_optimum,
)
from ginspec.spec.formal.explore import explore
from ginspec.spec.formal.rules import FormalRules
from ginspec.spec.formal.theorems import TheoremResult

TablesFor = Callable[[MeldRules], SuitTables]
SetOptions = Callable[[int, Sequence[int]], list[tuple[int, ...]]]
RemovalTable = Sequence[Mapping[int, Sequence[int]]]

_STANDARD = MeldRules()
RULESETS: tuple[MeldRules, ...] = (
    MeldRules(),
    MeldRules(ace_high_runs=True),
    MeldRules(ace_high_runs=True, wraparound_runs=True),
    MeldRules(ace_value=11),
    MeldRules(ace_high_runs=True, wraparound_runs=True, ace_value=15),
)
"""The run shapes, plus ace values that change the tables' numbers."""


def _ranks(mask: int) -> str:
    return format_cards([r for r in range(NUM_RANKS) if mask >> r & 1]).replace("C", "") or "-"


def _fail(name: str, checked: str, why: str, started: float) -> TheoremResult:
    return TheoremResult(name, False, "exhaustive", checked, why, time.perf_counter() - started)


def _stretch_value(mask: int, rules: MeldRules) -> int:
    """Value of the ranks lying in 3 adjacent held ranks (standard line: A..K, no wrap)."""
    total = 0
    for r in range(NUM_RANKS):
        if mask >> r & 1 and any(
            all(mask >> q & 1 for q in (s, s + 1, s + 2)) for s in range(max(0, r - 2), min(r, 10) + 1)
        ):
            total += rank_set_value(1 << r, rules)
    return total


def long_runs_split(tables_for: TablesFor = suit_tables) -> TheoremResult:
    """(a) Every run of 6+ cards (by the definition, each ruleset) is two runs of 3+;
    (b) standard rules: the table's run cover of each of the 8,192 rank sets is the value of
    its maximal stretches of 3 or more (the rank DP's assumption)."""
    started = time.perf_counter()
    name = "LONG-RUNS-SPLIT"
    for rules in RULESETS:
        formal = FormalRules.of(rules)
        runs = set(run_rank_masks(formal))
        for run in runs:
            if run.bit_count() >= 6 and not any(
                part in runs and (run ^ part) in runs and part.bit_count() >= 3
                and (run ^ part).bit_count() >= 3
                for part in _submasks(run)
            ):
                return _fail(name, repr(rules), f"run {_ranks(run)} does not split", started)
    for rules in (MeldRules(), MeldRules(ace_value=11)):
        cover = tables_for(rules).cover
        for mask in range(1 << NUM_RANKS):
            if cover[mask] != _stretch_value(mask, rules):
                return _fail(name, repr(rules), f"cover of {_ranks(mask)} is {cover[mask]}, its "
                             f"stretches are worth {_stretch_value(mask, rules)}", started)
    return TheoremResult(name, True, "exhaustive",
                         "every run of 6+ ranks of 5 rulesets; cover of all 8192 rank sets (standard "
                         "runs, ace 1 and 11)", None, time.perf_counter() - started)


def _submasks(mask: int) -> list[int]:
    out, sub = [], mask
    while sub:
        out.append(sub)
        sub = (sub - 1) & mask
    return out


def run_enumeration_complete(
    tables_for: TablesFor = suit_tables,
    partitions: Callable[[int, SuitTables], list[list[int]]] = run_partitions,
) -> TheoremResult:
    """For each ruleset and each of the 8,192 rank sets of a suit: the run patterns are the
    definition's runs; ``cover``/``dead``/``value`` equal the model's optimum; and the partitions
    listed are valid, optimal, distinct, and as many as a brute-force count of optimal run sets."""
    started = time.perf_counter()
    name = "RUN-ENUMERATION-COMPLETE"
    for rules in RULESETS:
        formal = FormalRules.of(rules)
        t = tables_for(rules)
        truth_runs = set(run_rank_masks(formal))
        if set(t.run_masks) != truth_runs or len(t.run_masks) != len(truth_runs):
            extra = set(t.run_masks) - truth_runs
            missing = truth_runs - set(t.run_masks)
            return _fail(name, repr(rules), f"run patterns differ: extra {sorted(map(_ranks, extra))}, "
                         f"missing {sorted(map(_ranks, missing))}", started)
        best = suit_optimum(formal)
        counts = _optimal_run_set_counts(sorted(truth_runs), formal, best)
        for mask in range(1 << NUM_RANKS):
            value = rank_set_value(mask, formal)
            if t.value[mask] != value or t.cover[mask] != best[mask] or t.dead[mask] != value - best[mask]:
                return _fail(name, repr(rules), f"tables wrong at {_ranks(mask)}: cover {t.cover[mask]}, "
                             f"model {best[mask]}", started)
            seen: set[frozenset[int]] = set()
            for part in partitions(mask, t):
                used = [t.run_masks[i] for i in part]
                union = 0
                for m in used:
                    if union & m or m & ~mask:
                        return _fail(name, repr(rules), f"partition of {_ranks(mask)} overlaps or "
                                     "leaves the suit", started)
                    union |= m
                if rank_set_value(union, formal) != best[mask]:
                    return _fail(name, repr(rules), f"partition of {_ranks(mask)} is not optimal", started)
                seen.add(frozenset(used))
            listed = len(partitions(mask, t))
            if len(seen) != listed or listed != counts[mask]:
                return _fail(name, repr(rules), f"{_ranks(mask)}: {listed} partitions listed, "
                             f"{len(seen)} distinct, {counts[mask]} exist", started)
    return TheoremResult(name, True, "exhaustive", "all 8192 rank sets of a suit, 5 rulesets", None,
                         time.perf_counter() - started)


def _optimal_run_set_counts(runs: list[int], rules: FormalRules, best: Sequence[int]) -> list[int]:
    """For each rank set, how many sets of pairwise disjoint runs inside it cover ``best``.

    Brute force: every collection of disjoint runs is generated once (runs taken in increasing
    index order) and credited to every rank set that contains it and whose optimum it reaches.
    """
    size = 1 << NUM_RANKS
    reach = [0] * size  # reach[u] = number of run collections with union exactly u
    def grow(start: int, union: int) -> None:
        reach[union] += 1
        for i in range(start, len(runs)):
            if not runs[i] & union:
                grow(i + 1, union | runs[i])
    grow(0, 0)
    counts = [0] * size
    for union in range(size):
        if not reach[union]:
            continue
        value = rank_set_value(union, rules)
        rest = (size - 1) & ~union
        sub = rest
        while True:
            mask = union | sub
            if best[mask] == value:
                counts[mask] += reach[union]
            if sub == 0:
                break
            sub = (sub - 1) & rest
    return counts


def _removal_choices(removals: RemovalTable, rank: int, held: Sequence[int]) -> list[tuple[int, ...]]:
    """The suits each XOR mask of ``_SET_REMOVALS`` takes out, for a rank held in ``held``."""
    column = sum(1 << (NUM_RANKS * q) for q in held)
    if len(held) < 3:
        return [()]
    out = []
    for xor in removals[rank][column]:
        out.append(tuple(q for q in range(4) if xor >> (NUM_RANKS * q + rank) & 1))
    return out


def set_choices_complete(
    set_options: SetOptions | None = None,
    ranks_with_three: Callable[[Sequence[int]], int] | None = None,
    removals: RemovalTable | None = None,
) -> TheoremResult:
    """For each rank and each of the 16 patterns of suits holding it: the reference's set choices
    — ``_set_options`` (rank DP, arrangements) and the XOR table ``_SET_REMOVALS`` (min_deadwood)
    — are exactly the subsets of those cards that can be the set cards of an arrangement (none,
    or one set: two disjoint sets of one rank would need 6 cards); ``_ranks_with_three`` picks
    exactly the ranks held 3 or 4 times."""
    options = set_options or _melds._set_options
    three = ranks_with_three or _melds._ranks_with_three
    table = removals if removals is not None else _melds._SET_REMOVALS
    started = time.perf_counter()
    name = "SET-CHOICES-COMPLETE"
    for rank in range(NUM_RANKS):
        for pattern in range(16):
            held = [s for s in range(4) if pattern >> s & 1]
            masks = [(pattern >> s & 1) << rank for s in range(4)]
            truth = {()} | {
                combo for size in (3, 4) for combo in combinations(held, size)
                if is_set([s * NUM_RANKS + rank for s in combo])
            }
            for label, got in (("_set_options", [tuple(sorted(o)) for o in options(rank, masks)]),
                               ("_SET_REMOVALS", _removal_choices(table, rank, held))):
                if set(got) != truth or len(got) != len(truth):
                    return _fail(name, "13 ranks x 16 suit patterns", f"rank {rank}, suits {held}: "
                                 f"{label} gives options {sorted(got)}, truth {sorted(truth)}", started)
            if bool(three(masks) >> rank & 1) != (len(held) >= 3):
                return _fail(name, "16 suit patterns", f"suits {held}: ranks_with_three wrong", started)
    return TheoremResult(name, True, "exhaustive", "13 ranks x 16 patterns of suits holding the rank; "
                         "_set_options and _SET_REMOVALS", None, time.perf_counter() - started)


WithSets = Callable[[int, int, int, Any], Any]
"""``_min_deadwood_with_sets``: mask, set ranks, ranks held four times, the run-deadwood table."""


class _SymbolicDead:
    """A run-deadwood table whose every entry is its own Z3 integer ``d_<mask>`` in 0..1000."""

    def __init__(self) -> None:
        self.entries: dict[int, z3.ArithRef] = {}

    def __getitem__(self, mask: int) -> z3.ArithRef:
        if mask not in self.entries:
            self.entries[mask] = z3.Int(f"d_{mask:#x}")
        return self.entries[mask]

    def bounds(self) -> list[z3.BoolRef]:
        return [z3.And(v >= 0, v <= 1000) for v in self.entries.values()]


def _set_choice_masks(mask: int) -> list[int]:
    """The hand minus its set cards for every choice of sets (by SET-CHOICES-COMPLETE: per rank
    held 3+ times none, all, or each three of four), written here from the definition."""
    out = [mask]
    for rank in range(NUM_RANKS):
        held = [q for q in range(4) if mask >> (q * NUM_RANKS + rank) & 1]
        if len(held) < 3:
            continue
        options = [()] + [tuple(held)] + ([tuple(c) for c in combinations(held, 3)] if len(held) == 4 else [])
        out = [m & ~sum(1 << (q * NUM_RANKS + rank) for q in o) for m in out for o in options]
    return out


LAST_RANK_HANDS: Final = (
    ("5C 5D 6D 5H 7H 5S 8S", "four of a rank, no other set rank"),
    ("5C 6C 5D 5H 7H 9S", "three of a rank (spades lack it)"),
    ("5C 9C 5D 9D 5H 9H 5S", "a four and a three: the loop over the first rank's choices"),
)
"""Hand shapes for the proof. Each table entry the code reads is a variable; where two suits have
the same rank set they share it (the third shape: clubs, diamonds, hearts hold 5 and 9), which
covers equal values only — the first two shapes have pairwise distinct suits. (A third shape with
distinct suits takes 90 s: too slow for CI.)"""


def last_rank_closed_form(with_sets: WithSets | None = None) -> TheoremResult:
    """Z3 over every value of the run-deadwood table: ``_min_deadwood_with_sets`` — the code itself,
    run path by path on symbolic table entries (:func:`ginspec.spec.formal.explore.explore`) —
    returns the least over every choice of set cards of the sum of the four suits' run deadwood,
    for hands whose last set rank is held four times, three times, and after another set rank
    (the loop). Its closed form for the last rank (``min(0, sum(e), sum(e) - max(e))`` with four,
    ``min(0, sum(e))`` with three) is thereby proved for all table values in 0..1000."""
    fn: WithSets = with_sets or _melds._min_deadwood_with_sets
    started = time.perf_counter()
    name = "LAST-RANK-CLOSED-FORM"
    for text, what in LAST_RANK_HANDS:
        mask = sum(1 << c for c in parse_cards(text))
        suits = [mask >> (q * NUM_RANKS) & 0x1FFF for q in range(4)]
        three = _melds._ranks_with_three(suits)
        quads = three & suits[0] & suits[1] & suits[2] & suits[3]
        dead = _SymbolicDead()
        paths = explore(partial(fn, mask, three, quads, dead))
        options = [z3.Sum([dead[m >> (q * NUM_RANKS) & 0x1FFF] for q in range(4)])
                   for m in _set_choice_masks(mask)]
        truth = options[0]
        for o in options[1:]:
            truth = z3.If(o < truth, o, truth)
        solver = z3.Solver()
        solver.add(*dead.bounds())
        for path in paths:
            if solver.check(path.condition, path.result != truth) == z3.sat:
                m = solver.model()
                return TheoremResult(name, False, "z3", what, f"{text}: the code gives "
                                     f"{m.eval(path.result)}, the best set choice {m.eval(truth)} "
                                     f"({len(paths)} paths)", time.perf_counter() - started)
    return TheoremResult(name, True, "z3", f"the code's own function on {len(LAST_RANK_HANDS)} hand "
                         "shapes, every table value 0..1000", None, time.perf_counter() - started)


def _block_truth(cards: list[int], rules: FormalRules) -> tuple[list[int], list[int]]:
    """Least deadwood of every subset of ``cards`` (ranks of one block, 4 suits), by brute force
    over set choices and the model's per-suit optimum; returns (whole, after best discard)."""
    best = suit_optimum(rules)
    n = len(cards)
    ranks = sorted({c % NUM_RANKS for c in cards})
    whole = [0] * (1 << n)
    for sub in range(1 << n):
        held = [cards[i] for i in range(n) if sub >> i & 1]
        choices: list[list[int]] = [[]]
        for r in ranks:
            at_r = [c for c in held if c % NUM_RANKS == r]
            opts: list[list[int]] = [[]] + [list(x) for k in (3, 4) for x in combinations(at_r, k)]
            choices = [ch + o for ch in choices for o in opts]
        low = 1 << 30
        for ch in choices:
            rest = [c for c in held if c not in ch]
            total = 0
            for s in range(4):
                m = sum(1 << (c % NUM_RANKS) for c in rest if c // NUM_RANKS == s)
                total += rank_set_value(m, rules) - best[m]
            low = min(low, total)
        whole[sub] = low
    after = [0] * (1 << n)
    for sub in range(1, 1 << n):
        after[sub] = min(whole[sub & ~(1 << i)] for i in range(n) if sub >> i & 1)
    return whole, after


def block_exhaustive(
    ranks: Sequence[int] = (0, 1, 2, 3), rules: MeldRules = _STANDARD,
    min_deadwood: Callable[[list[int], MeldRules], int] | None = None,
    after_discard: Callable[[list[int], MeldRules], int] | None = None,
    rank_dp: Callable[[Sequence[int], MeldRules], int] | None = None,
    dp_stride: int = 1,
) -> TheoremResult:
    """Exhaustive: min_deadwood, min_deadwood_after_discard and the rank DP (which min_deadwood uses
    above 5 set ranks; called directly here) of the reference on EVERY subset of a
    block of ranks in all four suits (2^16 hands for 4 ranks), against brute
    force over set choices plus the model's per-suit optimum (SUIT-INDEPENDENCE). ``dp_stride``
    checks the rank DP on every that-many-th subset only (it is slow with wrap-around runs)."""
    md = min_deadwood or _melds.min_deadwood
    ad = after_discard or _melds.min_deadwood_after_discard
    dp = rank_dp or _melds._min_deadwood_rank_dp
    started = time.perf_counter()
    cards = [s * NUM_RANKS + r for s in range(4) for r in ranks]
    whole, after = _block_truth(cards, FormalRules.of(rules))
    for sub in range(1 << len(cards)):
        held = [cards[i] for i in range(len(cards)) if sub >> i & 1]
        if md(held, rules) != whole[sub]:
            return _fail("BLOCK-EXHAUSTIVE", repr(rules), f"min_deadwood({format_cards(held)}) = "
                         f"{md(held, rules)}, truth {whole[sub]}", started)
        suits = [sum(1 << (c % NUM_RANKS) for c in held if c // NUM_RANKS == q) for q in range(4)]
        if sub % dp_stride == 0 and dp(suits, rules) != whole[sub]:
            return _fail("BLOCK-EXHAUSTIVE", repr(rules), f"rank DP({format_cards(held)}) = "
                         f"{dp(suits, rules)}, truth {whole[sub]}", started)
        if held and ad(held, rules) != after[sub]:
            return _fail("BLOCK-EXHAUSTIVE", repr(rules), f"after discard ({format_cards(held)}) = "
                         f"{ad(held, rules)}, truth {after[sub]}", started)
    return TheoremResult("BLOCK-EXHAUSTIVE", True, "exhaustive",
                         f"all {1 << len(cards)} subsets of ranks {_ranks(sum(1 << r for r in ranks))} "
                         f"x 4 suits, {rules!r}; rank DP on every {dp_stride}. subset", None,
                         time.perf_counter() - started)


def discard_by_suit(
    tables_for: TablesFor = suit_tables, set_options: SetOptions | None = None
) -> TheoremResult:
    """(a) For each ruleset and rank set: ``gain[m] = dead[m] - min(dead[m - b] for b in m)`` with
    ``dead`` from the model's optimum (``NO_CARD`` for the empty set); (b) for each suit pattern
    of a rank and each discarded suit, the set options after the discard are exactly the options
    before it that avoid the discarded card. With (a), (b) and SUIT-INDEPENDENCE, the best discard
    is ``min over set choices of (sum of dead) - (largest gain)``: min_deadwood_after_discard."""
    options = set_options or _melds._set_options
    started = time.perf_counter()
    name = "DISCARD-BY-SUIT"
    for rules in RULESETS:
        formal = FormalRules.of(rules)
        best = suit_optimum(formal)
        dead = [rank_set_value(m, formal) - best[m] for m in range(1 << NUM_RANKS)]
        gain = tables_for(rules).gain
        if gain[0] != NO_CARD:
            return _fail(name, repr(rules), "gain of the empty suit is not NO_CARD", started)
        for mask in range(1, 1 << NUM_RANKS):
            want = dead[mask] - min(dead[mask & ~(1 << r)] for r in range(NUM_RANKS) if mask >> r & 1)
            if gain[mask] != want:
                return _fail(name, repr(rules), f"gain of {_ranks(mask)} is {gain[mask]}, not {want}",
                             started)
    rank = 7
    for pattern in range(16):
        masks = [(pattern >> s & 1) << rank for s in range(4)]
        before = {tuple(sorted(o)) for o in options(rank, masks)}
        held = [q for q in range(4) if pattern >> q & 1]
        if set(_removal_choices(_melds._SET_REMOVALS, rank, held)) != before:
            return _fail(name, "16 suit patterns", f"_SET_REMOVALS differs at {pattern:04b}", started)
        for gone in range(4):
            if not pattern >> gone & 1:
                continue
            after_masks = list(masks)
            after_masks[gone] = 0
            after = {tuple(sorted(o)) for o in options(rank, after_masks)}
            if after != {o for o in before if gone not in o}:
                return _fail(name, "16 suit patterns", f"discarding suit {gone} from {pattern:04b}: "
                             f"{sorted(after)}", started)
    return TheoremResult(name, True, "exhaustive",
                         "gain of all 8192 rank sets for 5 rulesets; set options of 16 patterns x 4 "
                         "discards", None, time.perf_counter() - started)

