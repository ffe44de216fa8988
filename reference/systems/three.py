"""Three players (chapter 14: THREE.ROTATION, THREE.GAME): two play an ordinary two-player hand,
the third sits out; the loser of a hand sits out the next and the winner stays on.

Seats are 0, 1, 2. The first hand: seat 0 sits out, seat 1 plays first (the non-dealer's part)
and seat 2 second (the dealer's part).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ginspec.reference.systems.results import Result, SystemsError
from ginspec.reference.systems.settle import Settlement, Tally, settle
from ginspec.reference.typed_rules import (
    GAME_SCORE_PARAMETERS,
    HAND_PARAMETERS,
    Engine,
    Rules,
    to_rules,
)
from ginspec.spec.clauses import implements
from ginspec.spec.parameters import Value

THREE_PLAYER_ENGINE = Engine(
    "three-player",
    honours=HAND_PARAMETERS | GAME_SCORE_PARAMETERS
    | {"three_player_mode", "game_system", "players"},
    plays={"game_system": frozenset({"three_player"}), "players": frozenset({3})},
)
"""Three players (THREE.*): two-player hands, the rotation of three_player_mode, the pairs
settled as games (SETTLE.PAIRWISE). Who deals is the rotation's, not the dealer parameters'."""


@dataclass(frozen=True)
class Seating:
    """Who deals, who sits out, who plays first (non-dealer's part) and second (dealer's
    part) in one hand."""

    dealer: int
    sits_out: int
    first: int
    second: int


def first_seating(rules: Rules | Mapping[str, Value]) -> Seating:
    """Seat 0 sits out the first hand; seat 1 plays first, seat 2 second. Seat 0 deals
    (dealer_sits_out), or seat 2 deals to seat 1 (cutthroat)."""
    cut = to_rules(rules).three_player_mode == "cutthroat"
    return Seating(dealer=2 if cut else 0, sits_out=0, first=1, second=2)


@implements("THREE.ROTATION")
def next_seating(rules: Rules | Mapping[str, Value], seating: Seating, result: Result) -> Seating:
    """The seating of the next hand. After a void hand the same seating plays again; otherwise
    the loser sits out, the winner plays first and the player who sat out plays second. The
    dealer is the loser (dealer_sits_out) or the player who sat out (cutthroat)."""
    if result is None:
        return seating
    playing = {seating.first, seating.second}
    if {result.winner, result.loser} != playing:
        raise SystemsError(f"seats {result.winner} and {result.loser} did not play this hand")
    mode = to_rules(rules).three_player_mode
    dealer = result.loser if mode == "dealer_sits_out" else seating.sits_out
    return Seating(dealer, result.loser, result.winner, seating.sits_out)


@dataclass(frozen=True)
class ThreeGame:
    """A three-player game: the seating of the hand to play and each player's running tally."""

    seating: Seating
    tally: Tally
    hands: int = 0

    @classmethod
    def new(cls, rules: Rules | Mapping[str, Value]) -> ThreeGame:
        return cls(first_seating(rules), Tally.empty(3))

    @implements("THREE.GAME")
    def after(self, rules: Rules | Mapping[str, Value], result: Result) -> ThreeGame:
        """Record a hand; its winner scores as in a two-player game."""
        if self.is_over(rules):
            raise SystemsError("the game is over")
        tally = self.tally
        seating = next_seating(rules, self.seating, result)
        if result is not None:
            tally = tally.won(result.winner, result.points, result.boxes)
        return ThreeGame(seating, tally, self.hands + 1)

    def is_over(self, rules: Rules | Mapping[str, Value]) -> bool:
        return self.tally.leader_at_target(rules) is not None

    def settlement(self, rules: Rules | Mapping[str, Value]) -> Settlement:
        return settle(rules, self.tally)
