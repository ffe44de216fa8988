"""Certificates of showdown query answers: the deadwood and knock verdicts a ``defence``,
``declaration`` or ``adjudicate`` query case expects (SHOWDOWN.DECLARATION,
SHOWDOWN.DECLARATION.MAXIMAL, SHOWDOWN.DEFENDER-SPREAD, SHOWDOWN.COMPARE, SHOWDOWN.BEST-PLAY,
KNOCK.LIMIT, LAYOFF.TARGET; FORMAL.CERTIFICATE).

For each profile a case is answered under (its own, and each ``rulesets`` entry's) the
certificates file holds an *answer certificate*, keyed by :func:`answer_key`, that names the
certificates the case's numbers rest on. This module re-derives every number from the case's own
data (cards, melds, rules read by parameter name) and the optima those certificates prove; it
trusts no number of the certificate:

* ``defence`` — ``options`` lists, for every set of the defender's cards that can be laid off onto
  the knocker's melds (:func:`~.showdown_certificates.layoff_options`, from LAYOFF.FIT/SET/RUN/CHAIN/AFTER-GIN),
  a deadwood certificate of the cards he keeps. The expected ``deadwood`` is the least of their
  optima; the expected ``layoffs`` reach it; ``layoff_sets`` are exactly the options that do.
* ``declaration`` — the declared deadwood is the definition's arithmetic
  (:func:`~.definition.arrangement_deadwood`). Accepted: within the knock limit (0 for eleven
  cards), and, under ``knocker_must_meld_maximally``, the ``least`` certificate's optimum.
  DECLARATION_OVER_LIMIT: over the limit. DECLARATION_NOT_MAXIMAL: above the certified least.
  DECLARATION_NOT_A_MELD: a declared group is no meld by the definition.
* ``adjudicate`` — ``knocker_least`` certifies the knocker's least deadwood (after the best
  discard, for eleven cards): ``illegal_knock`` exactly when it is over the limit (with the
  knocker's melds given: when they are no arrangement, or over the limit, or above the least
  where the knocker must meld maximally). An expected ``deadwood`` is carried by a best-play
  showdown certificate (``showdown``, checked by :func:`~.showdown_certificates.check_showdown`) of the
  query's hands (less the knocker's ``discard``): its numbers must be the case's, its declaration
  within the limit, the outcome the one its numbers give (gin when nothing is declared as
  deadwood, big gin on eleven cards; SCORE.ZERO-CANCELS; else SHOWDOWN.COMPARE with SCORE.TIE),
  the points what chapter 9 written a second time (:mod:`.score_spec`) gives for them, and the
  case's ``layoffs`` and ``layoff_sets`` for that declaration the defender's least.

Which declaration the knocker picks when he may under-meld, and which discard, is the
adjudicator's search: only the arithmetic of the one chosen and the defender's least reply are
certified. Nothing here imports :mod:`ginspec.reference`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import z3
from ginspec.spec.cards import SPADES, Card, card_str, card_value, parse_cards, rank_of, suit_of
from ginspec.spec.errors import GinspecError, MeldError, ParameterError
from ginspec.spec.formal.certificate import CertificateError, CertificateValueError
from ginspec.spec.formal.definition import arrangement_deadwood, meld_shape
from ginspec.spec.formal.rules import FormalRules
from ginspec.spec.formal.score_spec import HAND_PARAMETERS, SymbolicRules, hand_score_spec
from ginspec.spec.formal.showdown_certificates import Stands, cards_text, check_showdown, layoff_choices, layoff_options
from ginspec.spec.formal.verify import _card, _fields, _kind
from ginspec.spec.parameters import complete, parameter
from ginspec.spec.profiles import ruleset

KINDS: Final = ("defence", "declaration", "adjudicate")
"""The query kinds whose answers this module certifies."""
_FIELDS: Final = {"defence": {"question", "what", "options"},
                  "declaration": {"question", "what", "least"},
                  "adjudicate": {"question", "what", "knocker_least", "showdown", "discard"}}


def answer_key(case_id: str, profile: str | None) -> str:
    """``answer|spec.defence-breaks-its-own-set|-`` — the answer of a case under a profile."""
    return f"answer|{case_id}|{profile or '-'}"


def answered(case: Mapping[str, Any]) -> list[tuple[str | None, Mapping[str, Any]]]:
    """The (profile, expectation) pairs of a case whose answers carry numbers to certify: the
    case's own and each ``rulesets`` entry's per profile (none for other cases)."""
    if case.get("kind") != "query" or case["query"].get("what") not in KINDS:
        return []
    out: list[tuple[str | None, Mapping[str, Any]]] = [(case.get("profile"), case["expect"])]
    for entry in case.get("rulesets") or []:
        out += [(p, entry.get("expect", case["expect"])) for p in entry["profiles"]]
    unique: list[tuple[str | None, Mapping[str, Any]]] = []
    for p, e in out:  # the case's own profile may have a rulesets entry too
        if claims(case["query"]["what"], e) and (p, e) not in unique:
            unique.append((p, e))
    return unique


def claims(what: str, expect: Mapping[str, Any]) -> bool:
    """Whether an expectation of this query kind states a deadwood or knock verdict."""
    if what == "defence":
        return "deadwood" in expect
    if what == "declaration":
        return expect.get("valid") is True or expect.get("code") in (
            "DECLARATION_OVER_LIMIT", "DECLARATION_NOT_MAXIMAL", "DECLARATION_NOT_A_MELD")
    return "outcome" in expect


def params_of(case: Mapping[str, Any], profile: str | None) -> dict[str, Any]:
    """Every parameter's value for the case under ``profile`` (None: the catalogue defaults with
    the case's overrides)."""
    overrides = dict(case["overrides"])
    return dict(ruleset(profile, overrides)) if profile is not None else complete(overrides)


