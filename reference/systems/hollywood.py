"""Hollywood scoring (chapter 14: HOLLYWOOD.ENTRY, HOLLYWOOD.GAME-END, HOLLYWOOD.SETTLEMENT):
two players keep several games at once; each game is an ordinary game of chapter 11."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

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

HOLLYWOOD_ENGINE = Engine(
    "hollywood",
    honours=HAND_PARAMETERS | GAME_SCORE_PARAMETERS
    | {"hollywood_games", "hollywood_settlement", "next_dealer", "redeal_dealer",
       "game_system", "players"},
    plays={"redeal_dealer": frozenset({"same"}), "game_system": frozenset({"hollywood"}),
           "players": frozenset({2})},
)
"""Hollywood scoring (HOLLYWOOD.*): two-player hands entered in several games at once. Seat 0
deals first; after a scored hand next_dealer decides, after a void hand the dealer deals again."""


@dataclass(frozen=True)
class HollywoodGame:
    """``games[g]``: game g's tally; ``opened[p]``: how many games player p has opened."""

    games: tuple[MatchTally, ...]
    opened: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())

    @classmethod
    def new(cls, rules: Rules | Mapping[str, Value]) -> HollywoodGame:
        n = to_rules(rules).hollywood_games
        return cls(tuple(MatchTally() for _ in range(n)))

    def is_open(self, rules: Rules | Mapping[str, Value], g: int) -> bool:
        return self.games[g].winner(rules) is None

    @implements("HOLLYWOOD.ENTRY", "HOLLYWOOD.GAME-END")
    def after(self, rules: Rules | Mapping[str, Value], result: Result) -> HollywoodGame:
        """Enter a hand's result. A win opens for its winner the lowest-numbered open game he
        has not opened yet, if any; the score is then entered in every open game he has
        opened. A closed game takes no more scores; a void hand changes nothing."""
        if self.is_over(rules):
            raise SystemsError("every game is over")
        if result is None:
            return self
        p = result.winner
        if p not in (0, 1) or result.loser != 1 - p:
            raise SystemsError("Hollywood is played by players 0 and 1")
        open_games = [g for g in range(len(self.games)) if self.is_open(rules, g)]
        mine = set(self.opened[p])
        fresh = [g for g in open_games if g not in mine]
        if fresh:
            mine.add(fresh[0])
        games = list(self.games)
        for g in open_games:
            if g in mine:
                t = games[g]
                hp, bx, hw = list(t.hand_points), list(t.boxes), list(t.hands_won)
                hp[p] += result.points
                bx[p] += result.boxes
                hw[p] += 1
                games[g] = MatchTally((hp[0], hp[1]), (bx[0], bx[1]), (hw[0], hw[1]),
                                      t.hands + 1)
        opened = (frozenset(mine), self.opened[1]) if p == 0 else (self.opened[0],
                                                                   frozenset(mine))
        return HollywoodGame(tuple(games), opened)

    def is_over(self, rules: Rules | Mapping[str, Value]) -> bool:
        return all(not self.is_open(rules, g) for g in range(len(self.games)))

    def results(self, rules: Rules | Mapping[str, Value]) -> tuple[MatchResult, ...]:
        if not self.is_over(rules):
            raise SystemsError("not every game is over")
        return tuple(final_scores(rules, t) for t in self.games)

    @implements("HOLLYWOOD.SETTLEMENT")
    def settlement(self, rules: Rules | Mapping[str, Value]) -> tuple[int | None, int]:
        """``(payee, amount)`` of the whole match. per_game: each game's settlement, netted;
        games_won: the player who won fewer games pays one unit per game of difference."""
        results = self.results(rules)
        if to_rules(rules).hollywood_settlement == "per_game":
            signed = sum(r.settlement if r.payee == 0 else -r.settlement
                         for r in results if r.payee is not None)
        else:
            signed = sum(1 if r.winner == 0 else -1 for r in results)
        if signed == 0:
            return None, 0
        return (0, signed) if signed > 0 else (1, -signed)
