"""The adjudicator: the ruling on a knock, with both sides playing best (SHOWDOWN.BEST-PLAY).

Given the knocker's cards (the ten kept after the knock discard, or eleven), the defender's ten
cards and a ruleset, :func:`adjudicate` finds the declaration, the layoffs, both deadwood
counts, the outcome and the points, with the trail of clauses that decided each step.

Best play (SHOWDOWN.BEST-PLAY): the knocker picks, among its legal declarations, one that
maximises its net result (its points minus the defender's) given the defender's best reply;
the defender's reply minimises that net result, which — when the knocker may not lay off —
is the same as minimising the defender's deadwood. Ties are broken as the clause says.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, TypeAlias

from ginspec.reference.layoffs import (
    Declaration,
    Defence,
    Layoff,
    ShowdownError,
    ShowdownRules,
    Table,
    best_defence,
    best_knocker_layoffs,
    check_declaration,
    defences,
    fit_failure,
    legal_declarations,
)
from ginspec.reference.melds import Cards, Meld, MeldKind, check_meld, min_deadwood, to_mask
from ginspec.reference.scoring import hand_points, knock_limit_for, score_hand
from ginspec.reference.typed_rules import Rules, to_rules
from ginspec.reference.vocabulary import KNOCKER, GoingOut, Outcome
from ginspec.spec.cards import Card, card_str, cards_of, check_card
from ginspec.spec.clauses import implements
from ginspec.spec.errors import DuplicateCardError, HandSizeError, MeldError, ParameterError
from ginspec.spec.parameters import Value

OUTCOMES: Final = (*(o.value for o in Outcome if o is not Outcome.VOID), "illegal_knock")
"""The outcome names a ruling gives: the hand outcomes (:class:`~ginspec.reference.vocabulary.Outcome`)
without ``void``, plus ``illegal_knock``."""


PointsFn: TypeAlias = Callable[[GoingOut, int, int], tuple[int, int]]
"""Hand points (knocker, defender) from the kind of hand and both deadwoods after layoffs."""

Step: TypeAlias = tuple[str, str]
"""One line of the trail: the clause ID and what it decided."""


@dataclass(frozen=True)
class Ruling:
    """The adjudicated result of a knock."""

    outcome: str
    knock_limit: int
    declaration: Declaration | None
    defence: Defence | None
    knocker_layoffs: tuple[Layoff, ...]
    knocker_deadwood: int | None
    defender_deadwood: int | None
    points: tuple[int, int] | None
    discard: Card | None = None
    declarations_considered: int = 0
    trail: tuple[Step, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        """The JSON form printed by ``ginspec adjudicate --json`` (fields listed in its help)."""
        decl = self.declaration
        defence = self.defence
        return {
            "outcome": self.outcome,
            "knock_limit": self.knock_limit,
            "discard": card_str(self.discard) if self.discard is not None else None,
            "declaration": None if decl is None else {
                "melds": [[card_str(c) for c in m.cards] for m in decl.melds],
                "deadwood_cards": [card_str(c) for c in decl.deadwood_cards],
                "deadwood": decl.deadwood,
            },
            "defender": None if defence is None else {
                "melds": [[card_str(c) for c in m.cards] for m in defence.melds],
                "layoffs": [_layoff_json(x, defence.table) for x in defence.layoffs],
                "deadwood_cards": [card_str(c) for c in defence.deadwood_cards],
            },
            "knocker_layoffs": [
                _layoff_json(x, defence.table if defence else ()) for x in self.knocker_layoffs
            ],
            "deadwood": {"knocker": self.knocker_deadwood, "defender": self.defender_deadwood},
            "points": {
                "knocker": None if self.points is None else self.points[0],
                "defender": None if self.points is None else self.points[1],
            },
            "declarations_considered": self.declarations_considered,
            "trail": [{"clause": c, "text": t} for c, t in self.trail],
        }


def _layoff_json(layoff: Layoff, table: Table) -> dict[str, Any]:
    target = table[layoff.target].original if layoff.target < len(table) else None
    return {
        "card": card_str(layoff.card),
        "onto": [card_str(c) for c in target.cards] if target else [],
        "action": str(layoff),
    }


# --- best play --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Reply:
    defence: Defence
    knocker_layoffs: tuple[Layoff, ...]
    knocker_deadwood: int
    points: tuple[int, int]

    @property
    def net(self) -> int:
        return self.points[0] - self.points[1]


def _kind(decl: Declaration) -> GoingOut:
    return "big_gin" if decl.big_gin else "gin" if decl.gin else "knock"


@implements("SHOWDOWN.BEST-PLAY", "SHOWDOWN.COMPARE")
def best_reply(
    decl: Declaration, defender: Cards, rules: ShowdownRules, points: PointsFn
) -> _Reply:
    """The defender's best reply to a declaration (SHOWDOWN.BEST-PLAY).

    Without knocker layoffs: the spread leaving the defender the least deadwood (points are
    monotone in it). With knocker layoffs: every spread is tried, the knocker answers with its
    best layoffs, and the defender keeps the spread that minimises the knocker's net result
    (ties: less defender deadwood, then the order of :func:`defences`).
    """
    kind = _kind(decl)
    if not rules.knocker_may_lay_off or decl.gin:
        defence = best_defence(decl.melds, defender, rules, gin=decl.gin)
        return _Reply(defence, (), decl.deadwood, points(kind, decl.deadwood, defence.deadwood))
    best: _Reply | None = None
    for defence in defences(decl.melds, defender, rules, gin=decl.gin):
        lays, knocker_dw, final = best_knocker_layoffs(defence.table, decl.deadwood_cards, rules)
        reply = _Reply(
            replace(defence, table=final),
            lays,
            knocker_dw,
            points(kind, knocker_dw, defence.deadwood),
        )
        if best is None or _reply_key(reply) < _reply_key(best):
            best = reply
    assert best is not None  # defences() always yields at least the empty spread
    return best


def _reply_key(reply: _Reply) -> tuple[int, int, int, list[Card]]:
    """Order of the defender's replies: the knocker's net, then the SHOWDOWN.BEST-PLAY tie-breaks
    (least defender deadwood, fewest cards laid off, laid-off cards lowest in card number)."""
    laid = sorted(x.card for x in reply.defence.layoffs)
    return reply.net, reply.defence.deadwood, len(laid), laid


def outcome_of(
    kind: GoingOut, knocker_dw: int, defender_dw: int, tie_rule: str, *, zero_cancels: bool = False
) -> str:
    """The outcome name (SHOWDOWN.COMPARE): the comparison is made after all layoffs.

    ``zero_cancels``: layoff_after_gin = allowed_zero_cancels, under which a gin the defender
    answers with no deadwood scores nothing (SCORE.ZERO-CANCELS).
    """
    if kind in ("gin", "big_gin"):
        if zero_cancels and defender_dw == 0:
            return "gin_cancelled"
        return kind
    if defender_dw < knocker_dw:
        return "undercut"
    if defender_dw == knocker_dw:
        return {"undercut": "undercut", "no_score": "tie"}.get(tie_rule, "knock")
    return "knock"


@dataclass(frozen=True)
class Position:
    """What the adjudicator is asked: cards, rules in force and how hands are scored."""

    knocker: tuple[Card, ...]
    defender: tuple[Card, ...]
    rules: ShowdownRules
    points: PointsFn
    tie_rule: str = "undercut"
    score_clauses: Callable[[GoingOut, int, int], tuple[str, ...]] | None = None
    """The scoring clauses that decide the points (from the scoring module), for the trail."""


def _check_cards(knocker: Cards, defender: Cards) -> tuple[int, int]:
    k, d = to_mask(knocker), to_mask(defender)
    if k & d:
        both = " ".join(card_str(c) for c in cards_of(k & d))
        raise DuplicateCardError(f"{both} given to both the knocker and the defender")
    if k.bit_count() not in (10, 11):
        raise HandSizeError(
            f"the knocker has {k.bit_count()} cards; give the 10 kept after the knock discard "
            "(or 11: before the discard, or for big gin)"
        )
    if d.bit_count() != 10:
        raise HandSizeError(f"the defender holds 10 cards, not {d.bit_count()}")
    return k, d


@implements("SHOWDOWN.BEST-PLAY")
def adjudicate_position(
    position: Position, knocker_melds: Sequence[Sequence[Card]] | None = None, *,
    big_gin: bool = False,
) -> Ruling:
    """Adjudicate a knock; with ``knocker_melds`` the declaration is fixed, else chosen best.
    Eleven cards are ruled with the best knock discard or as big gin; with ``big_gin`` (the
    knocker has gone big gin, KNOCK.BIG-GIN) only as big gin."""
    k, d = _check_cards(position.knocker, position.defender)
    rules = position.rules
    if knocker_melds is not None:
        return _fixed(position, k, d, knocker_melds)
    candidates: list[tuple[Card | None, Declaration]] = [
        (None, x) for x in legal_declarations(k, rules)
    ]
    if k.bit_count() == 11 and not big_gin:
        for card in cards_of(k):
            candidates.extend((card, x) for x in legal_declarations(k & ~(1 << card), rules))
    if not candidates:
        return _no_knock(position, k)
    # Candidates are in canonical order (big gin first, then the discards by card number, each
    # discard's declarations by deadwood and melds); the best net wins, then the least declared
    # deadwood, then the earlier candidate (SHOWDOWN.BEST-PLAY).
    best: tuple[tuple[int, int, int], Card | None, Declaration, _Reply] | None = None
    for index, (discard, decl) in enumerate(candidates):
        reply = best_reply(decl, d, rules, position.points)
        key = (-reply.net, decl.deadwood, index)
        if best is None or key < best[0]:
            best = (key, discard, decl, reply)
    assert best is not None
    _, discard, decl, reply = best
    return _ruling(position, decl, reply, discard, len(candidates), chosen=True)


def _fixed(
    position: Position, k: int, d: int, knocker_melds: Sequence[Sequence[Card]]
) -> Ruling:
    rules = position.rules
    try:
        decl = check_declaration(k, knocker_melds, rules)
    except ShowdownError as exc:
        if exc.code in ("DECLARATION_CARD_NOT_HELD", "DECLARATION_CARD_TWICE"):
            raise
        least = min_deadwood(k, rules.meld_rules) if k.bit_count() == 10 else None
        trail: list[Step] = [(exc.clause, f"declaration rejected: {exc}")]
        if least is not None:
            verdict = (
                f"the best arrangement of these cards has deadwood {least}, "
                + ("so a correct declaration was possible" if least <= rules.knock_limit
                   else f"above the knock limit {rules.knock_limit}: no legal knock")
            )
            trail.append(("DEADWOOD.MINIMUM", verdict))
        return Ruling("illegal_knock", rules.knock_limit, None, None, (), None, None, None,
                      trail=tuple(trail))
    reply = best_reply(decl, d, rules, position.points)
    return _ruling(position, decl, reply, None, 1, chosen=False)


def _no_knock(position: Position, k: int) -> Ruling:
    rules = position.rules
    if k.bit_count() == 11:
        kept = min(min_deadwood(k & ~(1 << c), rules.meld_rules) for c in cards_of(k))
        text = f"after the best discard the least deadwood is {kept}"
    else:
        kept = min_deadwood(k, rules.meld_rules)
        text = f"the least deadwood of these ten cards is {kept}"
    text += f", above the knock limit {rules.knock_limit}"
    return Ruling("illegal_knock", rules.knock_limit, None, None, (), None, None, None,
                  trail=(("KNOCK.LIMIT", f"no legal declaration: {text}"),))


def _layoff_step(onto: Meld, layoff: Layoff, who: str, rules: ShowdownRules) -> Step:
    """The trail line of a layoff: a set's fourth card, a run end, or a chained run card."""
    if onto.kind is MeldKind.SET:
        clause = "LAYOFF.SET"
    elif check_meld([*onto.cards, layoff.card], rules.meld_rules).valid:
        clause = "LAYOFF.RUN"
    else:
        clause = "LAYOFF.CHAIN"
    return clause, f"{who} lays off {card_str(layoff.card)} onto {onto}"


