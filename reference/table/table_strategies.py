"""Built-in players for the table game: ``random`` (any legal action) and ``greedy`` (keeps
its deadwood low, knocks as soon as it may, spreads and lays off to keep the least deadwood)."""

from __future__ import annotations

import random
from typing import Protocol

from ginspec.reference import layoffs as S
from ginspec.reference.game.actions import Action, Kind
from ginspec.reference.melds import min_deadwood
from ginspec.reference.table.table_state import TablePhase, TableState
from ginspec.spec.cards import CardMask, card_value, cards_of
from ginspec.spec.errors import GinspecError


class TableStrategy(Protocol):
    name: str

    def choose(self, state: TableState, rng: random.Random) -> Action: ...


class RandomTableStrategy:
    name = "random"

    def choose(self, state: TableState, rng: random.Random) -> Action:
        return rng.choice(state.legal_actions())


def _dw(state: TableState, mask: CardMask) -> int:
    return min_deadwood(mask, state.rules.meld_rules)


def _after_layoffs(state: TableState, dead: CardMask) -> int:
    table, rules, gin = state.table, state.rules.showdown, state.knocker_deadwood == 0
    while True:
        options = S.legal_layoffs(table, dead, rules, "defender", gin)
        if not options:
            break
        table = S.apply_layoff(table, options[0], rules, "defender", gin, hand=dead)
        dead &= ~(1 << options[0].card)
    return sum(card_value(c, state.rules.meld_rules.ace_value) for c in cards_of(dead))


class GreedyTableStrategy:
    name = "greedy"

    def choose(self, state: TableState, rng: random.Random) -> Action:
        legal = state.legal_actions()
        p = state.to_move
        assert p is not None
        hand = state.hands[p]
        if state.phase is TablePhase.DRAW:
            top = state.pile[-1]
            grown = hand | 1 << top
            best = min(_dw(state, grown ^ (1 << c)) for c in cards_of(grown) if c != top)
            want = Kind.TAKE_DISCARD if best < _dw(state, hand) else Kind.DRAW_STOCK
            return next(a for a in legal if a.kind is want)
        if state.phase is TablePhase.DISCARD:
            def key(a: Action) -> tuple[int, int, int]:
                assert a.card is not None
                return (_dw(state, hand ^ (1 << a.card)), -card_value(a.card), a.card)
            knocks = [a for a in legal if a.kind is Kind.KNOCK]
            return min(knocks or legal, key=key)
        if state.phase in (TablePhase.DECLARE, TablePhase.MELD):
            def spread_key(a: Action) -> tuple[int, str]:
                used = 0
                for m in a.melds:
                    for c in m:
                        used |= 1 << c
                if state.phase is TablePhase.DECLARE:
                    ace = state.rules.meld_rules.ace_value
                    return (sum(card_value(c, ace) for c in cards_of(hand & ~used)), str(a))
                try:
                    return (_after_layoffs(state, hand & ~used), str(a))
                except GinspecError:
                    return (1 << 20, str(a))
            return min(legal, key=spread_key)
        layoffs = [a for a in legal if a.kind is Kind.LAYOFF]
        if layoffs:
            return max(layoffs, key=lambda a: (card_value(a.card or 0), -(a.card or 0)))
        return legal[-1]


TABLE_STRATEGIES: dict[str, type[RandomTableStrategy] | type[GreedyTableStrategy]] = {
    "greedy": GreedyTableStrategy, "random": RandomTableStrategy,
}


def table_strategy(name: str) -> RandomTableStrategy | GreedyTableStrategy:
    """A built-in table strategy by name; unknown names raise GinspecError."""
    try:
        return TABLE_STRATEGIES[name]()
    except KeyError:
        raise GinspecError(f"unknown strategy {name!r}; choose from greedy, random") from None


