"""Seeded playouts of the reference engine, and the probes that find rejected actions.

A playout is a list of :class:`Move` (player, canonical action text, the state before). The
players follow the engine's greedy strategy, with a seeded share of random moves so that walls,
undercuts and layoffs happen too. The chance player (``"chance"``) makes the wall reshuffle.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from ginspec.reference.game import HandState, Rejection, format_action
from ginspec.reference.game.state import CHANCE, Phase
from ginspec.reference.game.strategies import GreedyStrategy, RandomStrategy
from ginspec.spec.cards import card_str, cards_of

CHANCE_PLAYER: Final = "chance"


@dataclass(frozen=True)
class Move:
    """One accepted move: who, the canonical text, and the state it was played in."""

    player: int | str
    action: str
    before: HandState

    @property
    def clause(self) -> str:
        return action_clause(self.before, self.action)


def action_clause(state: HandState, action: str) -> str:
    """The clause an accepted action follows (for coverage and failure attribution)."""
    verb = action.split()[0]
    phase = state.phase
    if phase in (Phase.OFFER_NON_DEALER,):
        return "FIRST.UPCARD-OFFER"
    if phase is Phase.OFFER_DEALER:
        return "FIRST.DEALER-OFFER"
    if phase is Phase.FIRST_DRAW:
        return "FIRST.BOTH-PASS"
    if phase is Phase.WALL or phase is Phase.WALL_KNOCK:
        return "WALL.LAST-CHANCE"
    if phase is Phase.RESHUFFLE:
        return "WALL.RESHUFFLE"
    if phase is Phase.DECLARE:
        return "SHOWDOWN.DECLARATION"
    if phase is Phase.DEFENDER_MELD:
        return "SHOWDOWN.DEFENDER-SPREAD"
    if phase is Phase.KNOCKER_LAYOFF:
        return "LAYOFF.KNOCKER"
    if phase is Phase.DEFENDER_LAYOFF:
        return "LAYOFF.TARGET"
    return {"draw-stock": "TURN.DRAW", "take-discard": "TURN.DRAW", "discard": "TURN.DISCARD",
            "knock": "KNOCK.ELIGIBLE", "big-gin": "KNOCK.BIG-GIN"}.get(verb, "ACTION.PHASE")


def actor(state: HandState) -> int | str:
    return CHANCE_PLAYER if state.to_move == CHANCE else int(state.to_move or 0)


def engine_player(player: int | str) -> int:
    return CHANCE if player == CHANCE_PLAYER else int(player)


def play(state: HandState, rng: random.Random, randomness: float = 0.15,
         max_moves: int = 400) -> list[Move]:
    """Play ``state`` to the end; returns the moves."""
    greedy, wild = GreedyStrategy(), RandomStrategy()
    moves: list[Move] = []
    while not state.is_over and len(moves) < max_moves:
        if state.to_move == CHANCE:
            act = state.chance_action()
        else:
            strategy = wild if rng.random() < randomness else greedy
            act = strategy.choose(state, rng)
        text = format_action(act, state.rules.meld_rules)
        moves.append(Move(actor(state), text, state))
        state = state.apply(act, state.to_move)
    return moves


def probes(state: HandState) -> Iterator[tuple[int | str, str]]:
    """Candidate actions to try in ``state``: most are illegal, each in its own way."""
    if state.is_over:
        yield 0, "draw-stock"
        return
    p = state.to_move
    players: list[int | str] = [actor(state)]
    if p in (0, 1):
        players.append(1 - int(p))
    bare = ("take-upcard", "pass", "draw-stock", "take-discard", "big-gin", "done")
    for who in players:
        for verb in bare:
            yield who, verb
        yield who, "shuffle-and-cut"
        if who == CHANCE_PLAYER:
            continue
        hand = cards_of(state.hands[int(who)])
        other = cards_of(state.hands[1 - int(who)])
        for c in hand:
            yield who, f"discard {card_str(c)}"
            yield who, f"knock {card_str(c)}"
        if other:
            yield who, f"discard {card_str(other[0])}"
        if state.phase in (Phase.DECLARE, Phase.DEFENDER_MELD):
            verb = "declare" if state.phase is Phase.DECLARE else "meld"
            yield who, verb
            if len(hand) >= 3:
                yield who, f"{verb} {' '.join(card_str(c) for c in hand[:3])}"
            if other:
                yield who, f"{verb} {card_str(other[0])} {' '.join(card_str(c) for c in hand[:2])}"
            for legal in list(state.legal_actions())[:2]:
                text = format_action(legal, state.rules.meld_rules)
                melds = text.split(" ", 1)[1].split(" / ") if " " in text else []
                if melds:
                    yield who, f"{verb} {melds[0]} / {melds[0]}"
        if state.phase in (Phase.DEFENDER_LAYOFF, Phase.KNOCKER_LAYOFF):
            anchors = [c for t in state.table for c in (*t.original.cards, *t.added)]
            for c in hand[:6]:
                for a in anchors[:8]:
                    yield who, f"layoff {card_str(c)} to {card_str(a)}"
            if other and anchors:
                yield who, f"layoff {card_str(other[0])} to {card_str(anchors[0])}"
            if hand:
                yield who, f"layoff {card_str(hand[0])} to {card_str(hand[-1])}"
    if state.phase is Phase.RESHUFFLE:
        yield CHANCE_PLAYER, "reshuffle AC 2C 3C"


def rejection_of(state: HandState, player: int | str, action: str) -> Rejection | None:
    try:
        return state.rejection(action, engine_player(player))
    except Rejection as r:
        return r

