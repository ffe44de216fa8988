"""Proofs about the hand-scoring code itself (chapter 09, OKLAHOMA.SPADES; docs/proven.md).

:func:`ginspec.reference.scoring.hand_score_terms` is written once over an abstract arithmetic; run
on Z3 terms it yields the exact formulas the reference evaluates on ints. Here Z3 proves, for a
ruleset (each profile, or every value of the scoring parameters at once) and for ALL deadwood
values (unbounded integers) that satisfy the preconditions of a legal hand:

* ONE-WINNER — never both sides win; a side with points won the hand; at most one side has
  points; a hand with no winner scores nothing, and that happens exactly on a tie under
  ``undercut_on_tie=no_score`` or a gin against 0 deadwood under ``allowed_zero_cancels``;
* NON-NEGATIVE — points are never negative;
* GIN-NEVER-UNDERCUT — after gin or big gin the defender never scores and never undercuts;
* UNDERCUT-EXACTLY — after a knock, an undercut happens iff the knocker's deadwood is higher, or
  equal with ``undercut_on_tie=undercut`` (read from the ruleset here, as a string);
* SPADE-DOUBLING — the doubled hand scores exactly twice the undoubled one for both sides, with
  the same winner; :func:`spade_doubles` says "doubled" exactly for Oklahoma with spade_double on
  and a spade upcard (all 52 upcards), and :func:`boxes_for` doubles the hand's box exactly under
  ``hand_and_boxes``;
* KNOCK-LIMIT (per profile, exhaustive) — the knock limit for each of the 52 first upcards is what
  OKLAHOMA.KNOCK-LIMIT and OKLAHOMA.ACE say (``knock_limit`` without Oklahoma).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import z3
from ginspec.reference.scoring import (
    OUTCOME_CODES,
    TIE_CODES,
    HandScoreTerms,
    boxes_for,
    hand_score_terms,
    knock_limit_for,
    spade_doubles,
    z3_arithmetic,
)
from ginspec.reference.typed_rules import to_rules
from ginspec.spec.cards import card_value
from ginspec.spec.formal.score_spec import (
    HAND_PARAMETERS,
    OutcomeVar,
    SymbolicRules,
    hand_score_spec,
    legal_hand,
)
from ginspec.spec.formal.theorems import TheoremResult
from ginspec.spec.parameters import Value
from ginspec.spec.profiles import ruleset

_AR = z3_arithmetic()


class _Hand:
    """Symbolic inputs of one hand and the terms the scoring code makes of them."""

    def __init__(self, rules: Mapping[str, Value] | None, doubled: Any = None, tag: str = "") -> None:
        self.kd, self.dd, self.outcome = z3.Ints(f"kd{tag} dd{tag} outcome{tag}")
        self.doubled = z3.Bool(f"doubled{tag}") if doubled is None else doubled
        pre = [self.kd >= 0, self.dd >= 0, z3.Or(self.outcome == 0, self.outcome == 1, self.outcome == 2),
               z3.Implies(self.outcome != 0, self.kd == 0)]
        if rules is None:  # every value of the scoring parameters
            self.gin, self.big, self.ub, self.tie = z3.Ints("gin big ub tie")
            self.zero_cancels = z3.Bool("zero_cancels")
            self.lay_off = z3.Bool("knocker_may_lay_off")
            self.spade_rule = z3.Bool("spade_rule")
            self.tie_is_undercut = self.tie == TIE_CODES["undercut"]
            self.tie_is_no_score = self.tie == TIE_CODES["no_score"]
            pre += [self.gin >= 0, self.big >= 0, self.ub >= 0, self.tie >= 0, self.tie <= 2,
                    z3.Implies(self.big == 0, self.outcome != 2)]
        else:
            v = to_rules(rules)
            self.gin, self.big, self.ub = v.gin_bonus, v.big_gin_bonus, v.undercut_bonus
            self.tie = TIE_CODES[v.undercut_on_tie]
            self.zero_cancels = z3.BoolVal(v.layoff_after_gin == "allowed_zero_cancels")
            self.lay_off = z3.BoolVal(v.knocker_may_lay_off)
            self.spade_rule = z3.BoolVal(v.oklahoma and v.spade_double != "off")
            self.tie_is_undercut = z3.BoolVal(v.undercut_on_tie == "undercut")
            self.tie_is_no_score = z3.BoolVal(v.undercut_on_tie == "no_score")
            if self.big == 0:
                pre.append(self.outcome != 2)
        pre.append(z3.Implies(z3.And(self.outcome == 0, z3.Not(self.lay_off)), self.kd >= 1))
        pre.append(z3.Implies(self.doubled, self.spade_rule))
        self.pre = pre
        self.t = hand_score_terms(_AR, self.outcome, self.kd, self.dd, gin_bonus=self.gin,
                                  big_gin_bonus=self.big, undercut_bonus=self.ub, tie=self.tie,
                                  zero_cancels=self.zero_cancels, doubled=self.doubled)


def _prove(name: str, scope: str, hand: _Hand, claim: z3.BoolRef, started: float) -> TheoremResult:
    solver = z3.Solver()
    solver.add(*hand.pre, z3.Not(claim))
    result = solver.check()
    if result == z3.unsat:
        return TheoremResult(name, True, "z3", scope, None, time.perf_counter() - started)
    if result == z3.unknown:  # pragma: no cover
        return TheoremResult(name, False, "z3", scope, f"unknown: {solver.reason_unknown()}")
    m = solver.model()
    shown = {str(v): m.eval(v, model_completion=True)
             for v in (hand.outcome, hand.kd, hand.dd, hand.doubled, hand.t.knocker, hand.t.defender)}
    return TheoremResult(name, False, "z3", scope, f"{shown}", time.perf_counter() - started)


def prove_hand_scoring(profile: str | None) -> list[TheoremResult]:
    """Every property for one profile's ruleset, or (``None``) for every parameter value at once."""
    rules = None if profile is None else ruleset(profile)
    scope = f"profile {profile}, all deadwood values" if profile else \
        "every gin/big-gin/undercut bonus >= 0, tie rule, zero_cancels, knocker_may_lay_off; all deadwood"
    h = _Hand(rules)
    t = h.t
    knock = h.outcome == 0
    void = z3.And(z3.Not(t.knocker_wins), z3.Not(t.defender_wins))
    out = []
    started = time.perf_counter()
    out.append(_prove("ONE-WINNER", scope, h, z3.And(
        z3.Not(z3.And(t.knocker_wins, t.defender_wins)),
        z3.Implies(t.knocker > 0, t.knocker_wins),
        z3.Implies(t.defender > 0, t.defender_wins),
        z3.Or(t.knocker == 0, t.defender == 0),
        z3.Implies(void, z3.And(t.knocker == 0, t.defender == 0)),
        void == z3.Or(z3.And(knock, h.kd == h.dd, h.tie_is_no_score),
                      z3.And(z3.Not(knock), h.zero_cancels, h.dd == 0)),
    ), started))
    started = time.perf_counter()
    out.append(_prove("NON-NEGATIVE", scope, h, z3.And(t.knocker >= 0, t.defender >= 0), started))
    started = time.perf_counter()
    out.append(_prove("GIN-NEVER-UNDERCUT", scope, h, z3.Implies(
        z3.Not(knock), z3.And(z3.Not(t.undercut), t.defender == 0, z3.Not(t.defender_wins))), started))
    started = time.perf_counter()
    factor = z3.If(h.doubled, 2, 1)
    out.append(_prove("UNDERCUT-EXACTLY", scope, h, z3.Implies(knock, z3.And(
        t.undercut == z3.Or(h.kd > h.dd, z3.And(h.kd == h.dd, h.tie_is_undercut)),
        t.undercut == t.defender_wins,
        z3.Implies(t.undercut, t.defender == (h.kd - h.dd + h.ub) * factor),
        z3.Implies(h.kd < h.dd, t.knocker == (h.dd - h.kd) * factor),
    )), started))
    out.append(_spade_doubling(rules, scope))
    if rules is not None:
        out.append(_knock_limits(rules, scope))
    return out


