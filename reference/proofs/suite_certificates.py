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
  it for KNOCK_OVER_LIMIT, and 0 for an accepted big gin;
* a ``defence``, ``declaration`` or ``adjudicate`` query case (:func:`answer_claims`): per profile
  it is answered under, an *answer certificate* naming the deadwood certificates of every layoff
  choice of the defender, of the declarer's least, of the knocker's least (after the best
  discard) and the best-play showdown certificate of an adjudicate ruling; checked by
  :mod:`ginspec.spec.formal.answers` from the case's own data alone.

A stored certificate is deterministic: its witness is the reference's first optimal arrangement
(any valid witness will do: it is checked against the definition), and its ``solver`` record is
just ``{"name": "z3"}``. :func:`verify_suite` re-checks every certificate with
:func:`ginspec.spec.formal.verify.verify` (strict fields, Z3 re-proof, independent checker) and
compares it with what each case expects: a certificate found under a question's key must be that
question's (:func:`binding_problem`: its ``question``, ``hand``, ``rules``, ``knock_limit`` and
``claim``), so a true certificate of something else filed under the key does not pass.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Final, Literal

from ginspec.reference.adjudicate import adjudicate
from ginspec.reference.game import CHANCE, Action, Deal, HandState, Kind, parse_action, rules_for_profile
from ginspec.reference.game.state import Phase
from ginspec.reference.game.strategies import best_layoff_steps
from ginspec.reference.layoffs import ShowdownRules, as_rules, layoff_plans, table_of
from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.melds import Meld, analyse_discards, check_meld, min_deadwood, optimal_arrangements
from ginspec.reference.scoring import knock_limit_for
from ginspec.reference.typed_rules import to_rules
from ginspec.spec.cards import Card, card_str, cards_of, parse_cards, rank_of
from ginspec.spec.errors import GinspecError, MeldError
from ginspec.spec.errors import shown as shown_value
from ginspec.spec.formal.answers import answer_key, answered, check_answers, params_of
from ginspec.spec.formal.certificate import CertificateError, certify
from ginspec.spec.formal.definition import arrangement_deadwood
from ginspec.spec.formal.rules import FormalRules, rank_value
from ginspec.spec.formal.showdown_certificates import check_showdown
from ginspec.spec.formal.verify import verify
from ginspec.spec.inputs import guard, parse_json, read_json, read_text
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


def binding_problem(q: Question, cert: Mapping[str, Any]) -> str | None:
    """The first field in which a certificate answers another question than ``q`` — its
    ``question``, ``hand`` (as a set of cards), ``rules``, ``knock_limit`` or ``claim`` — or None.
    (A certificate is looked up by its question's key; this checks it is that question's, not a
    true certificate of something else filed under the key.)"""
    what = "deadwood-after-discard" if q.discard else "deadwood"
    if cert.get("question") != what:
        return f"question: the case asks {what!r}, the certificate answers {cert.get('question')!r}"
    hand = cert.get("hand")
    asked = sorted(card_str(c) for c in q.cards)
    if not isinstance(hand, list) or not all(isinstance(c, str) for c in hand) or sorted(hand) != asked:
        return f"hand: the case asks {' '.join(asked)}, the certificate is of {_shown(hand)}"
    if cert.get("rules") != q.rules.to_json():
        return f"rules: the case asks {_shown(q.rules.to_json())}, the certificate is under {_shown(cert.get('rules'))}"
    limit = cert.get("knock_limit")
    if ("knock_limit" in cert) != (q.knock_limit is not None) or (q.knock_limit is not None and (
            type(limit) is not int or limit != q.knock_limit)):
        return (f"knock_limit: the case asks {'none' if q.knock_limit is None else q.knock_limit}, the certificate "
                f"has {_shown(limit) if 'knock_limit' in cert else 'none'}")
    claim = cert.get("claim")
    if type(claim) is not int or claim != q.claim:
        return f"claim: the case asks {q.claim}, the certificate claims {_shown(claim)}"
    return None


def _shown(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(c, str) for c in value):
        return " ".join(sorted(value))
    return json.dumps(value, sort_keys=True)


