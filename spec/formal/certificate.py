"""Per-hand optimality certificates (DEADWOOD.MINIMUM, KNOCK.ELIGIBLE; FORMAL.CERTIFICATE).

:func:`certify` proves, for one hand, that the least deadwood is a claimed number N:

1. **witness** — Z3 finds an arrangement with deadwood at most N; it is read off the model and
   checked card by card against the definition (:mod:`ginspec.spec.formal.definition`);
2. **bound** — Z3 shows that "deadwood at most N - 1" is unsatisfiable under the encoding.

With ``discard=True`` (the default for 11 cards) the question is the least deadwood of the
cards kept after the best discard, the number that decides knocking and gin (KNOCK.ELIGIBLE).
A wrong claim does not raise: the certificate records the true optimum, and an arrangement
below the claim (claim too high) or the unsatisfiable bound (claim too low).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

import z3
from ginspec.spec.cards import Card, card_str, rank_of
from ginspec.spec.clauses import implements
from ginspec.spec.errors import GinspecError, HandSizeError, MeldError
from ginspec.spec.formal.bound import bound_witness, lower_bound
from ginspec.spec.formal.definition import arrangement_deadwood
from ginspec.spec.formal.encoding import ArrangementEncoding, WitnessArrangement
from ginspec.spec.formal.rules import STANDARD, FormalRules, MeldParams, rank_value

ProofOutcome = Literal["proved", "claim-too-high", "claim-too-low"]
QuestionKind = Literal["deadwood", "deadwood-after-discard"]
ENCODING_NAME: Final = "ginspec-membership-v1"
"""Names the SMT encoding (docs/proven.md); changes if the encoding changes."""


class FormalModelError(GinspecError):
    """The model produced an arrangement its own definition rejects (a bug in ginspec)."""


class CertificateError(GinspecError):
    """Data that is not a certificate: a missing or unknown field, or a part that is not an
    object or list where one belongs (names the field; the CLI exits 2)."""


class CertificateValueError(CertificateError):
    """A field of a certificate with a value of the wrong type or outside its range (names the
    field; :func:`ginspec.spec.formal.verify.verify` reports it as a certificate that does not
    stand, exit 1)."""


@dataclass(frozen=True)
class Certificate:
    """The proof that a hand's least deadwood is ``optimum``, and the verdict on ``claim``."""

    hand: tuple[Card, ...]
    rules: FormalRules
    question: QuestionKind
    claim: int
    outcome: ProofOutcome
    optimum: int
    witness: WitnessArrangement
    """An arrangement reaching ``optimum``, checked against the definition."""
    unsat_below: int
    """Proven: no arrangement has deadwood below this (equals ``optimum``)."""
    knock_limit: int | None
    checks: int
    seconds: float
    lower_bound: Mapping[str, Any] | None
    """The lower-bound proof for checkers without a solver (:mod:`.bound`, :mod:`.checker`);
    None for a hand with more than :data:`.bound.MAX_CASES` choices of set cards."""
    big_gin: bool | None = None
    """After-discard question with optimum 0: do all the cards meld (KNOCK.BIG-GIN-SHAPE)?"""
    big_gin_proof: Mapping[str, Any] | None = None
    """The melds of all the cards (big gin), or the lower-bound proof that they leave deadwood."""

    @property
    def ok(self) -> bool:
        return self.outcome == "proved"

    @property
    def can_knock(self) -> bool | None:
        """Deadwood after the best discard within the knock limit (KNOCK.LIMIT); None if unasked."""
        if self.question != "deadwood-after-discard" or self.knock_limit is None:
            return None
        return self.optimum <= self.knock_limit

    @property
    def gin(self) -> bool | None:
        if self.question != "deadwood-after-discard":
            return None
        return self.optimum == 0

    def to_json(self, *, timing: bool = True) -> dict[str, Any]:
        """A JSON-ready dict; ``timing=False`` leaves out the time, so the output is reproducible."""
        w = self.witness
        out: dict[str, Any] = {
            "hand": [card_str(c) for c in self.hand],
            "rules": self.rules.to_json(),
            "question": self.question,
            "claim": self.claim,
            "outcome": self.outcome,
            "optimum": self.optimum,
            "witness": {
                "melds": [[card_str(c) for c in m] for m in w.melds],
                "deadwood_cards": [card_str(c) for c in w.deadwood_cards],
                "deadwood": w.deadwood,
                "discard": None if w.discard is None else card_str(w.discard),
                "checked_against": "definition",
            },
            "unsat_below": self.unsat_below,
            "encoding": ENCODING_NAME,
        }
        out["lower_bound"] = self.lower_bound
        if self.question == "deadwood-after-discard":
            out["gin"] = self.gin
            if self.knock_limit is not None:
                out["knock_limit"] = self.knock_limit
                out["can_knock"] = self.can_knock
            if self.big_gin is not None:
                out["big_gin"] = self.big_gin
                out["big_gin_proof"] = self.big_gin_proof
        solver: dict[str, Any] = {"name": "z3", "version": z3.get_version_string(),
                                  "checks": self.checks}
        if timing:
            solver["seconds"] = round(self.seconds, 6)
        out["solver"] = solver
        return out

    def explain(self) -> str:
        """One sentence on the outcome."""
        after = " after the best discard" if self.question == "deadwood-after-discard" else ""
        if self.outcome == "proved":
            return f"the least deadwood{after} is {self.optimum}"
        if self.outcome == "claim-too-high":
            return (f"claim {self.claim} is too high: the arrangement shown has deadwood "
                    f"{self.witness.deadwood}{after}, and the least is {self.optimum}")
        return (f"claim {self.claim} is too low: no arrangement{after} has deadwood "
                f"{self.claim} or less (unsatisfiable); the least is {self.optimum}")

    def __repr__(self) -> str:
        return (f"Certificate(hand={' '.join(card_str(c) for c in self.hand)!r}, "
                f"question={self.question!r}, claim={self.claim}, outcome={self.outcome!r}, "
                f"optimum={self.optimum})")


