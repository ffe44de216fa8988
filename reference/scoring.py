"""Hand scoring and match scoring (chapters 09, 11 and 12 of the spec).

Hand scoring is written once, in :func:`hand_score_terms`, over an abstract :class:`Arithmetic`
so that the SAME code runs on Python ints (``INTS``) and on Z3 integer expressions
(:func:`z3_arithmetic`). The formal checks prove properties of exactly this function (see
``notes/formal-scoring.md`` and ``docs/proven.md``): it uses only ``+``, ``-``, ``*`` by a
constant, comparisons (``<``, ``==``, ``>``), ``ite`` and the boolean connectives of the
arithmetic; no Python ``if`` ever looks at a value that may be symbolic.

:func:`score_hand` is the typed front door for ints: it validates its input and returns a
:class:`HandScore`. Match scoring (:class:`MatchTally`, :func:`final_scores`) works on ints only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from ginspec.reference.typed_rules import Rules, to_rules
from ginspec.reference.vocabulary import GoingOut, Player, Side
from ginspec.spec.cards import Card
from ginspec.spec.clauses import implements
from ginspec.spec.errors import GinspecError
from ginspec.spec.parameters import Value

OUTCOME_CODES: Final[dict[str, int]] = {"knock": 0, "gin": 1, "big_gin": 2}
"""The integer code of each outcome, as :func:`hand_score_terms` takes it."""
TIE_CODES: Final[dict[str, int]] = {"undercut": 0, "no_score": 1, "knocker_scores_zero": 2}
"""The integer code of each ``undercut_on_tie`` value."""

SPADES: Final = 3


class ScoringError(GinspecError):
    """Inputs that no legal hand can produce (e.g. a knock with zero deadwood, which is gin)."""


# --- the arithmetic -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Arithmetic:
    """The operations hand scoring needs beyond ``+ - * < == >``.

    ``ite(c, a, b)`` is "a if c else b"; ``and_``/``or_`` take any number of conditions.
    For Python ints use :data:`INTS`; for Z3 use :func:`z3_arithmetic` (``If``, ``And``, ``Or``,
    ``Not``). Values may mix: a Python int or bool is a constant in Z3.
    """

    ite: Callable[[Any, Any, Any], Any]
    and_: Callable[..., Any]
    or_: Callable[..., Any]
    not_: Callable[[Any], Any]


def _int_ite(cond: Any, a: Any, b: Any) -> Any:
    return a if cond else b


INTS: Final = Arithmetic(
    ite=_int_ite,
    and_=lambda *xs: all(xs),
    or_=lambda *xs: any(xs),
    not_=lambda x: not x,
)
"""Plain Python arithmetic."""


def z3_arithmetic() -> Arithmetic:
    """Z3 arithmetic: ``If``, ``And``, ``Or``, ``Not`` (imports z3 on first use)."""
    import z3

    return Arithmetic(ite=z3.If, and_=z3.And, or_=z3.Or, not_=z3.Not)


@dataclass(frozen=True)
class HandScoreTerms:
    """The result of :func:`hand_score_terms`: ints/bools for INTS, Z3 terms for Z3.

    ``knocker``/``defender`` are the points each side scores; ``knocker_wins``/``defender_wins``
    say who won the hand (both false when nobody did); ``undercut`` is true when the defender
    undercut the knocker.
    """

    knocker: Any
    defender: Any
    knocker_wins: Any
    defender_wins: Any
    undercut: Any


@implements("SCORE.KNOCK", "SCORE.UNDERCUT", "SCORE.TIE", "SCORE.GIN", "SCORE.GIN-NO-UNDERCUT",
            "SCORE.BIG-GIN", "SCORE.ZERO-CANCELS", "SCORE.HAND-WINNER", "OKLAHOMA.SPADES")
def hand_score_terms(
    ar: Arithmetic,
    outcome: Any,
    knocker_deadwood: Any,
    defender_deadwood: Any,
    *,
    gin_bonus: Any,
    big_gin_bonus: Any,
    undercut_bonus: Any,
    tie: Any,
    zero_cancels: Any,
    doubled: Any,
) -> HandScoreTerms:
    """Points for each side of a hand that ended in a knock, gin or big gin.

    ``outcome``: an :data:`OUTCOME_CODES` value (0 knock, 1 gin, 2 big gin).
    ``knocker_deadwood``/``defender_deadwood``: deadwood after all layoffs (SHOWDOWN.COMPARE).
    ``tie``: a :data:`TIE_CODES` value. ``zero_cancels``: layoff_after_gin=allowed_zero_cancels.
    ``doubled``: the Oklahoma spade doubling applies to this hand (see :func:`spade_doubles`).
    Preconditions (checked by :func:`score_hand`, assumed by the proofs): deadwoods >= 0; gin and
    big gin have knocker deadwood 0; a knock has knocker deadwood >= 1, except that it may reach 0
    through the knocker's own layoffs when ``knocker_may_lay_off`` is true (it stays a knock).
    """
    kd, dd = knocker_deadwood, defender_deadwood
    is_knock = outcome == 0
    # SCORE.KNOCK, SCORE.UNDERCUT, SCORE.TIE
    lower = kd < dd
    equal = kd == dd
    undercut = ar.and_(is_knock, ar.or_(kd > dd, ar.and_(equal, tie == TIE_CODES["undercut"])))
    knock_knocker_wins = ar.or_(lower, ar.and_(equal, tie == TIE_CODES["knocker_scores_zero"]))
    knock_points = ar.ite(lower, dd - kd, 0)
    undercut_points = kd - dd + undercut_bonus
    # SCORE.GIN, SCORE.BIG-GIN, SCORE.ZERO-CANCELS (gin is never undercut: SCORE.GIN-NO-UNDERCUT)
    cancelled = ar.and_(zero_cancels, dd == 0)
    gin_points = ar.ite(cancelled, 0, ar.ite(outcome == 1, gin_bonus, big_gin_bonus) + dd)
    # SCORE.HAND-WINNER
    knocker_wins = ar.ite(is_knock, knock_knocker_wins, ar.not_(cancelled))
    factor = ar.ite(doubled, 2, 1)  # OKLAHOMA.SPADES
    knocker = ar.ite(is_knock, knock_points, gin_points) * factor
    defender = ar.ite(undercut, undercut_points, 0) * factor
    return HandScoreTerms(knocker, defender, knocker_wins, undercut, undercut)


# --- Oklahoma -------------------------------------------------------------------------------------


_typed = to_rules
"""The typed rules of a function's ``rules`` argument (converted once, at the boundary)."""