def missing_problem(q: Question, certs: Mapping[str, Mapping[str, Any]]) -> str:
    """Why no certificate answers ``q``, naming the field: the first in which a certificate of the
    same question and hand, filed under another key, differs from what the case asks (``hand``
    when there is none)."""
    for key, cert in certs.items():
        if key.split("|")[:2] == q.key.split("|")[:2] and isinstance(cert, Mapping):
            problem = binding_problem(q, cert)
            if problem is not None and not problem.startswith(("question:", "hand:")):
                return f"no certificate; the one of these cards under {key!r} differs in {problem}"
    return "no certificate; hand: no certificate in the file answers this question for these cards"


def _case_rules(case: Mapping[str, Any]) -> tuple[MeldRules, int]:
    params = dict(ruleset(case["profile"], case["overrides"])) if case["profile"] else dict(case["overrides"])
    upcard = case["query"].get("upcard")
    limit = knock_limit_for(params, parse_cards([upcard])[0] if upcard else None)
    return MeldRules.from_params(params), limit


def questions(case: Mapping[str, Any]) -> list[Question]:
    """The questions whose certificates carry a case's expected numbers (none for other cases)."""
    if case.get("kind") == "hand":
        return [claim.question for claim in knock_claims(case)] + [
            q for claim in showdown_claims(case) for q in claim.refs]
    if answered(case):
        return [q for claim in answer_claims(case) for q in claim.refs]
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

KnockVerdict = Literal["within", "over", "all-melded", "not-all-melded", "declared-within", "declared-over",
                  "not-maximal"]


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
    verdict: KnockVerdict
    declared: int | None = None
    """A ``declare`` step's declared deadwood (the definition's arithmetic; None: the melds are
    no arrangement of the hand)."""
    maximal: bool = False
    """``knocker_must_meld_maximally`` (SHOWDOWN.DECLARATION.MAXIMAL)."""

    def problem(self, optimum: int) -> str | None:
        """Why the certified optimum does not give this verdict, or None."""
        if self.verdict in ("declared-within", "declared-over", "not-maximal"):
            return self._declaration_problem(optimum)
        if self.verdict == "within" and optimum > self.limit:
            return f"the knock is accepted, but the least deadwood {optimum} is over the limit {self.limit}"
        if self.verdict == "over" and optimum <= self.limit:
            return f"the knock is refused as over the limit {self.limit}, but the least deadwood is {optimum}"
        if self.verdict == "all-melded" and optimum != 0:
            return f"big gin is accepted, but all the cards leave deadwood {optimum}"
        if self.verdict == "not-all-melded" and optimum == 0:
            return "big gin is refused as not melded, but all the cards meld"
        return None

    def _declaration_problem(self, optimum: int) -> str | None:
        """SHOWDOWN.DECLARATION, SHOWDOWN.DECLARATION.MAXIMAL: an accepted declaration's deadwood
        is within the limit (and the least, when the knocker must meld maximally); one refused as
        over the limit is over it; one refused as not maximal leaves more than the least."""
        d = self.declared
        if d is None:
            return "the declared melds are not an arrangement of the knocker's cards"
        if self.verdict == "declared-within" and d > self.limit:
            return f"the declaration is accepted, but its deadwood {d} is over the limit {self.limit}"
        if self.verdict == "declared-within" and self.maximal and d != optimum:
            return f"the declaration is accepted, but its deadwood {d} is not the least, {optimum}"
        if self.verdict == "declared-over" and d <= self.limit:
            return f"the declaration is refused as over the limit {self.limit}, but its deadwood is {d}"
        if self.verdict == "not-maximal" and d <= optimum:
            return f"the declaration is refused as not maximal, but its deadwood {d} is the least"
        return None


def _verdict(action: Action, expect: Any) -> KnockVerdict | None:
    """What a knock or big-gin step's expectation says about the deadwood (None: nothing)."""
    if expect == "accepted":
        return "all-melded" if action.kind is Kind.BIG_GIN else "within"
    refused = expect.get("rejected") if isinstance(expect, Mapping) else None
    if action.kind is Kind.KNOCK and refused == "KNOCK_OVER_LIMIT":
        return "over"
    if action.kind is Kind.BIG_GIN and refused == "BIG_GIN_NOT_MELDED":
        return "not-all-melded"
    return None


