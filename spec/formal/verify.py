"""Verify a serialised certificate field by field (FORMAL.CERTIFICATE; ``ginspec prove --verify``).

:func:`parse_certificate` reads the JSON strictly: every field the question needs, no other
field, exact types (an integer is an integer, not ``"19"``, ``19.9`` or ``true``; a Boolean is a
Boolean), cards in canonical notation. :func:`verify` then checks every value against the question
the certificate answers:

* the witness is an arrangement of exactly the hand's cards (minus the discard, which the
  after-discard question needs and the other forbids), by the definition; its deadwood cards are
  the cards outside its melds, worth ``witness.deadwood`` = ``optimum`` = ``unsat_below``;
* the lower bound is re-proved with Z3 from scratch, and the certificate's ``lower_bound`` is
  checked by the independent checker (:mod:`.checker`) and must be the one the model makes;
* ``outcome`` follows from ``claim`` and ``optimum``; ``gin``, ``can_knock`` (with
  ``knock_limit``) and ``big_gin`` (with its proof) follow from the proven numbers;
* ``encoding`` names this encoding; ``solver`` is z3 and, when it records ``checks``, at least
  the solver calls such a proof makes (``version``, ``checks`` and ``seconds`` are records of
  the run that made it: optional, and the suite's stored certificates leave them out so that
  they are reproducible).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ginspec.spec.cards import Card, card_str, parse_card
from ginspec.spec.errors import GinspecError, MeldError
from ginspec.spec.formal import checker
from ginspec.spec.formal.bound import lower_bound
from ginspec.spec.formal.certificate import (
    ENCODING_NAME,
    Certificate,
    CertificateError,
    CertificateValueError,
    ProofOutcome,
    QuestionKind,
    certify,
)
from ginspec.spec.formal.definition import arrangement_deadwood
from ginspec.spec.formal.encoding import WitnessArrangement
from ginspec.spec.formal.rules import FormalRules

QUESTIONS: Final[tuple[QuestionKind, ...]] = ("deadwood", "deadwood-after-discard")
OUTCOMES: Final[tuple[ProofOutcome, ...]] = ("proved", "claim-too-high", "claim-too-low")
_TOP: Final = {"hand", "rules", "question", "claim", "outcome", "optimum", "witness", "unsat_below",
               "encoding", "lower_bound", "solver"}
_AFTER: Final = {"gin", "knock_limit", "can_knock", "big_gin", "big_gin_proof"}
_WITNESS: Final = {"melds", "deadwood_cards", "deadwood", "discard", "checked_against"}


def _fields(data: Any, where: str, required: set[str], optional: frozenset[str] | set[str] = frozenset(),
            ) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise CertificateError(f"{where} must be a JSON object, not {_kind(data)}")
    missing = sorted(required - data.keys())
    if missing:
        raise CertificateError(f"{where}: missing field {missing[0]!r}")
    unknown = sorted(data.keys() - required - optional)
    if unknown:
        raise CertificateError(f"{where}: unknown field {unknown[0]!r}")
    return data


def _kind(value: Any) -> str:
    return {bool: "a Boolean", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "an object", type(None): "null"}.get(type(value), type(value).__name__)


def _int(value: Any, where: str, low: int = 0) -> int:
    if type(value) is not int:
        raise CertificateValueError(f"{where} must be an integer, not {_kind(value)} {value!r}")
    if value < low:
        raise CertificateValueError(f"{where} must be at least {low}, not {value}")
    return value


def _bool(value: Any, where: str) -> bool:
    if type(value) is not bool:
        raise CertificateValueError(f"{where} must be true or false, not {_kind(value)} {value!r}")
    return value


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise CertificateValueError(f"{where} must be a card such as \"7H\", not {_kind(value)} {value!r}")
    try:
        card = parse_card(value)
    except GinspecError as exc:
        raise CertificateValueError(f"{where}: {exc}") from None
    if card_str(card) != value:
        raise CertificateValueError(f"{where}: write {value!r} as {card_str(card)!r} (canonical notation)")
    return card


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise CertificateError(f"{where} must be a list of cards, not {_kind(value)}")
    return tuple(_card(v, f"{where}[{i}]") for i, v in enumerate(value))


def _melds(value: Any, where: str) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(value, list):
        raise CertificateError(f"{where} must be a list of melds, not {_kind(value)}")
    return tuple(_cards(m, f"{where}[{i}]") for i, m in enumerate(value))


def _rules(value: Any) -> FormalRules:
    r = _fields(value, "rules", {"ace_high_runs", "wraparound_runs", "ace_value"})
    try:
        return FormalRules(_bool(r["ace_high_runs"], "rules.ace_high_runs"),
                           _bool(r["wraparound_runs"], "rules.wraparound_runs"),
                           _int(r["ace_value"], "rules.ace_value"))
    except CertificateError:
        raise
    except GinspecError as exc:
        raise CertificateValueError(f"rules: {exc}") from None


def _bound_shape(value: Any, where: str, after: bool) -> None:
    if value is None:  # allowed only where the model makes none: checked by _problem
        return
    b = _fields(value, where, {"method", "cases"})
    if not isinstance(b["cases"], list) or not b["cases"]:
        raise CertificateValueError(f"{where}.cases must be a non-empty list")
    for i, case in enumerate(b["cases"]):
        at = f"{where}.cases[{i}]"
        c = _fields(case, at, {"sets", "suits", "after_discard"} if after else {"sets", "suits"})
        _melds(c["sets"], f"{at}.sets")
        keys = ("suits", "after_discard") if after else ("suits",)
        for key in keys:
            if not isinstance(c[key], list) or len(c[key]) != 4:
                raise CertificateValueError(f"{at}.{key} must be a list of 4 numbers (one per suit)")
            for q, x in enumerate(c[key]):
                if not (key == "after_discard" and x is None):
                    _int(x, f"{at}.{key}[{q}]")


def parse_certificate(data: Any) -> Certificate:
    """The certificate in ``data`` (a :meth:`Certificate.to_json` dict), read strictly."""
    top = _fields(data, "the certificate", _TOP, _AFTER)
    question = top["question"]
    if question not in QUESTIONS:
        raise CertificateValueError(f"question must be one of {', '.join(QUESTIONS)}, not {question!r}")
    after = question == "deadwood-after-discard"
    if after:
        _fields(top, "the certificate", _TOP | {"gin"}, _AFTER)
        if ("knock_limit" in top) != ("can_knock" in top):
            raise CertificateError("knock_limit and can_knock come together")
        if ("big_gin" in top) != ("big_gin_proof" in top):
            raise CertificateError("big_gin and big_gin_proof come together")
    else:
        _fields(top, "the certificate (question deadwood)", _TOP)
    outcome = top["outcome"]
    if outcome not in OUTCOMES:
        raise CertificateValueError(f"outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")
    w = _fields(top["witness"], "witness", _WITNESS)
    if w["checked_against"] != "definition":
        raise CertificateValueError(f"witness.checked_against must be \"definition\", not {w['checked_against']!r}")
    if not isinstance(top["encoding"], str):
        raise CertificateValueError(f"encoding must be a string, not {_kind(top['encoding'])}")
    s = _fields(top["solver"], "solver", {"name"}, {"version", "checks", "seconds"})
    if not isinstance(s["name"], str) or not isinstance(s.get("version", ""), str):
        raise CertificateValueError("solver.name and solver.version must be strings")
    if "seconds" in s and (type(s["seconds"]) not in (int, float) or s["seconds"] < 0):
        raise CertificateValueError(f"solver.seconds must be a non-negative number, not {s['seconds']!r}")
    _bound_shape(top["lower_bound"], "lower_bound", after)
    big_gin = None
    if after:
        _bool(top["gin"], "gin")
        if "can_knock" in top:
            _bool(top["can_knock"], "can_knock")
        if "big_gin" in top:
            big_gin = _bool(top["big_gin"], "big_gin")
            proof = _fields(top["big_gin_proof"], "big_gin_proof", set(), {"melds", "lower_bound"})
            if len(proof) != 1:
                raise CertificateError("big_gin_proof holds either melds or a lower_bound")
            if "melds" in proof:
                _melds(proof["melds"], "big_gin_proof.melds")
            else:
                _bound_shape(proof["lower_bound"], "big_gin_proof.lower_bound", False)
    discard = None if w["discard"] is None else _card(w["discard"], "witness.discard")
    witness = WitnessArrangement(_melds(w["melds"], "witness.melds"),
                                 _cards(w["deadwood_cards"], "witness.deadwood_cards"),
                                 _int(w["deadwood"], "witness.deadwood"), discard)
    return Certificate(
        hand=_cards(top["hand"], "hand"),
        rules=_rules(top["rules"]),
        question=question,
        claim=_int(top["claim"], "claim"),
        outcome=outcome,
        optimum=_int(top["optimum"], "optimum"),
        witness=witness,
        unsat_below=_int(top["unsat_below"], "unsat_below"),
        knock_limit=_int(top["knock_limit"], "knock_limit") if "knock_limit" in top else None,
        checks=_int(s["checks"], "solver.checks", 0) if "checks" in s else 0,
        seconds=float(s.get("seconds", 0.0)),
        lower_bound=top["lower_bound"],
        big_gin=big_gin,
        big_gin_proof=top.get("big_gin_proof"),
    )


def verify(data: Any) -> tuple[bool, str]:
    """Check every field of a serialised certificate; ``(stands, reason)`` (FORMAL.CERTIFICATE).

    Raises :class:`CertificateError` when ``data`` is not a certificate at all (a missing or
    unknown field); a field with a wrong value or type makes a certificate that does not stand.
    """
    try:
        cert = parse_certificate(data)
    except CertificateValueError as exc:
        return False, f"not a certificate: {exc}"
    problem = _problem(cert, data)
    if problem is not None:
        return False, f"does not stand: {problem}"
    after = " after the best discard" if cert.question == "deadwood-after-discard" else ""
    verdict = {"proved": f"the claim {cert.claim} is proved",
               "claim-too-high": f"the claim {cert.claim} is too high, as recorded",
               "claim-too-low": f"the claim {cert.claim} is too low, as recorded"}[cert.outcome]
    return True, (f"stands: the least deadwood{after} is {cert.optimum} (witness checked, bound "
                  f"re-proved by Z3 and by the independent checker); {verdict}")


def _least_checks(cert: Certificate, big_gin: bool | None) -> int:
    """Solver calls any proof of this outcome makes: one for the bound (none below 0; the
    witness may come from the solver-free bound and is checked against the definition), and one
    when the big-gin question's answer is no (all the cards in melds needs only the melds)."""
    return int(cert.optimum > 0) + int(big_gin is False)