@implements("OKLAHOMA.KNOCK-LIMIT", "OKLAHOMA.ACE", "KNOCK.LIMIT", "STRAIGHT.GIN-ONLY")
def knock_limit_for(rules: Rules | Mapping[str, Value], upcard: Card | None) -> int:
    """The knock limit of a hand: ``knock_limit``, or, when the limit comes from the upcard
    (Oklahoma), the first upcard's value (pictures and tens 10; an ace 1, or 0 when
    ``oklahoma_ace=gin_only``). A limit of 0 is straight gin: only gin goes out."""
    typed = _typed(rules)
    if not typed.knock_limit_from_upcard:
        return typed.knock_limit
    if upcard is None:
        raise ScoringError("oklahoma=true needs the hand's first upcard to set the knock limit")
    rank = upcard % 13
    if rank == 0:
        return 1 if typed.oklahoma_ace == "one" else 0
    return min(rank + 1, 10)


@implements("OKLAHOMA.SPADES")
def spade_doubles(rules: Rules | Mapping[str, Value], upcard: Card | None) -> bool:
    """Whether the spade doubling applies: a spade upcard doubles under the rules, and the first
    upcard is a spade."""
    return _typed(rules).spade_upcard_doubles and upcard is not None and upcard // 13 == SPADES


# --- hand scoring on ints -------------------------------------------------------------------------


@dataclass(frozen=True)
class HandScore:
    """The score of one hand, from the knocker's and the defender's side.

    ``winner`` is the side that won the hand (None: nobody, e.g. a tie under ``no_score``, a
    cancelled gin, or a void hand). ``boxes`` is the number of boxes each side earns
    (MATCH.BOX, MATCH.EXTRA-BOXES). ``clauses`` is the trail of clauses that decided it.
    """

    outcome: GoingOut | Literal["void"]
    knocker: int
    defender: int
    winner: Side | None
    undercut: bool
    doubled: bool
    knocker_boxes: int
    defender_boxes: int
    clauses: tuple[str, ...]

    @property
    def void(self) -> bool:
        return self.outcome == "void"

    def points(self, side: Side) -> int:
        return self.knocker if side == "knocker" else self.defender