def _check_witness(hand: tuple[Card, ...], w: WitnessArrangement, rules: FormalRules) -> None:
    kept = [c for c in hand if c != w.discard]
    try:
        value = arrangement_deadwood(kept, w.melds, rules)
    except MeldError as exc:  # pragma: no cover - would be a bug in the encoding
        raise FormalModelError(f"witness rejected by the definition: {exc}") from exc
    if value != w.deadwood:  # pragma: no cover
        raise FormalModelError(f"witness deadwood {w.deadwood} but the definition says {value}")


class _Prover:
    """One hand's encoding in one solver; each :meth:`attempt` is one solver check."""

    def __init__(self, hand: tuple[Card, ...], rules: FormalRules, discard: bool) -> None:
        self.hand, self.rules = hand, rules
        self.enc = ArrangementEncoding(hand, rules, discard=discard)
        self.solver = z3.SolverFor("QF_FD")
        self.enc.add_to(self.solver)
        self.checks = 0

    def attempt(self, bound: int | None, *, last: bool = False) -> WitnessArrangement | None:
        """An arrangement with deadwood at most ``bound`` (any, for None), checked against the
        definition; None when there is none (unsatisfiable). ``last``: no check follows, so the
        bound is asserted outright (the solver simplifies with it; about twice as fast)."""
        self.checks += 1
        if bound is None:
            result = self.solver.check()
        elif last:
            self.enc.add_to(self.solver, [self.enc.deadwood_at_most(bound)])
            result = self.solver.check()
        else:  # a fresh literal guards each bound: solvers prefer literals as assumptions
            guard, implication = self.enc.guarded_bound(bound)
            self.enc.add_to(self.solver, [implication])
            result = self.solver.check(guard)
        if result == z3.unknown:  # pragma: no cover
            raise FormalModelError(f"z3 returned unknown: {self.solver.reason_unknown()}")
        if result == z3.unsat:
            return None
        w = self.enc.witness(self.solver.model())
        _check_witness(self.hand, w, self.rules)
        return w


def _confirmed(hand: tuple[Card, ...], rules: FormalRules, discard: bool,
               bound: Mapping[str, Any] | None, claim: int) -> tuple[WitnessArrangement, int] | None:
    """Bound first: the arrangement the solver-free bound points at, checked against the
    definition; when its deadwood is the claim, one solver check confirms that no arrangement
    is below it (none for 0). The witness and the number of checks, or None when the claim is
    not that number or the hand has no solver-free bound (then :func:`_search` decides)."""
    if bound is None or claim < 0:
        return None
    melds, thrown = bound_witness(hand, rules, dict(bound), discard=discard)
    covered = {c for m in melds for c in m}
    dead = tuple(c for c in sorted(hand) if c != thrown and c not in covered)
    w = WitnessArrangement(melds, dead, sum(rank_value(rank_of(c), rules) for c in dead), thrown)
    _check_witness(hand, w, rules)
    if w.deadwood != claim:
        return None
    if claim == 0:
        return w, 0
    prover = _Prover(hand, rules, discard)
    if prover.attempt(claim - 1, last=True) is not None:  # pragma: no cover - the bound is wrong
        return None
    return w, prover.checks


