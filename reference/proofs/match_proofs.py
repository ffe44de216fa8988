"""Proofs that the reference's match scoring is chapter 11 (docs/proven.md, MATCH-SPEC).

The code under proof is ``reference/scoring.py`` itself — ``MatchTally.after_hand``,
``MatchTally.score``, ``MatchTally.winner``, ``final_scores``, ``boxes_for`` and ``next_dealer`` —
never a copy: ``final_scores`` and the tally run path by path on Z3 values
(``ginspec.spec.formal.explore``) with typed rules whose numbers and Booleans are Z3 variables and
whose enum values are each choice in turn; the finite functions are run on every input. The other
side is :mod:`ginspec.spec.formal.match_spec`, chapter 11 written a second time.

* MATCH-SPEC — for every value of ``game_target``, ``game_bonus``, ``box_bonus``,
  ``shutout_bonus`` in spec/parameters.toml's ranges, both values of
  ``boxes_count_toward_target``, every choice of ``shutout_effect`` and ``shutout_test``, and
  every game record (points, boxes, hands won >= 0) in which exactly one player reached the target:
  the winner, hand points, box points, game bonus, shutout, shutout extra, totals, settlement and
  payee of ``final_scores`` are the clauses'; and ``MatchTally.winner`` names a player exactly
  when he reached the target (MATCH.TARGET, MATCH.BOX-TARGET).
* MATCH-CUMULATIVE — ``after_hand`` adds each side's points and boxes of a hand (any numbers) to
  the player who played that side, a hand won to its winner, and nothing for a void hand.
* MATCH-BOXES (exhaustive) — ``boxes_for`` on every legal outcome, undercut, spade deal,
  ``extra_boxes`` and ``spade_double``; MATCH-DEALER (exhaustive) — ``next_dealer`` on every
  rule, dealer, knocker and hand winner.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from types import ModuleType
from typing import Any, TypeVar

import z3
from ginspec.reference import scoring
from ginspec.reference.typed_rules import Rules, game_rules
from ginspec.spec.errors import GinspecError
from ginspec.spec.formal.explore import explore
from ginspec.spec.formal.match_spec import (
    MATCH_PARAMETERS,
    Record,
    boxes_earned,
    final_result,
    next_dealer_spec,
    reached,
    record,
)
from ginspec.spec.formal.score_spec import SymbolicRules
from ginspec.spec.formal.theorems import TheoremResult
from ginspec.spec.parameters import parameter

_ENUMS = ("shutout_effect", "shutout_test")
T = TypeVar("T")


def _symbolic_rules(r: SymbolicRules, choices: dict[str, str]) -> Rules:
    """Typed rules whose integer and Boolean match parameters are the Z3 variables of ``r`` and
    whose enums are ``choices`` (the code compares them with strings)."""
    base = game_rules(choices)
    symbolic = {name: r[name] for name in MATCH_PARAMETERS if name not in _ENUMS}
    return replace(base, **symbolic)


def _combinations() -> list[dict[str, str]]:
    names = [parameter(n).choices for n in _ENUMS]
    return [dict(zip(_ENUMS, combo, strict=True)) for combo in itertools.product(*names)]


def _same(a: Any, b: Any) -> z3.BoolRef:
    """``a == b`` as a Z3 condition (either side may be a Python value)."""
    return z3.BoolVal(bool(a == b)) if not isinstance(a == b, z3.ExprRef) else a == b


def _raising(run: Callable[[], T]) -> Callable[[], T | GinspecError]:
    """``run`` with a refusal (GinspecError) returned, not raised: a path where the code refuses a game
    chapter 11 scores is a counterexample like any other."""
    def guarded() -> T | GinspecError:
        try:
            return run()
        except GinspecError as exc:
            return exc
    return guarded


def _refuted(solver: z3.Solver, condition: z3.BoolRef, claims: list[tuple[str, z3.BoolRef]]) -> str | None:
    for what, claim in claims:
        if solver.check(condition, z3.Not(claim)) == z3.sat:
            m = solver.model()
            shown = ", ".join(f"{d.name()}={m[d]}" for d in sorted(m.decls(), key=str))
            return f"{what} differs from chapter 11 at {shown}"
    return None


def match_spec(module: ModuleType = scoring) -> TheoremResult:
    """MATCH-SPEC: ``final_scores`` and ``MatchTally.winner`` of ``module`` (the reference, or a
    planted copy) against chapter 11, for every parameter value and game record."""
    started = time.perf_counter()
    r = SymbolicRules(MATCH_PARAMETERS)
    players = (record("0"), record("1"))
    tally = module.MatchTally(hand_points=(players[0].points, players[1].points),
                              boxes=(players[0].boxes, players[1].boxes),
                              hands_won=(players[0].won, players[1].won), hands=z3.Int("hands"))
    domain = [*r.domain, *(p.domain() for p in players)]
    at = [reached(r, p) for p in players]
    paths = 0
    for choices in _combinations():
        fixed = [r.is_(name, value) for name, value in choices.items()]
        rules = _symbolic_rules(r, choices)
        solver = z3.Solver()
        solver.add(*domain, *fixed)
        # MATCH.TARGET: the game is over exactly when a player reached the target; one at most can
        for path in explore(_raising(partial(tally.winner, rules)),
                            assume=[*domain, *fixed, z3.Not(z3.And(*at))]):
            who = path.result
            claim = z3.BoolVal(False) if isinstance(who, GinspecError) else \
                z3.Not(z3.Or(*at)) if who is None else at[who]
            paths += 1
            bad = _refuted(solver, z3.And(z3.Not(z3.And(*at)), path.condition),
                           [(f"winner {who} ({choices})", claim)])
            if bad:
                return TheoremResult("MATCH-SPEC", False, "z3", "every parameter value", bad,
                                     time.perf_counter() - started)
        over = z3.And(z3.Or(*at), z3.Not(z3.And(*at)))
        for path in explore(_raising(partial(module.final_scores, rules, tally)),
                            assume=[*domain, *fixed, over]):
            paths += 1
            res = path.result
            if isinstance(res, GinspecError):
                bad = _refuted(solver, z3.And(over, path.condition), [(f"refused: {res}", z3.BoolVal(False))])
                return TheoremResult("MATCH-SPEC", False, "z3", "every parameter value", bad,
                                     time.perf_counter() - started)
            w = res.winner
            spec = final_result(r, players[w], players[1 - w])
            payee = {None: z3.And(z3.Not(spec.winner_paid), z3.Not(spec.loser_paid)),
                     w: spec.winner_paid, 1 - w: spec.loser_paid}[res.payee]
            claims = [
                ("winner", at[w]),
                ("hand points", z3.And(_same(res.hand_points[0], players[0].points),
                                       _same(res.hand_points[1], players[1].points))),
                ("box points", z3.And(_same(res.box_points[w], spec.box_points[0]),
                                      _same(res.box_points[1 - w], spec.box_points[1]))),
                ("game bonus", _same(res.game_bonus, r["game_bonus"])),
                ("shutout", _same(res.shutout, spec.shutout)),
                ("shutout clauses", _same("MATCH.SHUTOUT" in res.clauses, spec.shutout)),
                ("shutout extra", _same(res.shutout_extra, spec.shutout_extra)),
                ("winner's total", _same(res.totals[w], spec.totals[0])),
                ("loser's total", _same(res.totals[1 - w], spec.totals[1])),
                ("settlement", _same(res.settlement, spec.settlement)),
                ("payee", payee),
            ]
            bad = _refuted(solver, z3.And(over, path.condition),
                           [(f"{what} ({choices})", c) for what, c in claims])
            if bad:
                return TheoremResult("MATCH-SPEC", False, "z3", "every parameter value", bad,
                                     time.perf_counter() - started)
    return TheoremResult("MATCH-SPEC", True, "z3",
                         f"every value of the {len(MATCH_PARAMETERS)} game-score parameters, every "
                         f"game record ({paths} code paths)", None, time.perf_counter() - started)


def match_cumulative(module: ModuleType = scoring) -> TheoremResult:
    """MATCH-CUMULATIVE: ``after_hand`` on a symbolic tally and a hand with symbolic points and
    boxes, for each knocker, hand winner and void hand."""
    started = time.perf_counter()
    players = (record("0"), record("1"))
    hands = z3.Int("hands")
    tally = module.MatchTally(hand_points=(players[0].points, players[1].points),
                              boxes=(players[0].boxes, players[1].boxes),
                              hands_won=(players[0].won, players[1].won), hands=hands)
    kp, dp, kb, db = z3.Ints("knocker_points defender_points knocker_boxes defender_boxes")
    solver = z3.Solver()
    for knocker, winner, void in itertools.product((0, 1), ("knocker", "defender", None), (False, True)):
        if void and winner is not None:
            continue
        hand = module.HandScore("void" if void else "knock", kp, dp, winner, False, False, kb, db, ())
        after = module.MatchTally.after_hand(tally, knocker, hand)
        for p, before in enumerate(players):
            side = "knocker" if p == knocker else "defender"
            # MATCH.CUMULATIVE: his points in the hand, the boxes he earned, a hand he won
            gained = Record(0, 0, 0) if void else Record(
                kp if side == "knocker" else dp, kb if side == "knocker" else db,
                1 if winner == side else 0)
            claim = z3.And(_same(after.hand_points[p], before.points + gained.points),
                           _same(after.boxes[p], before.boxes + gained.boxes),
                           _same(after.hands_won[p], before.won + gained.won),
                           _same(after.hands, hands + 1))
            bad = _refuted(solver, z3.BoolVal(True),
                           [(f"player {p} after a hand knocked by {knocker}, won by {winner}, "
                             f"void={void}", claim)])
            if bad:
                return TheoremResult("MATCH-CUMULATIVE", False, "z3", "every tally and hand", bad,
                                     time.perf_counter() - started)
    return TheoremResult("MATCH-CUMULATIVE", True, "z3", "every tally, every hand's points and boxes",
                         None, time.perf_counter() - started)


def match_boxes(module: ModuleType = scoring) -> TheoremResult:
    """MATCH-BOXES: ``boxes_for`` on every legal input (a spade deal needs spade_double on; an
    undercut needs a knock) is :func:`ginspec.spec.formal.match_spec.boxes_earned`."""
    started = time.perf_counter()
    count = 0
    for outcome, undercut, spade, extra, sd in itertools.product(
            ("knock", "gin", "big_gin"), (False, True), (False, True), (False, True),
            parameter("spade_double").choices):
        if (undercut and outcome != "knock") or (spade and sd == "off"):
            continue
        rules = {"oklahoma": True, "spade_double": sd, "extra_boxes": extra, "big_gin_bonus": 31}
        got = module.boxes_for(rules, outcome, undercut, spade)
        want = boxes_earned(str(outcome), undercut, spade, extra, str(sd))
        count += 1
        if got != want:
            return TheoremResult("MATCH-BOXES", False, "exhaustive", "every legal input",
                                 f"{outcome}, undercut={undercut}, spade deal={spade}, extra_boxes="
                                 f"{extra}, spade_double={sd}: {got} boxes, chapter 11 says {want}")
    return TheoremResult("MATCH-BOXES", True, "exhaustive", f"all {count} legal inputs", None,
                         time.perf_counter() - started)


def match_dealer(module: ModuleType = scoring) -> TheoremResult:
    """MATCH-DEALER: ``next_dealer`` on every rule, dealer, knocker and hand winner."""
    started = time.perf_counter()
    count = 0
    for nxt, redeal, dealer, knocker, winner in itertools.product(
            parameter("next_dealer").choices, parameter("redeal_dealer").choices, (0, 1), (0, 1),
            ("knocker", "defender", None)):
        hand = module.HandScore("knock", 0, 0, winner, False, False, 0, 0, ())
        got = module.next_dealer({"next_dealer": nxt, "redeal_dealer": redeal}, dealer, hand, knocker)
        hand_winner = None if winner is None else knocker if winner == "knocker" else 1 - knocker
        want = next_dealer_spec(str(nxt), str(redeal), dealer, hand_winner)
        count += 1
        if got != want:
            return TheoremResult("MATCH-DEALER", False, "exhaustive", "every input",
                                 f"next_dealer={nxt}, redeal_dealer={redeal}, dealer {dealer}, "
                                 f"knocker {knocker}, {winner} won: {got} deals, chapter 11 says {want}")
    return TheoremResult("MATCH-DEALER", True, "exhaustive", f"all {count} inputs", None,
                         time.perf_counter() - started)


MATCH_THEOREMS: dict[str, Callable[[ModuleType], TheoremResult]] = {
    "MATCH-SPEC": match_spec, "MATCH-CUMULATIVE": match_cumulative, "MATCH-BOXES": match_boxes,
    "MATCH-DEALER": match_dealer,
}
"""Each match-scoring theorem by ID, run on a module: the reference's scoring or a planted copy."""


def prove_match_scoring(module: ModuleType = scoring) -> list[TheoremResult]:
    """Every match-scoring theorem, on ``module`` (the reference or a planted copy)."""
    return [prove(module) for prove in MATCH_THEOREMS.values()]


__all__ = ["MATCH_THEOREMS", "match_boxes", "match_cumulative", "match_dealer", "match_spec",
           "prove_match_scoring"]