def _problem(cert: Certificate, data: Mapping[str, Any]) -> str | None:
    """The first field whose value does not follow from the question, or None."""
    hand, w, after = cert.hand, cert.witness, cert.question == "deadwood-after-discard"
    if len(set(hand)) != len(hand):
        return "hand: a card appears twice"
    if after and w.discard is None:
        return "witness.discard: the after-discard question needs the discarded card"
    if not after and w.discard is not None:
        return "witness.discard: the deadwood question discards nothing"
    if w.discard is not None and w.discard not in hand:
        return f"witness.discard: {card_str(w.discard)} is not in the hand"
    kept = [c for c in hand if c != w.discard]
    try:
        value = arrangement_deadwood(kept, w.melds, cert.rules)
    except MeldError as exc:
        return f"witness.melds: {exc}"
    melded = {c for m in w.melds for c in m}
    if sorted(w.deadwood_cards) != sorted(c for c in kept if c not in melded):
        return "witness.deadwood_cards: not the kept cards outside the melds"
    if w.deadwood != value:
        return f"witness.deadwood: the deadwood cards are worth {value}, not {w.deadwood}"
    if cert.optimum != w.deadwood:
        return f"optimum: {cert.optimum}, but the witness reaches {w.deadwood}"
    if cert.unsat_below != cert.optimum:
        return f"unsat_below: {cert.unsat_below}, but a proved optimum has unsat_below = optimum = {cert.optimum}"
    want = "proved" if cert.claim == cert.optimum else (
        "claim-too-high" if cert.claim > cert.optimum else "claim-too-low")
    if cert.outcome != want:
        return f"outcome: {cert.outcome}, but claim {cert.claim} against optimum {cert.optimum} is {want}"
    if data["encoding"] != ENCODING_NAME:
        return f"encoding: {data['encoding']!r}, but this model is {ENCODING_NAME!r}"
    if data["solver"]["name"] != "z3":
        return f"solver.name: {data['solver']['name']!r}, but the bound is proved with z3"
    again = certify(hand, cert.optimum, cert.rules, discard=after, knock_limit=cert.knock_limit)
    if not again.ok:  # the lower bound, re-proved from scratch
        return f"optimum: re-proved with Z3, the least deadwood is {again.optimum}, not {cert.optimum}"
    if "checks" in data["solver"] and cert.checks < _least_checks(cert, again.big_gin):
        return (f"solver.checks: {cert.checks}, but this proof needs at least "
                f"{_least_checks(cert, again.big_gin)} solver calls")
    if after:
        if data["gin"] != (cert.optimum == 0):
            return f"gin: {data['gin']}, but the least deadwood after the discard is {cert.optimum}"
        if cert.knock_limit is not None and data["can_knock"] != (cert.optimum <= cert.knock_limit):
            return (f"can_knock: {data['can_knock']}, but deadwood {cert.optimum} against knock limit "
                    f"{cert.knock_limit} says {cert.optimum <= cert.knock_limit}")
        if cert.big_gin != again.big_gin:
            return f"big_gin: {'absent' if cert.big_gin is None else cert.big_gin}, but re-proved: {again.big_gin}"
        if cert.big_gin_proof is not None and ("melds" in cert.big_gin_proof) != cert.big_gin:
            return "big_gin_proof: melds prove big gin, a lower bound proves its absence"
    model_bound = lower_bound(hand, cert.rules, discard=after)
    if cert.lower_bound is None and model_bound is not None:
        return "lower_bound: null, but this hand's set choices are few enough to list"
    outsider = checker.check(dict(data)) if model_bound is not None else None
    if outsider is not None:
        return f"the independent checker says: {outsider}"
    if cert.lower_bound != model_bound:
        return "lower_bound: sound, but not the cases the model makes for this hand"
    if cert.big_gin_proof != again.big_gin_proof and not cert.big_gin:
        return "big_gin_proof: not the lower bound the model makes for all the cards"
    return None
