"""Built-in players for ``ginspec play`` and the tests: a greedy one and a random one.

A strategy sees the state but uses only what its player may see (its own hand, the discard
pile, the table and the legal actions); ``choose`` returns one legal action.
"""

from __future__ import annotations

import random
from typing import Literal, Protocol

from ginspec.reference.game import showdown as S
from ginspec.reference.game.actions import Action, Kind
from ginspec.reference.game.state import HandState, Phase
from ginspec.reference.melds import make_meld, min_deadwood
from ginspec.spec.cards import Card, CardMask, card_value, cards_of, mask_of
from ginspec.spec.clauses import implements
from ginspec.spec.errors import GinspecError


class Strategy(Protocol):
    name: str

    def choose(self, state: HandState, rng: random.Random) -> Action: ...


class RandomStrategy:
    """Uniformly random among the legal actions."""

    name = "random"

    def choose(self, state: HandState, rng: random.Random) -> Action:
        return rng.choice(list(state.legal_actions()))


def _deadwood(mask: CardMask, state: HandState) -> int:
    return min_deadwood(mask, state.rules.meld_rules)


def _best_after_taking(state: HandState, hand: CardMask, top: Card) -> int:
    """Least deadwood after taking ``top`` and discarding another card."""
    grown = hand | 1 << top
    return min(_deadwood(grown ^ (1 << c), state) for c in cards_of(grown) if c != top)


def _layoff_result(state: HandState, table: S.Table, dead: CardMask) -> int:
    """Defender's deadwood after laying off greedily (repeat until nothing fits)."""
    rules = state.showdown_rules()
    while True:
        options = S.legal_layoffs(table, dead, rules, "defender", state.gin)
        if not options:
            break
        lay = options[0]
        table = S.apply_layoff(table, lay, rules, "defender", state.gin, hand=dead)
        dead &= ~(1 << lay.card)
    ace = state.rules.meld_rules.ace_value
    return sum(card_value(c, ace) for c in cards_of(dead))


class GreedyStrategy:
    """Minimises its own deadwood: takes the upcard/discard only when that lowers its deadwood,
    knocks as soon as it may (gin and big gin first), declares the least deadwood (then the
    declaration leaving the fewest cards that could be laid off on it), and as defender picks
    the melds and layoffs leaving the least deadwood."""

    name = "greedy"

    def choose(self, state: HandState, rng: random.Random) -> Action:
        legal = list(state.legal_actions())
        p = state.to_move
        assert p is not None
        phase = state.phase
        kinds = {a.kind for a in legal}
        if phase in (Phase.OFFER_NON_DEALER, Phase.OFFER_DEALER, Phase.DRAW):
            take = Kind.TAKE_UPCARD if Kind.TAKE_UPCARD in kinds else Kind.TAKE_DISCARD
            if take in kinds and state.pile:
                hand = state.hands[p]
                if _best_after_taking(state, hand, state.pile[-1]) < _deadwood(hand, state):
                    return next(a for a in legal if a.kind is take)
            return next(a for a in legal if a.kind in (Kind.PASS, Kind.DRAW_STOCK))
        if phase is Phase.WALL:
            # Take the last discard only when a knock can follow (under take_and_play_on the
            # take is offered anyway; playing on without knocking just reaches the wall again).
            if Kind.TAKE_DISCARD in kinds and state._wall_take_ok():
                return next(a for a in legal if a.kind is Kind.TAKE_DISCARD)
            return next(a for a in legal if a.kind is Kind.PASS)
        if phase in (Phase.DISCARD, Phase.WALL_KNOCK):
            if Kind.BIG_GIN in kinds:
                return next(a for a in legal if a.kind is Kind.BIG_GIN)
            hand = state.hands[p]

            def key(a: Action) -> tuple[int, int, int]:
                assert a.card is not None
                return (_deadwood(hand ^ (1 << a.card), state), -card_value(a.card), a.card)

            knocks = [a for a in legal if a.kind is Kind.KNOCK]
            if knocks:
                return min(knocks, key=key)
            return min(legal, key=key)
        if phase is Phase.DECLARE:
            return min(legal, key=lambda a: self._declaration_key(state, a))
        if phase is Phase.DEFENDER_MELD:
            return min(legal, key=lambda a: self._spread_key(state, a))
        if phase in (Phase.DEFENDER_LAYOFF, Phase.KNOCKER_LAYOFF):
            layoffs = [a for a in legal if a.kind is Kind.LAYOFF]
            if layoffs:
                return max(layoffs, key=lambda a: (card_value(a.card or 0), -(a.card or 0)))
            return legal[-1]
        return rng.choice(legal)

    def _declaration_key(self, state: HandState, action: Action) -> tuple[int, int, str]:
        p = state.to_move
        assert p is not None
        used = 0
        for m in action.melds:
            for c in m:
                used |= 1 << c
        ace = state.rules.meld_rules.ace_value
        dead = sum(card_value(c, ace) for c in cards_of(state.hands[p] & ~used))
        table = S.table_of([make_meld(list(m), state.rules.meld_rules) for m in action.melds])
        unseen = ~(state.hands[p] | mask_of(state.pile)) & ((1 << 52) - 1)
        open_spots = len(S.legal_layoffs(table, unseen, state.showdown_rules(), "defender"))
        return (dead, open_spots, str(action))

    def _spread_key(self, state: HandState, action: Action) -> tuple[int, str]:
        p = state.to_move
        assert p is not None
        used = 0
        melds = []
        for m in action.melds:
            melds.append(make_meld(list(m), state.rules.meld_rules))
            for c in m:
                used |= 1 << c
        dead = state.hands[p] & ~used
        try:
            return (_layoff_result(state, state.table, dead), str(action))
        except GinspecError:
            return (1 << 20, str(action))


STRATEGIES: dict[str, type[RandomStrategy] | type[GreedyStrategy]] = {
    "greedy": GreedyStrategy,
    "random": RandomStrategy,
}


def strategy(name: str) -> RandomStrategy | GreedyStrategy:
    """A built-in strategy by name; unknown names raise GinspecError."""
    try:
        return STRATEGIES[name]()
    except KeyError:
        known = ", ".join(STRATEGIES)
        raise GinspecError(f"unknown strategy {name!r}; choose from {known}") from None


@implements("LAYOFF.TARGET", "LAYOFF.KNOCKER")
def best_layoff_steps(state: HandState) -> list[tuple[int, str]]:
    """The layoffs best play makes once the defender's spread is down (``spread.explicit`` with
    ``layoff.automatic``), as ``(player, action)``: the defender's layoffs leaving him the least
    deadwood, then, where the rules give the knocker layoffs, the knocker's (LAYOFF.KNOCKER).
    Each side's layoffs go onto the other's melds, so each minimises its own deadwood alone;
    ties as :func:`~ginspec.reference.layoffs.best_layoffs` breaks them."""
    steps: list[tuple[int, str]] = []
    while state.phase in (Phase.DEFENDER_LAYOFF, Phase.KNOCKER_LAYOFF):
        assert state.knocker is not None
        side: Literal["defender", "knocker"] = \
            "defender" if state.phase is Phase.DEFENDER_LAYOFF else "knocker"
        who = 1 - state.knocker if side == "defender" else state.knocker
        layoffs, _, _ = S.best_layoffs(state.table, state.dead[who], state.showdown_rules(),
                                       side, state.gin)
        for layoff in (*layoffs, "done"):
            steps.append((who, str(layoff)))
            state = state.apply(steps[-1][1], who)
            if state.phase not in (Phase.DEFENDER_LAYOFF, Phase.KNOCKER_LAYOFF):
                break
    return steps
