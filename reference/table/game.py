"""A whole game of the table game: hands until the penalty limit, then the prize pool
(chapter 14: TABLE.DEALER, TABLE.GAME-END, TABLE.PRIZE)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ginspec.reference.game.match import hand_seed
from ginspec.reference.table.penalties import PrizeSplit, prize_split, table_winner
from ginspec.reference.table.table_state import TableDeal, TableState
from ginspec.reference.table.table_strategies import TableStrategy
from ginspec.reference.typed_rules import Rules
from ginspec.spec.cards import card_str
from ginspec.spec.clauses import implements


@dataclass(frozen=True)
class TableGame:
    """The penalty totals after the hands played so far, and the hand in progress."""

    rules: Rules
    seed: int
    totals: tuple[int, ...]
    hands_played: int
    hand: TableState

    @classmethod
    def new(cls, rules: Rules, seed: int) -> TableGame:
        """Seat 0 deals the first hand (TABLE.DEALER)."""
        deal = TableDeal.from_seed(hand_seed(seed, 0), rules.players, 0)
        return cls(rules, seed, (0,) * rules.players, 0, TableState.new(deal, rules))

    @property
    def winner(self) -> int | None:
        return table_winner(self.totals, self.rules.penalty_limit)

    def is_over(self) -> bool:
        return self.hand.is_over() and self.winner is not None

    def apply(self, action: str | Any, player: int | None = None) -> TableGame:
        """Play one action in the current hand; a finished hand is scored at once."""
        hand = self.hand.apply(action, player)
        if not hand.is_over():
            return replace(self, hand=hand)
        assert hand.result is not None
        pens = hand.result.penalties.penalties
        totals = tuple(t + q for t, q in zip(self.totals, pens, strict=True))
        return replace(self, hand=hand, totals=totals, hands_played=self.hands_played + 1)

    @implements("TABLE.DEALER")
    def next_hand(self) -> TableGame:
        """Deal the next hand: the deal passes to the left after every hand, void ones too."""
        if not self.hand.is_over() or self.winner is not None:
            raise ValueError("next_hand: the current hand is not over, or the game is")
        dealer = (self.hand.deal.dealer + 1) % self.rules.players
        deal = TableDeal.from_seed(hand_seed(self.seed, self.hands_played), self.rules.players,
                                   dealer)
        return replace(self, hand=TableState.new(deal, self.rules))

    def prize(self, pool: int) -> PrizeSplit:
        winner = self.winner
        if winner is None:
            raise ValueError("the game is not over")
        return prize_split(pool, self.totals, winner, self.rules.prize_winner_share,
                           self.rules.prize_window)


def play_table_game(rules: Rules, seed: int, players: Sequence[TableStrategy],
                    pool: int = 10000, max_hands: int = 200) -> dict[str, Any]:
    """Play a whole game between built-in strategies; the JSON-ready trace."""
    rng = random.Random(f"ginspec-table-play:{seed}")
    game = TableGame.new(rules, seed)
    hands: list[dict[str, Any]] = []
    while True:
        while not game.hand.is_over():
            p = game.hand.to_move
            assert p is not None
            game = game.apply(players[p].choose(game.hand, rng), p)
        h = game.hand
        assert h.result is not None
        hands.append({
            "number": len(hands) + 1, "dealer": h.deal.dealer,
            "deck": [card_str(c) for c in h.deal.deck],
            "actions": [{"player": who, "action": text} for who, text in h.history],
            "result": h.result.to_json(), "totals": list(game.totals),
        })
        if game.is_over() or len(hands) >= max_hands:
            break
        game = game.next_hand()
    result = None
    if game.winner is not None:
        split = game.prize(pool)
        result = {"winner": split.winner, "totals": list(game.totals), "pool": pool,
                  "shares": list(split.shares)}
    return {"system": "table", "profile": rules.name, "players": rules.players, "seed": seed,
            "strategies": [s.name for s in players], "hands": hands, "result": result}