def _blocked_layoffs(
    decl: Declaration, defence: Defence, defender: Cards, rules: ShowdownRules
) -> list[Step]:
    """Trail lines for layoffs a rule kept the defender from making: against gin
    (LAYOFF.AFTER-GIN), or chains under ``original_melds_only`` (LAYOFF.CHAIN, by comparing with
    the best defence if chains were allowed)."""
    steps: list[Step] = []
    if decl.gin and rules.layoff_after_gin == "forbidden":
        for card in defence.deadwood_cards:
            for meld in defence.table:
                if meld.owner == KNOCKER and fit_failure(meld, card, rules) is None:
                    steps.append(("LAYOFF.AFTER-GIN", f"{card_str(card)} would extend {meld}, "
                                                      "but there are no layoffs against gin"))
        return steps or [("LAYOFF.AFTER-GIN", "no layoffs against gin")]
    if rules.layoff_chain == "original_melds_only" and not (decl.gin and rules.layoff_after_gin
                                                             == "forbidden"):
        chained = best_defence(decl.melds, defender, replace(rules, layoff_chain="unlimited"),
                               gin=decl.gin)
        if chained.deadwood < defence.deadwood:
            lays = " ".join(card_str(x.card) for x in chained.layoffs)
            steps.append(("LAYOFF.CHAIN", f"only the melds as first spread take layoffs: with "
                                          f"chained layoffs ({lays}) the defender would keep "
                                          f"{chained.deadwood}, not {defence.deadwood}"))
    return steps


