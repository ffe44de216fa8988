"""Four players in two partnerships (chapter 14: PARTNER.TABLES, PARTNER.NETTING,
PARTNER.DRAW, PARTNER.GAME).

Team 0 is seats 0 and 2, team 1 seats 1 and 3. Each deal is two two-player hands; in even deals
(counting from 0) seat 0 plays seat 1 and seat 2 plays seat 3, in odd deals seat 0 plays seat 3
and seat 2 plays seat 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ginspec.reference.scoring import MatchResult, MatchTally, final_scores
from ginspec.reference.systems.results import Result, SystemsError
from ginspec.reference.typed_rules import (
    GAME_SCORE_PARAMETERS,
    HAND_PARAMETERS,
    Engine,
    Rules,
    to_rules,
)
from ginspec.spec.clauses import implements
from ginspec.spec.parameters import Value


def team_of(seat: int) -> int:
    return seat % 2


@implements("PARTNER.TABLES")
def tables(deal: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two pairings of deal ``deal`` (0-based): (team 0 seat, team 1 seat) per table."""
    return ((0, 1), (2, 3)) if deal % 2 == 0 else ((0, 3), (2, 1))


@implements("PARTNER.NETTING")
def net(results: Sequence[Result]) -> tuple[int | None, int]:
    """The deal's team result from its table results: ``(team, points)``, or ``(None, 0)``
    when the teams' points are equal (including two void tables). Each team's points are the
    sum over the hands its members won; the team with more scores the difference — the sum
    when it won both hands."""
    points = [0, 0]
    for r in results:
        if r is not None:
            if team_of(r.winner) == team_of(r.loser):
                raise SystemsError("partners never play each other")
            points[team_of(r.winner)] += r.points
    if points[0] == points[1]:
        return None, 0
    team = 0 if points[0] > points[1] else 1
    return team, points[team] - points[1 - team]


PARTNERSHIP_ENGINE = Engine(
    "partnership",
    honours=HAND_PARAMETERS | GAME_SCORE_PARAMETERS
    | {"partnership_draw", "game_system", "players"},
    plays={"game_system": frozenset({"partnership"}), "players": frozenset({4})},
)
"""Two partnerships at two tables (PARTNER.*): two-player hands, the teams' deals netted, the
teams' game scored as a two-player game. Who deals is PARTNER.TABLES's, not the dealer
parameters'."""


@dataclass(frozen=True)
class PartnershipGame:
    """The teams' running tally (as a two-player game of team 0 against team 1)."""

    tally: MatchTally = field(default_factory=MatchTally)
    deals: int = 0
    dealing_team: int = 1
    """The team whose members deal at both tables: the loser of the last netted deal; team 1
    first; unchanged after a deal netted to nothing (PARTNER.TABLES)."""

    @implements("PARTNER.DRAW", "PARTNER.GAME")
    def after(self, rules: Rules | Mapping[str, Value], results: Sequence[Result]) -> PartnershipGame:
        """Record one deal (its two table results, already replayed under replay_table).
        The team that wins the netted deal scores its points and one box."""
        if len(results) != 2:
            raise SystemsError(f"a deal has two tables, not {len(results)}")
        if self.is_over(rules):
            raise SystemsError("the game is over")
        pairs = tables(self.deals)
        for r, pair in zip(results, pairs, strict=True):
            if r is not None and {r.winner, r.loser} != set(pair):
                raise SystemsError(f"seats {r.winner} and {r.loser} are not a table of deal "
                                   f"{self.deals}")
        if to_rules(rules).partnership_draw == "replay_table" and None in results:
            raise SystemsError("partnership_draw=replay_table: a void table is replayed "
                               "before the deal is recorded")
        team, points = net(results)
        t = self.tally
        if team is None:
            return PartnershipGame(MatchTally(t.hand_points, t.boxes, t.hands_won, t.hands + 1),
                                   self.deals + 1, self.dealing_team)
        hp, bx, hw = list(t.hand_points), list(t.boxes), list(t.hands_won)
        hp[team] += points
        bx[team] += 1
        hw[team] += 1
        return PartnershipGame(MatchTally((hp[0], hp[1]), (bx[0], bx[1]), (hw[0], hw[1]),
                                          t.hands + 1), self.deals + 1, 1 - team)

    def is_over(self, rules: Rules | Mapping[str, Value]) -> bool:
        return self.tally.winner(rules) is not None

    def final(self, rules: Rules | Mapping[str, Value]) -> MatchResult:
        """Final team totals with the game, box and shutout bonuses, and the settlement."""
        return final_scores(rules, self.tally)
