"""Z3 checks of the two facts SHOWDOWN.BEST-PLAY relies on, over every parameter value.

The adjudicator lets the defender minimise his deadwood, and the knocker minimise his own when he
may lay off, instead of searching on points. That is sound only if, with everything else fixed, the
knocker's net (his points minus the defender's) never falls as the defender's deadwood rises, and
never rises as the knocker's deadwood rises. Both are proved here for the scoring terms of
``ginspec.reference.scoring.hand_score_terms``, with every bonus, tie rule, zero-cancel and
doubling symbolic.
"""

from __future__ import annotations

import z3
from ginspec.reference.scoring import hand_score_terms, z3_arithmetic


def _net(outcome: z3.ArithRef, kd: z3.ArithRef, dd: z3.ArithRef, params: dict[str, z3.ExprRef]
         ) -> z3.ArithRef:
    terms = hand_score_terms(z3_arithmetic(), outcome, kd, dd, **params)
    return terms.knocker - terms.defender


def _params() -> tuple[dict[str, z3.ExprRef], list[z3.BoolRef]]:
    gin, big, under, tie = z3.Ints("gin_bonus big_gin_bonus undercut_bonus tie")
    params: dict[str, z3.ExprRef] = {
        "gin_bonus": gin, "big_gin_bonus": big, "undercut_bonus": under, "tie": tie,
        "zero_cancels": z3.Bool("zero_cancels"), "doubled": z3.Bool("doubled"),
    }
    return params, [gin >= 0, big >= 0, under >= 0, tie >= 0, tie <= 2]


def _proved(claim: z3.BoolRef, assumptions: list[z3.BoolRef]) -> bool:
    solver = z3.Solver()
    solver.add(*assumptions, z3.Not(claim))
    return solver.check() == z3.unsat


def test_net_never_falls_as_the_defender_deadwood_rises() -> None:
    params, pre = _params()
    outcome, kd, d1, d2 = z3.Ints("outcome kd d1 d2")
    legal = [outcome >= 0, outcome <= 2, kd >= 0, d1 >= 0, d2 >= d1,
             z3.Implies(outcome != 0, kd == 0)]
    claim = _net(outcome, kd, d1, params) <= _net(outcome, kd, d2, params)
    assert _proved(claim, pre + legal)


def test_net_never_rises_as_the_knocker_deadwood_rises() -> None:
    params, pre = _params()
    dd, k1, k2 = z3.Ints("dd k1 k2")
    legal = [dd >= 0, k1 >= 0, k2 >= k1]
    claim = _net(z3.IntVal(0), k1, dd, params) >= _net(z3.IntVal(0), k2, dd, params)
    assert _proved(claim, pre + legal)


def test_the_checks_can_fail() -> None:
    """Without the precondition undercut_bonus >= 0 the first lemma is false: with a bonus of -2
    a tie that counts as an undercut is worth more to the knocker than beating the defender by 1."""
    params, pre = _params()
    outcome, kd, d1, d2 = z3.Ints("outcome kd d1 d2")
    legal = [outcome == 0, kd >= 1, d1 >= 0, d2 >= d1]
    claim = _net(outcome, kd, d1, params) <= _net(outcome, kd, d2, params)
    weakened = [p for p in pre if "undercut_bonus" not in str(p)]
    assert not _proved(claim, weakened + legal)
