"""Hypothesis state machine for seed 001's table game (chapter 14, TABLE.*): three or four
players, whole games of several hands.

Invariants after every step: every card is in exactly one place; hand sizes fit the phase;
play passes to the left; a refused action (any verb, any card, the wrong player) raises a
Rejection naming a chapter-14 clause and changes nothing; penalties are non-negative with the
winner charged nothing; penalty totals are the sums of the hands' penalties and never
decrease; the prize split adds up to the pool and gives the winner at least his share.
"""

from __future__ import annotations

from typing import Any

from ginspec.reference.game import Rejection
from ginspec.reference.game.actions import Action, Kind
from ginspec.reference.table import TableDeal, TableState, table_rules_for_profile
from ginspec.reference.table.game import TableGame
from ginspec.reference.table.table_state import TablePhase
from ginspec.reference.table.table_strategies import GreedyTableStrategy
from ginspec.spec.cards import FULL_DECK, card_str
from ginspec.spec.clauses import registry
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

ALL_CLAUSES = {c.id for c in registry()}


class TableMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.game: TableGame | None = None
        self.history_totals: list[tuple[int, ...]] = []
        self.hand_sum: list[int] = []
        self.last_mover: int | None = None

    @property
    def g(self) -> TableGame:
        assert self.game is not None
        return self.game

    @initialize(players=st.sampled_from([3, 4]), seed=st.integers(0, 2**32),
                after_gin=st.sampled_from(["allowed", "forbidden"]),
                limit=st.sampled_from([30, 100]))
    def start(self, players: int, seed: int, after_gin: str, limit: int) -> None:
        rules = table_rules_for_profile(
            "serbian-online", {"layoff_after_gin": after_gin, "penalty_limit": limit}, players)
        self.game = TableGame.new(rules, seed)
        self.hand_sum = [0] * players
        self.history_totals = [self.g.totals]

    # --- moves ----------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        before = self.g
        p = before.hand.to_move
        after = before.apply(action, p)
        if after.hand.phase is TablePhase.DRAW and before.hand.phase is TablePhase.DISCARD:
            assert after.hand.to_move == (p + 1) % after.rules.players  # type: ignore[operator]
        if after.hand.is_over() and after.hand.result is not None:
            pens = after.hand.result.penalties
            assert all(x >= 0 for x in pens.penalties)
            if pens.winner is not None:
                assert pens.penalties[pens.winner] == 0
                assert all(after.hand.result.deadwood[s] >= 0 for s in range(after.rules.players))
            self.hand_sum = [a + b for a, b in zip(self.hand_sum, pens.penalties, strict=True)]
            event(f"hand ended: {pens.kind}")
            if after.is_over():
                event("game over")
        self.game = after
        self.history_totals.append(after.totals)

    @precondition(lambda self: self.game is not None and not self.g.hand.is_over())
    @rule(i=st.integers(0, 10**6))
    def legal_step(self, i: int) -> None:
        legal = self.g.hand.legal_actions()
        assert legal, "a live hand always has a legal action"
        self._apply(legal[i % len(legal)])

    @precondition(lambda self: self.game is not None and not self.g.hand.is_over())
    @rule(seed=st.integers(0, 99))
    def greedy_steps(self, seed: int) -> None:
        import random
        rng = random.Random(seed)
        for _ in range(12):
            if self.g.hand.is_over():
                return
            self._apply(GreedyTableStrategy().choose(self.g.hand, rng))

    @precondition(lambda self: self.game is not None and self.g.hand.is_over()
                  and not self.g.is_over())
    @rule()
    def next_hand(self) -> None:
        before = self.g.hand.deal.dealer
        self.game = self.g.next_hand()
        assert self.g.hand.deal.dealer == (before + 1) % self.g.rules.players
        assert self.g.hand.to_move == (self.g.hand.deal.dealer + 1) % self.g.rules.players

    def _probe(self, action: Action | str, player: int | None = None) -> None:
        state = self.g.hand
        snapshot = (state.hands, state.stock, state.pile, state.phase, state.to_move,
                    state.table, state.dead, state.history)
        why = state.rejection(action, player)
        try:
            state.apply(action, player)
        except Rejection as exc:
            assert why is not None and exc.code == why.code
            assert exc.clause in ALL_CLAUSES, exc.clause
            assert exc.clause.startswith(("TABLE.", "LAYOFF.", "MELD.")), exc.clause
        else:
            assert why is None
        assert snapshot == (state.hands, state.stock, state.pile, state.phase, state.to_move,
                            state.table, state.dead, state.history)

    @precondition(lambda self: self.game is not None)
    @rule(card=st.integers(0, 51), kind=st.sampled_from([Kind.DISCARD, Kind.KNOCK]))
    def probe_card(self, card: int, kind: Kind) -> None:
        self._probe(Action(kind, card=card))

    @precondition(lambda self: self.game is not None)
    @rule(kind=st.sampled_from([Kind.DRAW_STOCK, Kind.TAKE_DISCARD, Kind.DONE]))
    def probe_bare(self, kind: Kind) -> None:
        self._probe(Action(kind))

    @precondition(lambda self: self.game is not None)
    @rule(card=st.integers(0, 51), anchor=st.integers(0, 51))
    def probe_layoff(self, card: int, anchor: int) -> None:
        self._probe(Action(Kind.LAYOFF, card=card, target=anchor))

    @precondition(lambda self: self.game is not None)
    @rule(cards=st.lists(st.integers(0, 51), min_size=3, max_size=4, unique=True),
          verb=st.sampled_from([Kind.DECLARE, Kind.MELD]))
    def probe_melds(self, cards: list[int], verb: Kind) -> None:
        self._probe(Action(verb, melds=(tuple(sorted(cards)),)))

    @precondition(lambda self: self.game is not None and not self.g.hand.is_over())
    @rule(i=st.integers(0, 10**6), shift=st.integers(1, 3))
    def probe_wrong_player(self, i: int, shift: int) -> None:
        state = self.g.hand
        legal = state.legal_actions()
        other = (state.to_move + shift) % state.players  # type: ignore[operator]
        if other == state.to_move:
            return
        try:
            state.apply(legal[i % len(legal)], other)
        except Rejection as exc:
            assert exc.code.value == "NOT_YOUR_TURN" and exc.clause == "TABLE.TURN-ORDER"
        else:
            raise AssertionError("an action by the wrong player was accepted")

    # --- invariants -------------------------------------------------------------------------

    @invariant()
    def cards_conserved(self) -> None:
        if self.game is None:
            return
        seen = 0
        for mask in self.g.hand.zones().values():
            assert not seen & mask, "a card is in two places"
            seen |= mask
        assert seen == FULL_DECK

    @invariant()
    def hand_sizes_fit_phase(self) -> None:
        if self.game is None:
            return
        s: TableState = self.g.hand
        size = s.rules.hand_size
        sizes = [h.bit_count() for h in s.hands]
        if s.phase is TablePhase.DRAW:
            assert sizes == [size] * s.players
        elif s.phase is TablePhase.DISCARD:
            assert sizes == [size + (p == s.to_move) for p in range(s.players)]
        elif s.knocker is not None:
            laid = [0] * s.players
            assert sizes[s.knocker] == size
            for p in range(s.players):
                assert sizes[p] <= size
                laid[p] = size - sizes[p]
            total_laid = sum(len(m.added) for m in s.table)
            assert sum(laid) == total_laid
        elif s.phase is TablePhase.OVER:  # void
            assert sizes == [size] * s.players

    @invariant()
    def totals_add_up_and_never_decrease(self) -> None:
        if self.game is None:
            return
        assert list(self.g.totals) == self.hand_sum
        for a, b in zip(self.history_totals, self.history_totals[1:], strict=False):
            assert all(x <= y for x, y in zip(a, b, strict=True))

    @invariant()
    def observations_hide_other_hands(self) -> None:
        if self.game is None:
            return
        s = self.g.hand
        for seat in range(s.players):
            obs: dict[str, Any] = s.observe(seat)
            assert len(obs["hand"]) == s.hands[seat].bit_count()
            assert obs["hand_sizes"] == [h.bit_count() for h in s.hands]
            if s.knock_card is not None and seat != s.knocker:
                assert all(h["action"] == "knock" for h in obs["history"]
                           if h["action"].startswith("knock"))
                assert obs["knock_card"] is None
            text = repr(obs)
            for other in range(s.players):
                if other == seat or s.knocker is not None:
                    continue
                for c in s.hand(other):
                    token = f"'{card_str(c)}'"
                    if token in text:  # only if public: in the pile or named by a public action
                        assert token[1:-1] in obs["pile"] or any(
                            token[1:-1] in h["action"] for h in obs["history"])

    @invariant()
    def prize_adds_up(self) -> None:
        if self.game is None or not self.g.is_over():
            return
        for pool in (0, 1, 999, 10000):
            split = self.g.prize(pool)
            assert sum(split.shares) == pool
            assert split.shares[split.winner] >= pool * self.g.rules.prize_winner_share // 100
            assert all(x >= 0 for x in split.shares)


