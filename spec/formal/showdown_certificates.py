"""Showdown certificates: the deadwood each player ends a hand with (SHOWDOWN.COMPARE,
SHOWDOWN.DEFENDER-SPREAD, LAYOFF.TARGET, LAYOFF.FIT, LAYOFF.CHAIN, LAYOFF.AFTER-GIN,
LAYOFF.KNOCKER, SHOWDOWN.DECLARATION.MAXIMAL, SHOWDOWN.BEST-PLAY; FORMAL.CERTIFICATE).

A hand case's ``result.deadwood`` is the value of each player's cards left after the showdown.
A showdown certificate records the two hands at the showdown, the table at its end (each meld
as spread, by whom, and the cards laid off onto it) and the two numbers, and says which play it
describes:

* ``recorded`` — the play the case's steps record (an explicit showdown). The numbers are the
  arithmetic of that arrangement: checked here card by card against the definition (every meld
  a meld, every layoff fits under the chain rule, the hands split exactly, values summed).
* ``best`` — the spec's best play (SHOWDOWN.BEST-PLAY), which an engine that melds and lays off
  by itself must reach. On top of the arithmetic, the defender's number is his *least* deadwood
  against the declaration on the table: this module lists every set of his cards that can be
  laid off onto the declared melds (:func:`layoff_options`, from the clause texts), and for each
  the certificate names a deadwood certificate of the cards he keeps, whose optimum must be at
  least the claimed number. (Not claimed when the knocker may lay off: then the defender plays
  against the knocker's net, not for his own deadwood.)

Either play, when ``knocker_must_meld_maximally`` holds, names a deadwood certificate of the
knocker's cards proving that his declared deadwood is their least (SHOWDOWN.DECLARATION.MAXIMAL).
Nothing here imports :mod:`ginspec.reference`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations, product
from typing import Any, Final

from ginspec.spec.cards import Card, card_str, rank_of, suit_of
from ginspec.spec.formal.certificate import CertificateError, CertificateValueError
from ginspec.spec.formal.definition import meld_shape
from ginspec.spec.formal.rules import FormalRules, rank_value
from ginspec.spec.formal.verify import _bool, _cards, _fields, _int, _kind, _rules

Cards = frozenset[Card]
CHAINS: Final = ("unlimited", "original_melds_only")
AFTER_GIN: Final = ("forbidden", "allowed", "allowed_zero_cancels")
PLAYS: Final = ("recorded", "best")
_TOP: Final = {"question", "play", "rules", "showdown", "knocker", "defender", "table", "deadwood",
               "knocker_least", "defender_least"}
_SHOWDOWN_RULES: Final = {"layoff_chain", "layoff_after_gin", "knocker_may_lay_off",
                          "knocker_must_meld_maximally"}

Stands = Callable[[str, Mapping[str, Any]], tuple[bool, str | None]]
"""Does a referenced deadwood certificate stand? ``(key, certificate) -> (stands, reason)``."""


def extensions(meld: Sequence[Card], cards: Iterable[Card], rules: FormalRules, chain: str) -> list[Cards]:
    """Every set of ``cards`` that can be laid off onto ``meld`` (the empty set included): the
    meld with them is still a meld (LAYOFF.FIT, LAYOFF.SET, LAYOFF.RUN); with
    ``original_melds_only`` each of them must also fit the meld as spread (LAYOFF.CHAIN)."""
    kind = meld_shape(meld, rules)
    near = [c for c in cards if c not in meld and (
        rank_of(c) == rank_of(meld[0]) if kind == "set" else suit_of(c) == suit_of(meld[0]))]
    if chain == "original_melds_only":
        near = [c for c in near if meld_shape([*meld, c], rules) is not None]
    out: list[Cards] = [frozenset()]
    for size in range(1, len(near) + 1):
        out += [frozenset(e) for e in combinations(near, size) if meld_shape([*meld, *e], rules) is not None]
    return out


def layoff_options(melds: Sequence[Sequence[Card]], cards: Iterable[Card], rules: FormalRules,
                   chain: str, *, allowed: bool = True) -> set[Cards]:
    """Every set of the defender's ``cards`` he can lay off onto the declared ``melds`` at once
    (LAYOFF.TARGET: one extension per meld, disjoint); only the empty set when layoffs are not
    ``allowed`` (gin under ``layoff_after_gin = forbidden``, LAYOFF.AFTER-GIN)."""
    if not allowed:
        return {frozenset()}
    held = list(cards)
    out: set[Cards] = set()
    for pick in product(*(extensions(m, held, rules, chain) for m in melds)):
        union: Cards = frozenset().union(*pick)
        if len(union) == sum(len(e) for e in pick):
            out.add(union)
    return out


def _value(cards: Iterable[Card], rules: FormalRules) -> int:
    return sum(rank_value(rank_of(c), rules) for c in cards)


def cards_text(cards: Iterable[Card]) -> str:
    """Cards in card order, as a certificate's error messages show them ("none" for no card)."""
    return " ".join(card_str(c) for c in sorted(cards)) or "none"