def knock_limit(params: Mapping[str, Any], upcard: Card | None) -> int:
    """KNOCK.LIMIT, or under Oklahoma the first upcard's value (OKLAHOMA.KNOCK-LIMIT, OKLAHOMA.ACE:
    an ace 1 under ``oklahoma_ace = one``, 0 under ``gin_only``)."""
    if not params["oklahoma"]:
        return int(params["knock_limit"])
    if upcard is None:
        raise ParameterError("oklahoma needs the query's upcard for the knock limit (OKLAHOMA.KNOCK-LIMIT)")
    if rank_of(upcard) == 0:
        return 1 if params["oklahoma_ace"] == "one" else 0
    return int(card_value(upcard))


def check_answers(case: Mapping[str, Any], certificates: Mapping[str, Mapping[str, Any]],
                  stands: Stands) -> list[str]:
    """Problems with a query case's answer certificates (one per profile it is answered under)."""
    out = []
    for profile, expect in answered(case):
        where = f"{case['id']} under {profile or 'the defaults'}"
        key = answer_key(case["id"], profile)
        cert = certificates.get(key)
        if cert is None:
            out.append(f"{where}: {key}: no certificate")
            continue
        try:
            problem = _check(case, profile, expect, cert, certificates, stands)
        except CertificateError as exc:
            problem = f"not a certificate: {exc}"
        except GinspecError as exc:  # the case's own data: rules that do not combine, a bad card
            problem = f"the case cannot be checked: {exc}"
        if problem is not None:
            out.append(f"{where}: {problem}")
    return out