TableMachine.TestCase.settings = settings(settings.default, stateful_step_count=80,
                                          max_examples=max(10, settings.default.max_examples // 3))
TestTableMachine = TableMachine.TestCase


def test_reshuffle_then_void_keeps_every_card() -> None:
    """TABLE.WALL: run the stock down by drawing and discarding; the first wall reshuffles the
    pile beneath the two stock cards, the second voids the hand."""
    rules = table_rules_for_profile("serbian-online", players=4)
    s = TableState.new(TableDeal.from_seed(11, 4, 3), rules)
    walls = 0
    while not s.is_over():
        before = len(s.stock)
        s = s.apply("draw-stock")
        drawn = [c for c in s.hand(s.to_move or 0)]  # the mover's 8 cards
        s = s.apply(Action(Kind.DISCARD, card=drawn[-1]) if s.is_legal(
            Action(Kind.DISCARD, card=drawn[-1])) else Action(Kind.DISCARD, card=drawn[0]))
        if before - 1 == rules.wall_size and not s.is_over():
            walls += 1
            assert len(s.pile) == 1 and len(s.stock) > rules.wall_size
    assert walls == 1
    assert s.result is not None and s.result.kind == "void"
    assert s.reshuffles == 1


def test_wall_void_without_reshuffle_and_no_last_chance() -> None:
    """TABLE.WALL: with wall_action=void the first wall ends the hand; the two-player last
    chance is refused as a ruleset for the table."""
    import pytest
    from ginspec.spec.errors import ParameterError

    rules = table_rules_for_profile("serbian-online", {"wall_action": "void"}, players=3)
    s = TableState.new(TableDeal.from_seed(4, 3, 2), rules)
    while not s.is_over():
        s = s.apply("draw-stock")
        p = s.to_move
        assert p is not None
        s = s.apply(Action(Kind.DISCARD, card=s.hand(p)[0]))
    assert s.reshuffles == 0 and len(s.stock) == rules.wall_size
    assert s.result is not None and s.result.kind == "void"
    with pytest.raises(ParameterError, match="wall_action"):
        table_rules_for_profile("serbian-online", {"wall_action": "take_and_knock_other_discard"},
                                players=3)
