"""The game's score written a second time, from the clause texts of chapter 11, as a
specification in Z3 (MATCH.CUMULATIVE, MATCH.TARGET, MATCH.GAME-BONUS, MATCH.BOX,
MATCH.BOX-TARGET, MATCH.EXTRA-BOXES, MATCH.SHUTOUT, MATCH.SHUTOUT-TEST, MATCH.SETTLEMENT,
MATCH.NEXT-DEALER; docs/proven.md, MATCH-SPEC).

Not a refactor of ``reference/scoring.py``: the clauses are stated about a player's record in a
game (the points he scored, the boxes he earned, the hands he won), the parameters are read by
name and value (enums through :meth:`SymbolicRules.is_`), and each shutout effect is one row of
the clause's list. ``ginspec.reference.proofs.match_proofs`` runs the reference's own match code
on symbolic values and proves it equal to this for every parameter value.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3
from ginspec.spec.formal.score_spec import SymbolicRules, Term

MATCH_PARAMETERS = ("game_target", "game_bonus", "box_bonus", "boxes_count_toward_target",
                    "shutout_effect", "shutout_bonus", "shutout_test")
"""The parameters chapter 11 reads once the hands are scored (the boxes of one hand are
:func:`boxes_earned`'s)."""


@dataclass(frozen=True)
class Record:
    """One player's record in a game so far (MATCH.CUMULATIVE): the points he scored in its
    hands, the boxes he earned (MATCH.BOX) and the hands he won (SCORE.HAND-WINNER)."""

    points: Term
    boxes: Term
    won: Term

    def domain(self) -> z3.BoolRef:
        return z3.And(self.points >= 0, self.boxes >= 0, self.won >= 0)


def record(tag: str) -> Record:
    points, boxes, won = z3.Ints(f"points{tag} boxes{tag} won{tag}")
    return Record(points, boxes, won)


def running_score(r: SymbolicRules, player: Record) -> Term:
    """MATCH.CUMULATIVE with MATCH.BOX-TARGET: the points of his hands, and, when boxes count
    toward the target, ``box_bonus`` for every box earned so far."""
    return player.points + z3.If(r["boxes_count_toward_target"], r["box_bonus"] * player.boxes, 0)


def reached(r: SymbolicRules, player: Record) -> z3.BoolRef:
    """MATCH.TARGET: his running score is at least ``game_target``."""
    return running_score(r, player) >= r["game_target"]


@dataclass(frozen=True)
class SpecResult:
    """What chapter 11 gives at the end of a game won by ``winner`` against ``loser``."""

    shutout: z3.BoolRef
    box_points: tuple[Term, Term]
    """(winner's, loser's)"""
    totals: tuple[Term, Term]
    """final totals (winner's, loser's)"""
    shutout_extra: Term
    settlement: Term
    winner_paid: z3.BoolRef
    loser_paid: z3.BoolRef


def final_result(r: SymbolicRules, winner: Record, loser: Record) -> SpecResult:
    """The end of a game, clause by clause."""
    # MATCH.SHUTOUT-TEST: the loser's hand points are 0, or the loser won no hand
    shutout = z3.If(r.is_("shutout_test", "loser_scored_nothing"), loser.points == 0, loser.won == 0)
    # MATCH.BOX: each player, the loser too, adds box_bonus for every box he earned
    box_w, box_l = r["box_bonus"] * winner.boxes, r["box_bonus"] * loser.boxes
    # MATCH.SETTLEMENT: the winner's final total is hand points, game bonus and box points ...
    plain = winner.points + r["game_bonus"] + box_w
    # ... changed by the shutout effect (MATCH.SHUTOUT, one row per choice)
    effects = [
        ("none", plain),
        ("game_bonus_doubled", winner.points + 2 * r["game_bonus"] + box_w),
        ("total_doubled", 2 * (winner.points + r["game_bonus"] + box_w)),
        ("hand_points_doubled", 2 * winner.points + r["game_bonus"] + box_w),
        ("flat_bonus", plain + r["shutout_bonus"]),
    ]
    total_w: Term = plain
    for choice, total in effects:
        total_w = z3.If(z3.And(shutout, r.is_("shutout_effect", choice)), total, total_w)
    total_l = loser.points + box_l  # the loser's: his hand points and his box points
    # the lower total pays the higher the difference
    return SpecResult(shutout, (box_w, box_l), (total_w, total_l), total_w - plain,
                      z3.If(total_w >= total_l, total_w - total_l, total_l - total_w),
                      total_w > total_l, total_l > total_w)


def boxes_earned(outcome: str, undercut: bool, spade_deal: bool, extra_boxes: bool,
                 spade_double: str) -> int:
    """The boxes the winner of a hand earns (MATCH.BOX, MATCH.EXTRA-BOXES, OKLAHOMA.SPADES):
    one box, counting double on a spade deal under ``hand_and_boxes``; with ``extra_boxes`` one
    more for an undercut, two more for gin or big gin, those doubled on a spade deal."""
    box = 2 if spade_deal and spade_double == "hand_and_boxes" else 1
    extra = 0
    if extra_boxes and undercut:
        extra = 1
    elif extra_boxes and outcome in ("gin", "big_gin"):
        extra = 2
    return box + (2 * extra if spade_deal else extra)


def next_dealer_spec(next_rule: str, redeal_rule: str, dealer: int, hand_winner: int | None) -> int:
    """MATCH.NEXT-DEALER and WALL.REDEAL: after a hand somebody won, its loser, its winner or the
    player who did not deal; after a hand nobody won, the same dealer or the other player."""
    other = 1 - dealer
    if hand_winner is None:
        return {"same": dealer, "passes": other}[redeal_rule]
    return {"loser": 1 - hand_winner, "winner": hand_winner, "alternate": other}[next_rule]