def _knock_limits(rules: Mapping[str, Value], scope: str) -> TheoremResult:
    """KNOCK-LIMIT: for each of the 52 first upcards (and none), the knock limit is ``knock_limit``
    without Oklahoma; with it, the upcard's value (2-9 pips, ten and court 10) and for an ace 1
    (``oklahoma_ace=one``) or 0 (``gin_only``) — OKLAHOMA.KNOCK-LIMIT, OKLAHOMA.ACE."""
    started = time.perf_counter()
    v = to_rules(rules)
    for upcard in [None, *range(52)]:
        if not v.oklahoma:
            want = v.knock_limit
        elif upcard is None:
            continue  # Oklahoma needs an upcard: score_hand refuses none
        elif upcard % 13 == 0:  # OKLAHOMA.ACE: the choice's own words
            want = {"one": 1, "gin_only": 0}[v.oklahoma_ace]
        else:  # OKLAHOMA.KNOCK-LIMIT: the upcard's value, by the spec's CARD.VALUE (spec.cards)
            want = card_value(upcard)
        got = knock_limit_for(v, upcard)
        if got != want:
            return TheoremResult("KNOCK-LIMIT", False, "exhaustive", scope,
                                 f"upcard {upcard}: limit {got}, the spec says {want}")
    return TheoremResult("KNOCK-LIMIT", True, "exhaustive", f"{scope}; all 52 upcards", None,
                         time.perf_counter() - started)


