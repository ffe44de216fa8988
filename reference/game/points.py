"""Hand and match points, as the engine needs them: the ONE adapter to scoring.

TEMPORARY: until ``ginspec.reference.scoring`` (owned by "rules-params") lands on main, this module
computes the points itself from the standard rules of chapters 09 and 11 (knock, gin, big gin,
undercut and its tie rule, Oklahoma spade doubling; game bonus, boxes, shutout). When scoring
lands, these two functions call it and keep their signatures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from ginspec.reference.game.rules import param
from ginspec.spec.cards import SPADES, Card, suit_of
from ginspec.spec.parameters import Value


class Outcome(Enum):
    """How a hand ended."""

    KNOCK = "knock"
    """The knocker had less deadwood than the defender (after layoffs)."""
    GIN = "gin"
    BIG_GIN = "big_gin"
    UNDERCUT = "undercut"
    """The defender had less deadwood, or equal deadwood with undercut_on_tie = undercut."""
    TIE = "tie"
    """Equal deadwood with undercut_on_tie = no_score or knocker_scores_zero."""
    GIN_CANCELLED = "gin_cancelled"
    """layoff_after_gin = allowed_zero_cancels and the defender reached zero deadwood."""
    VOID = "void"
    """The hand ended at the wall with no knock."""


@dataclass(frozen=True)
class HandScore:
    """Points of a showdown from the knocker's and defender's view, and who won the hand."""

    outcome: Outcome
    knocker_points: int
    defender_points: int
    winner: str | None  # "knocker" | "defender" | None
    boxes: int  # boxes credited to the winner for this hand (1 + extra boxes)


def _doubled(params: Mapping[str, Value], upcard: Card | None) -> bool:
    return (bool(param(params, "oklahoma")) and upcard is not None and suit_of(upcard) == SPADES
            and param(params, "spade_double") != "off")


def score_hand(kind: str, knocker_deadwood: int, defender_deadwood: int,
               params: Mapping[str, Value], upcard: Card | None = None) -> HandScore:
    """``kind`` is knock | gin | big_gin; deadwood counts are after all layoffs."""
    kd, dd = knocker_deadwood, defender_deadwood
    extra = bool(param(params, "extra_boxes"))
    if kind in ("gin", "big_gin"):
        if param(params, "layoff_after_gin") == "allowed_zero_cancels" and dd == 0:
            outcome, kp, dp, winner, boxes = Outcome.GIN_CANCELLED, 0, 0, None, 0
        else:
            bonus = int(param(params, "big_gin_bonus" if kind == "big_gin" else "gin_bonus"))
            outcome = Outcome.BIG_GIN if kind == "big_gin" else Outcome.GIN
            kp, dp, winner, boxes = dd - kd + bonus, 0, "knocker", 1 + (2 if extra else 0)
    elif kd < dd:
        outcome, kp, dp, winner, boxes = Outcome.KNOCK, dd - kd, 0, "knocker", 1
    elif kd > dd or param(params, "undercut_on_tie") == "undercut":
        outcome = Outcome.UNDERCUT
        kp, dp = 0, kd - dd + int(param(params, "undercut_bonus"))
        winner, boxes = "defender", 1 + (1 if extra else 0)
    elif param(params, "undercut_on_tie") == "knocker_scores_zero":
        outcome, kp, dp, winner, boxes = Outcome.TIE, 0, 0, "knocker", 1
    else:
        outcome, kp, dp, winner, boxes = Outcome.TIE, 0, 0, None, 0
    if _doubled(params, upcard):
        kp, dp = 2 * kp, 2 * dp
        if extra and boxes > 1:
            boxes = 1 + 2 * (boxes - 1)
    return HandScore(outcome, kp, dp, winner, boxes)


@dataclass(frozen=True)
class MatchScore:
    """The end of a match: winner and final totals with bonuses."""

    over: bool
    winner: int | None
    final: tuple[int, int]
    bonuses: tuple[tuple[str, int, int], ...]  # (bonus name, player 0 amount, player 1 amount)


def match_total_for_target(points: int, boxes: int, params: Mapping[str, Value]) -> int:
    if param(params, "boxes_count_toward_target"):
        return points + boxes * int(param(params, "box_bonus"))
    return points


def score_match(points: Sequence[int], boxes: Sequence[int], hands_won: Sequence[int],
                params: Mapping[str, Value]) -> MatchScore:
    """Whether the match is over (a player reached game_target) and the final totals."""
    target = int(param(params, "game_target"))
    reached = [match_total_for_target(points[p], boxes[p], params) >= target for p in (0, 1)]
    if not any(reached):
        return MatchScore(False, None, (points[0], points[1]), ())
    winner = 0 if reached[0] and (not reached[1] or points[0] >= points[1]) else 1
    loser = 1 - winner
    box_bonus = int(param(params, "box_bonus"))
    hand_pts = [points[0], points[1]]
    bonuses: list[tuple[str, int, int]] = []
    game_bonus = int(param(params, "game_bonus"))
    test = param(params, "shutout_test")
    shutout = (points[loser] == 0) if test == "loser_scored_nothing" else hands_won[loser] == 0
    effect = param(params, "shutout_effect") if shutout else "none"
    if effect == "hand_points_doubled":
        bonuses.append(("shutout", hand_pts[0] if winner == 0 else 0,
                        hand_pts[1] if winner == 1 else 0))
        hand_pts[winner] *= 2
    if effect == "game_bonus_doubled":
        game_bonus *= 2
    gb = [0, 0]
    gb[winner] = game_bonus
    bonuses.append(("game", gb[0], gb[1]))
    if not param(params, "boxes_count_toward_target"):
        bonuses.append(("boxes", boxes[0] * box_bonus, boxes[1] * box_bonus))
        totals = [hand_pts[p] + gb[p] + boxes[p] * box_bonus for p in (0, 1)]
    else:
        totals = [hand_pts[p] + gb[p] + boxes[p] * box_bonus for p in (0, 1)]
        bonuses.append(("boxes", boxes[0] * box_bonus, boxes[1] * box_bonus))
    if effect == "total_doubled":
        extra = [0, 0]
        extra[winner] = totals[winner]
        bonuses.append(("shutout", extra[0], extra[1]))
        totals[winner] *= 2
    elif effect == "flat_bonus":
        extra = [0, 0]
        extra[winner] = 100
        bonuses.append(("shutout", extra[0], extra[1]))
        totals[winner] += 100
    return MatchScore(True, winner, (totals[0], totals[1]), tuple(bonuses))
