"""Certificates for every deadwood, best-discard and knock/gin number the suite expects
(FORMAL.CERTIFICATE; docs/proven.md, "The suite's numbers").

The suite's query and hand cases expect numbers the reference computed. Each such number is a
*question* about a hand under meld rules — the least deadwood, or the least deadwood after the
best discard with a knock limit — and ``conformance/suite/certificates.jsonl`` holds one certificate per
question, keyed by the question (:func:`question_key`), written by ``ginspec suite build``:

* a ``deadwood`` case: the deadwood question of its cards, claim = the expected deadwood;
* a ``knock`` case: the after-discard question (claim = the expected deadwood; ``gin``,
  ``can_knock`` and ``big_gin`` are in the certificate), and for each card the deadwood question
  of the other cards with the same claim: ``proved`` exactly for the expected best discards,
  ``claim-too-low`` (nothing reaches it) for the others;
* a ``hand`` case: at each knock or big-gin step (:func:`knock_claims`: the steps of each
  ``rulesets`` entry, its opening included, played on the reference under each of its
  profiles), the deadwood question of the cards the player keeps, claim = the reference's least
  deadwood; the certified optimum must be within the knock limit for an accepted knock, over
  it for KNOCK_OVER_LIMIT, and 0 for an accepted big gin.

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
from functools import lru_cache
from pathlib import Path
from typing import Any, Final, Literal

from ginspec.reference.game import CHANCE, Action, Deal, HandState, Kind, parse_action, rules_for_profile
from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.melds import analyse_discards, min_deadwood, optimal_arrangements
from ginspec.reference.scoring import knock_limit_for
from ginspec.spec.cards import Card, card_str, parse_cards
from ginspec.spec.errors import GinspecError
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
    if case.get("kind") == "hand":
        return [claim.question for claim in knock_claims(case)]
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


# --- hand cases: the knock verdicts of played hands ----------------------------------------------

Verdict = Literal["within", "over", "all-melded", "not-all-melded"]


@dataclass(frozen=True)
class KnockClaim:
    """A knock verdict a hand case expects (KNOCK.ELIGIBLE, KNOCK.LIMIT, KNOCK.BIG-GIN-SHAPE): at
    ``step`` (of the steps its ``rulesets`` entry plays) under ``profile`` the cards the player
    keeps (his hand less the knock card; all of it for big gin) have least deadwood
    ``question.claim``, which is within ``limit`` for an accepted knock, over it for
    KNOCK_OVER_LIMIT, 0 for an accepted big gin and above 0 for BIG_GIN_NOT_MELDED."""

    question: Question
    step: int
    profile: str
    limit: int
    verdict: Verdict

    def problem(self, optimum: int) -> str | None:
        """Why the certified optimum does not give this verdict, or None."""
        if self.verdict == "within" and optimum > self.limit:
            return f"the knock is accepted, but the least deadwood {optimum} is over the limit {self.limit}"
        if self.verdict == "over" and optimum <= self.limit:
            return f"the knock is refused as over the limit {self.limit}, but the least deadwood is {optimum}"
        if self.verdict == "all-melded" and optimum != 0:
            return f"big gin is accepted, but all the cards leave deadwood {optimum}"
        if self.verdict == "not-all-melded" and optimum == 0:
            return "big gin is refused as not melded, but all the cards meld"
        return None


def _verdict(action: Action, expect: Any) -> Verdict | None:
    """What a knock or big-gin step's expectation says about the deadwood (None: nothing)."""
    if expect == "accepted":
        return "all-melded" if action.kind is Kind.BIG_GIN else "within"
    refused = expect.get("rejected") if isinstance(expect, Mapping) else None
    if action.kind is Kind.KNOCK and refused == "KNOCK_OVER_LIMIT":
        return "over"
    if action.kind is Kind.BIG_GIN and refused == "BIG_GIN_NOT_MELDED":
        return "not-all-melded"
    return None