def layoff_choices(listed: Any, field: str, options: set[Cards], onto: str) -> list[tuple[str, Cards, Any]] | str:
    """A certificate's list of layoff choices (``laid_off`` and ``certificate`` each) as
    ``(where, cards laid off, certificate)``; or its first fault: a choice that cannot be laid
    off onto ``onto``, or a possible choice of ``options`` that the list leaves out."""
    if not isinstance(listed, list):
        raise CertificateValueError(f"{field} must be a list, not {_kind(listed)}")
    choices = []
    for i, item in enumerate(listed):
        at = f"{field}[{i}]"
        entry = _fields(item, at, {"laid_off", "certificate"})
        laid = frozenset(_cards(entry["laid_off"], f"{at}.laid_off"))
        if laid not in options:
            return f"{at}.laid_off: {cards_text(laid)} cannot be laid off onto {onto}"
        choices.append((at, laid, entry["certificate"]))
    missing = sorted(options - {laid for _, laid, _ in choices}, key=sorted)
    if missing:
        return f"{field}: laying off {cards_text(missing[0])} is possible and not covered"
    return choices


def _table(value: Any) -> list[tuple[str, tuple[Card, ...], tuple[Card, ...]]]:
    if not isinstance(value, list):
        raise CertificateError(f"table must be a list of melds, not {_kind(value)}")
    out = []
    for i, entry in enumerate(value):
        at = f"table[{i}]"
        t = _fields(entry, at, {"owner", "meld", "added"})
        if t["owner"] not in ("knocker", "defender"):
            raise CertificateValueError(f"{at}.owner must be 'knocker' or 'defender', not {t['owner']!r}")
        out.append((t["owner"], _cards(t["meld"], f"{at}.meld"), _cards(t["added"], f"{at}.added")))
    return out


def _split(hand: Sequence[Card], used: Iterable[Sequence[Card]], who: str) -> str | None:
    """Why these groups are not disjoint parts of ``hand`` (None when they are)."""
    seen: set[Card] = set()
    for group in used:
        for card in group:
            if card not in hand:
                return f"{who}: {card_str(card)} is not in the {who}'s hand"
            if card in seen:
                return f"{who}: {card_str(card)} is used twice"
            seen.add(card)
    return None


def check_showdown(data: Any, certificates: Mapping[str, Mapping[str, Any]], stands: Stands) -> str | None:
    """Why a showdown certificate does not stand (None: it stands). Raises
    :class:`CertificateError` for data that is not one (a missing or unknown field)."""
    try:
        return _problem(data, certificates, stands)
    except CertificateValueError as exc:
        return f"not a certificate: {exc}"