VOID_HAND: Final = HandScore("void", 0, 0, None, False, False, 0, 0, ("SCORE.VOID", "WALL.END"))
"""The score of a void hand (the wall was reached): nothing for anybody (SCORE.VOID)."""


@implements("MATCH.BOX", "MATCH.EXTRA-BOXES")
def boxes_for(rules: Rules | Mapping[str, Value], outcome: GoingOut, undercut: bool,
              doubled: bool) -> int:
    """Boxes earned by the winner of a hand: one box, plus with ``extra_boxes`` one more for an
    undercut and two more for gin or big gin (doubled on a spade deal); with
    ``spade_double=hand_and_boxes`` the ordinary box doubles on a spade deal too."""
    typed = _typed(rules)
    base = 2 if doubled and typed.spade_double == "hand_and_boxes" else 1
    extra = 0
    if typed.extra_boxes:
        extra = 1 if undercut else (2 if outcome in ("gin", "big_gin") else 0)
        if doubled:
            extra *= 2
    return base + extra


def score_hand(
    outcome: GoingOut,
    knocker_deadwood: int,
    defender_deadwood: int,
    rules: Rules | Mapping[str, Value],
    *,
    upcard: Card | None = None,
) -> HandScore:
    """Score a hand that ended in a knock, gin or big gin (deadwoods after all layoffs).

    ``upcard`` is the hand's first upcard; it matters only under Oklahoma (spade doubling).
    Raises :class:`ScoringError` for inputs no legal hand produces, ParameterError for bad rules.
    """
    typed = _typed(rules)
    if outcome not in OUTCOME_CODES:
        raise ScoringError(f"unknown outcome {outcome!r} (knock, gin or big_gin)")
    for name, dw in (("knocker", knocker_deadwood), ("defender", defender_deadwood)):
        if isinstance(dw, bool) or not isinstance(dw, int) or dw < 0:
            raise ScoringError(f"{name} deadwood must be a non-negative integer, got {dw!r}")
    if outcome == "knock" and knocker_deadwood == 0 and not typed.knocker_may_lay_off:
        # Only the knocker's own layoffs (LAYOFF.KNOCKER) can bring a knock's deadwood to 0.
        raise ScoringError("a knock with no deadwood is gin (KNOCK.GIN): use outcome gin")
    if outcome != "knock" and knocker_deadwood != 0:
        raise ScoringError(f"{outcome} needs knocker deadwood 0, got {knocker_deadwood}")
    if outcome == "big_gin" and typed.big_gin_bonus == 0:
        raise ScoringError("big gin is not played under this ruleset (big_gin_bonus=0)")
    doubled = spade_doubles(typed, upcard)
    terms = hand_score_terms(
        INTS, OUTCOME_CODES[outcome], knocker_deadwood, defender_deadwood,
        **_used_values(typed, outcome, knocker_deadwood, defender_deadwood), doubled=doubled,
    )
    winner: Side | None = (
        "knocker" if terms.knocker_wins else "defender" if terms.defender_wins else None
    )
    clauses = _trail(outcome, knocker_deadwood, defender_deadwood, bool(terms.undercut), winner,
                     doubled)
    boxes = boxes_for(typed, outcome, bool(terms.undercut), doubled) if winner else 0
    return HandScore(
        outcome=outcome,
        knocker=int(terms.knocker),
        defender=int(terms.defender),
        winner=winner,
        undercut=bool(terms.undercut),
        doubled=doubled,
        knocker_boxes=boxes if winner == "knocker" else 0,
        defender_boxes=boxes if winner == "defender" else 0,
        clauses=clauses,
    )


def _used_values(rules: Rules, outcome: GoingOut, kd: int, dd: int) -> dict[str, Any]:
    """The scoring values :func:`hand_score_terms` uses for this hand, each read only where its
    clause applies: the undercut bonus where the defender may undercut (SCORE.UNDERCUT), the tie
    rule on a tie (SCORE.TIE), the gin or big-gin bonus for that outcome (SCORE.GIN,
    SCORE.BIG-GIN) and zero-cancels where the defender has no deadwood (SCORE.ZERO-CANCELS).
    The others are passed as 0 / no, which those terms never reach, so a hand's score depends on
    the values it reads and no other (conformance/CASES.md, "What a case depends on")."""
    knock = outcome == "knock"
    return {
        "gin_bonus": rules.gin_bonus if outcome == "gin" else 0,
        "big_gin_bonus": rules.big_gin_bonus if outcome == "big_gin" else 0,
        "undercut_bonus": rules.undercut_bonus if knock and kd >= dd else 0,
        "tie": TIE_CODES[rules.undercut_on_tie] if knock and kd == dd else 0,
        "zero_cancels": (not knock and dd == 0
                         and rules.layoff_after_gin == "allowed_zero_cancels"),
    }