_SCORE_CLAUSE: Final = {
    "knock": "SCORE.KNOCK",
    "undercut": "SCORE.UNDERCUT",
    "tie": "SCORE.TIE",
    "gin": "SCORE.GIN",
    "big_gin": "SCORE.BIG-GIN",
    "gin_cancelled": "SCORE.ZERO-CANCELS",
}


def _ruling(
    position: Position,
    decl: Declaration,
    reply: _Reply,
    discard: Card | None,
    considered: int,
    *,
    chosen: bool,
) -> Ruling:
    rules = position.rules
    kind = _kind(decl)
    defence = reply.defence
    defender_dw = defence.deadwood
    outcome = outcome_of(kind, reply.knocker_deadwood, defender_dw, position.tie_rule,
                         zero_cancels=rules.layoff_after_gin == "allowed_zero_cancels")
    trail: list[Step] = []
    if discard is not None:
        trail.append(("KNOCK.ELIGIBLE", f"the knocker discards {card_str(discard)} face down"))
    if chosen:
        trail.append((
            "SHOWDOWN.BEST-PLAY",
            f"of {considered} legal declaration(s) this one gives the knocker the best net "
            "result against the defender's best reply",
        ))
    trail.append(("SHOWDOWN.DECLARATION",
                  f"knocker declares {decl}: deadwood {decl.deadwood} (limit {rules.knock_limit})"))
    if rules.knocker_must_meld_maximally:
        trail.append(("SHOWDOWN.DECLARATION.MAXIMAL",
                      "the knocker must meld as far as possible: this is his least deadwood"))
    if decl.gin:
        trail.append(("KNOCK.GIN", "no deadwood: " + ("big gin" if decl.big_gin else "gin")))
    melds = " / ".join(str(m) for m in defence.melds) or "no melds"
    trail.append(("SHOWDOWN.DEFENDER-SPREAD", f"defender spreads {melds}"))
    for layoff in defence.layoffs:
        trail.append(_layoff_step(defence.table[layoff.target].original, layoff, "defender", rules))
    trail.extend(_blocked_layoffs(decl, defence, position.defender, rules))
    for layoff in reply.knocker_layoffs:
        trail.append(("LAYOFF.KNOCKER", "the knocker may lay off (knocker_may_lay_off)"))
        trail.append(_layoff_step(defence.table[layoff.target].original, layoff, "knocker", rules))
    trail.append(("SHOWDOWN.COMPARE",
                  f"after layoffs: knocker {reply.knocker_deadwood}, defender {defence.deadwood}"))
    scored = f"{outcome}: knocker {reply.points[0]}, defender {reply.points[1]}"
    if position.score_clauses is None:
        trail.append((_SCORE_CLAUSE[outcome], scored))
    else:
        used = position.score_clauses(kind, reply.knocker_deadwood, defender_dw)
        trail.extend((clause, scored if i == 0 else "applies") for i, clause in enumerate(used))
    return Ruling(
        outcome=outcome,
        knock_limit=rules.knock_limit,
        declaration=decl,
        defence=defence,
        knocker_layoffs=reply.knocker_layoffs,
        knocker_deadwood=reply.knocker_deadwood,
        defender_deadwood=defence.deadwood,
        points=reply.points,
        discard=discard,
        declarations_considered=considered,
        trail=tuple(trail),
    )


