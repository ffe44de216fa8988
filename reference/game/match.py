"""A match (one game to the target) as an immutable state machine over hands.

``MatchState.new(rules, seed=N)`` picks the first dealer (DEAL.FIRST-DEALER) and deals the first
hand from the seed; ``apply`` plays the current hand; when a hand ends the tally is updated
(MATCH.CUMULATIVE) and ``next_hand()`` deals the next one with the dealer the rules name
(MATCH.NEXT-DEALER, WALL.REDEAL), until a player reaches the target (MATCH.TARGET) and the
final scores are computed (``ginspec.reference.scoring.final_scores``).

Deals of a seeded match: hand ``k`` (0-based) is ``deal_from_seed(hand_seed(seed, k), dealer)``.
A match can also be fed explicit deals (``next_hand(deal)``, e.g. when replaying a trace).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from ginspec.reference.game.actions import Action
from ginspec.reference.game.deal import Deal, deal_from_seed
from ginspec.reference.game.rejections import Code, Rejection
from ginspec.reference.game.state import HandResult, HandState
from ginspec.reference.scoring import MatchResult, MatchTally, final_scores, next_dealer
from ginspec.reference.typed_rules import (
    DEALER_PARAMETERS,
    GAME_SCORE_PARAMETERS,
    HAND_PARAMETERS,
    Engine,
    Rules,
)
from ginspec.spec.cards import NUM_RANKS, Card
from ginspec.spec.clauses import implements

TWO_PLAYER_ENGINE = Engine(
    "two-player",
    honours=HAND_PARAMETERS | GAME_SCORE_PARAMETERS | DEALER_PARAMETERS
    | {"game_system", "players"},
    plays={"game_system": frozenset({"single"}), "players": frozenset({2})},
)
"""The two-player game of chapters 01-13 (a match of hands to the target)."""


def hand_seed(seed: int, index: int) -> int:
    """The deal seed of hand ``index`` (0-based) of the match with ``seed``."""
    return random.Random(f"ginspec-hand:{seed}:{index}").getrandbits(63)


@implements("DEAL.FIRST-DEALER")
def first_dealer(rules: Rules, seed: int) -> tuple[int, tuple[Card, Card] | None]:
    """The first dealer and, for low_card/high_card, the two cards that decided it (player 0's,
    player 1's).

    The players cut cards in turn from a deck shuffled by the seed, player 0 first; two cards of
    the same rank are a tie and both cut again (the next two cards), until the ranks differ
    (ace low). With ``low_card`` the lower card deals, with ``high_card`` the higher; ``random``
    picks a player by the seed.
    """
    rng = random.Random(f"ginspec-first-dealer:{seed}")
    method = rules.first_dealer
    if method == "random":
        return rng.randrange(2), None
    deck = list(range(52))
    while True:  # a deck cut entirely into ties is shuffled again
        rng.shuffle(deck)
        for c0, c1 in zip(deck[0::2], deck[1::2], strict=True):
            if c0 % NUM_RANKS != c1 % NUM_RANKS:
                low = 0 if c0 % NUM_RANKS < c1 % NUM_RANKS else 1
                return (low if method == "low_card" else 1 - low), (c0, c1)


@dataclass(frozen=True)
class MatchState:
    """A match position: the tally so far, the hands played, and the current hand."""

    rules: Rules
    seed: int | None
    tally: MatchTally
    hand: HandState
    results: tuple[HandResult, ...] = ()
    final: MatchResult | None = None

    @classmethod
    def new(cls, rules: Rules, seed: int | None = None, *, deal: Deal | None = None,
            dealer: int | None = None) -> MatchState:
        """A new match: seeded (first dealer and deals from ``seed``) or from an explicit first
        ``deal`` (whose dealer is then the first dealer)."""
        TWO_PLAYER_ENGINE.check(rules)
        if deal is None:
            if seed is None:
                raise ValueError("a match needs a seed or a first deal")
            if dealer is None:
                dealer, _ = first_dealer(rules, seed)
            deal = deal_from_seed(hand_seed(seed, 0), dealer)
        return cls(rules, seed, MatchTally(), HandState.new(deal, rules))

    # --- queries ---------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.final is not None

    @property
    def hand_over(self) -> bool:
        return self.hand.is_over

    @property
    def hand_number(self) -> int:
        """1-based number of the current hand."""
        return len(self.results) + (0 if self.hand.is_over else 1)

    @property
    def scores(self) -> tuple[int, int]:
        """Each player's score toward the target (MATCH.CUMULATIVE, MATCH.BOX-TARGET)."""
        return (self.tally.score(self.rules, 0), self.tally.score(self.rules, 1))

    @property
    def winner(self) -> int | None:
        return None if self.final is None else self.final.winner

    def expected_dealer(self) -> int:
        """The dealer of the next hand (MATCH.NEXT-DEALER after a won hand, WALL.REDEAL else)."""
        if not self.hand.is_over:
            return self.hand.dealer
        result = self.hand.result
        assert result is not None
        return next_dealer(self.rules, self.hand.dealer, result.score, result.knocker)

    # --- transitions ---------------------------------------------------------------------------

    def apply(self, action: Action | str, player: int | None = None) -> MatchState:
        """Play ``action`` in the current hand; when it ends the hand, score it."""
        if self.is_over:
            raise Rejection(Code.HAND_OVER, "the match is over", action=str(action),
                            clause="MATCH.TARGET")
        hand = self.hand.apply(action, player)
        if not hand.is_over:
            return replace(self, hand=hand)
        return self._score(hand)

    @implements("MATCH.CUMULATIVE", "MATCH.TARGET")
    def _score(self, hand: HandState) -> MatchState:
        result = hand.result
        assert result is not None
        tally = self.tally.after_hand(result.knocker, result.score)
        final = final_scores(self.rules, tally) if tally.winner(self.rules) is not None else None
        return replace(self, hand=hand, tally=tally, results=(*self.results, result), final=final)

    def next_hand(self, deal: Deal | None = None) -> MatchState:
        """Deal the next hand: ``deal`` (its dealer must be the one the rules name) or the seeded
        deal. Raises Rejection WRONG_DEALER / WRONG_PHASE."""
        if self.is_over:
            raise Rejection(Code.HAND_OVER, "the match is over", action="deal",
                            clause="MATCH.TARGET")
        if not self.hand.is_over:
            raise Rejection(Code.WRONG_PHASE, "the current hand is not over", action="deal")
        dealer = self.expected_dealer()
        if deal is None:
            if self.seed is None:
                raise ValueError("an unseeded match needs explicit deals")
            deal = deal_from_seed(hand_seed(self.seed, len(self.results)), dealer)
        elif deal.dealer != dealer:
            clause = "MATCH.NEXT-DEALER" if self.results[-1].winner is not None else "WALL.REDEAL"
            raise Rejection(Code.WRONG_DEALER, f"player {dealer} deals hand "
                            f"{len(self.results) + 1}, not player {deal.dealer}", action="deal",
                            clause=clause)
        return replace(self, hand=HandState.new(deal, self.rules))

    def __repr__(self) -> str:
        return (f"<MatchState hand {self.hand_number} scores={self.scores} "
                f"{'over' if self.is_over else self.hand.phase.value}>")