def _trail(outcome: GoingOut, kd: int, dd: int, undercut: bool, winner: Side | None,
           doubled: bool) -> tuple[str, ...]:
    trail: list[str] = []
    if outcome == "knock":
        if kd < dd:
            trail.append("SCORE.KNOCK")
        elif kd == dd:
            trail.append("SCORE.TIE")
        if undercut:
            trail.append("SCORE.UNDERCUT")
    else:
        trail.append("SCORE.GIN" if outcome == "gin" else "SCORE.BIG-GIN")
        trail.append("SCORE.GIN-NO-UNDERCUT")
        if winner is None:
            trail.append("SCORE.ZERO-CANCELS")
    if doubled:
        trail.append("OKLAHOMA.SPADES")
    trail.append("SCORE.HAND-WINNER")
    return tuple(trail)


def hand_points(
    kind: GoingOut,
    knocker_deadwood: int,
    defender_deadwood: int,
    rules: Rules | Mapping[str, Value],
    upcard: Card | None = None,
) -> tuple[int, int]:
    """``(knocker points, defender points)`` of a hand: :func:`score_hand` in short."""
    score = score_hand(kind, knocker_deadwood, defender_deadwood, rules, upcard=upcard)
    return score.knocker, score.defender


# --- the match ------------------------------------------------------------------------------------



@dataclass(frozen=True)
class MatchTally:
    """The running score of one game (MATCH.CUMULATIVE), per player 0 and 1.

    ``hand_points``: the sum of hand scores; ``boxes``: boxes earned (MATCH.BOX);
    ``hands_won``: hands won; ``hands``: hands played including void ones.
    ``score(p)`` is what counts toward the target: hand points, plus box points when
    ``boxes_count_toward_target`` (MATCH.BOX-TARGET).
    """

    hand_points: tuple[int, int] = (0, 0)
    boxes: tuple[int, int] = (0, 0)
    hands_won: tuple[int, int] = (0, 0)
    hands: int = 0

    @implements("MATCH.BOX-TARGET")
    def score(self, rules: Rules | Mapping[str, Value], player: Player) -> int:
        typed = _typed(rules)
        extra = self.boxes[player] * typed.box_bonus if typed.boxes_count_toward_target else 0
        return self.hand_points[player] + extra

    @implements("MATCH.CUMULATIVE")
    def after_hand(self, knocker: Player | None, hand: HandScore) -> MatchTally:
        """The tally after one more hand; ``knocker`` is the player who knocked (None if void)."""
        if hand.void:
            return replace(self, hands=self.hands + 1)
        if knocker not in (0, 1):
            raise ScoringError(f"knocker must be player 0 or 1, got {knocker!r}")
        defender = 1 - knocker
        pts = [0, 0]
        pts[knocker], pts[defender] = hand.knocker, hand.defender
        box = [0, 0]
        box[knocker], box[defender] = hand.knocker_boxes, hand.defender_boxes
        won = [0, 0]
        if hand.winner is not None:
            won[knocker if hand.winner == "knocker" else defender] = 1
        return MatchTally(
            hand_points=(self.hand_points[0] + pts[0], self.hand_points[1] + pts[1]),
            boxes=(self.boxes[0] + box[0], self.boxes[1] + box[1]),
            hands_won=(self.hands_won[0] + won[0], self.hands_won[1] + won[1]),
            hands=self.hands + 1,
        )

    @implements("MATCH.TARGET", "OKLAHOMA.TARGET")
    def winner(self, rules: Rules | Mapping[str, Value]) -> Player | None:
        """The player who has reached the target, if any (the game is then over)."""
        typed = _typed(rules)
        reached = [p for p in (0, 1) if self.score(typed, p) >= typed.game_target]
        if len(reached) == 2:  # only one side scores per hand, so this needs a corrupt tally
            raise ScoringError("both players are at the target: no legal game gets here")
        return reached[0] if reached else None


