"""Hypothesis stateful tests of the game engine, one machine per ruleset.

Each machine deals from a drawn seed, then mixes legal actions (chosen by index, or by the greedy
strategy so that showdowns are reached) with illegal probes. After every step: all 52 cards are
in exactly one zone, hand sizes fit the phase, the turn order and the discard-pile top follow the
action just played, cumulative scores never decrease; every illegal probe is refused with a code
of the closed list and a clause ID, and leaves the state exactly as it was.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from ginspec.reference.game import (
    CHANCE,
    Action,
    Code,
    HandState,
    Kind,
    Phase,
    Rejection,
    game_rules,
)
from ginspec.reference.game.match import MatchState
from ginspec.reference.game.observation import observe
from ginspec.reference.game.rejections import CLAUSE_OF
from ginspec.reference.game.strategies import GreedyStrategy
from ginspec.spec.cards import card_str
from ginspec.spec.parameters import Value
from ginspec.spec.profiles import profiles, ruleset
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

EXTRA_RULESETS: dict[str, tuple[str, Mapping[str, Value]]] = {
    # (profile, overrides): corners no single profile reaches
    "wall-any-discard": ("pagat", {"wall_action": "take_and_knock_any_discard",
                                   "discard_taken_card": "only_at_wall",
                                   "undercut_on_tie": "no_score"}),
    "wall-other-discard": ("pagat", {"wall_action": "take_and_knock_other_discard",
                                     "wall_size": 4, "knocker_may_lay_off": True}),
    "reshuffle-gin-layoffs": ("serbian-online", {"layoff_after_gin": "allowed_zero_cancels",
                                                 "game_system": "single"}),
    "big-gin-compulsory": ("wikipedia", {"big_gin_bonus": 31, "gin_compulsory": True,
                                         "knocker_must_meld_maximally": True}),
    "eleven-card-any": ("rlcard", {"first_turn": "eleven_card_start",
                                   "discard_taken_card": "always"}),
    "oklahoma-gin-only": ("oklahoma", {"oklahoma_ace": "gin_only",
                                       "spade_double": "hand_and_boxes",
                                       "layoff_chain": "original_melds_only"}),
}

RULESETS: dict[str, Any] = {
    name: ruleset(name) for name in profiles() if ruleset(name)["game_system"] == "single"
} | {
    name: ruleset(base, overrides) for name, (base, overrides) in EXTRA_RULESETS.items()
}
"""One machine per profile of the two-player match (the systems of chapter 14 have their own
engines), plus the extra combinations above."""

_GREEDY = GreedyStrategy()
_GARBAGE = ["", "discard", "discard ZZ", "knock 1S", "layoff 9S", "layoff 9S onto 8S",
            "declare 7H 7H 7S", "fly", "meld / 7H 8H 9H", "draw-stock now", "reshuffle 9S 9S"]


def _fingerprint(s: HandState) -> tuple[Any, ...]:
    return (s.hands, s.stock, s.pile, s.phase, s.to_move, s.taken, s.wall_draw, s.knocker,
            s.knock_card, s.table, s.dead, s.declaration, s.result, s.history)


def _sizes(s: HandState) -> tuple[int, int]:
    return (s.hands[0].bit_count(), s.hands[1].bit_count())


class GameMachine(RuleBasedStateMachine):
    params: Mapping[str, Value] = {}
    name = "custom"

    def __init__(self) -> None:
        super().__init__()
        self.rules = game_rules(self.params, self.name)
        self.match: MatchState
        self.scores = (0, 0)

    @property
    def state(self) -> HandState:
        return self.match.hand

    @initialize(seed=st.integers(0, 2**32 - 1))
    def deal(self, seed: int) -> None:
        self.match = MatchState.new(self.rules, seed)

    # --- legal play ----------------------------------------------------------------------

    def _play(self, action: Action) -> None:
        before = self.state
        assert action in before.legal_actions(), before.rejection(action)
        mover = before.to_move
        match = self.match.apply(action, player=mover)
        after = match.hand
        assert _fingerprint(before) == _fingerprint(self.state)  # apply is pure
        self._check_transition(before, action, after)
        event(f"phase {before.phase.value}")
        if after.result is not None:
            event(f"outcome {after.result.outcome.value}")
            if match.is_over:
                event("match over")
        self.match = match

    def _check_transition(self, b: HandState, a: Action, s: HandState) -> None:
        p = b.to_move
        assert p is not None
        assert s.history == (*b.history, (p, a))
        if a.kind is Kind.DISCARD:
            assert s.pile[-1] == a.card and len(s.pile) == len(b.pile) + 1
            if s.phase is Phase.DRAW:
                assert s.to_move == 1 - p
        elif a.kind in (Kind.TAKE_UPCARD, Kind.TAKE_DISCARD):
            assert s.pile == b.pile[:-1] and s.to_move == p and s.taken == b.pile[-1]
            assert s.hands[p] == b.hands[p] | 1 << b.pile[-1]
        elif a.kind is Kind.DRAW_STOCK:
            assert s.stock == b.stock[1:] and s.hands[p] == b.hands[p] | 1 << b.stock[0]
            assert s.to_move == p and s.pile == b.pile
        elif a.kind is Kind.KNOCK:
            face_up = s.rules.knock_card_face_up  # KNOCK.PROCEDURE
            assert s.knocker == p and s.knock_card == a.card
            assert s.pile == ((*b.pile, a.card) if face_up else b.pile)
            assert s.phase is Phase.DECLARE
        elif a.kind is Kind.PASS and b.phase is Phase.OFFER_NON_DEALER:
            assert s.to_move == b.deal.dealer
        elif a.kind is Kind.PASS and b.phase is Phase.OFFER_DEALER:
            assert s.phase is Phase.FIRST_DRAW and s.to_move == b.deal.non_dealer
        if s.is_over:
            assert s.result is not None

    @precondition(lambda self: not self.state.is_over)
    @rule(i=st.integers(0, 10**6))
    def legal_step(self, i: int) -> None:
        if self.state.to_move == CHANCE:
            self._play(self.state.chance_action())
            return
        legal = list(self.state.legal_actions())
        assert legal, "a live state always offers an action"
        assert len(set(legal)) == len(legal)
        self._play(legal[i % len(legal)])

    @precondition(lambda self: not self.state.is_over)
    @rule(seed=st.integers(0, 1000))
    def greedy_step(self, seed: int) -> None:
        s = self.state
        action = s.chance_action() if s.to_move == CHANCE else _GREEDY.choose(
            s, random.Random(seed))
        self._play(action)

    @precondition(lambda self: self.state.phase is Phase.DRAW
                  and len(self.state.stock) > self.state.rules.wall_size + 2)
    @rule(i=st.integers(0, 10**6))
    def run_down_stock(self, i: int) -> None:
        """A macro of legal steps: draw from the stock and discard (no knock) until the stock
        is two draws from the wall, so that wall positions are reached within the step budget."""
        while self.state.phase is Phase.DRAW and \
                len(self.state.stock) > self.state.rules.wall_size + 2:
            self._play(Action(Kind.DRAW_STOCK))
            discards = [a for a in self.state.legal_actions() if a.kind is Kind.DISCARD]
            if not discards:  # compulsory gin: take it
                return
            self._play(discards[i % len(discards)])

    # --- illegal probes --------------------------------------------------------------------

    def _probe(self, action: Action | str, player: int | None = None) -> None:
        s = self.state
        before = _fingerprint(s)
        legal = s.is_legal(action, player)
        if legal:
            return
        with pytest.raises(Rejection) as info:
            s.apply(action, player)
        exc = info.value
        assert isinstance(exc.code, Code)
        assert exc.clause and (exc.clause == CLAUSE_OF[exc.code] or "." in exc.clause)
        assert _fingerprint(s) == before
        if not isinstance(action, str) and player is None:
            assert action not in list(s.legal_actions())

    @rule(card=st.integers(0, 51), kind=st.sampled_from([Kind.DISCARD, Kind.KNOCK]))
    def probe_card_action(self, card: int, kind: Kind) -> None:
        self._probe(Action(kind, card=card))

    @rule(kind=st.sampled_from([Kind.TAKE_UPCARD, Kind.PASS, Kind.DRAW_STOCK, Kind.TAKE_DISCARD,
                                Kind.BIG_GIN, Kind.DONE]))
    def probe_bare(self, kind: Kind) -> None:
        self._probe(Action(kind))

    @rule(card=st.integers(0, 51), anchor=st.integers(0, 51))
    def probe_layoff(self, card: int, anchor: int) -> None:
        self._probe(Action(Kind.LAYOFF, card=card, target=anchor))

    @rule(cards=st.lists(st.integers(0, 51), min_size=3, max_size=9, unique=True),
          verb=st.sampled_from([Kind.DECLARE, Kind.MELD]))
    def probe_melds(self, cards: list[int], verb: Kind) -> None:
        melds = [cards[i:i + 3] for i in range(0, len(cards) - 2, 3)]
        self._probe(Action(verb, melds=tuple(tuple(sorted(m)) for m in melds)))

    @rule(text=st.sampled_from(_GARBAGE))
    def probe_garbage(self, text: str) -> None:
        s = self.state
        before = _fingerprint(s)
        with pytest.raises(Rejection) as info:
            s.apply(text)
        assert info.value.code in (Code.MALFORMED_ACTION, Code.HAND_OVER, Code.WRONG_PHASE) or \
            info.value.code.name.startswith(("DECLARATION", "DEFENDER", "LAYOFF", "RESHUFFLE"))
        assert _fingerprint(s) == before

    @precondition(lambda self: self.state.to_move in (0, 1))
    @rule(i=st.integers(0, 10**6))
    def probe_wrong_player(self, i: int) -> None:
        s = self.state
        legal = list(s.legal_actions())
        action = legal[i % len(legal)]
        assert s.to_move is not None
        other = 1 - s.to_move
        rej = s.rejection(action, player=other)
        assert rej is not None and rej.code is Code.NOT_YOUR_TURN
        self._probe(action, other)

    # --- next hand -----------------------------------------------------------------------------

    @precondition(lambda self: self.state.is_over)
    @rule(seed=st.integers(0, 2**32 - 1))
    def next_hand(self, seed: int) -> None:
        result = self.state.result
        assert result is not None
        assert all(x >= 0 for x in result.points)
        assert not list(self.state.legal_actions())
        if self.match.is_over:
            final = self.match.final
            assert final is not None and final.winner in (0, 1)
            assert final.totals[final.winner] >= self.match.scores[final.winner]
            self.match = MatchState.new(self.rules, seed)
            self.scores = (0, 0)
            return
        # MATCH.NEXT-DEALER / WALL.REDEAL, re-derived from the parameters.
        dealer = self.state.dealer
        if result.winner is None:
            expected = dealer if self.params["redeal_dealer"] == "same" else 1 - dealer
        else:
            expected = {"loser": 1 - result.winner, "winner": result.winner,
                        "alternate": 1 - dealer}[str(self.params["next_dealer"])]
        self.match = self.match.next_hand()
        assert self.state.dealer == expected

    @precondition(lambda self: self.state.to_move in (0, 1))
    @rule()
    def observations_hide_hidden_cards(self) -> None:
        s = self.state
        for player in (0, 1):
            obs = observe(s, player)
            other = 1 - player
            assert list(obs.hand) == s.hand(player)
            assert obs.opponent_hand_size == s.hands[other].bit_count()
            assert all(s.hands[other] >> c & 1 for c in obs.opponent_known)
            assert obs.stock_size == len(s.stock) and "stock" not in obs.to_json()
            assert len(obs.history) == len(s.history)
            if s.knock_card is not None:
                assert (obs.knock_card is not None) is (
                    player == s.knocker or s.rules.knock_card_face_up)
            for step, (mover, action) in zip(obs.history, s.history, strict=True):
                if action.kind is Kind.DRAW_STOCK and mover != player:
                    assert step.card is None
            assert bool(obs.legal_actions) is (s.to_move == player)

    # --- invariants ----------------------------------------------------------------------------

    @invariant()
    def cards_accounted_for(self) -> None:
        self.state.check_accounting()
        zones = self.state.zones()
        assert sum(m.bit_count() for m in zones.values()) == 52

    @invariant()
    def hand_sizes_fit_phase(self) -> None:
        s = self.state
        sizes = _sizes(s)
        phase = s.phase
        if phase is Phase.OVER and s.history[-1][1].kind is Kind.DRAW_STOCK:
            assert sorted(sizes) == [10, 11]  # WALL.LAST-DRAW: void at once after the draw
        elif phase in (Phase.DISCARD, Phase.WALL_KNOCK):
            assert s.to_move is not None
            assert sizes[s.to_move] == 11 and sizes[1 - s.to_move] == 10
        elif s.knocker is not None:
            assert sizes[s.knocker] == (11 if s.big_gin else 10)
            assert sizes[1 - s.knocker] == 10
        else:
            assert sizes == (10, 10)
        if s.rules.eleven_card_start:
            face_down = s.knock_card is not None and not s.rules.knock_card_face_up
            assert len(s.stock) + len(s.pile) + sum(sizes) + face_down == 52

    @invariant()
    def pile_top_visible(self) -> None:
        s = self.state
        if s.history:
            _, last = s.history[-1]
            if last.kind is Kind.DISCARD:
                assert s.pile[-1] == last.card
        if s.phase in (Phase.DRAW, Phase.FIRST_DRAW, Phase.OFFER_DEALER, Phase.OFFER_NON_DEALER):
            assert s.pile, "a draw needs a discard pile"
            assert s.taken is None

    @invariant()
    def legal_list_matches_predicate(self) -> None:
        s = self.state
        for action in s.legal_actions():
            assert s.is_legal(action), (card_str(action.card) if action.card is not None else
                                        str(action), s.rejection(action))

    @invariant()
    def scores_never_decrease(self) -> None:
        now = self.match.scores
        assert now[0] >= self.scores[0] and now[1] >= self.scores[1]
        self.scores = now


def _machine(name: str, params: Mapping[str, Value]) -> type[GameMachine]:
    cls = type(f"GameMachine_{name.replace('-', '_')}", (GameMachine,),
               {"params": params, "name": name})
    cls.TestCase.settings = settings(settings.default, stateful_step_count=60,
                                     max_examples=max(10, settings.default.max_examples // 3))
    return cls


for _name, _params in RULESETS.items():
    globals()[f"TestGame_{_name.replace('-', '_')}"] = _machine(_name, _params).TestCase