def _spade_doubling(rules: Mapping[str, Value] | None, scope: str) -> TheoremResult:
    started = time.perf_counter()
    plain = _Hand(rules, doubled=z3.BoolVal(False))
    doubled = _Hand(rules, doubled=z3.BoolVal(True))
    same = [plain.kd == doubled.kd, plain.dd == doubled.dd, plain.outcome == doubled.outcome]
    if rules is None:
        same += [plain.gin == doubled.gin, plain.big == doubled.big, plain.ub == doubled.ub,
                 plain.tie == doubled.tie, plain.zero_cancels == doubled.zero_cancels,
                 plain.lay_off == doubled.lay_off]
    p, d = plain.t, doubled.t
    claim = z3.And(d.knocker == 2 * p.knocker, d.defender == 2 * p.defender,
                   d.knocker_wins == p.knocker_wins, d.defender_wins == p.defender_wins)
    solver = z3.Solver()
    solver.add(*plain.pre, *[c for c in doubled.pre if not z3.eq(c, doubled.pre[-1])], *same,
               z3.Not(claim))
    if solver.check() != z3.unsat:
        return TheoremResult("SPADE-DOUBLING", False, "z3", scope, str(solver.model()))
    if rules is not None:
        v = to_rules(rules)
        says = v.oklahoma and v.spade_double != "off"
        for upcard in [None, *range(52)]:
            expect = says and upcard is not None and upcard // 13 == 3
            if spade_doubles(v, upcard) != expect:
                return TheoremResult("SPADE-DOUBLING", False, "exhaustive", scope,
                                     f"spade_doubles wrong for upcard {upcard}")
        for outcome in ("knock", "gin", "big_gin"):
            for undercut in (False, True):
                single = boxes_for(v, outcome, undercut, False)
                double = boxes_for(v, outcome, undercut, True)
                base = 1 + (1 if v.spade_double == "hand_and_boxes" else 0)
                extra = (1 if undercut else 2 if outcome != "knock" else 0) if v.extra_boxes else 0
                if single != 1 + extra or double != base + 2 * extra:
                    return TheoremResult("SPADE-DOUBLING", False, "exhaustive", scope,
                                         f"boxes {outcome} undercut={undercut}: {single}, {double}")
    return TheoremResult("SPADE-DOUBLING", True, "z3+exhaustive" if rules else "z3", scope, None,
                         time.perf_counter() - started)


# --- SCORE-SPEC: the code equals chapter 9 written a second time ---------------------------------

HandScoreFn = Callable[..., HandScoreTerms]


def score_spec(terms_fn: HandScoreFn = hand_score_terms) -> TheoremResult:
    """Z3, every value of every hand-scoring parameter (each in the range or among the choices
    spec/parameters.toml allows, so every profile and every override) and every legal hand:
    ``hand_score_terms`` gives the points, winner and undercut that
    :func:`ginspec.spec.formal.score_spec.hand_score_spec` — chapter 9's clauses — gives.
    ``terms_fn`` is the function under proof (a test passes one with a planted bug)."""
    started = time.perf_counter()
    r = SymbolicRules(HAND_PARAMETERS)
    outcome = OutcomeVar()
    kd, dd = z3.Ints("kd dd")
    doubled = z3.Bool("doubled")
    spec = hand_score_spec(outcome, kd, dd, r, doubled)
    tie = z3.If(r.is_("undercut_on_tie", "undercut"), TIE_CODES["undercut"],
                z3.If(r.is_("undercut_on_tie", "no_score"), TIE_CODES["no_score"],
                      TIE_CODES["knocker_scores_zero"]))  # score_hand: TIE_CODES[undercut_on_tie]
    code = z3.If(outcome == "knock", OUTCOME_CODES["knock"],
                 z3.If(outcome == "gin", OUTCOME_CODES["gin"], OUTCOME_CODES["big_gin"]))
    t = terms_fn(_AR, code, kd, dd, gin_bonus=r["gin_bonus"], big_gin_bonus=r["big_gin_bonus"],
                 undercut_bonus=r["undercut_bonus"], tie=tie,
                 zero_cancels=r.is_("layoff_after_gin", "allowed_zero_cancels"), doubled=doubled)
    solver = z3.Solver()
    solver.add(*r.domain, outcome.domain, legal_hand(outcome, kd, dd, r, doubled))
    for what, a, b in (("knocker points", t.knocker, spec.knocker),
                       ("defender points", t.defender, spec.defender),
                       ("knocker wins", t.knocker_wins, spec.knocker_wins),
                       ("defender wins", t.defender_wins, spec.defender_wins),
                       ("undercut", t.undercut, spec.undercut)):
        if solver.check(a != b) == z3.sat:
            m = solver.model()
            shown = ", ".join(f"{v}={r.show(m, v)}" for v in HAND_PARAMETERS)
            return TheoremResult("SCORE-SPEC", False, "z3", "every parameter value",
                                 f"{what}: code {m.eval(a, model_completion=True)}, chapter 9 "
                                 f"{m.eval(b, model_completion=True)} for outcome "
                                 f"{OutcomeVar.NAMES[m.eval(outcome.var, model_completion=True).as_long()]}, "
                                 f"kd={m.eval(kd)}, dd={m.eval(dd)}, doubled={m.eval(doubled)}; {shown}",
                                 time.perf_counter() - started)
    return TheoremResult("SCORE-SPEC", True, "z3", "every value of the 8 hand-scoring parameters, every "
                         "legal hand (all deadwood values)", None, time.perf_counter() - started)