def _check(case: Mapping[str, Any], profile: str | None, expect: Mapping[str, Any], cert: Any,
           certificates: Mapping[str, Mapping[str, Any]], stands: Stands) -> str | None:
    query = case["query"]
    what = query["what"]
    data = _fields(cert, "the answer certificate", _FIELDS[what])
    if data["question"] != "answer" or data["what"] != what:
        raise CertificateValueError(f"question must be 'answer' of a {what} query")
    params = params_of(case, profile)
    rules = FormalRules(bool(params["ace_high_runs"]), bool(params["wraparound_runs"]), int(params["ace_value"]))
    refs = _Refs(certificates, stands, rules)
    if what == "defence":
        return _defence(query, expect, params, rules, data, refs)
    upcard = parse_cards([query["upcard"]])[0] if "upcard" in query else None
    limit = knock_limit(params, upcard)
    if what == "declaration":
        return _declaration(query, expect, params, rules, limit, data, refs)
    return _adjudicate(query, expect, params, rules, limit, data, refs)


class _Refs:
    """Looks up a referenced deadwood certificate and checks that it answers the question."""

    def __init__(self, certificates: Mapping[str, Mapping[str, Any]], stands: Stands, rules: FormalRules) -> None:
        self.certificates, self.stands, self.rules = certificates, stands, rules

    def optimum(self, key: Any, where: str, hand: Sequence[Card], *, after_discard: bool = False,
                knock_limit: int | None = None) -> int | str:
        """The certified least deadwood of ``hand`` (after the best discard, under ``knock_limit``),
        or why not. The certificate must be that question's (its hand, rules and knock limit) and
        claim the least it proves (outcome ``proved``)."""
        if not isinstance(key, str):
            raise CertificateValueError(f"{where} must be a certificate's key, not {_kind(key)}")
        cert = self.certificates.get(key)
        if cert is None:
            return f"{where}: no certificate {key!r} in the file"
        question = "deadwood-after-discard" if after_discard else "deadwood"
        hand_ok = isinstance(cert.get("hand"), list) and all(isinstance(c, str) for c in cert["hand"])
        if cert.get("question") != question or not hand_ok or sorted(cert["hand"]) != sorted(
                card_str(c) for c in hand) or cert.get("rules") != self.rules.to_json():
            return f"{where}: {key!r} is not the {question} question of {cards_text(hand)} under these rules"
        limit = knock_limit if after_discard else None
        if cert.get("knock_limit") != limit or ("knock_limit" in cert) != (limit is not None):
            return f"{where}: knock_limit: {key!r} has {cert.get('knock_limit')}, the case asks {limit}"
        ok, reason = self.stands(key, cert)
        if not ok:
            return f"{where}: {reason}"
        if cert["outcome"] != "proved":
            return f"{where}: claim: {key!r} claims {cert['claim']}, not the least deadwood {cert['optimum']}"
        return int(cert["optimum"])


def _meld_list(value: Any, where: str) -> list[tuple[Card, ...]]:
    if not isinstance(value, list):
        raise CertificateValueError(f"{where} must be a list of melds")
    return [tuple(parse_cards(m)) for m in value]


def _defence(query: Mapping[str, Any], expect: Mapping[str, Any], params: Mapping[str, Any], rules: FormalRules,
             data: Mapping[str, Any], refs: _Refs) -> str | None:
    """SHOWDOWN.DEFENDER-SPREAD, LAYOFF.TARGET: the least deadwood over every layoff choice."""
    melds = _meld_list(query["knocker_melds"], "query.knocker_melds")
    hand = parse_cards(query["cards"])
    for meld in melds:
        if meld_shape(meld, rules) is None:
            return f"the knocker's {cards_text(meld)} is not a meld"
        if set(meld) & set(hand):
            return f"the knocker's {cards_text(meld)} shares a card with the defender's hand"
    gin = bool(query.get("gin", False))
    allowed = not gin or params["layoff_after_gin"] != "forbidden"
    options = layoff_options(melds, hand, rules, str(params["layoff_chain"]), allowed=allowed)
    choices = layoff_choices(data["options"], "options", options, "the knocker's melds")
    if isinstance(choices, str):
        return choices
    reach: dict[frozenset[Card], int] = {}
    for at, laid, certificate in choices:
        got = refs.optimum(certificate, at, [c for c in hand if c not in laid])
        if isinstance(got, str):
            return got
        reach[laid] = got
    least = min(reach.values())
    if int(expect["deadwood"]) != least:
        return f"the case expects deadwood {expect['deadwood']}, the certified least is {least}"
    best = sorted(sorted(card_str(c) for c in laid) for laid, v in reach.items() if v == least)
    if "layoffs" in expect and sorted(expect["layoffs"]) not in best:
        return (f"the case's layoffs {cards_text(frozenset(parse_cards(expect['layoffs'])))} do not leave the "
                f"least deadwood {least}")
    if "layoff_sets" in expect and sorted(sorted(s) for s in expect["layoff_sets"]) != best:
        return f"layoff_sets: the case lists {expect['layoff_sets']}, the options leaving {least} are {best}"
    return None


