"""Certificates for every deadwood, best-discard and knock/gin number the suite expects
(FORMAL.CERTIFICATE; docs/proven.md, "The suite's numbers").

The suite's query cases expect numbers the reference computed. Each such number is a *question*
about a hand under meld rules — the least deadwood, or the least deadwood after the best discard
with a knock limit — and ``conformance/suite/certificates.jsonl`` holds one certificate per
question, keyed by the question (:func:`question_key`), written by ``ginspec suite build``:

* a ``deadwood`` case: the deadwood question of its cards, claim = the expected deadwood;
* a ``knock`` case: the after-discard question (claim = the expected deadwood; ``gin``,
  ``can_knock`` and ``big_gin`` are in the certificate), and for each card the deadwood question
  of the other cards with the same claim: ``proved`` exactly for the expected best discards,
  ``claim-too-low`` (nothing reaches it) for the others.

A stored certificate is deterministic: its witness is the reference's first optimal arrangement
(any valid witness will do: it is checked against the definition), and its ``solver`` record is
just ``{"name": "z3"}``. :func:`verify_suite` re-checks every certificate with
:func:`ginspec.spec.formal.verify.verify` (strict fields, Z3 re-proof, independent checker) and
compares it with what each case expects.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.melds import analyse_discards, optimal_arrangements
from ginspec.reference.scoring import knock_limit_for
from ginspec.spec.cards import Card, card_str, parse_cards
from ginspec.spec.formal.certificate import certify
from ginspec.spec.formal.rules import FormalRules
from ginspec.spec.formal.verify import verify
from ginspec.spec.profiles import ruleset

CERTIFICATES: Final = "certificates.jsonl"
"""The file, in the suite folder, that holds the certificates (one JSON object a line)."""
CERTIFIED_QUERIES: Final = ("deadwood", "knock")


@dataclass(frozen=True)
class Question:
    """One question a certificate answers."""

    cards: tuple[Card, ...]
    rules: FormalRules
    discard: bool
    knock_limit: int | None
    claim: int

    @property
    def key(self) -> str:
        return question_key(self.cards, self.rules, self.discard, self.knock_limit, self.claim)


def question_key(cards: Iterable[Card], rules: FormalRules, discard: bool, knock_limit: int | None,
                 claim: int) -> str:
    """``deadwood|2C 3C ...|std,ace1|claim 19`` — the hand sorted by card number."""
    hand = " ".join(card_str(c) for c in sorted(cards))
    shape = f"{rules.variant},ace{rules.ace_value}"
    what = "after-discard" if discard else "deadwood"
    limit = f"|limit {knock_limit}" if knock_limit is not None else ""
    return f"{what}|{hand}|{shape}{limit}|claim {claim}"


def _case_rules(case: Mapping[str, Any]) -> tuple[MeldRules, int]:
    params = dict(ruleset(case["profile"], case["overrides"])) if case["profile"] else dict(case["overrides"])
    upcard = case["query"].get("upcard")
    limit = knock_limit_for(params, parse_cards([upcard])[0] if upcard else None)
    return MeldRules.from_params(params), limit


def questions(case: Mapping[str, Any]) -> list[Question]:
    """The questions whose certificates carry a case's expected numbers (none for other cases)."""
    if case.get("kind") != "query" or case["query"]["what"] not in CERTIFIED_QUERIES:
        return []
    rules, limit = _case_rules(case)
    formal = FormalRules.of(rules)
    cards = tuple(parse_cards(case["query"]["cards"]))
    claim = int(case["expect"]["deadwood"])
    if case["query"]["what"] == "deadwood":
        return [Question(cards, formal, False, None, claim)]
    out = [Question(cards, formal, True, limit, claim)]
    out += [Question(tuple(c for c in cards if c != d), formal, False, None, claim) for d in cards]
    return out