# --- input ------------------------------------------------------------------------------------


def check_ruleset(ruleset: object) -> None:
    """Refuse a ``ruleset`` that is neither Rules nor a mapping of parameters (e.g. a profile's
    name)."""
    if not isinstance(ruleset, Rules | Mapping):
        raise ParameterError(f"ruleset: expected a Ruleset such as ruleset('pagat') or a mapping of "
                             f"parameters, got {type(ruleset).__name__} {ruleset!r}")


def meld_lists(melds: object) -> list[list[Card]]:
    """Declared melds as lists of card numbers; anything else raises a GinspecError."""
    if isinstance(melds, (str, bytes)) or not isinstance(melds, Iterable):
        raise MeldError(f"knocker melds: expected a list of melds, each a list of card numbers, "
                        f"got {melds!r}")
    out = []
    for meld in melds:
        if isinstance(meld, (str, bytes)) or not isinstance(meld, Iterable):
            raise MeldError(f"knocker melds: a meld is a list of card numbers, got {meld!r}")
        out.append([check_card(c) for c in meld])
    return out


# --- rulesets ---------------------------------------------------------------------------------
# Hand points and the hand's knock limit come from rules-params' ginspec.reference.scoring
# (SCORE.*, OKLAHOMA.*); this module never computes points itself.


