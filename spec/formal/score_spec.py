"""Hand scoring written a second time, from the clause texts of chapter 9, as a specification in
Z3 (SCORE.KNOCK, SCORE.UNDERCUT, SCORE.TIE, SCORE.GIN, SCORE.BIG-GIN, SCORE.ZERO-CANCELS,
SCORE.HAND-WINNER, OKLAHOMA.SPADES; docs/proven.md, SCORE-SPEC).

This is not a refactor of ``reference/scoring.py``: it reads the parameters by their names and
values in spec/parameters.toml (never the code's integer codes), and states one case per clause —
the cases are disjoint and cover every legal hand — with what the clause says each side scores
and who wins. ``ginspec.reference.proofs.scoring_proofs`` proves the code equal to it for every
value of every parameter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

import z3
from ginspec.spec.parameters import parameter

Term: TypeAlias = Any
"""A Z3 term (z3 has no type stubs)."""


class SymbolicRules:
    """One Z3 variable per parameter: an integer within its range, a Boolean, or for an enum an
    integer that stands for one of its choices (compare with :meth:`is_`)."""

    def __init__(self, names: tuple[str, ...], tag: str = "") -> None:
        self.vars: dict[str, Term] = {}
        self.domain: list[z3.BoolRef] = []
        for name in names:
            p = parameter(name)
            if p.type == "bool":
                self.vars[name] = z3.Bool(f"{name}{tag}")
                continue
            v = z3.Int(f"{name}{tag}")
            self.vars[name] = v
            if p.type == "int":
                self.domain += [v >= int(p.min or 0), v <= int(p.max or 0)]
            else:
                self.domain += [v >= 0, v < len(p.choices)]

    def is_(self, name: str, choice: str) -> z3.BoolRef:
        """The enum parameter ``name`` has the value ``choice``."""
        return self.vars[name] == parameter(name).choices.index(choice)

    def __getitem__(self, name: str) -> Term:
        return self.vars[name]

    def show(self, model: z3.ModelRef, name: str) -> str:
        """The parameter's value in a model, as spec/parameters.toml writes it."""
        value = model.eval(self.vars[name], model_completion=True)
        p = parameter(name)
        if p.type == "enum":
            return str(p.choices[value.as_long()])
        return str(value).lower()


HAND_PARAMETERS = ("gin_bonus", "big_gin_bonus", "undercut_bonus", "undercut_on_tie",
                   "layoff_after_gin", "knocker_may_lay_off", "oklahoma", "spade_double")


@dataclass(frozen=True)
class SpecScore:
    """What the clauses give: each side's points and who won (``none`` when nobody did)."""

    knocker: Term
    defender: Term
    knocker_wins: z3.BoolRef
    defender_wins: z3.BoolRef
    undercut: z3.BoolRef


def legal_hand(outcome: str | Term, kd: Term, dd: Term, r: SymbolicRules, doubled: Term) -> z3.BoolRef:
    """What a hand that reaches scoring satisfies (KNOCK.GIN, KNOCK.BIG-GIN, LAYOFF.KNOCKER,
    OKLAHOMA.SPADES): deadwood counts >= 0; gin and big gin have no knocker deadwood; a knock has
    some unless the knocker laid off to 0; big gin only when it is played; doubling only under
    Oklahoma with spade_double on."""
    knock, gin, big = (outcome == k for k in ("knock", "gin", "big_gin"))
    return z3.And(
        kd >= 0, dd >= 0, z3.Or(knock, gin, big),
        z3.Implies(z3.Or(gin, big), kd == 0),
        z3.Implies(z3.And(knock, z3.Not(r["knocker_may_lay_off"])), kd >= 1),
        z3.Implies(big, r["big_gin_bonus"] > 0),
        z3.Implies(doubled, z3.And(r["oklahoma"], z3.Not(r.is_("spade_double", "off")))),
    )


def hand_score_spec(outcome: Term, kd: Term, dd: Term, r: SymbolicRules, doubled: Term) -> SpecScore:
    """The points of a hand, case by case as chapter 9 states them; ``outcome`` is an
    :class:`OutcomeVar` (compared with "knock", "gin", "big_gin" by name)."""
    knock, gin, big = (outcome == k for k in ("knock", "gin", "big_gin"))
    tie_rule = {c: r.is_("undercut_on_tie", c) for c in ("undercut", "no_score", "knocker_scores_zero")}
    cancelled = z3.And(r.is_("layoff_after_gin", "allowed_zero_cancels"), dd == 0)
    # (condition, knocker points, defender points, winner) — one row per clause
    rows = [
        (z3.And(knock, kd < dd), dd - kd, 0, "knocker"),                          # SCORE.KNOCK
        (z3.And(knock, dd < kd), 0, kd - dd + r["undercut_bonus"], "defender"),   # SCORE.UNDERCUT
        (z3.And(knock, kd == dd, tie_rule["undercut"]), 0, r["undercut_bonus"], "defender"),  # SCORE.TIE
        (z3.And(knock, kd == dd, tie_rule["no_score"]), 0, 0, None),
        (z3.And(knock, kd == dd, tie_rule["knocker_scores_zero"]), 0, 0, "knocker"),
        (z3.And(gin, z3.Not(cancelled)), r["gin_bonus"] + dd, 0, "knocker"),      # SCORE.GIN
        (z3.And(big, z3.Not(cancelled)), r["big_gin_bonus"] + dd, 0, "knocker"),  # SCORE.BIG-GIN
        (z3.And(z3.Or(gin, big), cancelled), 0, 0, None),                         # SCORE.ZERO-CANCELS
    ]
    factor = z3.If(doubled, 2, 1)  # OKLAHOMA.SPADES: the hand's points double
    knocker: Term = z3.IntVal(0)
    defender: Term = z3.IntVal(0)
    for cond, k, d, _ in rows:
        knocker = z3.If(cond, k * factor, knocker)
        defender = z3.If(cond, d * factor, defender)
    # SCORE.HAND-WINNER: the side that scores, and the knocker of a 0-point tie
    knocker_wins = z3.Or(*[cond for cond, *_, w in rows if w == "knocker"])
    defender_wins = z3.Or(*[cond for cond, *_, w in rows if w == "defender"])
    undercut = z3.Or(rows[1][0], rows[2][0])  # SCORE.UNDERCUT, and a tie that is one (SCORE.TIE)
    return SpecScore(knocker, defender, knocker_wins, defender_wins, undercut)


class OutcomeVar:
    """A symbolic outcome: one of "knock", "gin", "big_gin", as a Z3 integer 0..2 in that order
    of chapter 9's clauses (any order would do: only ``==`` with a name is used)."""

    NAMES = ("knock", "gin", "big_gin")

    def __init__(self, tag: str = "") -> None:
        self.var = z3.Int(f"outcome{tag}")
        self.domain = z3.And(self.var >= 0, self.var < 3)

    def __eq__(self, name: object) -> Any:
        return self.var == self.NAMES.index(str(name))

    __hash__ = None  # type: ignore[assignment]