def _problem(data: Any, certificates: Mapping[str, Mapping[str, Any]], stands: Stands) -> str | None:
    top = _fields(data, "the showdown certificate", _TOP)
    if top["question"] != "showdown":
        raise CertificateValueError(f"question must be 'showdown', not {top['question']!r}")
    if top["play"] not in PLAYS:
        raise CertificateValueError(f"play must be one of {list(PLAYS)}, not {top['play']!r}")
    rules = _rules(top["rules"])
    s = _fields(top["showdown"], "showdown", _SHOWDOWN_RULES)
    if s["layoff_chain"] not in CHAINS:
        raise CertificateValueError(f"showdown.layoff_chain must be one of {list(CHAINS)}")
    if s["layoff_after_gin"] not in AFTER_GIN:
        raise CertificateValueError(f"showdown.layoff_after_gin must be one of {list(AFTER_GIN)}")
    knocker_lays = _bool(s["knocker_may_lay_off"], "showdown.knocker_may_lay_off")
    maximal = _bool(s["knocker_must_meld_maximally"], "showdown.knocker_must_meld_maximally")
    k_hand, d_hand = _cards(top["knocker"], "knocker"), _cards(top["defender"], "defender")
    if len(set(k_hand) | set(d_hand)) != len(k_hand) + len(d_hand):
        return "knocker, defender: a card appears twice"
    dw = _fields(top["deadwood"], "deadwood", {"knocker", "defender"})
    claim_k, claim_d = _int(dw["knocker"], "deadwood.knocker"), _int(dw["defender"], "deadwood.defender")
    table = _table(top["table"])
    mine = [(m, a) for o, m, a in table if o == "knocker"]
    theirs = [(m, a) for o, m, a in table if o == "defender"]
    for owner, meld, _ in table:
        if meld_shape(meld, rules) is None:
            return f"table: {cards_text(meld)} ({owner}) is not a meld"
    problem = _split(k_hand, [m for m, _ in mine], "knocker") or _split(d_hand, [m for m, _ in theirs], "defender")
    if problem:
        return problem
    declared_dead = [c for c in k_hand if all(c not in m for m, _ in mine)]
    declared = _value(declared_dead, rules)
    gin = declared == 0
    d_free = [c for c in d_hand if all(c not in m for m, _ in theirs)]
    layoffs_ok = not gin or s["layoff_after_gin"] != "forbidden"
    for who, side, free, allowed in (("defender", mine, d_free, layoffs_ok),
                                     ("knocker", theirs, declared_dead, knocker_lays and not gin)):
        problem = _split(free, [a for _, a in side], who)
        if problem:
            return f"{problem} outside his melds"
        for meld, added in side:
            if added and not allowed:
                return (f"table: {who} lays off {cards_text(added)}, which the rules forbid here "
                        "(LAYOFF.AFTER-GIN, LAYOFF.KNOCKER)")
            if added and frozenset(added) not in extensions(meld, added, rules, s["layoff_chain"]):
                return (f"table: {cards_text(added)} cannot be laid off onto {cards_text(meld)} "
                        "(LAYOFF.FIT, LAYOFF.CHAIN)")
    k_left = [c for c in declared_dead if all(c not in a for _, a in theirs)]
    d_left = [c for c in d_free if all(c not in a for _, a in mine)]
    for who, left, claim in (("knocker", k_left, claim_k), ("defender", d_left, claim_d)):
        if _value(left, rules) != claim:
            return (f"deadwood.{who}: {claim}, but the {who}'s cards left ({cards_text(left)}) are worth "
                    f"{_value(left, rules)}")
    return (_knocker_least(top["knocker_least"], k_hand, declared, maximal, rules, certificates, stands)
            or _defender_least(top, [m for m, _ in mine], d_hand, claim_d, layoffs_ok, knocker_lays,
                               rules, s["layoff_chain"], certificates, stands))


def _referenced(key: Any, where: str, hand: Iterable[Card], claim: int, rules: FormalRules, exact: bool,
                certificates: Mapping[str, Mapping[str, Any]], stands: Stands) -> str | None:
    """Why the deadwood certificate named by ``key`` does not prove that ``hand``'s least
    deadwood is ``claim`` (``exact``) or at least ``claim``."""
    if not isinstance(key, str):
        raise CertificateValueError(f"{where} must be a certificate's key, not {_kind(key)}")
    cert = certificates.get(key)
    if cert is None:
        return f"{where}: no certificate {key!r} in the file"
    if cert.get("question") != "deadwood" or sorted(cert.get("hand", [])) != sorted(card_str(c) for c in hand) \
            or cert.get("claim") != claim or cert.get("rules") != rules.to_json():
        return f"{where}: {key!r} is not the deadwood question of {cards_text(hand)} with claim {claim}"
    ok, reason = stands(key, cert)
    if not ok:
        return f"{where}: {reason}"
    allowed = ("proved",) if exact else ("proved", "claim-too-low")
    if cert["outcome"] not in allowed:
        how = "not" if exact else "below the claimed"
        return f"{where}: the least deadwood of {cards_text(hand)} is {cert['optimum']}, {how} {claim}"
    return None


def _knocker_least(key: Any, hand: Sequence[Card], declared: int, maximal: bool, rules: FormalRules,
                   certificates: Mapping[str, Mapping[str, Any]], stands: Stands) -> str | None:
    if not maximal or declared == 0:
        if key is not None:
            return "knocker_least: only a positive declared deadwood under knocker_must_meld_maximally names one"
        return None
    return _referenced(key, "knocker_least", hand, declared, rules, True, certificates, stands)


def _defender_least(top: Mapping[str, Any], declared: Sequence[Sequence[Card]], hand: Sequence[Card], claim: int,
                    layoffs_ok: bool, knocker_lays: bool, rules: FormalRules, chain: str,
                    certificates: Mapping[str, Mapping[str, Any]], stands: Stands) -> str | None:
    listed = top["defender_least"]
    if top["play"] == "recorded" or knocker_lays:
        if listed is not None:
            return "defender_least: claimed only for best play without knocker layoffs"
        return None
    options = layoff_options(declared, hand, rules, chain, allowed=layoffs_ok)
    choices = layoff_choices(listed, "defender_least", options, "the declaration")
    if isinstance(choices, str):
        return choices
    for at, laid, certificate in choices:
        kept = [c for c in hand if c not in laid]
        problem = _referenced(certificate, at, kept, claim, rules, False, certificates, stands)
        if problem:
            return problem
    return None