def _declaration(query: Mapping[str, Any], expect: Mapping[str, Any], params: Mapping[str, Any],
                 rules: FormalRules, limit: int, data: Mapping[str, Any], refs: _Refs) -> str | None:
    """SHOWDOWN.DECLARATION, SHOWDOWN.DECLARATION.MAXIMAL, KNOCK.LIMIT, KNOCK.BIG-GIN-SHAPE."""
    hand = parse_cards(query["cards"])
    melds = _meld_list(query["melds"], "query.melds")
    code = expect.get("code")
    if code == "DECLARATION_NOT_A_MELD":
        if data["least"] is not None:
            return "least: a refusal as no meld names no certificate"
        if all(meld_shape(m, rules) is not None for m in melds):
            return "the declaration is refused as not a meld, but every declared group is a meld"
        return None
    try:
        declared = arrangement_deadwood(hand, melds, rules)
    except MeldError as exc:
        return f"the declared melds are not an arrangement of the cards ({exc})"
    maximal = bool(params["knocker_must_meld_maximally"])
    least: int | None = None
    if data["least"] is not None:
        got = refs.optimum(data["least"], "least", hand)
        if isinstance(got, str):
            return got
        least = got
    elif maximal and (expect.get("valid") is True or code == "DECLARATION_NOT_MAXIMAL") and declared > 0:
        return "least: the knocker must meld maximally, and no certificate of his least deadwood is named"
    cap = 0 if len(hand) == 11 else limit
    if expect.get("valid") is True:
        if expect.get("deadwood", declared) != declared:
            return f"the case expects deadwood {expect['deadwood']}, the declared melds leave {declared}"
        if declared > cap:
            return f"the declaration is accepted, but its deadwood {declared} is over the limit {cap}"
        if maximal and least is not None and declared != least:
            return f"the declaration is accepted, but its deadwood {declared} is not the least, {least}"
    elif code == "DECLARATION_OVER_LIMIT" and declared <= cap:
        return f"the declaration is refused as over the limit {cap}, but its deadwood is {declared}"
    elif code == "DECLARATION_NOT_MAXIMAL" and (not maximal or least is None or declared <= least):
        return f"the declaration is refused as not maximal, but its deadwood {declared} is the least"
    return None