@dataclass(frozen=True)
class MatchResult:
    """The end of a game: final totals after the bonuses, and the settlement."""

    winner: Player
    hand_points: tuple[int, int]
    box_points: tuple[int, int]
    game_bonus: int
    shutout: bool
    shutout_extra: int
    totals: tuple[int, int]
    settlement: int
    """The difference of the two totals, paid by the lower total to the higher (MATCH.SETTLEMENT)."""
    payee: Player | None
    """The player with the higher final total, who is paid (None when the totals are equal)."""
    clauses: tuple[str, ...]


@implements("MATCH.GAME-BONUS", "MATCH.BOX", "MATCH.SHUTOUT", "MATCH.SHUTOUT-TEST", "MATCH.SETTLEMENT")
def final_scores(rules: Rules | Mapping[str, Value], tally: MatchTally) -> MatchResult:
    """Final totals of a finished game (the tally's winner has reached the target).

    Winner: hand points + game bonus + box points, with the shutout effect; loser: hand points +
    box points. The lower total pays the higher the difference (MATCH.SETTLEMENT); that is
    almost always the loser paying the winner, but a loser with many boxes can have the higher total.
    The values are read typed (no conversions), so the proofs run this very code on symbolic
    values (docs/proven.md, MATCH-SPEC).
    """
    typed = _typed(rules)
    winner = tally.winner(typed)
    if winner is None:
        raise ScoringError("the game is not over: nobody has reached the target")
    loser = 1 - winner
    clauses = ["MATCH.TARGET", "MATCH.GAME-BONUS", "MATCH.BOX"]
    box_points = (tally.boxes[0] * typed.box_bonus, tally.boxes[1] * typed.box_bonus)
    if typed.shutout_test == "loser_scored_nothing":
        shutout = tally.hand_points[loser] == 0
    else:
        shutout = tally.hands_won[loser] == 0
    effect = typed.shutout_effect if shutout else "none"
    if shutout:
        clauses += ["MATCH.SHUTOUT-TEST", "MATCH.SHUTOUT"]
    game_bonus = typed.game_bonus
    hands = list(tally.hand_points)
    if effect == "game_bonus_doubled":
        game_bonus *= 2
    if effect == "hand_points_doubled":
        hands[winner] *= 2
    total_winner = hands[winner] + game_bonus + box_points[winner]
    if effect == "total_doubled":
        total_winner *= 2
    if effect == "flat_bonus":
        total_winner += typed.shutout_bonus
    base_winner = tally.hand_points[winner] + typed.game_bonus + box_points[winner]
    totals = [0, 0]
    totals[winner] = total_winner
    totals[loser] = tally.hand_points[loser] + box_points[loser]
    clauses.append("MATCH.SETTLEMENT")
    return MatchResult(
        winner=winner,
        hand_points=tally.hand_points,
        box_points=box_points,
        game_bonus=typed.game_bonus,
        shutout=shutout,
        shutout_extra=total_winner - base_winner,
        totals=(totals[0], totals[1]),
        settlement=abs(totals[winner] - totals[loser]),
        payee=None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1),
        clauses=tuple(clauses),
    )


@implements("MATCH.NEXT-DEALER", "WALL.REDEAL")
def next_dealer(rules: Rules | Mapping[str, Value], dealer: Player, hand: HandScore,
                knocker: Player | None) -> Player:
    """Who deals the next hand of the game.

    After a void hand, or a hand nobody won, ``redeal_dealer`` decides (same or passes); after a
    hand with a winner, ``next_dealer`` (loser, winner or alternate).
    """
    typed = _typed(rules)
    if dealer not in (0, 1):
        raise ScoringError(f"dealer must be player 0 or 1, got {dealer!r}")
    if hand.winner is None:
        return dealer if typed.redeal_dealer == "same" else 1 - dealer
    if knocker not in (0, 1):
        raise ScoringError(f"knocker must be player 0 or 1, got {knocker!r}")
    hand_winner = knocker if hand.winner == "knocker" else 1 - knocker
    rule = typed.next_dealer
    if rule == "winner":
        return hand_winner
    if rule == "loser":
        return 1 - hand_winner
    return 1 - dealer


__all__ = [
    "INTS", "OUTCOME_CODES", "TIE_CODES", "VOID_HAND", "Arithmetic", "HandScore", "HandScoreTerms",
    "MatchResult", "MatchTally", "ScoringError", "boxes_for", "final_scores",
    "hand_points", "hand_score_terms", "knock_limit_for", "next_dealer", "score_hand",
    "spade_doubles", "z3_arithmetic",
]