def _search(hand: tuple[Card, ...], rules: FormalRules, discard: bool,
            claim: int) -> tuple[WitnessArrangement, ProofOutcome, int]:
    """The solver decides: an arrangement at most the claim (or any), then lower ones until
    none is left; the best witness, the outcome and the number of checks."""
    prover = _Prover(hand, rules, discard)
    attempt = prover.attempt
    first = attempt(claim) if claim >= 0 else None
    if first is None:
        outcome: ProofOutcome = "claim-too-low"
        best = attempt(None)
        if best is None:  # pragma: no cover - every hand has an arrangement (no melds)
            raise FormalModelError("no arrangement at all")
    else:
        best = first
        outcome = "proved" if first.deadwood == claim else "claim-too-high"
    while True:
        lower = attempt(best.deadwood - 1) if best.deadwood > 0 else None
        if lower is None:
            break
        best = lower
        if outcome == "proved":  # pragma: no cover - a model at <= claim - 1 means too high
            outcome = "claim-too-high"
    if outcome == "proved" and best.deadwood != claim:  # pragma: no cover
        outcome = "claim-too-high"
    return best, outcome, prover.checks


@implements("FORMAL.CERTIFICATE")
def certify(
    cards: Iterable[Card],
    claim: int,
    rules: MeldParams = STANDARD,
    *,
    discard: bool | None = None,
    knock_limit: int | None = None,
) -> Certificate:
    """Prove the least deadwood of ``cards`` and judge ``claim`` against it.

    ``discard`` (default: true for exactly 11 cards) asks for the least deadwood after the best
    discard (KNOCK.ELIGIBLE); ``knock_limit`` adds the knock verdict for that question.
    """
    started = time.perf_counter()
    hand = tuple(cards)
    if len(set(hand)) != len(hand):
        raise HandSizeError("a card appears twice in the hand")
    formal = rules if isinstance(rules, FormalRules) else FormalRules.of(rules)
    if discard is None:
        discard = len(hand) == 11
    if discard and not hand:
        raise HandSizeError("a hand needs at least one card to discard")
    bound = lower_bound(hand, formal, discard=discard)
    quick = _confirmed(hand, formal, discard, bound, claim)
    if quick is not None:
        best, checks = quick
        outcome: ProofOutcome = "proved"
    else:
        best, outcome, checks = _search(hand, formal, discard, claim)
    big_gin, big_gin_proof = None, None
    if discard and best.deadwood == 0:  # KNOCK.BIG-GIN-SHAPE: do all the cards meld?
        whole_bound = lower_bound(hand, formal, discard=False)
        melded = _confirmed(hand, formal, False, whole_bound, 0)
        if melded is not None:
            all_melded: WitnessArrangement | None = melded[0]
        else:  # one check: all the cards in melds, or unsatisfiable
            whole = _Prover(hand, formal, False)
            all_melded = whole.attempt(0, last=True)
            checks += whole.checks
        big_gin = all_melded is not None
        big_gin_proof = ({"melds": [[card_str(c) for c in m] for m in all_melded.melds]}
                         if all_melded is not None else {"lower_bound": whole_bound})
    return Certificate(
        hand=hand,
        rules=formal,
        question="deadwood-after-discard" if discard else "deadwood",
        claim=claim,
        outcome=outcome,
        optimum=best.deadwood,
        witness=best,
        unsat_below=best.deadwood,
        knock_limit=knock_limit,
        checks=checks,
        seconds=time.perf_counter() - started,
        lower_bound=bound,
        big_gin=big_gin,
        big_gin_proof=big_gin_proof,
    )


def formal_optimum(cards: Iterable[Card], rules: MeldParams = STANDARD, *,
                   discard: bool = False) -> int:
    """The least deadwood by the model alone (claim 0, then descend to the optimum)."""
    return certify(cards, 0, rules, discard=discard).optimum
