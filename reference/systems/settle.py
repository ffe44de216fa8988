"""Ending a game of any system: final totals with the game, box and shutout bonuses, and who
pays whom (chapter 14: SETTLE.PROPORTIONAL, SETTLE.PAIRWISE).

Two players: the two-player rules of chapter 11 (``final_scores``). More players: every pair
settles on its own — the game's winner against each other player exactly as in a two-player
game (so the shutout test looks at that player alone), and two players who did not win by the
difference of their hand and box points. A player the winner shut out pays him the shutout
effect alone: with ``shutout_effect = flat_bonus`` (the ``cutthroat`` profile) that is
Cutthroat's "the shut-out player pays the winner 100 more".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ginspec.reference.scoring import MatchTally, final_scores
from ginspec.reference.systems.results import SystemsError
from ginspec.reference.typed_rules import Rules, to_rules
from ginspec.spec.clauses import implements
from ginspec.spec.parameters import Value


@dataclass(frozen=True)
class Tally:
    """Running scores of N players (or teams): hand points, boxes and hands won."""

    hand_points: tuple[int, ...]
    boxes: tuple[int, ...]
    hands_won: tuple[int, ...]

    @classmethod
    def empty(cls, n: int) -> Tally:
        return cls((0,) * n, (0,) * n, (0,) * n)

    def won(self, player: int, points: int, boxes: int) -> Tally:
        def bump(t: tuple[int, ...], v: int) -> tuple[int, ...]:
            return tuple(x + v if i == player else x for i, x in enumerate(t))
        return Tally(bump(self.hand_points, points), bump(self.boxes, boxes),
                     bump(self.hands_won, 1))

    def pair(self, a: int, b: int) -> MatchTally:
        return MatchTally((self.hand_points[a], self.hand_points[b]), (self.boxes[a], self.boxes[b]),
                          (self.hands_won[a], self.hands_won[b]), 0)

    def score(self, rules: Rules | Mapping[str, Value], player: int) -> int:
        """What counts toward the target ("MATCH.BOX-TARGET")."""
        typed = to_rules(rules)
        extra = self.boxes[player] * typed.box_bonus if typed.boxes_count_toward_target else 0
        return self.hand_points[player] + extra

    def leader_at_target(self, rules: Rules | Mapping[str, Value]) -> int | None:
        """The player at or over game_target (one hand scores one player, so at most one)."""
        typed = to_rules(rules)
        target = typed.game_target
        reached = [p for p in range(len(self.hand_points)) if self.score(typed, p) >= target]
        if len(reached) > 1:
            raise SystemsError("two players at the target: no legal game gets here")
        return reached[0] if reached else None


@dataclass(frozen=True)
class Settlement:
    """``payments``: (payer, payee, amount) for every pair that owes something;
    ``net[player]``: received minus paid (the nets add up to 0); ``shut_out``: the players the
    winner shut out (MATCH.SHUTOUT-TEST between the two), who pay him the shutout effect — under
    Cutthroat, 100 more (SETTLE.PAIRWISE)."""

    winner: int
    payments: tuple[tuple[int, int, int], ...]
    net: tuple[int, ...]
    shut_out: tuple[int, ...] = ()


@implements("SETTLE.PROPORTIONAL", "SETTLE.PAIRWISE")
def settle(rules: Rules | Mapping[str, Value], tally: Tally) -> Settlement:
    """Settle a finished game of two or more players (someone has reached the target)."""
    typed = to_rules(rules)
    winner = tally.leader_at_target(typed)
    if winner is None:
        raise SystemsError("the game is not over: nobody has reached the target")
    box = typed.box_bonus
    n = len(tally.hand_points)
    payments: list[tuple[int, int, int]] = []
    shut_out: list[int] = []
    for a in range(n):
        for b in range(a + 1, n):
            if winner in (a, b):
                other = b if winner == a else a
                res = final_scores(typed, tally.pair(winner, other))
                if res.shutout:
                    shut_out.append(other)
                if res.payee is not None:
                    payee = winner if res.payee == 0 else other
                    payer = other if payee == winner else winner
                    payments.append((payer, payee, res.settlement))
                continue
            ta = tally.hand_points[a] + box * tally.boxes[a]
            tb = tally.hand_points[b] + box * tally.boxes[b]
            if ta != tb:
                payments.append((b, a, ta - tb) if ta > tb else (a, b, tb - ta))
    net = [0] * n
    for payer, payee, amount in payments:
        net[payer] -= amount
        net[payee] += amount
    return Settlement(winner, tuple(payments), tuple(net), tuple(shut_out))