def _expected_steps(case: Mapping[str, Any], entry: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """The steps an entry of ``rulesets`` plays — its ``opening`` first, up to its ``stop`` —
    as (player, action, expectation) with its ``verdicts`` laid over them (conformance/CASES.md,
    "rulesets")."""
    steps = list(case["steps"])
    if "opening" in entry:
        steps = [*entry["opening"]["steps"], *steps[int(entry["opening"]["replaces"]):]]
    if entry.get("stop") is not None:
        steps = steps[: int(entry["stop"])]
    verdicts = entry.get("verdicts", {})
    out = []
    for i, step in enumerate(steps):
        changed = verdicts.get(str(i))
        expect = step["expect"] if changed is None else (
            changed["expect"] if isinstance(changed, Mapping) and "expect" in changed else changed)
        out.append((step["player"], step["action"], expect))
    return out


def knock_claims(case: Mapping[str, Any]) -> list[KnockClaim]:
    """Every knock verdict of a hand case that a certificate carries: for each profile of each
    ``rulesets`` entry (the case's own profile when it has none), the entry's steps played on the
    reference under that profile (up to a step the reference refuses), and at each knock or
    big-gin step the cards the player keeps. (Remembered by the case's whole text: a run asks
    several times.)"""
    if case.get("kind") != "hand" or case.get("profile") is None or len(case["deals"]) != 1:
        return []
    return list(_knock_claims(json.dumps(case, sort_keys=True)))


@lru_cache(maxsize=4096)
def _knock_claims(text: str) -> tuple[KnockClaim, ...]:
    case = json.loads(text)
    deal = case["deals"][0]
    out: list[KnockClaim] = []
    for entry in case.get("rulesets") or [{"profiles": [case["profile"]]}]:
        steps = _expected_steps(case, entry)
        for profile in entry["profiles"]:
            try:
                rules = rules_for_profile(profile, case["overrides"])
                state = HandState.new(Deal.parse(list(deal["deck"]), int(deal["dealer"])), rules)
            except GinspecError:  # a ruleset the two-player hand engine does not play
                continue
            out += _played_claims(state, steps, profile)
    return tuple(out)


def _played_claims(state: HandState, steps: Sequence[tuple[str, Any, Any]],
                   profile: str) -> list[KnockClaim]:
    out = []
    formal = FormalRules.of(state.rules.meld_rules)
    for i, (who, text, expect) in enumerate(steps):
        player = CHANCE if who == "chance" else int(who)
        try:
            action: Action | None = parse_action(str(text))
        except GinspecError:
            action = None
        if action is not None and action.kind in (Kind.KNOCK, Kind.BIG_GIN) and player in (0, 1) \
                and (verdict := _verdict(action, expect)) is not None:
            hand = tuple(state.hand(player))
            kept = hand if action.kind is Kind.BIG_GIN else tuple(c for c in hand if c != action.card)
            claim = min_deadwood(kept, state.rules.meld_rules)
            out.append(KnockClaim(Question(kept, formal, False, None, claim), i, profile,
                                  state.knock_limit, verdict))
        if expect == "accepted":
            try:
                state = state.apply(str(text), player)
            except GinspecError:  # the case and the reference part here: the replay ends
                break
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


Stands = dict[str, tuple[bool, str | None]]
"""Verdicts of :func:`verify` already reached, by question key (a certificate shared by many
cases is verified once per run)."""


def _stands(key: str, cert: Mapping[str, Any], memo: Stands) -> tuple[bool, str | None]:
    if key not in memo:
        memo[key] = verify(dict(cert))
    return memo[key]


def check_case(case: Mapping[str, Any], certs: Mapping[str, Mapping[str, Any]],
               memo: Stands | None = None) -> list[str]:
    """Problems with one case's certificates: missing, not standing, or not what the case expects."""
    memo = {} if memo is None else memo
    if case.get("kind") == "hand":
        return _check_hand_case(case, certs, memo)
    out = []
    expect = case["expect"]
    qs = questions(case)
    for i, q in enumerate(qs):
        cert = certs.get(q.key)
        where = f"{case['id']}: {q.key}"
        if cert is None:
            out.append(f"{where}: no certificate")
            continue
        stands, reason = _stands(q.key, cert, memo)
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


def _check_hand_case(case: Mapping[str, Any], certs: Mapping[str, Mapping[str, Any]],
                     memo: Stands) -> list[str]:
    out = []
    for claim in knock_claims(case):
        where = f"{case['id']} step {claim.step} under {claim.profile}: {claim.question.key}"
        cert = certs.get(claim.question.key)
        if cert is None:
            out.append(f"{where}: no certificate")
            continue
        stands, reason = _stands(claim.question.key, cert, memo)
        if not stands:
            out.append(f"{where}: {reason}")
        elif cert["outcome"] != "proved":
            out.append(f"{where}: the reference's deadwood {claim.question.claim} is not the optimum "
                       f"{cert['optimum']}")
        elif (problem := claim.problem(int(cert["optimum"]))) is not None:
            out.append(f"{where}: {problem}")
    return out


def case_cards(case: Mapping[str, Any]) -> list[Card]:
    return parse_cards(case["query"]["cards"])


SUITE_DIR: Final = Path(__file__).resolve().parents[2] / "conformance" / "suite"
"""Where the committed suite lives in a checkout (a path only: nothing is imported from there)."""


def certified_cases(folder: Path) -> list[dict[str, Any]]:
    """Every case of a suite folder that has certified numbers, in file order."""
    out = []
    for kind in ("query", "hand"):
        for path in sorted((folder / "cases" / kind).glob("*.json")):
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
    memo: Stands = {}
    for case in chosen:
        problems += check_case(case, certs, memo)
        used += len(questions(case))
    if sample is None:
        needed = {q.key for c in cases for q in questions(c)}
        problems += [f"{key}: a certificate no case uses" for key in sorted(set(certs) - needed)]
    return SuiteCheck(len(chosen), used, tuple(problems))