def _adjudicate(query: Mapping[str, Any], expect: Mapping[str, Any], params: Mapping[str, Any],
                rules: FormalRules, limit: int, data: Mapping[str, Any], refs: _Refs) -> str | None:
    """SHOWDOWN.BEST-PLAY, KNOCK.LIMIT, SHOWDOWN.COMPARE, SCORE.TIE, SCORE.ZERO-CANCELS."""
    knocker, defender = parse_cards(query["knocker"]), parse_cards(query["defender"])
    eleven = len(knocker) == 11
    least = refs.optimum(data["knocker_least"], "knocker_least", knocker, after_discard=eleven, knock_limit=limit)
    if isinstance(least, str):
        return least
    illegal = expect["outcome"] == "illegal_knock"
    maximal = bool(params["knocker_must_meld_maximally"])
    if "knocker_melds" in query:
        melds = _meld_list(query["knocker_melds"], "query.knocker_melds")
        try:
            declared: int | None = arrangement_deadwood(knocker, melds, rules)
        except MeldError:
            declared = None
        ok = declared is not None and declared <= limit and not (maximal and declared != least)
        if illegal and ok:
            return (f"the knock is ruled illegal, but the given melds leave {declared}, within the limit "
                    f"{limit}{' and the least' if maximal else ''}")
        if not illegal and not ok:
            return f"the knock is ruled legal, but the given melds leave {declared} (limit {limit}, least {least})"
    elif illegal and least <= limit:
        return f"the knock is ruled illegal, but the knocker's least deadwood {least} is within the limit {limit}"
    elif not illegal and least > limit:
        return f"the knock is ruled legal, but the knocker's least deadwood {least} is over the limit {limit}"
    if illegal or "deadwood" not in expect:
        if data["showdown"] is not None or data["discard"] is not None:
            return "showdown: only an expected deadwood names a showdown"
        return None
    return _best_play(query, expect, params, rules, limit, data, refs, knocker, defender)


def _best_play(query: Mapping[str, Any], expect: Mapping[str, Any], params: Mapping[str, Any], rules: FormalRules,
               limit: int, data: Mapping[str, Any], refs: _Refs, knocker: list[Card],
               defender: list[Card]) -> str | None:
    key = data["showdown"]
    if not isinstance(key, str):
        raise CertificateValueError(f"showdown must be a certificate's key, not {_kind(key)}")
    cert = refs.certificates.get(key)
    if cert is None:
        return f"showdown: no certificate {key!r} in the file"
    discard = None if data["discard"] is None else _card(data["discard"], "discard")
    if discard is not None and (len(knocker) != 11 or discard not in knocker):
        return f"discard: {card_str(discard)} is not a card of the knocker's eleven"
    kept = [c for c in knocker if c != discard]
    flags = {k: params[k] for k in ("layoff_chain", "layoff_after_gin", "knocker_may_lay_off",
                                    "knocker_must_meld_maximally")}
    if cert.get("question") != "showdown" or cert.get("play") != "best" or cert.get("rules") != rules.to_json() \
            or cert.get("showdown") != flags or cert.get("knocker") != [card_str(c) for c in sorted(kept)] \
            or cert.get("defender") != [card_str(c) for c in sorted(defender)]:
        return f"showdown: {key!r} is not the best play of these hands under these rules"
    problem = check_showdown(cert, refs.certificates, refs.stands)
    if problem is not None:
        return f"showdown: {key!r} does not stand: {problem}"
    table = cert["table"]
    declared_melds = [tuple(parse_cards(t["meld"])) for t in table if t["owner"] == "knocker"]
    if "knocker_melds" in query and {frozenset(m) for m in declared_melds} != \
            {frozenset(parse_cards(m)) for m in query["knocker_melds"]}:
        return "showdown: its declaration is not the query's knocker_melds"
    declared = arrangement_deadwood(kept, declared_melds, rules)
    if len(kept) == 11 and declared != 0:
        return "showdown: the knocker keeps eleven cards, which only big gin may"
    if declared > limit:
        return f"showdown: the declared deadwood {declared} is over the limit {limit}"
    dw = cert["deadwood"]
    if dict(expect["deadwood"]) != dw:
        return f"the case expects deadwood {dict(expect['deadwood'])}, the certificate proves {dw}"
    outcome = _outcome(declared, len(kept) == 11, int(dw["knocker"]), int(dw["defender"]), params)
    if expect["outcome"] != outcome:
        return f"the case expects outcome {expect['outcome']}, the certified deadwood gives {outcome}"
    if "points" in expect:
        upcard = parse_cards([query["upcard"]])[0] if "upcard" in query else None
        points = spec_points("knock" if declared > 0 else "big_gin" if len(kept) == 11 else "gin",
                             int(dw["knocker"]), int(dw["defender"]), params, upcard)
        if dict(expect["points"]) != points:
            return f"the case expects points {dict(expect['points'])}, chapter 9 gives {points} for these numbers"
    return _layoffs(expect, cert, declared_melds, refs.certificates)