def _declared_verdict(expect: Any) -> KnockVerdict | None:
    """What a ``declare`` step's expectation says about the declared deadwood (None: nothing)."""
    if expect == "accepted":
        return "declared-within"
    refused = expect.get("rejected") if isinstance(expect, Mapping) else None
    return {"DECLARATION_OVER_LIMIT": "declared-over", "DECLARATION_NOT_MAXIMAL": "not-maximal"}.get(
        str(refused))  # type: ignore[return-value]


def _declaration_claim(state: HandState, player: int, action: Action, step: int, profile: str,
                       verdict: KnockVerdict) -> KnockClaim:
    hand = tuple(state.hand(player))
    formal = FormalRules.of(state.rules.meld_rules)
    try:
        declared: int | None = arrangement_deadwood(hand, [tuple(m) for m in action.melds], formal)
    except MeldError:
        declared = None
    claim = min_deadwood(hand, state.rules.meld_rules)
    return KnockClaim(Question(hand, formal, False, None, claim), step, profile, state.knock_limit, verdict,
                      declared, state.rules.showdown.knocker_must_meld_maximally)


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


def _expected_result(case: Mapping[str, Any], entry: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The result an entry expects: its own, or (when it plays every step) the case's."""
    result: Mapping[str, Any] | None = entry.get("result", case.get("result") if entry.get("stop") is None else None)
    return result


def knock_claims(case: Mapping[str, Any]) -> list[KnockClaim]:
    """Every knock verdict of a hand case that a certificate carries: for each profile of each
    ``rulesets`` entry (the case's own profile when it has none), the entry's steps played on the
    reference under that profile (up to a step the reference refuses), and at each knock or
    big-gin step the cards the player keeps. (Remembered by the case's whole text: a run asks
    several times.)"""
    return list(_replayed(case)[0])


def showdown_claims(case: Mapping[str, Any]) -> list[ShowdownClaim]:
    """Every result deadwood of a hand case that a certificate carries (SHOWDOWN.COMPARE): for
    each profile of each ``rulesets`` entry with a result that has ``deadwood``, the showdown the
    entry's steps reach on the reference — as recorded, or by best play for an automatic entry."""
    return list(_replayed(case)[1])


def _replayed(case: Mapping[str, Any]) -> tuple[tuple[KnockClaim, ...], tuple[ShowdownClaim, ...]]:
    if case.get("kind") != "hand" or case.get("profile") is None or len(case["deals"]) != 1 \
            or "deck" not in case["deals"][0]:  # a deal the engine makes (deal.engine): no cards
        return (), ()
    return _replay(json.dumps(case, sort_keys=True))


@lru_cache(maxsize=4096)
def _replay(text: str) -> tuple[tuple[KnockClaim, ...], tuple[ShowdownClaim, ...]]:
    case = json.loads(text)
    deal = case["deals"][0]
    knocks: list[KnockClaim] = []
    showdowns: list[ShowdownClaim] = []
    for entry in case.get("rulesets") or [{"profiles": [case["profile"]]}]:
        steps = _expected_steps(case, entry)
        result = _expected_result(case, entry)
        automatic = entry.get("showdown") == "automatic"
        for profile in entry["profiles"]:
            try:
                rules = rules_for_profile(profile, case["overrides"])
                state = HandState.new(Deal.parse(list(deal["deck"]), int(deal["dealer"])), rules)
            except GinspecError:  # a ruleset the two-player hand engine does not play
                continue
            claims, at_showdown, end = _played_claims(state, steps, profile)
            if entry.get("showdown") == "layoffs":  # the engine's layoffs after the spread
                for who, action in best_layoff_steps(end):
                    end = end.apply(action, who)
            knocks += claims
            if result is not None and "deadwood" in result:
                showdowns.append(_showdown_claim(profile, result, at_showdown, end, automatic))
    return tuple(knocks), tuple(showdowns)


def _played_claims(state: HandState, steps: Sequence[tuple[str, Any, Any]],
                   profile: str) -> tuple[list[KnockClaim], HandState | None, HandState]:
    """The knock claims of the steps, the position where the showdown starts (None: never) and
    the position they end in."""
    out = []
    formal = FormalRules.of(state.rules.meld_rules)
    at_showdown = None
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
        if action is not None and action.kind is Kind.DECLARE and player in (0, 1) \
                and (said := _declared_verdict(expect)) is not None:
            out.append(_declaration_claim(state, player, action, i, profile, said))
        if expect == "accepted":
            try:
                state = state.apply(str(text), player)
            except GinspecError:  # the case and the reference part here: the replay ends
                break
            if at_showdown is None and state.phase is Phase.DECLARE:
                at_showdown = state
    return out, at_showdown, state


# --- hand cases: the deadwood of each player at the end of the showdown --------------------------


@dataclass(frozen=True)
class ShowdownClaim:
    """A result deadwood a hand case expects under ``profile``: ``expected`` (by seat) is what
    the case says; ``certificate`` (None: the replay reached no showdown) is the showdown the
    reference plays there, with the deadwood questions it names in ``refs``."""

    profile: str
    automatic: bool
    expected: tuple[int, int]
    knocker: int | None
    certificate: Mapping[str, Any] | None
    refs: tuple[Question, ...]

    @property
    def key(self) -> str:
        return showdown_key(self.certificate) if self.certificate is not None else "showdown|none"

    def problem(self, stored: Mapping[str, Any]) -> str | None:
        """Why the stored certificate is not this showdown, or its numbers not the case's."""
        if self.certificate is None or self.knocker is None:
            return "the case expects deadwood, but its steps reach no showdown on the reference"
        if showdown_key(stored) != self.key:
            return "the certificate is not of the showdown the case's steps reach"
        dw = stored["deadwood"]
        seats = [0, 0]
        seats[self.knocker], seats[1 - self.knocker] = dw["knocker"], dw["defender"]
        if tuple(seats) != self.expected:
            return f"the case expects deadwood {list(self.expected)}, the certificate proves {seats}"
        return None


def showdown_key(cert: Mapping[str, Any]) -> str:
    """``showdown|best|K ...|D ...|std,ace1|unlimited,forbidden,...|table ...|deadwood 5 5``."""
    r, s = cert["rules"], cert["showdown"]
    variant = FormalRules(r["ace_high_runs"], r["wraparound_runs"], r["ace_value"])
    shape = f"{variant.variant},ace{variant.ace_value}"
    flags = ",".join(str(s[k]).lower() for k in sorted(s))
    table = " / ".join(f"{t['owner'][0]} {' '.join(t['meld'])}" + (f" + {' '.join(t['added'])}" if t["added"] else "")
                       for t in cert["table"])
    hands = f"K {' '.join(cert['knocker'])}|D {' '.join(cert['defender'])}"
    return (f"showdown|{cert['play']}|{hands}|{shape}|{flags}|table {table}|"
            f"deadwood {cert['deadwood']['knocker']} {cert['deadwood']['defender']}")


def _meld(cards: Sequence[Card], rules: MeldRules) -> Meld:
    kind = check_meld(list(cards), rules).kind
    assert kind is not None
    return Meld(tuple(cards), kind)


def _showdown_claim(profile: str, result: Mapping[str, Any], start: HandState | None, end: HandState,
                    automatic: bool) -> ShowdownClaim:
    expected = (int(result["deadwood"][0]), int(result["deadwood"][1]))
    if start is None or start.knocker is None:
        return ShowdownClaim(profile, automatic, expected, None, None, ())
    k = start.knocker
    k_hand, d_hand = tuple(start.hand(k)), tuple(start.hand(1 - k))
    srules = as_rules(start.rules.params)
    table: list[dict[str, Any]]
    if automatic:
        ruling = start.best_ruling().to_json()
        table = _best_table(ruling)
        dw = {"knocker": ruling["deadwood"]["knocker"], "defender": ruling["deadwood"]["defender"]}
    else:
        if end.result is None:
            return ShowdownClaim(profile, automatic, expected, None, None, ())
        table = [{"owner": t.owner, "meld": [card_str(c) for c in t.original.cards],
                  "added": [card_str(c) for c in t.added]} for t in end.table]
        dw = {"knocker": end.result.deadwood[k], "defender": end.result.deadwood[1 - k]}
    cert, refs = _showdown_certificate(k_hand, d_hand, srules, table, dw, automatic)
    return ShowdownClaim(profile, automatic, expected, k, cert, refs)


def _best_table(ruling: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The table at the end of an adjudicator's ruling (its JSON form): each declared and
    defender's meld with the cards laid off onto it."""
    added: dict[str, list[str]] = {}
    for lay in [*ruling["defender"]["layoffs"], *ruling["knocker_layoffs"]]:
        added.setdefault(" ".join(lay["onto"]), []).append(lay["card"])
    return [{"owner": owner, "meld": list(m), "added": added.get(" ".join(m), [])}
            for owner, melds in (("knocker", ruling["declaration"]["melds"]),
                                 ("defender", ruling["defender"]["melds"])) for m in melds]


def _showdown_certificate(k_hand: Sequence[Card], d_hand: Sequence[Card], srules: ShowdownRules,
                          table: list[dict[str, Any]], dw: dict[str, Any],
                          automatic: bool) -> tuple[dict[str, Any], tuple[Question, ...]]:
    """The showdown certificate of this table and these numbers, with the deadwood questions it
    names (the knocker's least under maximal melding; the defender's every layoff choice under
    best play)."""
    formal = FormalRules.of(srules.meld_rules)
    declared_melds = [parse_cards(t["meld"]) for t in table if t["owner"] == "knocker"]
    in_melds = {c for m in declared_melds for c in m}
    declared = sum(rank_value(rank_of(c), formal) for c in k_hand if c not in in_melds)
    refs: list[Question] = []
    knocker_least = None
    if srules.knocker_must_meld_maximally and declared > 0:
        q = Question(tuple(k_hand), formal, False, None, declared)
        refs.append(q)
        knocker_least = q.key
    defender_least = None
    if automatic and not srules.knocker_may_lay_off:
        gin = declared == 0
        plans = layoff_plans(table_of([_meld(m, srules.meld_rules) for m in declared_melds]),
                             d_hand, srules, "defender", gin)
        defender_least = []
        for laid in sorted(plans):
            rest = tuple(c for c in d_hand if not laid >> c & 1)
            q = Question(rest, formal, False, None, int(dw["defender"]))
            refs.append(q)
            defender_least.append({"laid_off": [card_str(c) for c in cards_of(laid)], "certificate": q.key})
    cert = {
        "question": "showdown",
        "play": "best" if automatic else "recorded",
        "rules": formal.to_json(),
        "showdown": {"layoff_chain": srules.layoff_chain, "layoff_after_gin": srules.layoff_after_gin,
                     "knocker_may_lay_off": srules.knocker_may_lay_off,
                     "knocker_must_meld_maximally": srules.knocker_must_meld_maximally},
        "knocker": [card_str(c) for c in sorted(k_hand)],
        "defender": [card_str(c) for c in sorted(d_hand)],
        "table": table,
        "deadwood": dw,
        "knocker_least": knocker_least,
        "defender_least": defender_least,
    }
    return cert, tuple(refs)


# --- showdown queries: defence, declaration and adjudicate answers ---------------------------------


@dataclass(frozen=True)
class AnswerClaim:
    """The answer certificate of a showdown query case under ``profile`` (checked by
    :func:`ginspec.spec.formal.answers.check_answers`), the deadwood questions it and its
    showdown name, and the showdown certificate (None: the answer names none)."""

    profile: str | None
    key: str
    certificate: dict[str, Any]
    refs: tuple[Question, ...]
    showdown: dict[str, Any] | None

    @property
    def keys(self) -> set[str]:
        """Every certificate key this answer uses."""
        return {self.key, *(q.key for q in self.refs)} | (
            {showdown_key(self.showdown)} if self.showdown is not None else set())


def answer_claims(case: Mapping[str, Any]) -> list[AnswerClaim]:
    """The answer certificates of a ``defence``, ``declaration`` or ``adjudicate`` query case:
    one per profile it is answered under with a deadwood or knock verdict (none for other cases).
    (Remembered by the case's whole text: a run asks several times.)"""
    if not answered(case):
        return []
    return list(_answers(json.dumps(case, sort_keys=True)))


@lru_cache(maxsize=1024)
def _answers(text: str) -> tuple[AnswerClaim, ...]:
    case = json.loads(text)
    first: dict[str | None, Mapping[str, Any]] = {}
    for profile, expect in answered(case):  # one answer per profile (the checker reads each expectation)
        first.setdefault(profile, expect)
    return tuple(_answer(case, profile, expect) for profile, expect in first.items())


def _least(cards: Sequence[Card], rules: MeldRules) -> int:
    return min_deadwood(list(cards), rules)


def _answer(case: Mapping[str, Any], profile: str | None, expect: Mapping[str, Any]) -> AnswerClaim:
    query = case["query"]
    what = query["what"]
    params = params_of(case, profile)
    meld_rules = MeldRules.from_params(params)
    formal = FormalRules.of(meld_rules)
    key = answer_key(case["id"], profile)
    cert: dict[str, Any] = {"question": "answer", "what": what}
    refs: list[Question] = []
    showdown: dict[str, Any] | None = None
    if what == "defence":
        srules = as_rules(params)
        hand = parse_cards(query["cards"])
        melds = [_meld(parse_cards(m), meld_rules) for m in query["knocker_melds"]]
        plans = layoff_plans(table_of(melds), hand, srules, "defender", bool(query.get("gin", False)))
        cert["options"] = []
        for laid in sorted(plans):
            rest = tuple(c for c in hand if not laid >> c & 1)
            q = Question(rest, formal, False, None, _least(rest, meld_rules))
            refs.append(q)
            cert["options"].append({"laid_off": [card_str(c) for c in cards_of(laid)], "certificate": q.key})
    elif what == "declaration":
        cards = tuple(parse_cards(query["cards"]))
        cert["least"] = None
        if to_rules(params).knocker_must_meld_maximally and (
                expect.get("valid") is True or expect.get("code") == "DECLARATION_NOT_MAXIMAL"):
            q = Question(cards, formal, False, None, _least(cards, meld_rules))
            refs.append(q)
            cert["least"] = q.key
    else:
        knocker, defender = tuple(parse_cards(query["knocker"])), tuple(parse_cards(query["defender"]))
        upcard = parse_cards([query["upcard"]])[0] if "upcard" in query else None
        limit = knock_limit_for(params, upcard)
        eleven = len(knocker) == 11
        claim = min(_least([c for c in knocker if c != d], meld_rules) for d in knocker) if eleven \
            else _least(knocker, meld_rules)
        q = Question(knocker, formal, eleven, limit if eleven else None, claim)
        refs.append(q)
        cert |= {"knocker_least": q.key, "showdown": None, "discard": None}
        if expect["outcome"] != "illegal_knock" and "deadwood" in expect:
            given = query.get("knocker_melds")
            ruling = adjudicate(knocker, defender, ruleset(profile, case["overrides"]) if profile else params,
                                knocker_melds=None if given is None else [parse_cards(m) for m in given],
                                upcard=upcard).to_json()
            kept = tuple(c for c in knocker if ruling["discard"] is None or c != parse_cards([ruling["discard"]])[0])
            dw = {"knocker": ruling["deadwood"]["knocker"], "defender": ruling["deadwood"]["defender"]}
            showdown, more = _showdown_certificate(kept, defender, as_rules(params), _best_table(ruling), dw, True)
            refs += more
            cert |= {"showdown": showdown_key(showdown), "discard": ruling["discard"]}
    return AnswerClaim(profile, key, cert, tuple(refs), showdown)


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
    """The certificates file for these cases: one line per question or showdown, sorted by key."""
    found: dict[str, Question] = {}
    shown: dict[str, Mapping[str, Any]] = {}
    for case in cases:
        for q in questions(case):
            found.setdefault(q.key, q)
        for claim in showdown_claims(case):
            if claim.certificate is not None:
                shown.setdefault(claim.key, claim.certificate)
        for answer in answer_claims(case):
            shown.setdefault(answer.key, answer.certificate)
            if answer.showdown is not None:
                shown.setdefault(showdown_key(answer.showdown), answer.showdown)
    data = {key: certificate(q) for key, q in found.items()} | shown
    lines = [json.dumps({"key": key, "certificate": data[key]}, separators=(",", ":")) for key in sorted(data)]
    return "".join(line + "\n" for line in lines)


class SuiteCertificateError(CertificateError):
    """A suite folder's certificates file or one of its case files cannot be read or checked;
    the message names the file (and line) and the field."""


def read_certificates(folder: Path) -> dict[str, dict[str, Any]]:
    """The certificates file of a suite folder, by question key, read through the input boundary
    (:mod:`ginspec.spec.inputs`): each line an object with a string ``key`` and an object
    ``certificate``."""
    path = folder / CERTIFICATES
    out = {}
    for number, line in enumerate(read_text(path, SuiteCertificateError).splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        entry = parse_json(line, where, SuiteCertificateError)
        if not isinstance(entry, dict):
            raise SuiteCertificateError(f"{where}: (top level): expected an object, got {shown_value(entry)}")
        if not isinstance(entry.get("key"), str):
            raise SuiteCertificateError(f"{where}: key: expected a string, got {shown_value(entry.get('key'))}")
        if not isinstance(entry.get("certificate"), dict):
            raise SuiteCertificateError(f"{where}: certificate: expected an object, got "
                                        f"{shown_value(entry.get('certificate'))}")
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


VerdictMemo = dict[str, tuple[bool, str | None]]
"""Verdicts of :func:`verify` already reached, by question key (a certificate shared by many
cases is verified once per run)."""


def _stands(key: str, cert: Mapping[str, Any], memo: VerdictMemo) -> tuple[bool, str | None]:
    if key not in memo:
        try:
            memo[key] = verify(dict(cert))
        except CertificateError as exc:  # a missing or unknown field: no certificate at all
            memo[key] = (False, f"not a certificate: {exc}")
    return memo[key]


def check_case(case: Mapping[str, Any], certs: Mapping[str, Mapping[str, Any]],
               memo: VerdictMemo | None = None) -> list[str]:
    """Problems with one case's certificates: missing, not standing, or not what the case expects."""
    memo = {} if memo is None else memo
    if case.get("kind") == "hand":
        return _check_hand_case(case, certs, memo)
    if answered(case):
        return _check_answer_case(case, certs, memo)
    out = []
    expect = case["expect"]
    qs = questions(case)
    for i, q in enumerate(qs):
        cert = certs.get(q.key)
        where = f"{case['id']}: {q.key}"
        if cert is None:
            out.append(f"{where}: {missing_problem(q, certs)}")
            continue
        if (unbound := binding_problem(q, cert)) is not None:
            out.append(f"{where}: {unbound}")
            continue
        stands, reason = _stands(q.key, cert, memo)
        if not stands:
            out.append(f"{where}: {reason}")
            continue
        if i == 0:  # the case's own question: its expected numbers
            if cert["outcome"] != "proved" or cert["optimum"] != expect["deadwood"]:
                out.append(f"{where}: deadwood: the case expects {expect['deadwood']}, the certificate proves "
                           f"the optimum {cert['optimum']}")
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


def _check_answer_case(case: Mapping[str, Any], certs: Mapping[str, Mapping[str, Any]],
                       memo: VerdictMemo) -> list[str]:
    """A showdown query's answers, checked by :mod:`ginspec.spec.formal.answers` alone (the
    reference only wrote them)."""
    return check_answers(case, certs, lambda key, cert: _stands(key, cert, memo))


def _check_hand_case(case: Mapping[str, Any], certs: Mapping[str, Mapping[str, Any]],
                     memo: VerdictMemo) -> list[str]:
    out = []
    for claim in knock_claims(case):
        where = f"{case['id']} step {claim.step} under {claim.profile}: {claim.question.key}"
        cert = certs.get(claim.question.key)
        if cert is None:
            out.append(f"{where}: {missing_problem(claim.question, certs)}")
            continue
        if (unbound := binding_problem(claim.question, cert)) is not None:
            out.append(f"{where}: {unbound}")
            continue
        stands, reason = _stands(claim.question.key, cert, memo)
        if not stands:
            out.append(f"{where}: {reason}")
        elif cert["outcome"] != "proved":
            out.append(f"{where}: the reference's deadwood {claim.question.claim} is not the optimum "
                       f"{cert['optimum']}")
        elif (problem := claim.problem(int(cert["optimum"]))) is not None:
            out.append(f"{where}: {problem}")
    for shown in showdown_claims(case):
        where = f"{case['id']} result under {shown.profile}{' (automatic showdown)' if shown.automatic else ''}"
        cert = certs.get(shown.key)
        if shown.certificate is not None and cert is None:
            out.append(f"{where}: {shown.key}: no certificate")
            continue
        problem = shown.problem(cert or {})
        if problem is None and cert is not None and shown.key not in memo:
            bad = check_showdown(cert, certs, lambda key, c: _stands(key, c, memo))
            memo[shown.key] = (bad is None, bad)
        if problem is None and cert is not None and not memo[shown.key][0]:
            problem = f"{shown.key}: does not stand: {memo[shown.key][1]}"
        if problem is not None:
            out.append(f"{where}: {problem}")
    return out


def case_cards(case: Mapping[str, Any]) -> list[Card]:
    return parse_cards(case["query"]["cards"])


SUITE_DIR: Final = Path(__file__).resolve().parents[2] / "conformance" / "suite"
"""Where the committed suite lives in a checkout (a path only: nothing is imported from there)."""


def certified_cases(folder: Path) -> list[dict[str, Any]]:
    """Every case of a suite folder that has certified numbers, in file order."""
    return [case for _, case in _certified(folder)]


def _certified(folder: Path) -> list[tuple[str, dict[str, Any]]]:
    """(file, case) of every case of a suite folder with certified numbers, each read through the
    input boundary: a file that is not a bounded JSON object, or whose fields are not the shapes
    the checks read, is a :class:`SuiteCertificateError` naming it."""
    out = []
    for kind in ("query", "hand"):
        for path in sorted((folder / "cases" / kind).glob("*.json")):
            source = str(path)
            case = read_json(path, SuiteCertificateError)
            if not isinstance(case, dict):
                raise SuiteCertificateError(f"{source}: (top level): expected a case object, got {shown_value(case)}")
            with guard(source, SuiteCertificateError):
                certified = bool(questions(case) or answered(case))
            if certified:
                out.append((source, case))
    return out


def used_keys(case: Mapping[str, Any]) -> set[str]:
    """The keys of every certificate a case's numbers rest on."""
    return {q.key for q in questions(case)} | {
        s.key for s in showdown_claims(case) if s.certificate is not None} | {
        key for a in answer_claims(case) for key in a.keys}


def certificate_count(case: Mapping[str, Any]) -> int:
    """How many certificates a case's check reads (a question asked twice counts twice)."""
    return len(questions(case)) + len(showdown_claims(case)) + sum(
        1 + (a.showdown is not None) for a in answer_claims(case))


def verify_suite(folder: Path, *, sample: int | None = None, seed: int = 1,
                 also: Sequence[str] = ()) -> SuiteCheck:
    """Re-check the certificates of a suite folder against its cases. ``sample`` checks that many
    cases (chosen with ``seed``) plus the cases whose IDs are in ``also``; None checks them all,
    and then also that the file has no certificate no case uses."""
    certs = read_certificates(folder)
    files = _certified(folder)
    chosen = files
    if sample is not None:
        rng = random.Random(seed)
        picked = {id(c) for _, c in rng.sample(files, min(sample, len(files)))}
        chosen = [(f, c) for f, c in files if id(c) in picked or c.get("id") in also]
    problems: list[str] = []
    used = 0
    memo: VerdictMemo = {}
    for source, case in chosen:
        with guard(source, SuiteCertificateError):
            problems += check_case(case, certs, memo)
            used += certificate_count(case)
    if sample is None:
        needed: set[str] = set()
        for source, case in files:
            with guard(source, SuiteCertificateError):
                needed |= used_keys(case)
        problems += [f"{key}: a certificate no case uses" for key in sorted(set(certs) - needed)]
    return SuiteCheck(len(chosen), used, tuple(problems))