def certificate(q: Question) -> dict[str, Any]:
    """The stored certificate of a question (deterministic: see the module docstring)."""
    rules = MeldRules(ace_high_runs=q.rules.ace_high_runs, wraparound_runs=q.rules.wraparound_runs,
                      ace_value=q.rules.ace_value)
    cert = certify(q.cards, q.claim, q.rules, discard=q.discard, knock_limit=q.knock_limit)
    data = cert.to_json(timing=False)
    kept = list(q.cards)
    discard = None
    if q.discard:
        discard = min(analyse_discards(kept, rules).best_discards)
        kept.remove(discard)
    best = optimal_arrangements(kept, rules, limit=1)[0]
    data["witness"] = {
        "melds": [[card_str(c) for c in m.cards] for m in best.melds],
        "deadwood_cards": [card_str(c) for c in best.deadwood_cards],
        "deadwood": best.deadwood,
        "discard": None if discard is None else card_str(discard),
        "checked_against": "definition",
    }
    if data.get("big_gin"):
        whole = optimal_arrangements(list(q.cards), rules, limit=1)[0]
        data["big_gin_proof"] = {"melds": [[card_str(c) for c in m.cards] for m in whole.melds]}
    data["solver"] = {"name": "z3"}
    return data


def certificates_text(cases: Iterable[Mapping[str, Any]]) -> str:
    """The certificates file for these cases: one line per question, sorted by key."""
    found: dict[str, Question] = {}
    for case in cases:
        for q in questions(case):
            found.setdefault(q.key, q)
    lines = [json.dumps({"key": key, "certificate": certificate(found[key])}, separators=(",", ":"))
             for key in sorted(found)]
    return "".join(line + "\n" for line in lines)


def read_certificates(folder: Path) -> dict[str, dict[str, Any]]:
    """The certificates file of a suite folder, by question key."""
    out = {}
    for line in (folder / CERTIFICATES).read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        out[entry["key"]] = entry["certificate"]
    return out


@dataclass(frozen=True)
class SuiteCheck:
    """The result of :func:`verify_suite`."""

    cases: int
    certificates: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def check_case(case: Mapping[str, Any], certs: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Problems with one case's certificates: missing, not standing, or not what the case expects."""
    out = []
    expect = case["expect"]
    qs = questions(case)
    for i, q in enumerate(qs):
        cert = certs.get(q.key)
        where = f"{case['id']}: {q.key}"
        if cert is None:
            out.append(f"{where}: no certificate")
            continue
        stands, reason = verify(dict(cert))
        if not stands:
            out.append(f"{where}: {reason}")
            continue
        if i == 0:  # the case's own question: its expected numbers
            if cert["outcome"] != "proved":
                out.append(f"{where}: the expected deadwood {q.claim} is not the optimum {cert['optimum']}")
            for field in ("gin", "can_knock", "big_gin"):
                if field in expect and cert.get(field, False) != expect[field]:
                    out.append(f"{where}: {field} is {cert.get(field, False)}, the case expects {expect[field]}")
        else:  # discarding card i-1: a best discard iff its remaining cards reach the optimum
            card = card_str(case_cards(case)[i - 1])
            best = card in expect["best_discards"]
            if (cert["outcome"] == "proved") != best:
                out.append(f"{where}: discarding {card} leaves {cert['optimum']}, the case "
                           f"{'lists' if best else 'does not list'} it as a best discard")
    return out


def case_cards(case: Mapping[str, Any]) -> list[Card]:
    return parse_cards(case["query"]["cards"])


SUITE_DIR: Final = Path(__file__).resolve().parents[2] / "conformance" / "suite"
"""Where the committed suite lives in a checkout (a path only: nothing is imported from there)."""


def certified_cases(folder: Path) -> list[dict[str, Any]]:
    """Every case of a suite folder that has certified numbers, in file order."""
    out = []
    for path in sorted((folder / "cases" / "query").glob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        if questions(case):
            out.append(case)
    return out


def verify_suite(folder: Path, *, sample: int | None = None, seed: int = 1,
                 also: Sequence[str] = ()) -> SuiteCheck:
    """Re-check the certificates of a suite folder against its cases. ``sample`` checks that many
    cases (chosen with ``seed``) plus the cases whose IDs are in ``also``; None checks them all,
    and then also that the file has no certificate no case uses."""
    certs = read_certificates(folder)
    cases = certified_cases(folder)
    chosen = cases
    if sample is not None:
        rng = random.Random(seed)
        picked = {c["id"] for c in rng.sample(cases, min(sample, len(cases)))} | set(also)
        chosen = [c for c in cases if c["id"] in picked]
    problems: list[str] = []
    used = 0
    for case in chosen:
        problems += check_case(case, certs)
        used += len(questions(case))
    if sample is None:
        needed = {q.key for c in cases for q in questions(c)}
        problems += [f"{key}: a certificate no case uses" for key in sorted(set(certs) - needed)]
    return SuiteCheck(len(chosen), used, tuple(problems))