def spec_points(going_out: str, knocker: int, defender: int, params: Mapping[str, Any],
                upcard: Card | None) -> dict[str, int]:
    """Both sides' points by chapter 9 as :mod:`.score_spec` writes it a second time (SCORE-SPEC:
    SCORE.KNOCK, SCORE.UNDERCUT, SCORE.TIE, SCORE.GIN, SCORE.BIG-GIN, SCORE.ZERO-CANCELS,
    OKLAHOMA.SPADES), evaluated on these numbers and the parameters' values."""
    r = SymbolicRules(HAND_PARAMETERS, "_answer")
    values = []
    for name in HAND_PARAMETERS:
        p = parameter(name)
        value = params[name]
        term = z3.BoolVal(bool(value)) if p.type == "bool" else z3.IntVal(
            p.choices.index(value) if p.type == "enum" else int(value))
        values.append((r[name], term))
    doubled = bool(params["oklahoma"]) and params["spade_double"] != "off" and upcard is not None \
        and suit_of(upcard) == SPADES
    score = hand_score_spec(_Named(going_out), z3.IntVal(knocker), z3.IntVal(defender), r, z3.BoolVal(doubled))
    return {side: int(z3.simplify(z3.substitute(term, *values)).as_long())
            for side, term in (("knocker", score.knocker), ("defender", score.defender))}


class _Named:
    """A concrete going-out kind, compared by name as :func:`.score_spec.hand_score_spec` does."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> Any:
        return z3.BoolVal(self.name == other)

    __hash__ = None  # type: ignore[assignment]


def _outcome(declared: int, all_eleven: bool, knocker: int, defender: int, params: Mapping[str, Any]) -> str:
    """The outcome the numbers give (SHOWDOWN.COMPARE after all layoffs; SCORE.GIN, SCORE.BIG-GIN,
    SCORE.ZERO-CANCELS, SCORE.UNDERCUT, SCORE.TIE)."""
    if declared == 0:
        if params["layoff_after_gin"] == "allowed_zero_cancels" and defender == 0:
            return "gin_cancelled"
        return "big_gin" if all_eleven else "gin"
    if defender < knocker:
        return "undercut"
    if defender == knocker:
        return {"undercut": "undercut", "no_score": "tie", "knocker_scores_zero": "knock"}[
            str(params["undercut_on_tie"])]
    return "knock"


def _layoffs(expect: Mapping[str, Any], cert: Mapping[str, Any], declared: list[tuple[Card, ...]],
             certificates: Mapping[str, Mapping[str, Any]]) -> str | None:
    """The case's layoffs and layoff sets for the certified declaration leave the defender's least
    deadwood, and the layoff sets are all the choices that do (the optima of ``defender_least``,
    whose certificates :func:`~.showdown_certificates.check_showdown` has checked)."""
    listed = cert["defender_least"]
    if listed is None:
        return None
    least = int(cert["deadwood"]["defender"])
    best = sorted(sorted(item["laid_off"]) for item in listed
                  if int(certificates[item["certificate"]]["optimum"]) == least)
    mine = {frozenset(m) for m in declared}
    plays = expect.get("best_plays") or []
    for play in plays:
        if {frozenset(parse_cards(m)) for m in play["declaration"]} == mine and "layoff_sets" in play \
                and sorted(sorted(s) for s in play["layoff_sets"]) != best:
            return (f"best_plays: the layoff sets {play['layoff_sets']} of the certified declaration "
                    f"are not the choices leaving {least}: {best}")
    default = plays[0]["declaration"] if plays else None
    if "layoffs" in expect and (default is None or {frozenset(parse_cards(m)) for m in default} == mine) \
            and sorted(expect["layoffs"]) not in best:
        return f"the case's layoffs {expect['layoffs']} do not leave the defender's least deadwood {least}"
    return None