def position_from_ruleset(
    knocker: Iterable[Card], defender: Iterable[Card], ruleset: Rules | Mapping[str, Value],
    upcard: Card | None = None,
) -> Position:
    """A :class:`Position` under typed rules or a ruleset (a profile's parameter values)."""
    typed = to_rules(ruleset)
    if typed.knock_limit_from_upcard and upcard is None:
        raise ParameterError("oklahoma: give the upcard (--upcard); it sets the knock limit")
    rules = ShowdownRules.from_params(typed.params).with_limit(knock_limit_for(typed, upcard))

    def points(kind: GoingOut, knocker_dw: int, defender_dw: int) -> tuple[int, int]:
        return hand_points(kind, knocker_dw, defender_dw, typed, upcard)

    def clauses(kind: GoingOut, knocker_dw: int, defender_dw: int) -> tuple[str, ...]:
        return score_hand(kind, knocker_dw, defender_dw, typed, upcard=upcard).clauses

    return Position(tuple(knocker), tuple(defender), rules, points, typed.undercut_on_tie,
                    clauses)


def adjudicate(
    knocker: Cards, defender: Cards, ruleset: Rules | Mapping[str, Value], *,
    knocker_melds: Sequence[Sequence[Card]] | None = None, upcard: Card | None = None,
    big_gin: bool = False,
) -> Ruling:
    """The ruling on a knock under ``ruleset`` (see :func:`adjudicate_position`)."""
    # The upcard may be in either hand: in Oklahoma it is the first upcard, often taken.
    k, d = to_mask(knocker), to_mask(defender)
    check_ruleset(ruleset)
    if upcard is not None:
        check_card(upcard)
    if knocker_melds is not None:
        knocker_melds = meld_lists(knocker_melds)
    position = position_from_ruleset(cards_of(k), cards_of(d), ruleset, upcard)
    return adjudicate_position(position, knocker_melds, big_gin=big_gin)
